// `planlint solve` of inference plans (docs/solve.md, "Inference plans"): the search against
// brute force over small spaces, dense and MoE; the replicas the peak needs found by counting
// them up.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "planlint/estimate/serving_kernel.hpp"
#include "planlint/fix/edits.hpp"
#include "planlint/lint/lint.hpp"
#include "planlint/solve/serving_solve.hpp"
#include "integration_support.hpp"
#include "test_estimates_support.hpp"

using namespace planlint;
using namespace planlint::test;

namespace {

bool divides(long long d, long long n) { return d >= 1 && n % d == 0; }

/// Every layout as the issue states its limits, by brute force: every whole tp up to 1024 and pp
/// up to the layers; dp_attention and ep divide tp, tp / dp_attention divides the heads and
/// divides or is divided by the KV heads; the replicas the least whose sequences hold the peak,
/// counted up one at a time (the plan's own without a demand).
std::vector<solve::ServeRanked> brute_force(const serving::ServingInputs& in, const solve::ServeSpec& spec,
                                            std::uint64_t& layouts) {
  std::vector<solve::ServeRanked> passing;
  const auto heads = static_cast<long long>(in.heads), kv = static_cast<long long>(in.model_kv_heads);
  const auto ranks = static_cast<long long>(in.ranks), ep = static_cast<long long>(in.ep);
  for (long long tp = 1; tp <= 1024; ++tp)
    for (long long pp = 1; pp <= static_cast<long long>(in.layers); ++pp) {
      if (!divides(ranks, tp) || !divides(ep, tp)) continue;
      const long long t = tp / ranks;
      if (t > 1 && (!divides(t, heads) || !(divides(t, kv) || divides(kv, t)))) continue;
      solve::ServeRanked r;
      r.layout.tp = int(tp);
      r.layout.pp = int(pp);
      r.figures = serving::evaluate_replica(in, r.layout);
      double replicas = in.plan_replicas;
      if (!std::isnan(in.peak_concurrency)) {
        replicas = std::nan("");
        if (r.figures.replica_concurrency >= 1)
          for (double n = 1; n <= 1e6; ++n)
            if (n * r.figures.replica_concurrency >= in.peak_concurrency) {
              replicas = n;
              break;
            }
      }
      r.layout.replicas = replicas;
      serving::evaluate_service(in, r.layout, r.figures);
      ++layouts;
      if (solve::serve_failure_of(in, spec, r.figures)) continue;
      r.rank = solve::serve_rank_of(in, spec, r.layout, r.figures);
      passing.push_back(r);
    }
  std::sort(passing.begin(), passing.end(), solve::serve_ranks_before);
  return passing;
}

struct Loaded {
  LoadResult loaded;
  Estimates estimates;
  serving::ServingInputs inputs;
};

Loaded load(const std::string& toml) {
  Loaded l{load_text(toml), {}, {}};
  REQUIRE(l.loaded.plan);
  l.estimates = estimate(*l.loaded.plan, Catalog::builtin());
  l.inputs = serving::read_serving_inputs(*l.loaded.plan, Catalog::builtin(), l.estimates);
  REQUIRE(l.inputs.missing.empty());
  return l;
}

void check_against_brute_force(const Loaded& plan, solve::ServeSpec spec, std::size_t least_passing = 2) {
  spec.top = 1000000;
  const solve::ServeResult searched =
      solve::search_serving(plan.inputs, serving::plan_replica_layout(*plan.loaded.plan), spec);
  std::uint64_t layouts = 0;
  const std::vector<solve::ServeRanked> expected = brute_force(plan.inputs, spec, layouts);
  CHECK(searched.layouts == layouts);
  CHECK(searched.passing == expected.size());
  REQUIRE(searched.best.size() == expected.size());
  REQUIRE(expected.size() >= least_passing);
  // Some layouts fail, or the constraints were not exercised.
  CHECK(expected.size() < layouts);
  for (std::size_t i = 0; i < expected.size(); ++i) {
    INFO("rank " << i);
    CHECK(searched.best[i].layout == expected[i].layout);
  }
}

/// A 34B dense model served with a demand and SLAs: 40 heads, 8 KV heads, 24 layers.
std::map<std::string, std::string> small_dense(std::map<std::string, std::string> changes = {}) {
  std::map<std::string, std::string> keys = {
      {"model.params", "\"34B\""},          {"model.layers", "24"},
      {"model.hidden", "8192"},             {"model.heads", "40"},
      {"model.kv_heads", "8"},              {"model.head_dim", "128"},
      {"inference.context", "\"8192 tokens\""}, {"inference.concurrency", "\"64 seq\""},
      {"inference.mean_concurrency", "\"300 seq\""}, {"inference.peak_factor", "3"},
      {"inference.sla_itl", "\"40 ms\""},   {"inference.sla_ttft", "\"1 s\""},
      {"inference.tp", "2"},                {"cluster.count", "16"},
      {"cluster.price", "\"$2/GPU/h\""},
  };
  for (auto& [key, value] : changes) keys[key] = value;
  return keys;
}

/// A small MoE model with attention ranks and expert parallelism held: tp a multiple of both.
std::map<std::string, std::string> small_moe(std::map<std::string, std::string> changes = {}) {
  std::map<std::string, std::string> keys = small_dense({
      {"model.params", "\"47B\""},          {"model.active_params", "\"13B\""}, {"model.architecture", "\"moe\""},
      {"model.layers", "32"},               {"model.hidden", "4096"},           {"model.heads", "32"},
      {"model.experts", "8"},               {"model.experts_per_token", "2"},   {"model.mlp", "\"swiglu\""},
      {"model.expert_ffn_hidden", "14336"}, {"model.moe_layers", "32"},         {"inference.ep", "2"},
      {"inference.dp_attention", "2"},      {"inference.tp", "4"},
  });
  for (auto& [key, value] : changes) keys[key] = value;
  return keys;
}

}  // namespace

TEST_CASE("the serving search finds what brute force over the same space finds, in the same order",
          "[solve][serving]") {
  SECTION("dense, with a demand and SLAs") { check_against_brute_force(load(inference_plan(small_dense())), {}); }
  SECTION("dense, minimising GPUs, with a hard target on the memory") {
    const Loaded plan = load(inference_plan(small_dense()));
    solve::ServeSpec spec;
    spec.objective = solve::Objective::gpus;
    spec.hard_targets.push_back({"memory", Metric::infer_memory_total, true, 60e9});
    check_against_brute_force(plan, spec);
  }
  SECTION("dense, without a concurrency: a replica holds what fits") {
    check_against_brute_force(
        load(inference_plan(small_dense({{"inference.concurrency", ""}, {"inference.sla_itl", "\"15 ms\""}}))), {});
  }
  SECTION("dense, without a demand: the plan's replicas") {
    check_against_brute_force(
        load(inference_plan(small_dense({{"inference.mean_concurrency", ""}, {"inference.replicas", "3"}}))), {});
  }
  SECTION("MoE with attention ranks and expert parallelism") {
    check_against_brute_force(load(inference_plan(small_moe())), {});
  }
}

TEST_CASE("the replicas a layout needs hold the demand's peak, and one fewer would not", "[solve][serving]") {
  const Loaded plan = load(inference_plan(small_dense()));
  const solve::ServeResult searched =
      solve::search_serving(plan.inputs, serving::plan_replica_layout(*plan.loaded.plan), solve::ServeSpec{});
  REQUIRE_FALSE(searched.best.empty());
  for (const solve::ServeRanked& r : searched.best) {
    CHECK(r.figures.service_concurrency >= plan.inputs.peak_concurrency);
    CHECK((r.layout.replicas - 1) * r.figures.replica_concurrency < plan.inputs.peak_concurrency);
  }
}

TEST_CASE("held serving keys stay at the plan's values", "[solve][serving]") {
  const Loaded plan = load(inference_plan(small_dense({{"inference.tp", "4"}})));
  solve::ServeSpec spec;
  spec.hold_tp = true;
  const solve::ServeResult searched =
      solve::search_serving(plan.inputs, serving::plan_replica_layout(*plan.loaded.plan), spec);
  REQUIRE_FALSE(searched.best.empty());
  for (const solve::ServeRanked& r : searched.best) CHECK(r.layout.tp == 4);
}

namespace {

Result<solve::ServeReport> solve_text(const std::string& toml, solve::SolveOptions options = {}) {
  auto source = std::make_shared<const SourceFile>("plan.toml", toml);
  return solve::solve_serving_plan(source, toml, 1, LintOptions{}, options);
}

/// Every printed layout, applied to `toml`, lints with no error, is the layout the kernel
/// evaluated and has the figures it ranked by.
void check_applied(const std::string& toml, const solve::ServeReport& report) {
  CHECK(report.unconfirmed.empty());
  CHECK(report.solutions.size() == report.search.best.size());
  for (const solve::ServeSolution& solution : report.solutions) {
    const std::string applied = fix::apply_edits(toml, solution.edits);
    INFO(applied);
    const FileResult linted = lint_text(std::make_shared<const SourceFile>("plan.toml", applied), applied, LintOptions{});
    REQUIRE(linted.plan);
    REQUIRE(linted.estimates);
    for (const Diagnostic& d : linted.diagnostics) {
      INFO(d.rule << ": " << d.message);
      CHECK(d.severity != Severity::error);
    }
    const serving::ReplicaLayout l = serving::plan_replica_layout(*linted.plan);
    CHECK(l.tp == solution.ranked.layout.tp);
    CHECK(l.pp == solution.ranked.layout.pp);
    CHECK(l.replicas == solution.ranked.layout.replicas);
    CHECK(linted.plan->number("cluster.count") == solution.ranked.figures.service_gpus);
    const std::pair<Metric, double> figures[] = {
        {Metric::infer_memory_total, solution.ranked.figures.memory_total},
        {Metric::infer_ttft, solution.ranked.figures.ttft},
        {Metric::infer_itl, solution.ranked.figures.itl},
        {Metric::infer_cost_per_month, solution.ranked.figures.cost_per_month},
        {Metric::infer_service_gpus, solution.ranked.figures.service_gpus},
    };
    for (const auto& [metric, figure] : figures)
      if (const MetricValue* value = linted.estimates->find(metric)) {
        INFO(metric_spec(metric).name);
        CHECK(value->value == figure);
      }
  }
}

}  // namespace

TEST_CASE("every layout solve prints for an inference plan lints with no error once applied", "[solve][serving]") {
  solve::SolveOptions options;
  options.top = 20;
  SECTION("dense, with a demand, SLAs and stated replicas") {
    const std::string toml = inference_plan(small_dense({{"inference.replicas", "8"}}));
    const Result<solve::ServeReport> report = solve_text(toml, options);
    REQUIRE(report);
    REQUIRE(report->solutions.size() == 20);
    check_applied(toml, *report);
  }
  SECTION("with a hard target on the memory") {
    const std::string toml = inference_plan(small_dense()) +
                             "\n[[targets]]\nname = \"headroom\"\nmetric = \"infer.memory.total\"\nmax = \"50 GB\"\n";
    const Result<solve::ServeReport> report = solve_text(toml, options);
    REQUIRE(report);
    REQUIRE(report->spec.hard_targets.size() == 1);
    REQUIRE_FALSE(report->solutions.empty());
    for (const solve::ServeSolution& solution : report->solutions) CHECK(solution.ranked.figures.memory_total <= 50e9);
    // Without the target the cheapest layout holds more than 50 GB a GPU: the target decides.
    const Result<solve::ServeReport> free = solve_text(inference_plan(small_dense()), options);
    REQUIRE(free);
    REQUIRE_FALSE(free->solutions.empty());
    CHECK(free->solutions.front().ranked.figures.memory_total > 50e9);
    check_applied(toml, *report);
  }
  SECTION("without a concurrency, minimising GPUs") {
    options.objective = solve::Objective::gpus;
    const std::string toml = inference_plan(small_dense({{"inference.concurrency", ""}}));
    const Result<solve::ServeReport> report = solve_text(toml, options);
    REQUIRE(report);
    REQUIRE_FALSE(report->solutions.empty());
    check_applied(toml, *report);
  }
  SECTION("MoE with attention ranks and expert parallelism") {
    const std::string toml = inference_plan(small_moe());
    const Result<solve::ServeReport> report = solve_text(toml, options);
    REQUIRE(report);
    REQUIRE_FALSE(report->solutions.empty());
    check_applied(toml, *report);
  }
  SECTION("a benchmark of the plan's layout bounds the figures of the others (benchmark-deviation)") {
    Result<std::string> text = read_file(std::string(PLANLINT_SOURCE_DIR) + "/examples/inference-serving.toml");
    REQUIRE(text);
    options.keep = {"pp"};
    const Result<solve::ServeReport> report = solve_text(*text, options);
    REQUIRE(report);
    REQUIRE(report->inputs.benchmarks.size() == 1);
    CHECK(std::any_of(report->search.misses.begin(), report->search.misses.end(), [](const solve::ServeMiss& miss) {
      return miss.failure.kind == solve::ServeFailure::Kind::benchmark;
    }));
    REQUIRE_FALSE(report->solutions.empty());
    check_applied(*text, *report);
  }
  SECTION("on other GPU types") {
    options.gpus = {"h100-sxm", "a100-sxm", "a100-sxm-40gb"};
    const std::string toml = "# the team's plan\n" + inference_plan(small_dense({{"cluster.hbm", "\"80 GB\""}}));
    const Result<solve::ServeReport> report = solve_text(toml, options);
    REQUIRE(report);
    REQUIRE(report->gpus.size() == 3);
    REQUIRE_FALSE(report->solutions.empty());
    check_applied(toml, *report);
  }
}

TEST_CASE("the inference examples' layouts fit, and solve finds one at least as cheap", "[solve][serving]") {
  const std::pair<const char*, solve::Objective> examples[] = {
      {"examples/inference-serving.toml", solve::Objective::cost},
      {"examples/deepseek-r1-fp4-serving-published.toml", solve::Objective::gpus},
      {"examples/mistral-7b-published.toml", solve::Objective::gpus},
  };
  for (const auto& [name, objective] : examples) {
    INFO(name);
    Result<std::string> text = read_file(std::string(PLANLINT_SOURCE_DIR) + "/" + name);
    REQUIRE(text);
    const std::string toml = *text;
    solve::SolveOptions options;
    options.objective = objective;
    const Result<solve::ServeReport> report = solve_text(toml, options);
    REQUIRE(report);
    CHECK_FALSE(report->current_failure);
    REQUIRE_FALSE(report->solutions.empty());
    CHECK(report->solutions.front().ranked.rank.objective <= report->current.rank.objective);
    check_applied(toml, *report);
    // The published layout is in the space the search covers, and passes there.
    solve::ServeSpec held = report->spec;
    held.hold_tp = held.hold_pp = true;
    const solve::ServeResult one = solve::search_serving(report->inputs, report->current.layout, held);
    CHECK(one.layouts == 1);
    REQUIRE(one.best.size() == 1);
    CHECK(one.best.front().layout.tp == report->current.layout.tp);
    CHECK(one.best.front().layout.pp == report->current.layout.pp);
  }
}

TEST_CASE("planlint solve of an inference plan: --apply, --diff, JSON and the exit statuses", "[solve][serving][cli]") {
  const Scratch scratch;
  Result<std::string> example = read_file(std::string(PLANLINT_SOURCE_DIR) + "/examples/inference-serving.toml");
  REQUIRE(example);
  const std::string path = scratch.write("serving.toml", *example).string();

  const CliRun text = run_cli({"solve", path});
  CHECK(text.status == 0);
  CHECK(text.out.find("replica layouts of h200-sxm GPUs") != std::string::npos);
  CHECK(text.out.find("infer.cost_per_month = ") != std::string::npos);

  const CliRun json = run_cli({"solve", "--format", "json", path});
  REQUIRE(json.status == 0);
  const nlohmann::json doc = nlohmann::json::parse(json.out);
  CHECK(doc["kind"] == "inference");
  REQUIRE_FALSE(doc["layouts"].empty());
  CHECK(doc["layouts"][0]["figures"]["infer.memory.total"].get<double>() <= 141e9);
  CHECK(doc["layouts"][0]["figures"]["infer.cost_per_month"].get<double>() <=
        doc["plan"]["figures"]["infer.cost_per_month"].get<double>());
  CHECK(doc["plan"]["tp"] == 4);

  const CliRun markdown = run_cli({"solve", "--format", "markdown", path});
  CHECK(markdown.status == 0);
  CHECK(markdown.out.find("| # | tp | pp |") != std::string::npos);

  const CliRun diff = run_cli({"solve", "--diff", path});
  CHECK(diff.status == 0);
  CHECK(diff.out.find("+++ ") != std::string::npos);
  CHECK(*read_file(path) == *example);

  const CliRun applied = run_cli({"solve", "--apply", path});
  CHECK(applied.status == 0);
  const std::string after = *read_file(path);
  CHECK(after != *example);
  CHECK(after.find("# planlint: allow-file kv-cache-dominates") != std::string::npos);
  const CliRun check = run_cli({"check", path});
  INFO(check.out);
  CHECK(check.status == 0);
  // Its layout is now solve's best: solving it again changes nothing.
  CHECK(run_cli({"solve", "--diff", path}).out.empty());

  // No layout meets an ITL no GPU reaches: exit 1 with the closest miss.
  const std::string tight = scratch.write("tight.toml", inference_plan(small_dense({{"inference.sla_itl", "\"0.1 ms\""}}))).string();
  const CliRun none = run_cli({"solve", tight});
  CHECK(none.status == 1);
  CHECK(none.out.find("no layout fits: the closest is tp = ") != std::string::npos);
}

TEST_CASE("a hostile inference plan's space is refused, not searched in part", "[solve][serving]") {
  // 720,720 heads have 240 divisors: with 100,000 layers, 24 million layouts a GPU type.
  const std::string toml = inference_plan(small_dense({{"model.heads", "720720"}, {"model.kv_heads", "720720"},
                                                       {"model.layers", "100000"}}));
  solve::SolveOptions options;
  options.gpus = {"h100-sxm", "a100-sxm", "a100-sxm-40gb", "l4", "a10g"};
  const Result<solve::ServeReport> many = solve_text(toml, options);
  REQUIRE_FALSE(many);
  CHECK(many.error().message.find("more than 100000000 replica layouts") != std::string::npos);
  // Heads beyond a million are no model's.
  CHECK_FALSE(solve_text(inference_plan(small_dense({{"model.heads", "2000000"}}))));
}

TEST_CASE("a disaggregated plan's prefill pool is held: its fit decides every layout", "[solve][serving]") {
  solve::SolveOptions options;
  options.objective = solve::Objective::gpus;
  options.top = 10;
  for (const char* name : {"clean", "fires"}) {
    INFO(name);
    Result<std::string> text =
        read_file(std::string(PLANLINT_SOURCE_DIR) + "/tests/rules/prefill-memory-fit/" + name + ".toml");
    REQUIRE(text);
    const Result<solve::ServeReport> report = solve_text(*text, options);
    REQUIRE(report);
    CHECK(report->inputs.disaggregated);
    if (std::string_view(name) == "fires") {
      // The prefill GPUs do not hold a prompt whatever the decode pool's layout.
      CHECK(report->solutions.empty());
      REQUIRE_FALSE(report->search.misses.empty());
      CHECK(report->search.misses.front().failure.kind == solve::ServeFailure::Kind::prefill_memory);
    } else {
      REQUIRE(report->solutions.size() == 10);
      check_applied(*text, *report);
    }
  }
}

TEST_CASE("an inference plan is searched once the inputs its findings' fixes correct are in place",
          "[solve][serving][corrected]") {
  // The sparse peak as written: searched at the dense one, as the plan with it is; sparse-peak's
  // error holds no layout back.
  const Result<solve::ServeReport> flagged = solve_text(inference_plan({{"cluster.peak", "\"1979 TFLOPS\""},
                                                                        {"cluster.price", "\"$2/GPU/h\""}}));
  const Result<solve::ServeReport> right = solve_text(inference_plan({{"cluster.peak", "\"989 TFLOPS\""},
                                                                      {"cluster.price", "\"$2/GPU/h\""}}));
  REQUIRE(flagged);
  REQUIRE(right);
  CHECK(flagged->unconfirmed.empty());
  REQUIRE_FALSE(right->solutions.empty());
  REQUIRE(flagged->solutions.size() == right->solutions.size());
  for (std::size_t i = 0; i < right->solutions.size(); ++i) {
    CHECK(flagged->solutions[i].ranked.layout == right->solutions[i].ranked.layout);
    CHECK(flagged->solutions[i].estimates.find("infer.ttft")->value ==
          Approx(right->solutions[i].estimates.find("infer.ttft")->value));
  }
  CHECK(std::any_of(flagged->notes.begin(), flagged->notes.end(), [](const std::string& note) {
    return note.find("once cluster.peak is 989 TFLOPS") != std::string::npos;
  }));
}
