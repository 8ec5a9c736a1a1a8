#include "planlint/solve/serving_solve.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "planlint/diag/printable.hpp"
#include "planlint/estimate/engine.hpp"
#include "planlint/estimate/targets.hpp"
#include "planlint/lint/lint.hpp"
#include "planlint/solve/solve_internal.hpp"

namespace planlint::solve {

using namespace internal;

namespace {

bool stated_with_span(const PlanValue* value) { return value && value->origin == Origin::plan && value->span.known(); }

/// Every metric: a serving layout (and the GPU it runs on) may move any claim of the plan's.
bool any_metric(Metric) { return true; }

/// The edits that write the serving layout `to` over the plan's `from`: tp (always written, so the
/// lint reads the replica as tp · pp GPUs), pp where it is not the default, the replicas where the
/// plan states them (else they follow the count), and cluster.count, the replicas' GPUs.
std::vector<fix::TextEdit> serving_layout_edits(const SourceFile& source, const Plan& plan,
                                                const serving::ReplicaLayout& from, const serving::ReplicaLayout& to,
                                                double count_before, double count_after,
                                                std::vector<std::string>& changes) {
  std::vector<fix::TextEdit> edits;
  std::string inserted;
  const auto write = [&](std::string_view key, double before, double after, bool insert_default) {
    const PlanValue* stated = plan.find(fmt::format("inference.{}", key));
    if (stated_with_span(stated)) {
      if (before == after) return;
      edits.push_back({source.offset(stated->span.begin), source.offset(stated->span.end), fmt::format("{:g}", after)});
    } else {
      if (!insert_default && before == after) return;
      inserted += fmt::format("{} = {:g}\n", key, after);
    }
    if (before != after) changes.push_back(fmt::format("{} = {:g} (was {:g})", key, after, before));
  };
  write("tp", from.tp, to.tp, true);
  write("pp", from.pp, to.pp, false);
  if (stated_with_span(plan.find("inference.replicas")) && !std::isnan(to.replicas))
    write("replicas", from.replicas, to.replicas, false);
  if (!inserted.empty()) {
    const std::size_t at = insert_offset(source, plan, "inference");
    if (at == source.text().size() && !source.text().empty() && source.text().back() != '\n')
      inserted.insert(0, "\n");
    edits.push_back({at, at, inserted});
  }
  const PlanValue* count = plan.find("cluster.count");
  if (count_after != count_before && stated_with_span(count)) {
    edits.push_back({source.offset(count->span.begin), source.offset(count->span.end), fmt::format("{:g}", count_after)});
    changes.push_back(fmt::format("count = {:g} (was {:g})", count_after, count_before));
  }
  sort_edits(edits);
  return edits;
}

Result<ServeReport> solve_serving_linted(std::shared_ptr<const SourceFile> source, std::string_view toml_text,
                                         std::uint32_t first_line, const LintOptions& lint_options,
                                         const SolveOptions& given, const FileResult& linted) {
  ServeReport report;
  report.path = source->path();
  const SearchedPlan searched = searched_plan(linted, report.notes);
  const Plan& plan = searched.plan;
  const Estimates& estimates = searched.estimates;
  if (given.objective == Objective::days)
    return Error(fmt::format("{}: --minimize days is for training plans; an inference plan's objective is cost (per "
                             "month) or gpus",
                             report.path));
  if (given.vary_batch)
    return Error(fmt::format("{}: --vary global_batch is for training plans; an inference plan has no global batch",
                             report.path));
  if (given.vary_count || given.count_low > 0 || given.count_high > 0)
    return Error(fmt::format("{}: --vary count and --count are for training plans; an inference plan's GPU count "
                             "follows its replicas",
                             report.path));
  const Result<SolveOptions> resolved = resolved_options(given);
  if (!resolved) return resolved.error();
  const SolveOptions& options = *resolved;
  if (options.vary_batch)
    report.notes.push_back("the config's [solve] vary = global_batch does not apply: an inference plan has no global "
                           "batch");
  if (options.vary_count)
    report.notes.push_back("the config's [solve] count does not apply: an inference plan's GPU count follows its "
                           "replicas");
  const Catalog& catalog = lint_options.catalog ? *lint_options.catalog : Catalog::builtin();
  report.inputs = serving::read_serving_inputs(plan, catalog, estimates);
  const serving::ServingInputs& in = report.inputs;
  if (!in.missing.empty())
    return Error(fmt::format("{}: solve needs {} to evaluate a layout", report.path, fmt::join(in.missing, ", ")));
  if (!(in.count >= 1) || std::floor(in.count) != in.count || in.count > 1e7)
    return Error(fmt::format("{}: cluster.count must be a whole number of GPUs", report.path));
  // Bounds that keep a hostile plan's space small: a few thousand tp values of the heads' divisors
  // at the most, each with every pp up to the layers.
  const auto whole = [](double x, double most) { return x >= 1 && x <= most && std::floor(x) == x; };
  if (!whole(in.layers, 1e5) || !whole(in.heads, 1e6) || !whole(in.ranks, 1e6) || !whole(in.ep, 1e6))
    return Error(fmt::format("{}: model.layers (up to 100,000), model.heads, inference.dp_attention and inference.ep "
                             "(up to 1,000,000) must be whole numbers from 1 to search layouts",
                             report.path));
  report.gpu = plan.text("cluster.gpu").value_or("");

  ServeSpec& spec = report.spec;
  spec.objective = options.objective;
  spec.top = options.top;
  if (spec.objective == Objective::cost && std::isnan(in.price))
    return Error(fmt::format("{}: --minimize cost needs cluster.price; state it, or give --minimize gpus", report.path));
  target_bounds(plan, estimates, serving_kernel_metric, spec.hard_targets, spec.soft_targets);
  spec.benchmark_error_factor =
      rule_option(lint_options, "benchmark-deviation", "error_factor", spec.benchmark_error_factor);
  std::vector<std::string> unknown;
  for (const std::string& key : options.keep) {
    if (key == "tp" || key == "inference.tp") spec.hold_tp = true;
    else if (key == "pp" || key == "inference.pp") spec.hold_pp = true;
    // The config's keep governs training plans too: their keys are not an inference plan's.
    else if (!(options.keep_from_config && find_layout_key(key))) unknown.push_back(printable(key));
  }
  if (!unknown.empty())
    return Error(fmt::format("--keep: {} is not a layout key of an inference plan (tp, pp; the replicas are computed)",
                             fmt::join(unknown, ", ")));
  if (std::isnan(in.peak_concurrency))
    report.notes.push_back(fmt::format("no demand is stated (inference.mean_concurrency): each layout keeps the "
                                       "plan's {:g} replicas",
                                       in.plan_replicas));
  if (in.disaggregated)
    report.notes.push_back("the prefill pool (inference.prefill_gpu) is held: the search lays out the decode pool");
  if (in.ranks > 1 || in.ep > 1)
    report.notes.push_back("inference.dp_attention and inference.ep are held; tp is searched over their multiples");

  const serving::ReplicaLayout current = serving::plan_replica_layout(plan);
  report.current.layout = current;
  report.current.figures = serving::evaluate(in, current);
  // The plan's own row bills the GPUs it books.
  report.current.figures.cost_per_month = serving::cost_per_month(in.count + (in.disaggregated ? in.prefill_count : 0),
                                                                  in.price);
  report.current.rank = serve_rank_of(in, spec, current, report.current.figures);
  report.current_failure = serve_failure_of(in, spec, report.current.figures);
  if (!report.current_failure && report.current.figures.service_gpus > in.count)
    report.current_failure = ServeFailure{ServeFailure::Kind::booked, 0, report.current.figures.service_gpus / in.count};

  report.gpu_varied = options.vary_gpu || !options.gpus.empty();
  const Result<WantedGpus> wanted = wanted_gpus(options, catalog, catalog.find(report.gpu), report.gpu_varied);
  if (!wanted) return wanted.error();
  report.current.gpu = wanted->own ? 0 : -1;
  if (wanted->own) report.gpus.push_back(ServeGpu{report.gpu, true, in, {}, {}});
  for (const GpuSpec* gpu : wanted->others) {
    Result<std::optional<OnGpu>> on_gpu = lint_on_gpu(*source, toml_text, first_line, lint_options, plan, *gpu);
    if (!on_gpu) return on_gpu.error();
    if (!*on_gpu) continue;
    ServeGpu choice;
    choice.id = gpu->id;
    choice.plans_own = false;
    const FileResult& on_linted = (*on_gpu)->linted;
    choice.inputs = serving::read_serving_inputs(figures_plan(on_linted), catalog, figures_estimates(on_linted));
    if (!searchable_gpu(*gpu, choice.inputs.missing, choice.inputs.price, spec.objective == Objective::cost,
                        report.notes))
      continue;
    choice.edits = std::move((*on_gpu)->edits);
    choice.changes = std::move((*on_gpu)->changes);
    report.gpus.push_back(std::move(choice));
  }

  // A hostile plan's space (many divisors of the heads, many layers, many GPU types) is refused,
  // not searched in part.
  constexpr std::uint64_t max_layouts = 100'000'000;
  double layouts = 0;
  for (const ServeGpu& gpu : report.gpus)
    layouts += (spec.hold_tp ? 1.0 : double(serving_tps(gpu.inputs).size())) * (spec.hold_pp ? 1.0 : gpu.inputs.layers);
  if (layouts > double(max_layouts))
    return Error(fmt::format("{}: more than {} replica layouts to search; hold some keys as written with --keep",
                             report.path, max_layouts));

  const auto started = std::chrono::steady_clock::now();
  ServeResult& merged = report.search;
  for (std::size_t g = 0; g < report.gpus.size(); ++g) {
    ServeResult found = search_serving(report.gpus[g].inputs, current, spec);
    merged.layouts += found.layouts;
    merged.passing += found.passing;
    for (ServeRanked& r : found.best) {
      r.gpu = static_cast<int>(g);
      merged.best.push_back(r);
    }
    std::stable_sort(merged.best.begin(), merged.best.end(), serve_ranks_before);
    if (merged.best.size() > spec.top) merged.best.resize(spec.top);
    for (ServeMiss& miss : found.misses) {
      miss.nearest.gpu = static_cast<int>(g);
      merged.misses.push_back(miss);
    }
    std::stable_sort(merged.misses.begin(), merged.misses.end(),
                     [](const ServeMiss& a, const ServeMiss& b) { return a.failure.ratio < b.failure.ratio; });
    if (merged.misses.size() > spec.families) merged.misses.resize(spec.families);
  }
  report.search_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  // The engine confirms each layout printed: the plan with it, its count and its [estimates]
  // claims brought to their new values, lints with no error.
  std::size_t index = 0;
  for (const ServeRanked& ranked : merged.best) {
    ++index;
    ServeSolution solution;
    solution.ranked = ranked;
    const ServeGpu& choice = report.gpus[static_cast<std::size_t>(ranked.gpu)];
    solution.edits = choice.edits;
    solution.changes = choice.changes;
    for (fix::TextEdit& edit : serving_layout_edits(*source, plan, current, ranked.layout, in.count,
                                                    ranked.figures.service_gpus, solution.changes))
      solution.edits.push_back(std::move(edit));
    Confirmed confirmed = confirm_layout(*source, toml_text, first_line, lint_options, plan, estimates, solution.edits,
                                         solution.changes, any_metric, searched.plan_errors);
    if (!confirmed.estimates) {
      report.unconfirmed.push_back(fmt::format("layout {} ({}): {}", index, fmt::join(solution.changes, ", "),
                                               fmt::join(confirmed.errors, "; ")));
      continue;
    }
    solution.estimates = *std::move(confirmed.estimates);
    report.solutions.push_back(std::move(solution));
  }
  return report;
}

}  // namespace

Result<ServeReport> solve_serving_plan(std::shared_ptr<const SourceFile> source, std::string_view toml_text,
                                       std::uint32_t first_line, const LintOptions& lint_options,
                                       const SolveOptions& options) {
  FileResult linted = lint_text(source, toml_text, lint_options, first_line);
  if (!linted.plan || !linted.estimates)
    return Error(fmt::format("{}: the plan is not valid TOML (`planlint check` shows where)", source->path()));
  if (linted.plan->is_training())
    return Error(fmt::format("{}: solve_serving_plan searches inference plans; this is a training plan",
                             source->path()));
  return solve_serving_linted(std::move(source), toml_text, first_line, lint_options, options, linted);
}

Result<AnyReport> solve_any(std::shared_ptr<const SourceFile> source, std::string_view toml_text,
                            std::uint32_t first_line, const LintOptions& lint_options, const SolveOptions& options) {
  FileResult linted = lint_text(source, toml_text, lint_options, first_line);
  if (!linted.plan || !linted.estimates)
    return Error(fmt::format("{}: the plan is not valid TOML (`planlint check` shows where)", source->path()));
  if (linted.plan->is_training()) {
    Result<SolveReport> report = solve_training(std::move(source), toml_text, first_line, lint_options, options, linted);
    if (!report) return report.error();
    return AnyReport(*std::move(report));
  }
  Result<ServeReport> report = solve_serving_linted(std::move(source), toml_text, first_line, lint_options, options, linted);
  if (!report) return report.error();
  return AnyReport(*std::move(report));
}

}  // namespace planlint::solve
