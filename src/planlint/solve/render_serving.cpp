/// `planlint solve`'s output for inference plans (docs/solve.md, "Inference plans"): text,
/// Markdown and JSON, in the training output's shape with the columns that fit serving.
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "planlint/diag/printable.hpp"
#include "planlint/emit/json_text.hpp"
#include "planlint/estimate/engine.hpp"
#include "planlint/solve/serving_solve.hpp"

namespace planlint::solve {

namespace {

std::string shown(Metric metric, double value) {
  if (std::isnan(value)) return "-";
  return detail::show_metric_value(metric_spec(metric), value);
}

std::string count_text(double value) { return std::isnan(value) ? "-" : fmt::format("{:g}", value); }

constexpr std::size_t column_count = 12;
constexpr std::array<std::string_view, column_count> columns = {
    "#", "tp", "pp", "ep", "dpa", "replicas", "gpus", "memory / HBM", "ttft", "itl", "itl batch", "cost/month"};

const ServeGpu* gpu_of(const ServeReport& report, const ServeRanked& r) {
  const auto g = static_cast<std::size_t>(r.gpu);
  return r.gpu >= 0 && g < report.gpus.size() ? &report.gpus[g] : nullptr;
}

std::string gpu_id(const ServeReport& report, const ServeRanked& r) {
  const ServeGpu* gpu = gpu_of(report, r);
  return gpu ? gpu->id : report.gpu;
}

std::string gpu_name(const ServeReport& report, const ServeRanked& r) { return printable(gpu_id(report, r)); }

double hbm_of(const ServeReport& report, const ServeRanked& r) {
  const ServeGpu* gpu = gpu_of(report, r);
  return gpu ? gpu->inputs.hbm : report.inputs.hbm;
}

std::array<std::string, column_count> cells(const ServeReport& report, std::string_view label, const ServeRanked& r) {
  const serving::ServingFigures& f = r.figures;
  return {std::string(label),
          std::to_string(r.layout.tp),
          std::to_string(r.layout.pp),
          fmt::format("{:g}", report.inputs.ep),
          fmt::format("{:g}", report.inputs.ranks),
          count_text(r.layout.replicas),
          count_text(f.service_gpus),
          fmt::format("{} / {}", shown(Metric::infer_memory_total, f.memory_fit),
                      units::format(hbm_of(report, r), units::dims::bytes)),
          shown(Metric::infer_ttft, f.ttft),
          shown(Metric::infer_itl, f.itl),
          shown(Metric::infer_itl_at_concurrency, f.itl_at_concurrency),
          shown(Metric::infer_cost_per_month, f.cost_per_month)};
}

std::string text_row(const ServeReport& report, std::string_view gpu, const std::array<std::string, column_count>& c) {
  std::string row = fmt::format("{:>4} {:>4} {:>4} {:>4} {:>4} {:>8} {:>6} {:>18} {:>9} {:>9} {:>9} {:>11}", c[0],
                                c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], c[10], c[11]);
  return report.gpu_varied ? fmt::format("{:<16} {}", gpu, row) : row;
}

std::vector<std::string> markdown_cells(const ServeReport& report, std::string_view gpu,
                                        const std::array<std::string, column_count>& c) {
  std::vector<std::string> row;
  if (report.gpu_varied) row.push_back(markdown_text(gpu));
  row.insert(row.end(), c.begin(), c.end());
  return row;
}

std::string space_text(const ServeReport& report) {
  std::vector<std::string> ids;
  for (const ServeGpu& gpu : report.gpus) ids.push_back(printable(gpu.id));
  return fmt::format("{} GPUs", fmt::join(ids, ", "));
}

std::string demand_text(const ServeReport& report) {
  const serving::ServingInputs& in = report.inputs;
  if (std::isnan(in.peak_concurrency)) return fmt::format("replicas: the plan's {:g} (no demand stated)", in.plan_replicas);
  return fmt::format("replicas: the least that hold the peak of {} ({}), computed for each layout",
                     shown(Metric::infer_peak_concurrency, in.peak_concurrency),
                     std::isnan(in.concurrency) ? "infer.max_concurrency a replica"
                                                : fmt::format("{} a replica", shown(Metric::infer_max_concurrency,
                                                                                    in.concurrency)));
}

std::string order_text(const ServeReport& report) {
  return fmt::format("minimize {}, then warnings (tp beyond the scale-up domain, the batch's ITL over its SLA or "
                     "claim, the prompt's attention over the TTFT SLA, a benchmark beyond its tolerance), soft targets missed, GPUs per replica, ITL "
                     "at the concurrency, ITL, TTFT, memory",
                     report.spec.objective == Objective::gpus ? "gpus" : "cost per month");
}

/// The figures of the best layout's arithmetic, in the order shown.
constexpr Metric arithmetic_metrics[] = {
    Metric::infer_memory_total,        Metric::infer_memory_weights_alone, Metric::infer_memory_one_sequence,
    Metric::infer_max_concurrency,     Metric::infer_ttft,                 Metric::infer_itl,
    Metric::infer_itl_at_concurrency,  Metric::infer_peak_replicas,        Metric::infer_service_gpus,
    Metric::infer_cost_per_month};

bool shown_in_arithmetic(const ServeReport& report, Metric metric) {
  const bool sized = !std::isnan(report.inputs.concurrency);
  if (metric == Metric::infer_memory_weights_alone || metric == Metric::infer_memory_one_sequence) return !sized;
  return true;
}

}  // namespace

std::string serve_family_text(const serving::ReplicaLayout& l) { return fmt::format("tp = {}", l.tp); }

std::string serve_failure_text(const ServeReport& report, const ServeRanked& r, const ServeFailure& failure) {
  const serving::ServingFigures& f = r.figures;
  const serving::ServingInputs& in = report.inputs;
  switch (failure.kind) {
    case ServeFailure::Kind::memory:
      return fmt::format("{} per GPU > {} (pp {}{})", shown(Metric::infer_memory_total, f.memory_fit),
                         units::format(hbm_of(report, r), units::dims::bytes), r.layout.pp,
                         std::isnan(in.concurrency) ? "; the weights and one sequence" : "");
    case ServeFailure::Kind::no_sequence:
      return fmt::format("no sequence fits beside the weights, {} per GPU of {} (pp {})",
                         shown(Metric::infer_memory_weights_alone, f.memory_weights_alone),
                         units::format(hbm_of(report, r), units::dims::bytes), r.layout.pp);
    case ServeFailure::Kind::ttft:
      return fmt::format("infer.ttft {} > the SLA of {} (pp {})", shown(Metric::infer_ttft, f.ttft),
                         shown(Metric::infer_ttft, in.sla_ttft), r.layout.pp);
    case ServeFailure::Kind::itl:
      return fmt::format("infer.itl {} > the SLA of {}", shown(Metric::infer_itl, f.itl), shown(Metric::infer_itl, in.sla_itl));
    case ServeFailure::Kind::decode_claim:
      return fmt::format("infer.decode_tokens_per_s {} < the claimed {}",
                         shown(Metric::infer_decode_tokens_per_s, f.decode_tokens_per_s),
                         shown(Metric::infer_decode_tokens_per_s, in.tokens_per_s));
    case ServeFailure::Kind::benchmark: {
      const serving::ServingInputs::Measured& measured = in.benchmarks[failure.target];
      return fmt::format("{} {} and its benchmark {} are {:.2g}× apart, past benchmark-deviation's error factor {:g}",
                         metric_spec(measured.metric).name, shown(measured.metric, serving_figure_of(f, measured.metric)),
                         shown(measured.metric, measured.value), failure.ratio * report.spec.benchmark_error_factor,
                         report.spec.benchmark_error_factor);
    }
    case ServeFailure::Kind::prefill_memory:
      return fmt::format("the prefill pool's GPUs need {} of their {} (prefill-memory-fit; the pool is held)",
                         shown(Metric::infer_prefill_memory, in.prefill_memory),
                         units::format(in.prefill_hbm, units::dims::bytes));
    case ServeFailure::Kind::booked:
      return fmt::format("its replicas need {:g} GPUs, more than the {:g} it books (replica-count-mismatch)",
                         f.service_gpus, in.count);
    case ServeFailure::Kind::hard_target: break;
  }
  const TargetBound& target = report.spec.hard_targets[failure.target];
  return fmt::format("{} {} {} {}, hard target '{}'", metric_spec(target.metric).name,
                     shown(target.metric, serving_figure_of(f, target.metric)), target.is_max ? ">" : "<",
                     shown(target.metric, target.bound), printable(target.name));
}

void render_solve_text(std::ostream& out, const ServeReport& report) {
  const ServeResult& search = report.search;
  out << fmt::format("{}: {} replica layouts of {} searched in {:.1f} ms, {} fit and meet the SLAs and hard targets\n",
                     printable_path(report.path), search.layouts, space_text(report), report.search_seconds * 1e3,
                     search.passing);
  out << order_text(report) << '\n' << demand_text(report) << '\n';
  for (const std::string& note : report.notes) out << "note: " << printable(note) << '\n';
  std::array<std::string, column_count> header;
  std::copy(columns.begin(), columns.end(), header.begin());
  out << '\n' << text_row(report, "gpu", header) << '\n';
  std::size_t index = 0;
  for (const ServeSolution& solution : report.solutions)
    out << text_row(report, gpu_name(report, solution.ranked), cells(report, std::to_string(++index), solution.ranked))
        << '\n';
  out << text_row(report, printable(report.gpu), cells(report, "plan", report.current))
      << (report.current_failure ? "  (excluded)" : "") << '\n';
  if (!report.solutions.empty()) {
    const ServeSolution& best = report.solutions.front();
    out << '\n'
        << (best.changes.empty() ? std::string("best: the plan's own layout")
                                 : fmt::format("best: {}", printable(fmt::format("{}", fmt::join(best.changes, ", ")))))
        << '\n';
    for (const Metric metric : arithmetic_metrics)
      if (shown_in_arithmetic(report, metric))
        if (const MetricValue* value = best.estimates.find(metric))
          out << fmt::format("  {} = {}\n", metric_spec(metric).name, printable(value->arithmetic.str()));
  }
  if (!search.misses.empty()) {
    out << "\nexcluded families, nearest first:\n";
    for (const ServeMiss& miss : search.misses)
      out << fmt::format("  {}{}: {}\n", report.gpu_varied ? gpu_name(report, miss.nearest) + ", " : "",
                         serve_family_text(miss.nearest.layout), serve_failure_text(report, miss.nearest, miss.failure));
  }
  for (const std::string& line : report.unconfirmed) out << fmt::format("unconfirmed: {}\n", printable(line));
  if (report.solutions.empty()) {
    out << "\nno layout fits";
    if (!search.misses.empty()) {
      const ServeMiss& miss = search.misses.front();
      out << fmt::format(": the closest is {}{}, {}", report.gpu_varied ? gpu_name(report, miss.nearest) + ", " : "",
                         serve_family_text(miss.nearest.layout), serve_failure_text(report, miss.nearest, miss.failure));
    }
    out << '\n';
  }
}

void render_solve_markdown(std::ostream& out, const ServeReport& report) {
  const ServeResult& search = report.search;
  const auto markdown_row = [](const auto& c) { return fmt::format("| {} |", fmt::join(c, " | ")); };
  out << fmt::format("### planlint solve: {}\n\n", markdown_code_span(report.path));
  out << fmt::format("{} replica layouts of {} searched in {:.1f} ms; {} fit and meet the SLAs and hard targets. "
                     "Ranked by: {}. {}.\n",
                     search.layouts, markdown_text(space_text(report)), report.search_seconds * 1e3, search.passing,
                     order_text(report), markdown_text(demand_text(report)));
  for (const std::string& note : report.notes) out << fmt::format("\n> {}\n", markdown_text(note));
  std::array<std::string, column_count> header;
  std::copy(columns.begin(), columns.end(), header.begin());
  const std::vector<std::string> header_cells = markdown_cells(report, "gpu", header);
  out << '\n' << markdown_row(header_cells) << '\n';
  out << fmt::format("|{}\n", fmt::join(std::vector<std::string>(header_cells.size(), "---|"), ""));
  std::size_t index = 0;
  for (const ServeSolution& solution : report.solutions)
    out << markdown_row(markdown_cells(report, gpu_name(report, solution.ranked),
                                       cells(report, std::to_string(++index), solution.ranked)))
        << '\n';
  out << markdown_row(markdown_cells(report, printable(report.gpu),
                                     cells(report, report.current_failure ? "plan (excluded)" : "plan", report.current)))
      << '\n';
  if (!report.solutions.empty()) {
    const ServeSolution& best = report.solutions.front();
    std::vector<std::string> changes;
    for (const std::string& change : best.changes) changes.push_back(markdown_code_span(change));
    out << (changes.empty() ? std::string("\n**Best:** the plan's own layout\n")
                            : fmt::format("\n**Best:** {}\n", fmt::join(changes, ", ")));
    out << '\n';
    for (const Metric metric : arithmetic_metrics)
      if (shown_in_arithmetic(report, metric))
        if (const MetricValue* value = best.estimates.find(metric))
          out << fmt::format("- {}\n", markdown_code_span(fmt::format("{} = {}", metric_spec(metric).name,
                                                                        value->arithmetic.str())));
  }
  if (!search.misses.empty()) {
    out << "\n**Excluded families, nearest first:**\n\n";
    for (const ServeMiss& miss : search.misses)
      out << fmt::format("- {}{}: {}\n", report.gpu_varied ? markdown_text(gpu_name(report, miss.nearest)) + ", " : "",
                         serve_family_text(miss.nearest.layout),
                         markdown_text(serve_failure_text(report, miss.nearest, miss.failure)));
  }
  for (const std::string& line : report.unconfirmed) out << fmt::format("\n> unconfirmed: {}\n", markdown_text(line));
  if (report.solutions.empty()) {
    out << "\n**No layout fits**";
    if (!search.misses.empty()) {
      const ServeMiss& miss = search.misses.front();
      out << fmt::format(": the closest is {}{}, {}",
                         report.gpu_varied ? markdown_text(gpu_name(report, miss.nearest)) + ", " : "",
                         serve_family_text(miss.nearest.layout),
                         markdown_text(serve_failure_text(report, miss.nearest, miss.failure)));
    }
    out << '\n';
  }
}

namespace {

using json = nlohmann::ordered_json;

/// The figures a serving layout is ranked and shown by, null where absent.
constexpr Metric json_metrics[] = {
    Metric::infer_memory_total,       Metric::infer_memory_weights_alone, Metric::infer_memory_one_sequence,
    Metric::infer_max_concurrency,    Metric::infer_decode_tokens_per_s,  Metric::infer_ttft,
    Metric::infer_itl,                Metric::infer_itl_at_concurrency,   Metric::infer_service_gpus,
    Metric::infer_service_concurrency, Metric::infer_cost_per_month};

/// A count as a JSON integer (null when unknown).
json count_json(double value) {
  if (std::isnan(value)) return nullptr;
  if (std::floor(value) == value && std::fabs(value) < 9e15) return static_cast<std::int64_t>(value);
  return value;
}

json ranked_json(const ServeReport& report, const ServeRanked& r) {
  json out;
  out["tp"] = r.layout.tp;
  out["pp"] = r.layout.pp;
  out["ep"] = count_json(report.inputs.ep);
  out["dp_attention"] = count_json(report.inputs.ranks);
  out["replicas"] = count_json(r.layout.replicas);
  json figures = json::object();
  for (const Metric metric : json_metrics) {
    const double value = serving_figure_of(r.figures, metric);
    figures[std::string(metric_spec(metric).name)] = std::isnan(value) ? json(nullptr) : json(value);
  }
  out["figures"] = std::move(figures);
  return out;
}

}  // namespace

void render_solve_json(std::ostream& out, const ServeReport& report) {
  json doc;
  doc["path"] = report.path;
  doc["kind"] = "inference";
  doc["gpu"] = report.gpu;
  doc["count"] = count_json(report.inputs.count);
  doc["minimize"] = objective_name(report.spec.objective);
  doc["layouts_searched"] = report.search.layouts;
  doc["layouts_passing"] = report.search.passing;
  doc["search_seconds"] = report.search_seconds;
  json held = json::array();
  if (report.spec.hold_tp) held.push_back("tp");
  if (report.spec.hold_pp) held.push_back("pp");
  doc["held"] = std::move(held);
  doc["peak_concurrency"] =
      std::isnan(report.inputs.peak_concurrency) ? json(nullptr) : json(report.inputs.peak_concurrency);
  doc["notes"] = report.notes;
  json plan = ranked_json(report, report.current);
  plan["excluded"] = report.current_failure
                         ? json(serve_failure_text(report, report.current, *report.current_failure))
                         : json(nullptr);
  doc["plan"] = std::move(plan);
  json layouts = json::array();
  for (const ServeSolution& solution : report.solutions) {
    json entry = ranked_json(report, solution.ranked);
    entry["gpu"] = gpu_id(report, solution.ranked);
    entry["count"] = count_json(solution.ranked.figures.service_gpus);
    entry["changes"] = solution.changes;
    layouts.push_back(std::move(entry));
  }
  doc["layouts"] = std::move(layouts);
  json excluded = json::array();
  for (const ServeMiss& miss : report.search.misses) {
    json entry;
    entry["family"] = serve_family_text(miss.nearest.layout);
    entry["gpu"] = gpu_id(report, miss.nearest);
    entry["nearest"] = ranked_json(report, miss.nearest);
    entry["reason"] = serve_failure_text(report, miss.nearest, miss.failure);
    excluded.push_back(std::move(entry));
  }
  doc["excluded_families"] = std::move(excluded);
  doc["unconfirmed"] = report.unconfirmed;
  out << json_text(doc) << '\n';
}

}  // namespace planlint::solve
