// `planlint solve` (docs/solve.md): the search against brute force over small spaces, dense and
// MoE; the published examples' layouts among those that fit; each printed layout confirmed by
// the engine; the command's exit statuses.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "planlint/estimate/engine.hpp"
#include "planlint/estimate/layout_kernel.hpp"
#include "planlint/lint/lint.hpp"
#include "planlint/solve/serving_solve.hpp"
#include "planlint/solve/solve.hpp"
#include "planlint/search/spec_inputs.hpp"
#include "planlint/fix/edits.hpp"
#include "integration_support.hpp"
#include "test_estimates_support.hpp"

using namespace planlint;
using namespace planlint::test;

namespace {

bool divides(long long d, long long n) { return d >= 1 && n % d == 0; }

/// Every layout of the space as the issue states its limits, by brute force over every whole
/// number up to the GPU count: tp divides the heads and divides or is divided by the KV heads,
/// pp is at most the layers, cp divides the sequence, tp · pp · cp · dp is the count, ep divides the experts
/// and dp · cp, pp · v is at most the layers (and the micro-batches come in groups of pp),
/// dp · b divides the batch; sequence parallelism only with tp > 1; offload in each of its four
/// modes where the GPU's host link is known (none alone where it is not).
std::vector<solve::Ranked> brute_force(const layout::TrainingInputs& in, const solve::SearchSpec& spec,
                                       std::uint64_t& layouts) {
  std::vector<solve::Ranked> passing;
  const auto count = static_cast<long long>(in.count);
  const auto heads = static_cast<long long>(in.heads), layers = static_cast<long long>(in.layers);
  const auto kv = static_cast<long long>(std::isnan(in.kv_heads) ? in.heads : in.kv_heads);
  const auto seq = static_cast<long long>(in.seq_len), batch = static_cast<long long>(in.sequences_per_step);
  const long long experts = in.moe ? static_cast<long long>(in.experts) : 1;
  for (long long tp = 1; tp <= count; ++tp)
    for (long long pp = 1; pp <= count; ++pp)
      for (long long cp = 1; cp <= count; ++cp)
        for (long long dp = 1; dp <= count; ++dp) {
          if (tp * pp * cp * dp != count) continue;
          if (!divides(tp, heads) || !(divides(tp, kv) || divides(kv, tp)) || pp > layers || !divides(cp, seq))
            continue;
          for (long long ep = 1; ep <= experts; ++ep)
            for (long long v = 1; v <= layers; ++v)
              for (long long b = 1; b <= batch; ++b) {
                if (!divides(ep, experts) || !divides(ep, dp * cp) || !divides(dp * b, batch)) continue;
                if (v > 1 && (pp == 1 || pp * v > layers || !divides(pp, batch / (dp * b)))) continue;
                for (int zero = 0; zero <= 3; ++zero)
                  for (const layout::Recompute recompute :
                       {layout::Recompute::none, layout::Recompute::selective, layout::Recompute::full})
                    for (const bool sp : {false, true})
                      for (const layout::Offload offload :
                           {layout::Offload::none, layout::Offload::optimizer, layout::Offload::activations,
                            layout::Offload::optimizer_activations}) {
                        if (sp && tp == 1) continue;
                        if (std::isnan(in.host_bandwidth) && offload != layout::Offload::none) continue;
                        // Held, at the tests' plans' own offload, none.
                        if (spec.held[static_cast<std::size_t>(solve::LayoutKey::offload)] &&
                            offload != layout::Offload::none)
                          continue;
                        solve::Ranked r;
                        r.layout = {int(tp), int(pp), int(v), int(dp), int(cp), int(ep), int(b), zero, recompute, sp,
                                    offload};
                        r.figures = layout::evaluate(in, r.layout);
                        ++layouts;
                        if (solve::failure_of(in, spec, r.figures)) continue;
                        r.rank = solve::rank_of(in, spec, r.layout, r.figures);
                        passing.push_back(r);
                      }
              }
        }
  std::sort(passing.begin(), passing.end(), solve::ranks_before);
  return passing;
}

struct Loaded {
  LoadResult loaded;
  Estimates estimates;
  layout::TrainingInputs inputs;
};

Loaded load(const std::string& toml) {
  Loaded l{load_text(toml), {}, {}};
  REQUIRE(l.loaded.plan);
  l.estimates = estimate(*l.loaded.plan, Catalog::builtin());
  l.inputs = layout::read_training_inputs(*l.loaded.plan, Catalog::builtin(), l.estimates);
  REQUIRE(l.inputs.missing.empty());
  return l;
}

void check_against_brute_force(const Loaded& plan, solve::SearchSpec spec) {
  const std::size_t top = spec.top;
  spec.top = 1000000;
  const solve::SearchResult searched =
      solve::search_training(plan.inputs, layout::plan_layout(*plan.loaded.plan), spec);
  std::uint64_t layouts = 0;
  const std::vector<solve::Ranked> expected = brute_force(plan.inputs, spec, layouts);
  CHECK(searched.layouts == layouts);
  CHECK(searched.passing == expected.size());
  REQUIRE(searched.best.size() == expected.size());
  REQUIRE_FALSE(expected.empty());
  // The same figures as evaluate() gives each layout alone (the search reuses one set of figures
  // and composes an offloading twin's memory from its layout's terms).
  const auto same = [](double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); };
  // One check for the whole list (a check a layout is most of the test's time under the
  // sanitizers): the first rank that differs is named.
  std::size_t first_different = expected.size();
  for (std::size_t i = 0; i < expected.size() && first_different == expected.size(); ++i) {
    const layout::TrainingFigures& a = searched.best[i].figures;
    const layout::TrainingFigures& e = expected[i].figures;
    if (!(searched.best[i].layout == expected[i].layout) || !same(a.lower_bound, e.lower_bound) ||
        !same(a.states, e.states) || !same(a.allreduce_bytes, e.allreduce_bytes) ||
        !same(a.comm_seconds, e.comm_seconds) || !same(a.alltoall_seconds, e.alltoall_seconds) ||
        !same(a.offload_state_bytes, e.offload_state_bytes) || !same(a.offload_seconds, e.offload_seconds) ||
        !same(a.offload_node_bytes, e.offload_node_bytes))
      first_different = i;
  }
  INFO("the first rank whose layout or figures differ from brute force's: " << first_different);
  CHECK(first_different == expected.size());
  // With the top list the search keeps (whose offloading twins of layouts after its last are
  // counted, not evaluated): the same first layouts, the same counts.
  spec.top = top;
  const solve::SearchResult kept = solve::search_training(plan.inputs, layout::plan_layout(*plan.loaded.plan), spec);
  CHECK(kept.layouts == layouts);
  CHECK(kept.passing == expected.size());
  REQUIRE(kept.best.size() == std::min(top, expected.size()));
  for (std::size_t i = 0; i < kept.best.size(); ++i) {
    INFO("rank " << i);
    CHECK(kept.best[i].layout == expected[i].layout);
  }
}

/// A 1.3B dense model on 16 H100 (80 GB): small enough to brute-force, large enough that many
/// layouts do not fit at a tight HBM.
std::map<std::string, std::string> small_dense(std::map<std::string, std::string> changes = {}) {
  std::map<std::string, std::string> keys = {
      {"model.params", "\"13B\""},       {"model.layers", "24"},       {"model.hidden", "5120"},
      {"model.heads", "40"},             {"model.kv_heads", "8"},      {"training.seq_len", "4096"},
      {"training.global_batch", "64"},   {"cluster.count", "16"},      {"training.tp", "2"},
      {"training.pp", "2"},              {"cluster.price", "\"$2/GPU/h\""},
  };
  for (auto& [key, value] : changes) keys[key] = value;
  return keys;
}

/// A small MoE model on 16 GPUs with expert parallelism.
std::map<std::string, std::string> small_moe(std::map<std::string, std::string> changes = {}) {
  std::map<std::string, std::string> keys = small_dense({
      {"model.params", "\"47B\""},          {"model.active_params", "\"13B\""}, {"model.architecture", "\"moe\""},
      {"model.layers", "32"},               {"model.hidden", "4096"},           {"model.heads", "32"},
      {"model.experts", "8"},               {"model.experts_per_token", "2"},   {"model.mlp", "\"swiglu\""},
      {"model.expert_ffn_hidden", "14336"}, {"model.moe_layers", "32"},         {"training.ep", "2"},
  });
  for (auto& [key, value] : changes) keys[key] = value;
  return keys;
}

}  // namespace

TEST_CASE("the search finds what brute force over the same space finds, in the same order", "[solve]") {
  SECTION("dense") { check_against_brute_force(load(training_plan(small_dense())), {}); }
  SECTION("dense, with a hard target on the days and days minimised") {
    const Loaded plan = load(training_plan(small_dense()));
    solve::SearchSpec spec;
    spec.objective = solve::Objective::days;
    spec.hard_targets.push_back({"memory", Metric::train_memory_total, true, 40e9});
    check_against_brute_force(plan, spec);
  }
  // The MoE spaces with offload held: the dense sections search it, and the MoE space four times
  // over is minutes of brute force under the sanitizers.
  const auto offload_held = [](const Loaded& plan) {
    solve::SearchSpec spec;
    std::vector<std::string> unknown;
    spec.held = solve::held_keys(plan.inputs, {"offload"}, unknown);
    return spec;
  };
  SECTION("MoE with expert parallelism") {
    const Loaded plan = load(training_plan(small_moe()));
    check_against_brute_force(plan, offload_held(plan));
  }
  SECTION("dense, with the hosts' memory stated (offload-host-memory excludes) and a soft target on the memory") {
    const Loaded plan = load(training_plan(small_dense({{"cluster.host_memory", "\"256 GB\""}})));
    solve::SearchSpec spec;
    spec.soft_targets.push_back({"headroom", Metric::train_memory_total, true, 30e9});
    check_against_brute_force(plan, spec);
  }
  SECTION("dense, with the offload transfers' limit low enough that offload-bandwidth warns") {
    const Loaded plan = load(training_plan(small_dense()));
    solve::SearchSpec spec;
    spec.max_offload_fraction = 0.01;
    check_against_brute_force(plan, spec);
  }
  SECTION("MoE without the expert widths (states split ep ways at the least)") {
    const Loaded plan = load(training_plan(small_moe({{"model.expert_ffn_hidden", ""}})));
    check_against_brute_force(plan, offload_held(plan));
  }
}

TEST_CASE("held keys stay at the plan's values", "[solve]") {
  const Loaded plan = load(training_plan(small_dense()));
  solve::SearchSpec spec;
  std::vector<std::string> unknown;
  spec.held = solve::held_keys(plan.inputs, {"tp", "training.zero"}, unknown);
  CHECK(unknown.empty());
  spec.top = 1000;
  const solve::SearchResult result = solve::search_training(plan.inputs, layout::plan_layout(*plan.loaded.plan), spec);
  REQUIRE_FALSE(result.best.empty());
  for (const solve::Ranked& r : result.best) {
    CHECK(r.layout.tp == 2);
    CHECK(r.layout.zero == 0);
  }
  CHECK(solve::held_keys(plan.inputs, {"tq"}, unknown)[0] == false);
  CHECK(unknown == std::vector<std::string>{"tq"});
}

TEST_CASE("the published examples' layouts fit, and solve finds one at least as cheap", "[solve]") {
  // The training examples of published runs; those without a price are ranked by days.
  const std::pair<const char*, solve::Objective> examples[] = {
      {"examples/llama3-405b-published.toml", solve::Objective::cost},
      {"examples/deepseek-v3-published.toml", solve::Objective::cost},
      {"examples/gb200-nvl72-published.toml", solve::Objective::days},
      {"examples/tpu-v5p-published.toml", solve::Objective::days},
  };
  for (const auto& [name, objective] : examples) {
    INFO(name);
    Result<std::string> text = read_file(std::string(PLANLINT_SOURCE_DIR) + "/" + name);
    REQUIRE(text);
    auto source = std::make_shared<const SourceFile>(name, *std::move(text));
    LintOptions options;
    solve::SolveOptions solve_options;
    solve_options.objective = objective;
    const Result<solve::SolveReport> report = solve::solve_plan(source, source->text(), 1, options, solve_options);
    REQUIRE(report);
    CHECK_FALSE(report->current_failure);
    CHECK(report->unconfirmed.empty());
    REQUIRE_FALSE(report->solutions.empty());
    CHECK(report->solutions.front().ranked.rank.objective <= report->current.rank.objective);
    // The published layout is in the space the search covers (its keys within the limits the
    // search enumerates), and passes there.
    solve::SearchSpec held = report->spec;
    held.held.fill(true);
    const solve::SearchResult one = solve::search_training(report->inputs, report->current.layout, held);
    CHECK(one.layouts == 1);
    REQUIRE(one.best.size() == 1);
    CHECK(one.best.front().layout == report->current.layout);
    for (std::size_t key = 0; key < solve::layout_key_count; ++key) {
      INFO("key " << solve::short_name(static_cast<solve::LayoutKey>(key)) << " free");
      solve::SearchSpec free_one = held;
      free_one.held[key] = false;
      free_one.top = 100000;
      const solve::SearchResult some = solve::search_training(report->inputs, report->current.layout, free_one);
      CHECK(std::any_of(some.best.begin(), some.best.end(),
                        [&](const solve::Ranked& r) { return r.layout == report->current.layout; }));
    }
  }
}

TEST_CASE("every layout solve prints lints with no error once applied", "[solve]") {
  // A plan whose own layout does not fit: 13B at tp = 1, pp = 1, ZeRO 0 on 80 GB.
  const std::string toml = training_plan(small_dense({{"training.tp", "1"}, {"training.pp", "1"}}));
  auto source = std::make_shared<const SourceFile>("plan.toml", toml);
  LintOptions options;
  solve::SolveOptions solve_options;
  solve_options.top = 10;
  const Result<solve::SolveReport> report = solve::solve_plan(source, source->text(), 1, options, solve_options);
  REQUIRE(report);
  CHECK(report->current_failure);
  CHECK(report->unconfirmed.empty());
  REQUIRE(report->solutions.size() == 10);
  for (const solve::Solution& solution : report->solutions) {
    const std::string applied = fix::apply_edits(toml, solution.edits);
    const LoadResult loaded = load_text(applied);
    REQUIRE(loaded.plan);
    CHECK(layout::plan_layout(*loaded.plan) == solution.ranked.layout);
    const FileResult linted = lint_text(std::make_shared<const SourceFile>("plan.toml", applied), applied, options);
    for (const Diagnostic& d : linted.diagnostics) {
      INFO(applied << "\n" << d.rule << ": " << d.message);
      CHECK(d.severity != Severity::error);
    }
  }
}

TEST_CASE("the excluded families are those none of whose layouts passes, nearest first", "[solve]") {
  // 13B on 16 GPUs of 15 GB: ZeRO-3 leaves 13 GB of states on each, and the families without
  // tensor or context parallelism have no room for the activations.
  const Loaded plan = load(training_plan(small_dense({{"cluster.hbm", "\"15 GB\""}})));
  solve::SearchSpec spec;
  spec.top = 100000;
  spec.families = 1000;
  // Offload held at none: with the optimizer's and activations' bytes in host memory, every
  // family has a layout that fits.
  spec.held[static_cast<std::size_t>(solve::LayoutKey::offload)] = true;
  const solve::SearchResult result = solve::search_training(plan.inputs, layout::plan_layout(*plan.loaded.plan), spec);
  REQUIRE_FALSE(result.best.empty());
  REQUIRE(result.misses.size() >= 2);
  for (std::size_t i = 0; i < result.misses.size(); ++i) {
    const solve::FamilyMiss& miss = result.misses[i];
    CHECK(miss.failure.kind == solve::Failure::Kind::memory);
    CHECK(miss.failure.ratio > 1);
    CHECK(miss.failure.ratio == miss.nearest.figures.lower_bound / plan.inputs.hbm);
    if (i > 0) CHECK(result.misses[i - 1].failure.ratio <= miss.failure.ratio);
    const auto same_family = [&](const solve::Ranked& r) {
      return r.layout.tp == miss.nearest.layout.tp && r.layout.pp == miss.nearest.layout.pp &&
             r.layout.cp == miss.nearest.layout.cp;
    };
    CHECK(std::none_of(result.best.begin(), result.best.end(), same_family));
  }
}

TEST_CASE("planlint solve exits 0 with a layout, 1 without, 2 on bad input", "[solve][cli]") {
  const CliRun found = run_cli({"solve", std::string(PLANLINT_SOURCE_DIR) + "/examples/llama3-405b-published.toml"});
  CHECK(found.status == 0);
  CHECK(found.out.find("best: ") != std::string::npos);
  CHECK(found.out.find("train.memory.total = ") != std::string::npos);

  const Scratch scratch;
  const CliRun none = run_cli(
      {"solve", scratch.write("tight.toml", training_plan(small_dense({{"cluster.hbm", "\"1 GB\""}}))).string()});
  CHECK(none.status == 1);
  CHECK(none.out.find("no layout fits: the closest is ") != std::string::npos);

  // An inference plan's objective is cost or GPUs, and its count follows its replicas.
  const std::string serving = std::string(PLANLINT_SOURCE_DIR) + "/examples/inference-serving.toml";
  CHECK(run_cli({"solve", serving}).status == 0);
  const CliRun days = run_cli({"solve", "--minimize", "days", serving});
  CHECK(days.status == 2);
  CHECK(days.err.find("--minimize days is for training plans") != std::string::npos);
  CHECK(run_cli({"solve", "--count", "16", serving}).status == 2);
  const CliRun serving_keep = run_cli({"solve", "--keep", "zero", serving});
  CHECK(serving_keep.status == 2);
  CHECK(serving_keep.err.find("zero is not a layout key of an inference plan") != std::string::npos);

  const CliRun keep = run_cli({"solve", "--keep", "tq",
                               std::string(PLANLINT_SOURCE_DIR) + "/examples/llama3-405b-published.toml"});
  CHECK(keep.status == 2);
  CHECK(keep.err.find("tq") != std::string::npos);
}

TEST_CASE("solve --apply writes the layout and its claims, keeping the comments, and --diff writes nothing",
          "[solve][cli]") {
  const Scratch scratch;
  Result<std::string> published = read_file(std::string(PLANLINT_SOURCE_DIR) + "/examples/llama3-405b-published.toml");
  REQUIRE(published);
  const std::string path = scratch.write("plan.toml", *published).string();

  const CliRun diff = run_cli({"solve", "--diff", path});
  CHECK(diff.status == 0);
  CHECK(diff.out.find("+++ ") != std::string::npos);
  CHECK(diff.out.find("-\"train.memory.total\" = \"73.0 GB\"") != std::string::npos);
  CHECK(*read_file(path) == *published);

  const CliRun applied = run_cli({"solve", path, "--apply"});
  CHECK(applied.status == 0);
  CHECK(applied.out.find("layout 1 written") != std::string::npos);
  const std::string after = *read_file(path);
  CHECK(after != *published);
  CHECK(after.find("# Sources (Dubey et al. 2024") != std::string::npos);
  CHECK(after.find("# planlint: allow pipeline-bubble") != std::string::npos);
  // The plan with the layout lints clean, and its layout is solve's best: solving it again
  // changes nothing.
  const CliRun check = run_cli({"check", path});
  INFO(check.out);
  CHECK(check.status == 0);
  CHECK(run_cli({"solve", "--diff", path}).out.empty());

  CHECK(run_cli({"solve", "--apply", "9", "-n", "2", path}).status == 0);
  const CliRun beyond = run_cli({"solve", "--apply", "x", path});
  CHECK(beyond.status == 2);
}

TEST_CASE("solve --format json holds the layouts with their figures by metric name", "[solve][cli]") {
  const CliRun run =
      run_cli({"solve", "--format", "json", std::string(PLANLINT_SOURCE_DIR) + "/examples/deepseek-v3-published.toml"});
  REQUIRE(run.status == 0);
  const nlohmann::json doc = nlohmann::json::parse(run.out);
  CHECK(doc["minimize"] == "cost");
  CHECK(doc["layouts_searched"].get<double>() >= doc["layouts_passing"].get<double>());
  REQUIRE(doc["layouts"].size() == 5);
  CHECK(doc["layouts"][0]["figures"]["train.memory.lower_bound"].get<double>() <= 80e9);
  CHECK(doc["plan"]["ep"] == 64);
  CHECK(doc["plan"]["excluded"].is_null());
}

TEST_CASE("a space beyond the search's limit is refused, not searched in part", "[solve]") {
  const Loaded plan = load(training_plan(small_dense()));
  solve::SearchSpec spec;
  spec.max_layouts = 100;
  const solve::SearchResult result = solve::search_training(plan.inputs, layout::plan_layout(*plan.loaded.plan), spec);
  CHECK(result.too_large);
  CHECK(result.layouts == 101);
}

TEST_CASE("solve --apply on a Markdown doc changes its plan block and keeps the prose", "[solve][cli]") {
  const Scratch scratch;
  const std::string block = training_plan(small_dense({{"training.tp", "1"}, {"training.pp", "1"}}));
  const std::string doc = "# Capacity\n\nWhy this run needs 16 GPUs.\n\n```toml\n" + block + "```\n\nWhat comes next.\n";
  const std::string path = scratch.write("capacity.md", doc).string();
  CHECK(run_cli({"check", path}).status == 1);  // its own layout does not fit: memory-fit
  const CliRun applied = run_cli({"solve", "--apply", path});
  INFO(applied.out << applied.err);
  CHECK(applied.status == 0);
  const std::string after = *read_file(path);
  CHECK(after.starts_with("# Capacity\n\nWhy this run needs 16 GPUs.\n\n```toml\n"));
  CHECK(after.ends_with("```\n\nWhat comes next.\n"));
  const CliRun check = run_cli({"check", path});
  INFO(after << check.out);
  CHECK(check.status == 0);
}

TEST_CASE("solve --format markdown prints the table as a Markdown table", "[solve][cli]") {
  const CliRun run =
      run_cli({"solve", "--format", "markdown", std::string(PLANLINT_SOURCE_DIR) + "/examples/llama-70b-pretrain.toml"});
  REQUIRE(run.status == 0);
  CHECK(run.out.find("| # | tp | pp | v | cp | dp | ep | b | zero | recompute | sp | memory / HBM |") != std::string::npos);
  CHECK(run.out.find("\n| plan | 8 | 4 |") != std::string::npos);
  CHECK(run.out.find("**Best:** `pp = 1 (was 4)`") != std::string::npos);
}

TEST_CASE("solve's --count reads a count or a range of counts", "[solve]") {
  CHECK(*solve::parse_count_range("512") == std::pair{512.0, 512.0});
  CHECK(*solve::parse_count_range("512..4096") == std::pair{512.0, 4096.0});
  CHECK(*solve::parse_count_range("..64") == std::pair{0.0, 64.0});
  CHECK(*solve::parse_count_range("8..") == std::pair{8.0, 0.0});
  for (const char* bad : {"", "..", "0", "64..8", "8...16", "x", "-8", "1e3", "123456789"}) {
    INFO(bad);
    CHECK_FALSE(solve::parse_count_range(bad));
  }
}

namespace {

/// The catalog's least price of `gpu`, as solve writes it.
std::string catalog_price(const std::string& gpu) {
  const GpuSpec* spec = Catalog::builtin().find(gpu);
  REQUIRE(spec);
  REQUIRE(spec->price);
  return fmt::format("\"${:g}/GPU/h\"", spec->price->low * 3600);
}

}  // namespace

TEST_CASE("over GPU types and counts, the search finds what brute force over each plan finds", "[solve]") {
  // The plan on an H100 at its own price, and on an A100 (80 GB) at the catalog's; 8 and 16 GPUs
  // (whole nodes of 8).
  solve::SolveOptions options;
  options.top = 60;
  options.gpus = {"h100-sxm", "a100-sxm"};
  options.vary_count = true;
  options.count_low = 8;
  options.count_high = 16;
  for (const solve::Objective objective : {solve::Objective::cost, solve::Objective::days}) {
    INFO("objective " << solve::objective_name(objective));
    options.objective = objective;
    const std::string toml = training_plan(small_dense());
    auto source = std::make_shared<const SourceFile>("plan.toml", toml);
    const Result<solve::SolveReport> report = solve::solve_plan(source, toml, 1, LintOptions{}, options);
    REQUIRE(report);
    REQUIRE(report->gpus.size() == 2);
    CHECK(report->gpus[0].id == "h100-sxm");
    CHECK(report->gpus[1].id == "a100-sxm");

    // Brute force over each plan as a team would write it for that GPU and count.
    solve::SearchSpec spec = report->spec;
    std::vector<solve::Ranked> expected;
    std::uint64_t layouts = 0;
    for (const int gpu : {0, 1})
      for (const char* count : {"8", "16"}) {
        std::map<std::string, std::string> keys = {{"cluster.count", count}};
        if (gpu == 1) keys.insert({{"cluster.gpu", "\"a100-sxm\""}, {"cluster.price", catalog_price("a100-sxm")}});
        const Loaded plan = load(training_plan(small_dense(keys)));
        for (solve::Ranked& r : brute_force(plan.inputs, spec, layouts)) {
          r.gpu = gpu;
          expected.push_back(r);
        }
      }
    std::stable_sort(expected.begin(), expected.end(), solve::ranks_before);
    CHECK(report->search.layouts == layouts);
    CHECK(report->search.passing == expected.size());
    REQUIRE(report->search.best.size() == options.top);
    for (std::size_t i = 0; i < options.top; ++i) {
      INFO("rank " << i);
      CHECK(report->search.best[i].gpu == expected[i].gpu);
      CHECK(report->search.best[i].layout == expected[i].layout);
    }
    // Both GPUs and both counts place layouts among those printed.
    CHECK(std::any_of(expected.begin(), expected.end(), [](const solve::Ranked& r) { return r.gpu == 1; }));
    CHECK(report->unconfirmed.empty());
  }
}

TEST_CASE("minimising GPUs over a range of counts finds the fewest that meet the targets", "[solve]") {
  // 13B in 40 days at the least: too slow on few GPUs, so the fewest is more than one node.
  const std::string toml =
      training_plan(small_dense({{"cluster.count", "64"}})) +
      "[[targets]]\nname = \"launch\"\nmetric = \"train.days\"\nmax = \"40 d\"\nhard = true\n";
  auto source = std::make_shared<const SourceFile>("plan.toml", toml);
  solve::SolveOptions options;
  options.objective = solve::Objective::gpus;
  options.vary_count = true;
  options.top = 3;
  const Result<solve::SolveReport> report = solve::solve_plan(source, toml, 1, LintOptions{}, options);
  REQUIRE(report);
  REQUIRE_FALSE(report->solutions.empty());
  const auto count_of = [](const layout::TrainingLayout& l) { return l.tp * l.pp * l.cp * l.dp; };
  const int fewest = count_of(report->solutions.front().ranked.layout);
  CHECK(fewest > 8);
  CHECK(fewest % 8 == 0);
  // One node fewer does not meet the target with any layout.
  options.count_high = fewest - 8;
  options.count_low = 8;
  const Result<solve::SolveReport> fewer = solve::solve_plan(source, toml, 1, LintOptions{}, options);
  REQUIRE(fewer);
  CHECK(fewer->solutions.empty());
  CHECK(fewer->search.layouts > 0);
}

TEST_CASE("a plan that does not fit on its GPU is solved on a larger one, and the applied plan lints clean",
          "[solve]") {
  // 13B at tp = 2, pp = 2, ZeRO 0 holds 52 GB of states per GPU: over an A100 40 GB, under 80 GB.
  const std::string toml = "# the team's plan\n" +
                           training_plan(small_dense({{"cluster.gpu", "\"a100-sxm-40gb\""},
                                                      {"cluster.hbm", "\"40 GB\""},
                                                      {"cluster.price", "\"$1.5/GPU/h\""}}));
  auto source = std::make_shared<const SourceFile>("plan.toml", toml);
  solve::SolveOptions options;
  options.gpus = {"a100-sxm-40gb", "a100-sxm"};
  options.keep = {"tp", "pp", "virtual_stages", "cp", "micro_batch", "zero", "recompute", "sequence_parallel",
                  "offload"};
  const Result<solve::SolveReport> report = solve::solve_plan(source, toml, 1, LintOptions{}, options);
  REQUIRE(report);
  CHECK(report->current_failure);
  REQUIRE_FALSE(report->solutions.empty());
  for (const solve::Solution& solution : report->solutions) {
    CHECK(report->gpus[static_cast<std::size_t>(solution.ranked.gpu)].id == "a100-sxm");
    const std::string applied = fix::apply_edits(toml, solution.edits);
    INFO(applied);
    CHECK(applied.starts_with("# the team's plan\n"));
    CHECK(applied.find("hbm = ") == std::string::npos);
    CHECK(applied.find(fmt::format("price = {}", catalog_price("a100-sxm"))) != std::string::npos);
    const FileResult linted = lint_text(std::make_shared<const SourceFile>("plan.toml", applied), applied, LintOptions{});
    REQUIRE(linted.plan);
    CHECK(linted.plan->text("cluster.gpu") == "a100-sxm");
    for (const Diagnostic& d : linted.diagnostics) {
      INFO(d.rule << ": " << d.message);
      CHECK(d.severity != Severity::error);
    }
  }
  // On its own GPU alone, nothing fits.
  options.gpus = {"a100-sxm-40gb"};
  const Result<solve::SolveReport> alone = solve::solve_plan(source, toml, 1, LintOptions{}, options);
  REQUIRE(alone);
  CHECK(alone->solutions.empty());
  // A GPU the catalog does not have is bad input.
  options.gpus = {"x9000"};
  CHECK_FALSE(solve::solve_plan(source, toml, 1, LintOptions{}, options));
}

TEST_CASE("solve --vary and --count on the command line", "[solve][cli]") {
  const Scratch scratch;
  const std::string path = scratch.write("plan.toml", training_plan(small_dense())).string();
  const CliRun varied = run_cli({"solve", "--vary", "gpu", "--count", "8..16", path});
  CHECK(varied.status == 0);
  CHECK(varied.out.find("h100-sxm, a100-sxm") != std::string::npos);
  CHECK(varied.out.find("gpus") != std::string::npos);
  const CliRun json = run_cli({"solve", "--gpus", "a100-sxm", "--format", "json", path});
  REQUIRE(json.status == 0);
  const nlohmann::json doc = nlohmann::json::parse(json.out);
  CHECK(doc["layouts"][0]["gpu"] == "a100-sxm");
  CHECK(run_cli({"solve", "--count", "16..8", path}).status == 2);
  CHECK(run_cli({"solve", "--vary", "colour", path}).status == 2);
  CHECK(run_cli({"solve", "--gpus", "x9000", path}).status == 2);
  // A range of a hundred million GPUs is refused at once, not listed.
  const CliRun hostile = run_cli({"solve", "--count", "1..99999999", path});
  CHECK(hostile.status == 2);
  CHECK(hostile.err.find("more than 100000 GPU counts") != std::string::npos);
}

TEST_CASE("the config's solve table says what the options say, and the command line wins over it",
          "[solve][cli]") {
  const Scratch scratch;
  const std::string path = scratch.write("plan.toml", training_plan(small_dense())).string();
  const CliRun by_options = run_cli({"solve", "--format", "json", "--gpus", "a100-sxm", "--count", "8..16", path});
  REQUIRE(by_options.status == 0);
  const auto searched = [](const CliRun& run) {
    const nlohmann::json doc = nlohmann::json::parse(run.out);
    return std::pair{doc["layouts_searched"].get<std::uint64_t>(), doc["layouts"][0]["gpu"].get<std::string>()};
  };
  const auto expected = searched(by_options);
  CHECK(expected.second == "a100-sxm");

  const std::string config =
      scratch.write("solve.planlint.toml", "[solve]\nvary = \"gpu\"\ngpus = \"a100-sxm\"\ncount = \"8..16\"\n").string();
  const CliRun config_run = run_cli({"solve", "--format", "json", "--config", config, path});
  REQUIRE(config_run.status == 0);
  CHECK(searched(config_run) == expected);
  const CliRun overridden = run_cli({"solve", "--format", "json", "--config", config, "--gpus", "h100-sxm", path});
  REQUIRE(overridden.status == 0);
  CHECK(searched(overridden).second == "h100-sxm");

  // Bad text is bad input, named where it is written.
  const std::string bad_vary = scratch.write("vary.planlint.toml", "[solve]\nvary = \"gpu,colour\"\n").string();
  const CliRun vary_run = run_cli({"solve", "--config", bad_vary, path});
  CHECK(vary_run.status == 2);
  CHECK(vary_run.err.find("[solve] vary: 'colour' is not a key solve varies") != std::string::npos);
  const std::string bad_count = scratch.write("count.planlint.toml", "[solve]\ncount = \"many\"\n").string();
  const CliRun count_run = run_cli({"solve", "--config", bad_count, path});
  CHECK(count_run.status == 2);
  CHECK(count_run.err.find("[solve] count: --count: 'many'") != std::string::npos);
  CHECK(run_cli({"solve", "--config", scratch.write("wrong.planlint.toml", "[solve]\ncount = 8\n").string(), path})
            .status == 2);
}

namespace {

/// The finding of `rule` in `linted`; REQUIREs one.
const Diagnostic& finding_of(const FileResult& linted, std::string_view rule) {
  const auto found = std::find_if(linted.diagnostics.begin(), linted.diagnostics.end(),
                                  [&](const Diagnostic& d) { return d.rule == rule; });
  REQUIRE(found != linted.diagnostics.end());
  return *found;
}

/// `text` with a finding's fixes made.
std::string with_fixes(const SourceFile& source, const Diagnostic& d) {
  std::vector<fix::TextEdit> edits;
  for (const FixEdit& edit : d.fixes)
    edits.push_back({source.offset(edit.location.span.begin), source.offset(edit.location.span.end), edit.replacement});
  std::sort(edits.begin(), edits.end(), [](const fix::TextEdit& a, const fix::TextEdit& b) { return a.begin < b.begin; });
  return fix::apply_edits(source.text(), edits);
}

/// A layout key's value in `l`, as a number.
int value_of(const layout::TrainingLayout& l, solve::LayoutKey key) {
  switch (key) {
    case solve::LayoutKey::tp: return l.tp;
    case solve::LayoutKey::pp: return l.pp;
    case solve::LayoutKey::virtual_stages: return l.virtual_stages;
    case solve::LayoutKey::cp: return l.cp;
    case solve::LayoutKey::ep: return l.ep;
    case solve::LayoutKey::micro_batch: return l.micro_batch;
    case solve::LayoutKey::zero: return l.zero;
    case solve::LayoutKey::recompute: return static_cast<int>(l.recompute);
    case solve::LayoutKey::sequence_parallel: return l.sequence_parallel;
    case solve::LayoutKey::offload: return static_cast<int>(l.offload);
  }
  return 0;
}

/// Whether `to` changes only the keys of `free` from `from` (and the dp they imply).
bool changes_only(const layout::TrainingLayout& from, const layout::TrainingLayout& to,
                  const std::vector<solve::LayoutKey>& free) {
  for (std::size_t k = 0; k < solve::layout_key_count; ++k) {
    const auto key = static_cast<solve::LayoutKey>(k);
    if (std::find(free.begin(), free.end(), key) == free.end() && value_of(from, key) != value_of(to, key)) return false;
  }
  return true;
}

struct LayoutFixCase {
  std::string name, rule, toml;
  std::vector<solve::LayoutKey> free;  ///< the keys the rule's fix may change
};

}  // namespace

TEST_CASE("a finding's layout fix is the nearest layout of the rule's keys that clears it, and applying it clears "
          "the finding",
          "[solve][fix]") {
  using K = solve::LayoutKey;
  const std::vector<K> every = {K::tp,          K::pp,   K::virtual_stages, K::cp,
                                K::ep,          K::micro_batch, K::zero,    K::recompute,
                                K::sequence_parallel, K::offload};
  const std::vector<LayoutFixCase> cases = {
      {"13B at tp 1, pp 1, ZeRO 0 on 80 GB", "memory-fit",
       training_plan(small_dense({{"training.tp", "1"}, {"training.pp", "1"}})), every},
      {"pp 8 with 16 micro-batches", "pipeline-bubble",
       training_plan(small_dense({{"training.pp", "8"}, {"training.global_batch", "16"}})),
       {K::pp, K::virtual_stages, K::micro_batch}},
      {"pure data parallelism of 13B across two nodes", "interconnect-bottleneck",
       training_plan(small_dense({{"training.tp", "1"}, {"training.pp", "1"}, {"training.zero", "3"},
                                  {"training.global_batch", "16"}})),
       {K::tp, K::pp, K::cp, K::ep}},
      {"a hard target on the memory", "hard-target-violated",
       training_plan(small_dense()) + "[[targets]]\nname = \"headroom\"\nmetric = \"train.memory.total\"\nmax = \"40 GB\"\n",
       every},
  };
  for (const LayoutFixCase& c : cases) {
    INFO(c.name << "\n" << c.toml);
    auto source = std::make_shared<const SourceFile>("plan.toml", c.toml);
    const LintOptions options;
    const FileResult linted = lint_text(source, source->text(), options);
    const Diagnostic& d = finding_of(linted, c.rule);
    INFO(d.message << "\nhelp: " << d.help.value_or(""));
    REQUIRE_FALSE(d.fixes.empty());
    CHECK(d.fix_safety == FixSafety::unsafe);
    CHECK(d.fix_title.starts_with("Set "));
    CHECK(d.help->find("the nearest layout that") != std::string::npos);

    // Applied, the finding is gone and only the rule's keys (and the dp they imply) changed.
    const std::string fixed = with_fixes(*source, d);
    INFO("fixed:\n" << fixed);
    const FileResult relinted = lint_text(std::make_shared<const SourceFile>("plan.toml", fixed), fixed, options);
    for (const Diagnostic& after : relinted.diagnostics) CHECK(after.rule != c.rule);
    const Loaded before = load(c.toml), after = load(fixed);
    const layout::TrainingLayout from = layout::plan_layout(*before.loaded.plan);
    const layout::TrainingLayout to = layout::plan_layout(*after.loaded.plan);
    CHECK(from != to);
    CHECK(changes_only(from, to, c.free));

    // Nearest: by brute force over every layout the rule's keys reach that clears the finding,
    // none ranks before it on cost, days, warnings and the keys it changes.
    solve::SearchSpec spec = solve::training_spec(*before.loaded.plan, before.estimates, options);
    spec.clear_bubble = c.rule == "pipeline-bubble";
    spec.clear_comm = c.rule == "interconnect-bottleneck";
    spec.nearest_to = &from;
    std::uint64_t layouts = 0;
    const auto rank_key = [](const solve::Rank& r) { return std::make_tuple(r.objective, r.days, r.warnings, r.changed); };
    std::optional<solve::Rank> least;
    for (const solve::Ranked& r : brute_force(before.inputs, spec, layouts)) {
      const bool reachable = changes_only(from, r.layout, c.free);
      if (reachable && (!least || rank_key(r.rank) < rank_key(*least))) least = r.rank;
    }
    REQUIRE(least);
    const layout::TrainingFigures figures = layout::evaluate(before.inputs, to);
    CHECK_FALSE(solve::failure_of(before.inputs, spec, figures));
    CHECK(rank_key(solve::rank_of(before.inputs, spec, to, figures)) == rank_key(*least));
  }
}

TEST_CASE("a finding no layout of the plan's GPUs clears says so, with no fix, and the run's options can turn the search off", "[solve][fix]") {
  // 405B on one node of H100: no layout of 8 GPUs holds its 810 GB of 16-bit weights, even with
  // the optimizer offloaded.
  const std::string toml = training_plan(small_dense({{"model.params", "\"405B\""}, {"model.layers", "80"},
                                                      {"model.hidden", "8192"}, {"model.heads", "64"},
                                                      {"cluster.count", "8"}}));
  auto source = std::make_shared<const SourceFile>("plan.toml", toml);
  const FileResult linted = lint_text(source, source->text(), LintOptions{});
  const Diagnostic& d = finding_of(linted, "memory-fit");
  INFO(d.help.value_or(""));
  CHECK(d.fixes.empty());
  CHECK(d.help->find("no layout of the 8 GPUs fits with tp, pp, virtual_stages, cp, ep, micro_batch, zero, "
                     "recompute, sequence_parallel, offload free") != std::string::npos);

  LintOptions without;
  without.layout_fixes = false;
  const FileResult plain = lint_text(source, source->text(), without);
  CHECK(finding_of(plain, "memory-fit").help->find("layout") == std::string::npos);
}

TEST_CASE("a finding's layout fix is searched with the inputs other findings' fixes correct", "[solve][fix]") {
  // cluster.hbm written as the node's 640 GB: per-node-figure corrects it to one GPU's 80 GB,
  // where 13B on 16 GPUs at tp 1, pp 1 and ZeRO 0 does not fit; the layout fix fits 80 GB.
  const std::string toml = training_plan(small_dense({{"training.tp", "1"}, {"training.pp", "1"},
                                                      {"cluster.hbm", "\"640 GB\""}}));
  auto source = std::make_shared<const SourceFile>("plan.toml", toml);
  const FileResult linted = lint_text(source, source->text(), LintOptions{});
  REQUIRE(linted.corrected);
  finding_of(linted, "per-node-figure");
  const Diagnostic& d = finding_of(linted, "memory-fit");
  INFO(d.help.value_or(""));
  CHECK_THAT(*d.help, Catch::Contains("(once cluster.hbm is 80 GB); or the nearest layout that fits: ") &&
                          Catch::Contains(" per GPU of 80 GB"));
  REQUIRE_FALSE(d.fixes.empty());
  const Loaded fixed = load(with_fixes(*source, d));
  layout::TrainingInputs corrected = fixed.inputs;
  corrected.hbm = 80e9;
  CHECK(layout::evaluate(corrected, layout::plan_layout(*fixed.loaded.plan)).lower_bound <= 80e9);
}

TEST_CASE("over global batches, the search finds what brute force over each batch's plan finds, and --apply writes "
          "the batch",
          "[solve]") {
  // 13B on 16 GPUs with a global batch of 64 sequences: a bubble over 20% at pp 8 unless the
  // batch grows, so larger batches rank first.
  solve::SolveOptions options;
  options.top = 40;
  options.vary_batch = true;
  options.keep = {"pp"};
  const std::string toml = training_plan(small_dense({{"training.pp", "8"}, {"training.tp", "1"}}));
  auto source = std::make_shared<const SourceFile>("plan.toml", toml);
  const Result<solve::SolveReport> report = solve::solve_plan(source, toml, 1, LintOptions{}, options);
  REQUIRE(report);
  CHECK(report->batch_scales == std::vector<double>{0.25, 0.5, 1, 2, 4});

  solve::SearchSpec spec = report->spec;
  std::vector<solve::Ranked> expected;
  std::uint64_t layouts = 0;
  for (const double scale : {0.25, 0.5, 1.0, 2.0, 4.0}) {
    const Loaded plan = load(training_plan(small_dense({{"training.pp", "8"}, {"training.tp", "1"},
                                                        {"training.global_batch", fmt::format("{:g}", 64 * scale)}})));
    for (solve::Ranked& r : brute_force(plan.inputs, spec, layouts)) {
      if (r.layout.pp != 8) continue;  // held
      r.batch_scale = scale;
      expected.push_back(r);
    }
  }
  std::stable_sort(expected.begin(), expected.end(), solve::ranks_before);
  CHECK(report->search.passing == expected.size());
  REQUIRE(report->search.best.size() == options.top);
  for (std::size_t i = 0; i < options.top; ++i) {
    INFO("rank " << i);
    CHECK(report->search.best[i].batch_scale == expected[i].batch_scale);
    CHECK(report->search.best[i].layout == expected[i].layout);
  }
  // The plan's own bubble is a warning: the best layout's batch is larger and clears it.
  REQUIRE_FALSE(report->solutions.empty());
  const solve::Solution& best = report->solutions.front();
  CHECK(best.ranked.batch_scale > 1);
  CHECK(best.ranked.rank.warnings < report->current.rank.warnings);
  CHECK(report->unconfirmed.empty());
  const std::string applied = fix::apply_edits(toml, best.edits);
  CHECK_THAT(applied, Catch::Contains(fmt::format("global_batch = {:g}\n", 64 * best.ranked.batch_scale)));
  const FileResult linted = lint_text(std::make_shared<const SourceFile>("plan.toml", applied), applied, LintOptions{});
  for (const Diagnostic& d : linted.diagnostics) {
    INFO(d.rule << ": " << d.message);
    CHECK(d.severity != Severity::error);
    CHECK(d.rule != "pipeline-bubble");
  }
}

TEST_CASE("a global batch in tokens varies in tokens, and an inference plan has none to vary", "[solve]") {
  solve::SolveOptions options;
  options.vary_batch = true;
  const std::string toml = training_plan(small_dense({{"training.global_batch", "\"1M tokens\""}}));
  auto source = std::make_shared<const SourceFile>("plan.toml", toml);
  const Result<solve::SolveReport> report = solve::solve_plan(source, toml, 1, LintOptions{}, options);
  REQUIRE(report);
  CHECK(solve::global_batch_text(report->inputs, 4) == "4M tokens");
  CHECK(solve::global_batch_text(report->inputs, 0.25) == "250000 tokens");
  for (const solve::Solution& solution : report->solutions)
    if (solution.ranked.batch_scale != 1)
      CHECK_THAT(fix::apply_edits(toml, solution.edits),
                 Catch::Contains(fmt::format("global_batch = \"{}\"", solve::global_batch_text(report->inputs,
                                                                                                solution.ranked.batch_scale))));
  const std::string serving = inference_plan({{"cluster.price", "\"$2/GPU/h\""}});
  auto serving_source = std::make_shared<const SourceFile>("serve.toml", serving);
  const Result<solve::AnyReport> refused = solve::solve_any(serving_source, serving, 1, LintOptions{}, options);
  REQUIRE_FALSE(refused);
  CHECK_THAT(refused.error().message, Catch::Contains("--vary global_batch is for training plans"));
}

TEST_CASE("a layout fix brings the plan's claims of what the layout changes along", "[solve][fix]") {
  // 13B at tp 1, pp 1, ZeRO 0 on 80 GB, claiming its own (too large) memory and its days.
  const std::string plain = training_plan(small_dense({{"training.tp", "1"}, {"training.pp", "1"}}));
  const Loaded loaded = load(plain);
  const auto shown = [&](Metric metric) {
    return detail::show_metric_value(metric_spec(metric), loaded.estimates.find(metric)->value);
  };
  const std::string toml = plain + fmt::format("[estimates]\n\"train.memory.total\" = \"{}\"\n\"train.days\" = \"{}\"\n",
                                               shown(Metric::train_memory_total), shown(Metric::train_days));
  auto source = std::make_shared<const SourceFile>("plan.toml", toml);
  const FileResult linted = lint_text(source, source->text(), LintOptions{});
  const Diagnostic& d = finding_of(linted, "memory-fit");
  REQUIRE_FALSE(d.fixes.empty());
  CHECK(d.fix_title.find("[estimates]") == std::string::npos);  // the title says the layout
  const std::string fixed = with_fixes(*source, d);
  INFO(fixed);
  CHECK(fixed.find(fmt::format("\"train.days\" = \"{}\"", shown(Metric::train_days))) != std::string::npos);
  CHECK(fixed.find(fmt::format("\"train.memory.total\" = \"{}\"", shown(Metric::train_memory_total))) ==
        std::string::npos);
  const FileResult relinted = lint_text(std::make_shared<const SourceFile>("plan.toml", fixed), fixed, LintOptions{});
  for (const Diagnostic& after : relinted.diagnostics) {
    INFO(after.rule << ": " << after.message);
    CHECK(after.rule != "memory-fit");
    CHECK(after.rule != "estimate-mismatch");
  }
}

namespace {

/// 70B on one node of 8 H100: its states at ZeRO 3 are 16 B × 70B / 8 = 140 GB a GPU, more than
/// the 80 GB HBM; with the optimizer offloaded HBM keeps the 16-bit weights, 17.5 GB, and each
/// host 14 B × 70B / 8 a GPU, 980 GB for the node.
std::string offload_plan(const std::string& host_memory) {
  return training_plan(small_dense({{"model.params", "\"70B\""},
                                    {"model.layers", "80"},
                                    {"model.hidden", "8192"},
                                    {"model.heads", "64"},
                                    {"cluster.count", "8"},
                                    {"training.tp", "8"},
                                    {"training.pp", "1"},
                                    {"training.global_batch", "16"},
                                    {"cluster.host_memory", host_memory}}));
}

}  // namespace

TEST_CASE("a plan that fits only with the optimizer offloaded: solve finds it, --apply writes it, the applied plan "
          "lints with no error, and --keep offload holds it",
          "[solve][cli][offload]") {
  const Loaded plan = load(offload_plan("\"2 TB\""));
  solve::SearchSpec spec;
  spec.top = 1000000;
  const solve::SearchResult result = solve::search_training(plan.inputs, layout::plan_layout(*plan.loaded.plan), spec);
  REQUIRE_FALSE(result.best.empty());
  for (const solve::Ranked& r : result.best) {
    INFO(layout::offload_name(r.layout.offload));
    CHECK(layout::offloads_optimizer(r.layout.offload));
  }
  // None offloads more than it needs: the activations stay in HBM in the best.
  CHECK(result.best.front().layout.offload == layout::Offload::optimizer);
  check_against_brute_force(plan, {});

  const Scratch scratch;
  const std::string path = scratch.write("offload.toml", offload_plan("\"2 TB\"")).string();
  const CliRun solved = run_cli({"solve", path});
  INFO(solved.out << solved.err);
  CHECK(solved.status == 0);
  CHECK(solved.out.find("offload") != std::string::npos);
  CHECK(solved.out.find("train.offload.fraction = ") != std::string::npos);
  const CliRun json = run_cli({"solve", "--format", "json", path});
  REQUIRE(json.status == 0);
  const nlohmann::json doc = nlohmann::json::parse(json.out);
  CHECK(doc["layouts"][0]["offload"] == "optimizer");
  CHECK(doc["plan"]["offload"] == "none");

  const CliRun applied = run_cli({"solve", path, "--apply"});
  CHECK(applied.status == 0);
  const std::string after = *read_file(path);
  INFO(after);
  CHECK(after.find("offload = \"optimizer\"") != std::string::npos);
  CHECK(after.find("host_memory = \"2 TB\"") != std::string::npos);
  const FileResult linted = lint_text(std::make_shared<const SourceFile>(path, after), after, LintOptions{});
  for (const Diagnostic& d : linted.diagnostics) {
    INFO(d.rule << ": " << d.message);
    CHECK(d.severity != Severity::error);
  }

  // Held at the plan's none, no layout fits.
  const std::string held = scratch.write("held.toml", offload_plan("\"2 TB\"")).string();
  CHECK(run_cli({"solve", "--keep", "offload", held}).status == 1);
  const std::string config = scratch.write(".planlint.toml", "[solve]\nkeep = \"offload\"\n").string();
  CHECK(run_cli({"solve", "--config", config, held}).status == 1);
  const std::string bad = scratch.write("bad.toml", "[solve]\nkeep = \"offlode\"\n").string();
  const CliRun bad_keep = run_cli({"solve", "--config", bad, held});
  CHECK(bad_keep.status == 2);
  CHECK(bad_keep.err.find("[solve] keep: 'offlode' is not a layout key") != std::string::npos);
}

TEST_CASE("offload-host-memory excludes a layout, and the excluded families say so in its words", "[solve][offload]") {
  // The node keeps 980 GB of offloaded states, more than its 768 GB.
  const Loaded plan = load(offload_plan("\"768 GB\""));
  solve::SearchSpec spec;
  const solve::SearchResult result = solve::search_training(plan.inputs, layout::plan_layout(*plan.loaded.plan), spec);
  CHECK(result.best.empty());
  REQUIRE_FALSE(result.misses.empty());
  CHECK(result.misses.front().failure.kind == solve::Failure::Kind::host_memory);

  const Scratch scratch;
  const CliRun run = run_cli({"solve", scratch.write("plan.toml", offload_plan("\"768 GB\"")).string()});
  INFO(run.out);
  CHECK(run.status == 1);
  CHECK(run.out.find("offload = optimizer: host memory 980 GB > 768 GB per node of 8 GPUs") != std::string::npos);
}

TEST_CASE("a GPU without a known host link does not search offload, unless the plan writes it", "[solve][offload]") {
  // B200: the catalog gives no host link.
  const Loaded plan = load(training_plan(small_dense({{"cluster.gpu", "\"b200\""}})));
  REQUIRE(std::isnan(plan.inputs.host_bandwidth));
  solve::SearchSpec spec;
  spec.top = 1000000;
  const solve::SearchResult result = solve::search_training(plan.inputs, layout::plan_layout(*plan.loaded.plan), spec);
  REQUIRE_FALSE(result.best.empty());
  for (const solve::Ranked& r : result.best) CHECK(r.layout.offload == layout::Offload::none);
  check_against_brute_force(plan, {});

  const Loaded writes = load(training_plan(small_dense({{"cluster.gpu", "\"b200\""}, {"training.offload", "\"optimizer\""}})));
  CHECK(solve::offload_values(writes.inputs, layout::Offload::optimizer, false) ==
        std::vector<layout::Offload>{layout::Offload::none, layout::Offload::optimizer});
  CHECK(solve::offload_values(plan.inputs, layout::Offload::none, false) ==
        std::vector<layout::Offload>{layout::Offload::none});

  const Scratch scratch;
  const CliRun run =
      run_cli({"solve", scratch.write("plan.toml", training_plan(small_dense({{"cluster.gpu", "\"b200\""}}))).string()});
  INFO(run.out);
  CHECK(run.out.find("note: offload is searched only as the plan writes it (none) on b200: its host link "
                     "(cluster.host_bandwidth) is not known") != std::string::npos);
}

TEST_CASE("solve searches a plan once the inputs its findings' fixes correct are in place, and holds none of the "
          "plan's own errors against a layout",
          "[solve][corrected]") {
  // The H100's sparse BF16 peak: the layouts are those of the dense 989 TFLOPS, with its days
  // and cost; the sparse-peak error stays whatever the layout, and excludes none.
  const auto plan_at = [](const char* peak) {
    return training_plan(small_dense({{"training.tp", "1"}, {"training.pp", "1"}, {"cluster.peak", peak}}));
  };
  const auto solved = [](const std::string& toml) {
    auto source = std::make_shared<const SourceFile>("plan.toml", toml);
    solve::SolveOptions solve_options;
    solve_options.top = 5;
    return solve::solve_plan(source, source->text(), 1, LintOptions{}, solve_options);
  };
  const std::string flagged_toml = plan_at("\"1979 TFLOPS\"");
  const Result<solve::SolveReport> flagged = solved(flagged_toml);
  const Result<solve::SolveReport> right = solved(plan_at("\"989 TFLOPS\""));
  REQUIRE(flagged);
  REQUIRE(right);
  CHECK(flagged->unconfirmed.empty());
  REQUIRE_FALSE(right->solutions.empty());
  REQUIRE(flagged->solutions.size() == right->solutions.size());
  for (std::size_t i = 0; i < right->solutions.size(); ++i) {
    INFO("layout " << i + 1);
    CHECK(flagged->solutions[i].ranked.layout == right->solutions[i].ranked.layout);
    for (const char* metric : {"train.days", "cost.total"})
      CHECK(flagged->solutions[i].estimates.find(metric)->value ==
            Approx(right->solutions[i].estimates.find(metric)->value));
  }
  const auto noted = [&](std::string_view text) {
    return std::any_of(flagged->notes.begin(), flagged->notes.end(),
                       [&](const std::string& note) { return note.find(text) != std::string::npos; });
  };
  CHECK(noted("once cluster.peak is 989 TFLOPS (sparse-peak's fix)"));
  CHECK(noted("the plan's own errors stay whatever the layout (sparse-peak at "));
  // Applied, a layout leaves the plan's own error and adds none.
  const std::string applied = fix::apply_edits(flagged_toml, flagged->solutions.front().edits);
  const FileResult linted = lint_text(std::make_shared<const SourceFile>("plan.toml", applied), applied, LintOptions{});
  for (const Diagnostic& d : linted.diagnostics) {
    INFO(d.rule << ": " << d.message);
    CHECK((d.severity != Severity::error || d.rule == "sparse-peak"));
  }
}
