/// `planlint solve`'s text and Markdown output (docs/solve.md, "Reading the output").
#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "planlint/diag/printable.hpp"
#include "planlint/estimate/engine.hpp"
#include "planlint/solve/solve.hpp"

namespace planlint::solve {

namespace {

std::string shown(Metric metric, double value) {
  if (std::isnan(value)) return "-";
  return detail::show_metric_value(metric_spec(metric), value);
}

}  // namespace

std::string objective_name(Objective objective) {
  switch (objective) {
    case Objective::cost: return "cost";
    case Objective::days: return "days";
    case Objective::gpus: return "gpus";
  }
  return "cost";
}

namespace {

/// The table's columns: the layout's keys and the figures that decided it; the offload column
/// (after sp) only when a row offloads (offload_shown).
constexpr std::size_t column_count = 17, offload_column = 11;
constexpr std::array<std::string_view, column_count> columns = {
    "#",  "tp",   "pp",        "v",  "cp",      "dp",           "ep",     "b",    "zero",
    "recompute", "sp", "offload", "memory / HBM", "bubble", "comm", "days", "cost"};
using Cells = std::array<std::string, column_count>;

/// Whether the table shows the offload column: a row of it offloads.
bool offload_shown(const SolveReport& report) {
  if (report.current.layout.offload != layout::Offload::none) return true;
  return std::any_of(report.solutions.begin(), report.solutions.end(),
                     [](const Solution& s) { return s.ranked.layout.offload != layout::Offload::none; });
}

Cells cells(std::string_view label, const Ranked& r, double hbm) {
  const layout::TrainingLayout& l = r.layout;
  const layout::TrainingFigures& f = r.figures;
  return {std::string(label),
          std::to_string(l.tp),
          std::to_string(l.pp),
          std::to_string(l.virtual_stages),
          std::to_string(l.cp),
          std::to_string(l.dp),
          std::to_string(l.ep),
          std::to_string(l.micro_batch),
          std::to_string(l.zero),
          std::string(layout::recompute_name(l.recompute)),
          l.sequence_parallel ? "yes" : "no",
          std::string(layout::offload_name(l.offload)),
          fmt::format("{} / {}", shown(Metric::train_memory_lower_bound, f.lower_bound),
                      units::format(hbm, units::dims::bytes)),
          shown(Metric::train_pipeline_bubble, f.bubble),
          shown(Metric::train_comm_fraction, f.comm_fraction),
          shown(Metric::train_days, f.days),
          shown(Metric::cost_total, f.cost)};
}

/// A text row: right-aligned numbers, the recompute, sp and offload columns left-aligned.
std::string text_row(const Cells& c, bool offload) {
  std::string row =
      fmt::format("{:>4} {:>4} {:>4} {:>2} {:>4} {:>6} {:>4} {:>4} {:>4} {:<9} {:<3} ", c[0], c[1], c[2], c[3], c[4],
                  c[5], c[6], c[7], c[8], c[9], c[10]);
  if (offload) row += fmt::format("{:<21} ", c[offload_column]);
  return row + fmt::format("{:>18} {:>7} {:>7} {:>8} {:>10}", c[12], c[13], c[14], c[15], c[16]);
}

/// The figures of the best layout's arithmetic, in the order shown.
constexpr Metric arithmetic_metrics[] = {
    Metric::train_memory_states,  Metric::train_memory_activations, Metric::train_memory_reserve,
    Metric::train_memory_total,   Metric::train_pipeline_bubble,    Metric::train_comm_fraction,
    Metric::train_comm_alltoall_fraction, Metric::train_offload_fraction, Metric::train_days, Metric::cost_total};

/// Whether a layout's row names its GPU type and count (solve varies either).
bool varied(const SolveReport& report) { return report.gpu_varied || report.count_varied; }

/// What was searched: "128 h100-sxm GPUs", "h100-sxm, a100-sxm on 8 to 128 GPUs", and ", global
/// batch 512 to 8192" when it varies.
std::string gpus_text(const SolveReport& report);
std::string space_text(const SolveReport& report) {
  if (!report.batch_varied) return gpus_text(report);
  return fmt::format("{}, global batch {} to {}", gpus_text(report),
                     global_batch_text(report.inputs, report.batch_scales.front()),
                     global_batch_text(report.inputs, report.batch_scales.back()));
}
std::string gpus_text(const SolveReport& report) {
  if (!varied(report)) return fmt::format("{:g} {} GPUs", report.inputs.count, printable(report.gpu));
  std::vector<std::string> ids;
  double low = 0, high = 0;
  for (const GpuChoice& choice : report.gpus) {
    ids.push_back(printable(choice.id));
    if (choice.counts.empty()) continue;
    low = low == 0 ? choice.counts.front() : std::min(low, choice.counts.front());
    high = std::max(high, choice.counts.back());
  }
  return low == high ? fmt::format("{} on {:g} GPUs", fmt::join(ids, ", "), low)
                     : fmt::format("{} on {:g} to {:g} GPUs", fmt::join(ids, ", "), low, high);
}

std::string order_text(const SolveReport& report) {
  return fmt::format("minimize {}, then days, warnings (bubble over {:g}%, all-reduce over {:g}% of the step, offload "
                     "transfers over {:g}% of it, tp beyond the scale-up domain), soft targets missed, offload, GPUs per "
                     "model replica, exposed communication, offload and bubble, recompute, ZeRO stage, memory",
                     objective_name(report.spec.objective), report.spec.max_bubble * 100,
                     report.spec.max_comm_fraction * 100, report.spec.max_offload_fraction * 100);
}

/// The inputs of the GPU a layout runs on.
const layout::TrainingInputs& inputs_of(const SolveReport& report, const Ranked& r) {
  const auto g = static_cast<std::size_t>(r.gpu);
  return g < report.gpus.size() ? report.gpus[g].inputs : report.inputs;
}

/// The HBM of the GPU a layout runs on.
double hbm_of(const SolveReport& report, const Ranked& r) { return inputs_of(report, r).hbm; }

/// What a row says beyond the layout keys, of what solve varies: the GPU type and count
/// ("a100-sxm", "64"), the global batch ("2048"). Empty when it varies none.
struct Where {
  std::string gpu, gpus, batch;
};

Where where_of(const SolveReport& report, const Ranked& r) {
  const auto g = static_cast<std::size_t>(r.gpu);
  const layout::TrainingLayout& l = r.layout;
  return {printable(g < report.gpus.size() ? report.gpus[g].id : report.gpu),
          fmt::format("{:g}", double(l.tp) * l.pp * l.cp * l.dp), global_batch_text(report.inputs, r.batch_scale)};
}

Where plan_where(const SolveReport& report) {
  return {printable(report.gpu), fmt::format("{:g}", report.inputs.count), global_batch_text(report.inputs, 1)};
}

const Where header_where{"gpu", "gpus", "batch"};

/// "a100-sxm × 64, global batch 2048, ": what a family line starts with when solve varies them.
std::string where_text(const SolveReport& report, const Ranked& r) {
  const Where w = where_of(report, r);
  std::string text;
  if (varied(report)) text += fmt::format("{} × {}, ", w.gpu, w.gpus);
  if (report.batch_varied) text += fmt::format("global batch {}, ", w.batch);
  return text;
}

/// A text row, after the GPU type, count and batch when solve varies them.
std::string varied_text_row(const SolveReport& report, const Where& where, const Cells& c) {
  std::string row;
  if (varied(report)) row += fmt::format("{:<16} {:>6} ", where.gpu, where.gpus);
  if (report.batch_varied) row += fmt::format("{:>12} ", where.batch);
  return row + text_row(c, offload_shown(report));
}

/// A Markdown row's cells, after the GPU type, count and batch when solve varies them.
std::vector<std::string> markdown_cells(const SolveReport& report, const Where& where, const Cells& c) {
  std::vector<std::string> row;
  if (varied(report)) row = {markdown_text(where.gpu), where.gpus};
  if (report.batch_varied) row.push_back(markdown_text(where.batch));
  const bool offload = offload_shown(report);
  for (std::size_t i = 0; i < c.size(); ++i)
    if (i != offload_column || offload) row.push_back(c[i]);
  return row;
}

}  // namespace

std::string family_text(const layout::TrainingLayout& l) {
  return fmt::format("tp = {}, pp = {}, cp = {}", l.tp, l.pp, l.cp);
}

std::string failure_text(const SolveReport& report, const Ranked& r, const Failure& failure) {
  if (failure.kind == Failure::Kind::memory)
    return fmt::format("{} per GPU at the least > {} ({})", shown(Metric::train_memory_lower_bound, r.figures.lower_bound),
                       units::format(hbm_of(report, r), units::dims::bytes),
                       fmt::format("zero {}, recompute {}, micro_batch {}{}{}", r.layout.zero,
                                   layout::recompute_name(r.layout.recompute), r.layout.micro_batch,
                                   r.layout.ep > 1 ? fmt::format(", ep {}", r.layout.ep) : "",
                                   r.layout.offload != layout::Offload::none
                                       ? fmt::format(", offload {}", layout::offload_name(r.layout.offload))
                                       : ""));
  if (failure.kind == Failure::Kind::host_memory) {
    const layout::TrainingInputs& on = inputs_of(report, r);
    return fmt::format("offload = {}: host memory {} > {} per node of {:g} GPUs", layout::offload_name(r.layout.offload),
                       units::format(r.figures.offload_node_bytes, units::dims::bytes),
                       units::format(on.host_memory, units::dims::bytes), on.gpus_per_node);
  }
  if (failure.kind == Failure::Kind::bubble)
    return fmt::format("pipeline bubble {} > {}", shown(Metric::train_pipeline_bubble, r.figures.bubble),
                       shown(Metric::train_pipeline_bubble, report.spec.max_bubble));
  if (failure.kind == Failure::Kind::comm)
    return fmt::format("gradient all-reduce {} of the step > {}",
                       shown(Metric::train_comm_fraction_lower_bound, r.figures.comm_fraction_lower_bound),
                       shown(Metric::train_comm_fraction_lower_bound, report.spec.max_comm_fraction));
  const TargetBound& target = report.spec.hard_targets[failure.target];
  return fmt::format("{} {} {} {}, hard target '{}'", metric_spec(target.metric).name,
                     shown(target.metric, figure_of(r.figures, target.metric)), target.is_max ? ">" : "<",
                     shown(target.metric, target.bound), printable(target.name));
}

void render_solve_text(std::ostream& out, const SolveReport& report) {
  const SearchResult& search = report.search;
  out << fmt::format("{}: {} layouts of {} searched in {:.1f} ms, {} fit and meet the hard targets\n",
                     printable_path(report.path), search.layouts, space_text(report), report.search_seconds * 1e3,
                     search.passing);
  out << order_text(report) << '\n';
  for (const std::string& note : report.notes) out << "note: " << note << '\n';
  Cells header;
  std::copy(columns.begin(), columns.end(), header.begin());
  out << '\n' << varied_text_row(report, header_where, header) << '\n';
  std::size_t index = 0;
  for (const Solution& solution : report.solutions)
    out << varied_text_row(report, where_of(report, solution.ranked),
                           cells(std::to_string(++index), solution.ranked, hbm_of(report, solution.ranked)))
        << '\n';
  out << varied_text_row(report, plan_where(report),
                         cells("plan", report.current, report.inputs.hbm))
      << (report.current_failure ? "  (excluded)" : "") << '\n';

  if (!report.solutions.empty()) {
    const Solution& best = report.solutions.front();
    out << '\n'
        << (best.changes.empty() ? std::string("best: the plan's own layout")
                                 : fmt::format("best: {}", fmt::join(best.changes, ", ")))
        << '\n';
    for (const Metric metric : arithmetic_metrics)
      if (const MetricValue* value = best.estimates.find(metric))
        out << fmt::format("  {} = {}\n", metric_spec(metric).name, printable(value->arithmetic.str()));
  }
  if (!search.misses.empty()) {
    out << "\nexcluded families, nearest first:\n";
    for (const FamilyMiss& miss : search.misses)
      out << fmt::format("  {}{}: {}\n", where_text(report, miss.nearest), family_text(miss.nearest.layout),
                         failure_text(report, miss.nearest, miss.failure));
  }
  for (const std::string& line : report.unconfirmed)
    out << fmt::format("unconfirmed: {}\n", printable(line));
  if (report.solutions.empty()) {
    out << "\nno layout fits";
    if (!search.misses.empty())
      out << fmt::format(": the closest is {}{}, {}", where_text(report, search.misses.front().nearest),
                         family_text(search.misses.front().nearest.layout),
                         failure_text(report, search.misses.front().nearest, search.misses.front().failure));
    out << '\n';
  }
}

void render_solve_markdown(std::ostream& out, const SolveReport& report) {
  const SearchResult& search = report.search;
  const auto markdown_row = [](const auto& c) { return fmt::format("| {} |", fmt::join(c, " | ")); };
  out << fmt::format("### planlint solve: {}\n\n", markdown_code_span(report.path));
  out << fmt::format("{} layouts of {} searched in {:.1f} ms; {} fit and meet the hard targets. Ranked by: "
                     "{}.\n",
                     search.layouts, markdown_text(space_text(report)), report.search_seconds * 1e3, search.passing,
                     order_text(report));
  for (const std::string& note : report.notes) out << fmt::format("\n> {}\n", markdown_text(note));
  Cells header;
  std::copy(columns.begin(), columns.end(), header.begin());
  const std::vector<std::string> header_cells = markdown_cells(report, header_where, header);
  out << '\n' << markdown_row(header_cells) << '\n';
  out << fmt::format("|{}\n", fmt::join(std::vector<std::string>(header_cells.size(), "---|"), ""));
  std::size_t index = 0;
  for (const Solution& solution : report.solutions)
    out << markdown_row(markdown_cells(report, where_of(report, solution.ranked),
                                       cells(std::to_string(++index), solution.ranked, hbm_of(report, solution.ranked))))
        << '\n';
  out << markdown_row(markdown_cells(report, plan_where(report),
                                     cells(report.current_failure ? "plan (excluded)" : "plan", report.current,
                                           report.inputs.hbm)))
      << '\n';
  if (!report.solutions.empty()) {
    const Solution& best = report.solutions.front();
    std::vector<std::string> changes;
    for (const std::string& change : best.changes) changes.push_back(markdown_code_span(change));
    out << (changes.empty() ? std::string("\n**Best:** the plan's own layout\n")
                            : fmt::format("\n**Best:** {}\n", fmt::join(changes, ", ")));
    out << '\n';
    for (const Metric metric : arithmetic_metrics)
      if (const MetricValue* value = best.estimates.find(metric))
        out << fmt::format("- {}\n", markdown_code_span(fmt::format("{} = {}", metric_spec(metric).name,
                                                                      value->arithmetic.str())));
  }
  if (!search.misses.empty()) {
    out << "\n**Excluded families, nearest first:**\n\n";
    for (const FamilyMiss& miss : search.misses)
      out << fmt::format("- {}{}: {}\n", markdown_text(where_text(report, miss.nearest)),
                         family_text(miss.nearest.layout),
                         markdown_text(failure_text(report, miss.nearest, miss.failure)));
  }
  for (const std::string& line : report.unconfirmed) out << fmt::format("\n> unconfirmed: {}\n", markdown_text(line));
  if (report.solutions.empty()) {
    out << "\n**No layout fits**";
    if (!search.misses.empty())
      out << fmt::format(": the closest is {}{}, {}", markdown_text(where_text(report, search.misses.front().nearest)),
                         family_text(search.misses.front().nearest.layout),
                         markdown_text(failure_text(report, search.misses.front().nearest,
                                                    search.misses.front().failure)));
    out << '\n';
  }
}

}  // namespace planlint::solve
