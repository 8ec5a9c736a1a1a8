// Google Benchmark programs for planlint's hot paths (never timed unit tests): parsing
// quantities and expressions, loading a plan, estimating, running the rules, the whole lint of
// one plan, the emitters, and the per-process start-up work (compiling the built-in rules,
// loading the built-in catalog). scripts/bench runs them (docs/performance.md).
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <toml++/toml.h>

#include "planlint/catalog/catalog.hpp"
#include "planlint/embed/builtin.hpp"
#include "planlint/embed/embedded_files.hpp"
#include "planlint/emit/json.hpp"
#include "planlint/emit/sarif.hpp"
#include "planlint/emit/text.hpp"
#include "planlint/estimate/estimates.hpp"
#include "planlint/expr/syntax.hpp"
#include "planlint/lint/lint.hpp"
#include "planlint/plan/loader.hpp"
#include "planlint/rules/run.hpp"
#include "planlint/source/source_file.hpp"

using namespace planlint;

namespace {

std::shared_ptr<const SourceFile> example(const char* name) {
  const std::string path = std::string(PLANLINT_SOURCE_DIR) + "/examples/" + name;
  auto text = read_file(path);
  if (!text) throw std::runtime_error(path + ": " + text.error().message);
  return std::make_shared<const SourceFile>(path, *std::move(text));
}

/// The example 70B pretraining plan: every section, 13 claims, targets, assumptions.
const std::shared_ptr<const SourceFile>& plan_file() {
  static const auto file = example("llama-70b-pretrain.toml");
  return file;
}

void quantity_parse(benchmark::State& state) {
  const std::vector<std::string> texts = {"80 GB",   "400 Gbps",     "$3/GPU/h",     "7B",
                                          "40%",     "1979 TFLOPS",  "6.3e24 FLOP",  "90.0 d",
                                          "4.42M GPU-h", "320 KiB/token", "8192 tokens", "$15.6M"};
  for (auto _ : state)
    for (const std::string& text : texts) benchmark::DoNotOptimize(units::parse_quantity(text));
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(texts.size()));
}
BENCHMARK(quantity_parse);

void expression_parse(benchmark::State& state) {
  const std::string text =
      "training.mfu >= (if cluster.count >= options.very_large_scale then options.very_large_min "
      "else options.large_min) - (if model.architecture == 'moe' or plan.kind == 'finetune' then "
      "options.moe_finetune_discount else 0%) and training.mfu <= (if cluster.count >= "
      "options.very_large_scale then options.very_large_max else options.large_max)";
  for (auto _ : state) benchmark::DoNotOptimize(expr::parse_expression(text));
}
BENCHMARK(expression_parse);

void toml_parse(benchmark::State& state) {
  const std::string& text = plan_file()->text();
  for (auto _ : state) benchmark::DoNotOptimize(toml::parse(text));
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(text.size()));
}
BENCHMARK(toml_parse);

void plan_load(benchmark::State& state) {
  const Catalog& catalog = Catalog::builtin();
  for (auto _ : state) {
    DiagnosticSink findings;
    benchmark::DoNotOptimize(load_plan(plan_file(), catalog, findings));
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(plan_file()->text().size()));
}
BENCHMARK(plan_load);

void estimation(benchmark::State& state) {
  const Catalog& catalog = Catalog::builtin();
  DiagnosticSink findings;
  const Result<Plan> loaded = load_plan(plan_file(), catalog, findings);
  for (auto _ : state) benchmark::DoNotOptimize(estimate(*loaded, catalog));
}
BENCHMARK(estimation);

void rule_evaluation(benchmark::State& state) {
  const Catalog& catalog = Catalog::builtin();
  const RuleSet& rules = RuleSet::builtin();
  DiagnosticSink findings;
  const Result<Plan> loaded = load_plan(plan_file(), catalog, findings);
  const Estimates estimates = estimate(*loaded, catalog);
  const std::map<std::string, double> tolerances;
  const std::map<std::string, units::Quantity> overrides;
  const RuleRun run{RuleInputs{*loaded, estimates, catalog, Date{2026, 12, 1}, tolerances},
                    overrides, [](const RuleDescriptor&) { return true; }};
  for (auto _ : state) benchmark::DoNotOptimize(run_rules(rules, run));
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(rules.rules().size()));
}
BENCHMARK(rule_evaluation);

void lint_one_plan(benchmark::State& state) {
  LintOptions options;
  options.today = Date{2026, 12, 1};
  (void)RuleSet::builtin();
  for (auto _ : state) benchmark::DoNotOptimize(lint_source(plan_file(), options));
}
BENCHMARK(lint_one_plan);

/// The findings of a plan with mistakes, through each emitter.
void emitters(benchmark::State& state) {
  LintOptions options;
  options.today = Date{2026, 12, 1};
  auto source = std::make_shared<const SourceFile>(
      "plan.toml", plan_file()->text() + "\n[extras]\nhmb = 1\n" );
  Report report;
  report.files.push_back(source);
  report.diagnostics = lint_source(source, options).diagnostics;
  const std::vector<RuleDescriptor> rules = RuleSet::builtin().descriptors();
  SarifOptions in_repo;
  in_repo.source_root = in_repo.working_directory = "/repo/";
  for (auto _ : state) {
    std::ostringstream text, json, sarif;
    emit_text(text, report, TextStyle{});
    emit_json(json, report);
    emit_sarif(sarif, report, rules, in_repo);
    benchmark::DoNotOptimize(text.str().size() + json.str().size() + sarif.str().size());
  }
  state.counters["findings"] = static_cast<double>(report.diagnostics.size());
}
BENCHMARK(emitters);

/// What RuleSet::builtin() does once per process: build the rules compiled at build time
/// (planlint_gen's data: no TOML, no expression parsing).
void startup_builtin_rules(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(builtin::rules().size());
}
BENCHMARK(startup_builtin_rules)->Unit(benchmark::kMicrosecond);

/// What Catalog::builtin() does once per process: build the catalog compiled at build time.
void startup_builtin_catalog(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(builtin::gpus().size());
}
BENCHMARK(startup_builtin_catalog)->Unit(benchmark::kMicrosecond);

/// What a rule pack of 40 files costs: parse and compile every embedded rule file from its
/// text (what RuleSet::builtin() did per process before the rules were compiled at build time).
void rule_files_from_text(benchmark::State& state) {
  for (auto _ : state) {
    RuleSet set;
    std::vector<Diagnostic> errors;
    for (const embed::EmbeddedFile& file : embed::files()) {
      if (!file.path.starts_with("rules/") || file.path.starts_with("rules/catalog/")) continue;
      set.load(std::make_shared<const SourceFile>(std::string(file.path), std::string(file.contents)), errors);
    }
    benchmark::DoNotOptimize(set.rules().size());
  }
}
BENCHMARK(rule_files_from_text)->Unit(benchmark::kMillisecond);

/// What a user catalog of the built-in catalog's size costs: parse rules/catalog/gpus.toml.
void catalog_from_text(benchmark::State& state) {
  const SourceFile file(std::string(Catalog::builtin_path), std::string(embed::find(Catalog::builtin_path)));
  for (auto _ : state) {
    Catalog catalog;
    DiagnosticSink errors;
    (void)catalog.load(file, errors);
    benchmark::DoNotOptimize(catalog.gpus().size());
  }
}
BENCHMARK(catalog_from_text)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
