/// `planlint solve`'s text output (docs/solve.md, "Reading the output").
#include <cmath>

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

/// A table row: the layout's keys and the figures that decided it.
std::string row(std::string_view label, const Ranked& r, double hbm) {
  const layout::TrainingLayout& l = r.layout;
  const layout::TrainingFigures& f = r.figures;
  return fmt::format("{:>4} {:>4} {:>4} {:>2} {:>4} {:>6} {:>4} {:>4} {:>4} {:<9} {:<3} {:>18} {:>7} {:>7} {:>8} {:>10}",
                     label, l.tp, l.pp, l.virtual_stages, l.cp, l.dp, l.ep, l.micro_batch, l.zero,
                     layout::recompute_name(l.recompute), l.sequence_parallel ? "yes" : "no",
                     fmt::format("{} / {}", shown(Metric::train_memory_lower_bound, f.lower_bound),
                                 units::format(hbm, units::dims::bytes)),
                     shown(Metric::train_pipeline_bubble, f.bubble), shown(Metric::train_comm_fraction, f.comm_fraction),
                     shown(Metric::train_days, f.days), shown(Metric::cost_total, f.cost));
}

}  // namespace

std::string family_text(const layout::TrainingLayout& l) {
  return fmt::format("tp = {}, pp = {}, cp = {}", l.tp, l.pp, l.cp);
}

std::string failure_text(const SolveReport& report, const Ranked& r, const Failure& failure) {
  if (failure.kind == Failure::Kind::memory)
    return fmt::format("{} per GPU at the least > {} ({})", shown(Metric::train_memory_lower_bound, r.figures.lower_bound),
                       units::format(report.inputs.hbm, units::dims::bytes),
                       fmt::format("zero {}, recompute {}, micro_batch {}{}", r.layout.zero,
                                   layout::recompute_name(r.layout.recompute), r.layout.micro_batch,
                                   r.layout.ep > 1 ? fmt::format(", ep {}", r.layout.ep) : ""));
  const TargetBound& target = report.spec.hard_targets[failure.target];
  return fmt::format("{} {} {} {}, hard target '{}'", metric_spec(target.metric).name,
                     shown(target.metric, figure_of(r.figures, target.metric)), target.is_max ? ">" : "<",
                     shown(target.metric, target.bound), printable(target.name));
}

void render_solve_text(std::ostream& out, const SolveReport& report) {
  const SearchResult& search = report.search;
  out << fmt::format("{}: {} layouts of {} {} GPUs searched in {:.1f} ms, {} fit and meet the hard targets\n",
                     printable_path(report.path), search.layouts, report.inputs.count, printable(report.gpu),
                     report.search_seconds * 1e3, search.passing);
  out << fmt::format("minimize {}, then days, warnings (bubble over {:g}%, all-reduce over {:g}% of the step, tp "
                     "beyond the scale-up domain), soft targets missed, GPUs per model replica, exposed communication "
                     "and bubble, recompute, ZeRO stage, memory\n",
                     objective_name(report.spec.objective), report.spec.max_bubble * 100,
                     report.spec.max_comm_fraction * 100);
  for (const std::string& note : report.notes) out << "note: " << note << '\n';
  out << '\n';
  out << fmt::format("{:>4} {:>4} {:>4} {:>2} {:>4} {:>6} {:>4} {:>4} {:>4} {:<9} {:<3} {:>18} {:>7} {:>7} {:>8} {:>10}\n",
                     "#", "tp", "pp", "v", "cp", "dp", "ep", "b", "zero", "recompute", "sp", "memory / HBM",
                     "bubble", "comm", "days", "cost");
  std::size_t index = 0;
  for (const Solution& solution : report.solutions)
    out << row(std::to_string(++index), solution.ranked, report.inputs.hbm) << '\n';
  out << row("plan", report.current, report.inputs.hbm)
      << (report.current_failure ? "  (excluded)" : "") << '\n';

  if (!report.solutions.empty()) {
    const Solution& best = report.solutions.front();
    out << '\n'
        << (best.changes.empty() ? std::string("best: the plan's own layout")
                                 : fmt::format("best: {}", fmt::join(best.changes, ", ")))
        << '\n';
    for (const Metric metric :
         {Metric::train_memory_states, Metric::train_memory_activations, Metric::train_memory_reserve,
          Metric::train_memory_total, Metric::train_pipeline_bubble, Metric::train_comm_fraction,
          Metric::train_comm_alltoall_fraction, Metric::train_days, Metric::cost_total}) {
      const MetricValue* value = best.estimates.find(metric);
      if (!value) continue;
      out << fmt::format("  {} = {}\n", metric_spec(metric).name, printable(value->arithmetic.str()));
    }
  }
  if (!search.misses.empty()) {
    out << "\nexcluded families, nearest first:\n";
    for (const FamilyMiss& miss : search.misses)
      out << fmt::format("  {}: {}\n", family_text(miss.nearest.layout), failure_text(report, miss.nearest, miss.failure));
  }
  for (const std::string& line : report.unconfirmed)
    out << fmt::format("unconfirmed: {}\n", printable(line));
  if (report.solutions.empty()) {
    out << "\nno layout fits";
    if (!search.misses.empty())
      out << fmt::format(": the closest is {}, {}", family_text(search.misses.front().nearest.layout),
                         failure_text(report, search.misses.front().nearest, search.misses.front().failure));
    out << '\n';
  }
}

}  // namespace planlint::solve
