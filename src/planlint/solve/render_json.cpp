/// `planlint solve --format json` (docs/solve.md, "JSON"): what the text output shows, figures in
/// base units by metric name.
#include <cmath>

#include <nlohmann/json.hpp>

#include "planlint/emit/json_text.hpp"
#include "planlint/solve/solve.hpp"

namespace planlint::solve {

namespace {

using json = nlohmann::ordered_json;

/// The figures a layout is ranked and shown by, null where absent.
constexpr Metric shown_metrics[] = {
    Metric::train_memory_states,          Metric::train_memory_activations,
    Metric::train_memory_reserve,         Metric::train_memory_total,
    Metric::train_memory_lower_bound,     Metric::train_micro_batches,
    Metric::train_pipeline_bubble,        Metric::train_comm_fraction,
    Metric::train_comm_alltoall_fraction, Metric::train_step_seconds,
    Metric::train_days,                   Metric::train_wall_days,
    Metric::cost_total,                   Metric::train_offload_fraction,
};

json layout_json(const layout::TrainingLayout& l) {
  json out;
  out["tp"] = l.tp;
  out["pp"] = l.pp;
  out["virtual_stages"] = l.virtual_stages;
  out["cp"] = l.cp;
  out["dp"] = l.dp;
  out["ep"] = l.ep;
  out["micro_batch"] = l.micro_batch;
  out["zero"] = l.zero;
  out["recompute"] = std::string(layout::recompute_name(l.recompute));
  out["sequence_parallel"] = l.sequence_parallel;
  out["offload"] = std::string(layout::offload_name(l.offload));
  return out;
}

json ranked_json(const Ranked& r) {
  json out = layout_json(r.layout);
  json figures = json::object();
  for (const Metric metric : shown_metrics) {
    const double value = figure_of(r.figures, metric);
    figures[std::string(metric_spec(metric).name)] = std::isnan(value) ? json(nullptr) : json(value);
  }
  out["figures"] = std::move(figures);
  return out;
}

}  // namespace

namespace {

/// The global batch of a layout, as the plan's key counts it: sequences, or tokens.
double global_batch_of(const SolveReport& report, double scale) {
  const layout::TrainingInputs& in = report.inputs;
  return (in.batch_in_sequences ? in.sequences_per_step : in.tokens_per_step) * scale;
}

}  // namespace

void render_solve_json(std::ostream& out, const SolveReport& report) {
  json doc;
  doc["path"] = report.path;
  doc["gpu"] = report.gpu;
  doc["count"] = report.inputs.count;
  doc["global_batch"] = global_batch_of(report, 1);
  doc["minimize"] = objective_name(report.spec.objective);
  doc["layouts_searched"] = report.search.layouts;
  doc["layouts_passing"] = report.search.passing;
  doc["search_seconds"] = report.search_seconds;
  json held = json::array();
  for (std::size_t i = 0; i < layout_key_count; ++i)
    if (report.spec.held[i]) held.push_back(std::string(short_name(static_cast<LayoutKey>(i))));
  doc["held"] = std::move(held);
  doc["notes"] = report.notes;
  json plan = ranked_json(report.current);
  plan["excluded"] = report.current_failure
                         ? json(failure_text(report, report.current, *report.current_failure))
                         : json(nullptr);
  doc["plan"] = std::move(plan);
  json layouts = json::array();
  for (const Solution& solution : report.solutions) {
    json entry = ranked_json(solution.ranked);
    const auto g = static_cast<std::size_t>(solution.ranked.gpu);
    const layout::TrainingLayout& l = solution.ranked.layout;
    entry["gpu"] = g < report.gpus.size() ? report.gpus[g].id : report.gpu;
    entry["count"] = double(l.tp) * l.pp * l.cp * l.dp;
    entry["global_batch"] = global_batch_of(report, solution.ranked.batch_scale);
    entry["changes"] = solution.changes;
    layouts.push_back(std::move(entry));
  }
  doc["layouts"] = std::move(layouts);
  json excluded = json::array();
  for (const FamilyMiss& miss : report.search.misses) {
    json entry;
    entry["family"] = family_text(miss.nearest.layout);
    const auto g = static_cast<std::size_t>(miss.nearest.gpu);
    const layout::TrainingLayout& l = miss.nearest.layout;
    entry["gpu"] = g < report.gpus.size() ? report.gpus[g].id : report.gpu;
    entry["count"] = double(l.tp) * l.pp * l.cp * l.dp;
    entry["global_batch"] = global_batch_of(report, miss.nearest.batch_scale);
    entry["nearest"] = ranked_json(miss.nearest);
    entry["reason"] = failure_text(report, miss.nearest, miss.failure);
    excluded.push_back(std::move(entry));
  }
  doc["excluded_families"] = std::move(excluded);
  doc["unconfirmed"] = report.unconfirmed;
  out << json_text(doc) << '\n';
}

}  // namespace planlint::solve
