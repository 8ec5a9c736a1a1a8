/// The diff for a terminal: a line of what changed, then each plan with its figures before →
/// after, the inputs, assumptions, findings and targets that moved and its guardrails, then the
/// totals. Every text from the plans is printable() (planlint/diag/printable.hpp).
#include <algorithm>
#include <sstream>

#include <fmt/format.h>

#include "planlint/diag/printable.hpp"
#include "planlint/emit/diff_common.hpp"
#include "planlint/emit/report_common.hpp"
#include "planlint/emit/text.hpp"

namespace planlint::detail {

namespace {

/// The head file of `path`: a search of the sources, which are sorted by path, as a plan's
/// findings ask for their file each.
const std::shared_ptr<const SourceFile>* held_source_of(const DiffReport& report, const std::string& path) {
  const auto found = std::lower_bound(report.head_sources.begin(), report.head_sources.end(), path,
                                      [](const auto& source, const std::string& p) { return source->path() < p; });
  return found != report.head_sources.end() && (*found)->path() == path ? &*found : nullptr;
}

const SourceFile* source_of(const DiffReport& report, const std::string& path) {
  const std::shared_ptr<const SourceFile>* held = held_source_of(report, path);
  return held ? held->get() : nullptr;
}

std::string where(const PlanDiff& plan) {
  switch (plan.status) {
    case PlanStatus::added: return fmt::format("{}:{}", printable_path(plan.head_file), plan.head_line);
    case PlanStatus::removed: return fmt::format("{}:{}", printable_path(plan.base_file), plan.base_line);
    case PlanStatus::renamed:
      return fmt::format("{} → {}:{}", printable_path(plan.base_file), printable_path(plan.head_file), plan.head_line);
    case PlanStatus::changed: return fmt::format("{}:{}", printable_path(plan.head_file), plan.head_line);
  }
  return "";
}

void render_figures(std::ostream& out, const PlanDiff& plan) {
  std::size_t label_width = 0, before_width = 0;
  for (const FigureChange& figure : plan.figures) {
    label_width = std::max(label_width, display_width(figure.label));
    before_width = std::max(before_width, display_width(figure_side(figure, false)));
  }
  for (const FigureChange& figure : plan.figures) {
    std::string line = fmt::format("    {}  {} → {}", pad(figure.label, label_width),
                                   pad(figure_side(figure, false), before_width), figure_side(figure, true));
    if (const std::string change = figure_change(figure); !change.empty()) line += "   " + change;
    out << line << '\n';
  }
}

void render_inputs(std::ostream& out, const PlanDiff& plan) {
  if (plan.inputs.empty()) return;
  out << "  inputs changed\n";
  for (const InputChange& input : plan.inputs)
    out << fmt::format("    {}: {} → {}  (line {})\n", printable(input.key), printable(input.base_text.value_or("unset")),
                       printable(input.head_text.value_or("unset")),
                       input.head_line ? std::to_string(input.head_line) : "base " + std::to_string(input.base_line));
}

void render_assumptions(std::ostream& out, const PlanDiff& plan) {
  if (plan.assumptions.empty()) return;
  out << "  assumptions\n";
  for (const AssumptionChange& a : plan.assumptions) {
    std::string range;
    if (a.kind == AssumptionChange::Kind::added) range = printable(a.head_range.value_or(""));
    else if (a.kind == AssumptionChange::Kind::removed) range = printable(a.base_range.value_or(""));
    else range = printable(a.base_range.value_or("")) + " → " + printable(a.head_range.value_or(""));
    out << fmt::format("    {} ({}): {}{}, {}\n", printable(a.id), printable(a.key), to_string(a.kind),
                       changed_fields(a), range);
  }
}

void render_findings(std::ostream& out, const DiffReport& report, const PlanDiff& plan) {
  if (plan.introduced.empty() && plan.resolved.empty() && plan.unchanged.empty()) return;
  out << fmt::format("  findings: {} introduced, {} resolved, {} unchanged\n", plan.introduced.size(),
                     plan.resolved.size(), plan.unchanged.size());
  for (const DiffFinding& finding : plan.introduced)
    out << "    + " << concise_line(finding.diagnostic, source_of(report, finding.diagnostic.primary.file)) << '\n';
  for (const DiffFinding& finding : plan.resolved)
    out << "    - " << concise_line(finding.diagnostic, nullptr) << "  (before)\n";
}

void render_targets(std::ostream& out, const PlanDiff& plan) {
  if (plan.targets.empty()) return;
  out << "  targets\n";
  for (const TargetFlip& target : plan.targets) {
    std::string value;
    if (target.head_value)
      value = fmt::format(" ({})", target.spec ? figure_value(total_figure(target.spec->name), *target.head_value)
                                               : std::to_string(*target.head_value));
    out << fmt::format("    {}: {} → {}{}\n", printable(target_text(target)), met_text(target.base_met),
                       met_text(target.head_met), value);
  }
}

void render_guardrails(std::ostream& out, const DiffReport& report, const PlanDiff& plan, const DiffStyle& style) {
  if (plan.guardrails.empty()) return;
  out << "  guardrails\n";
  Report shown;
  for (const Diagnostic& d : plan.guardrails) {
    if (d.suppression) {
      out << fmt::format("    approved: {} -- {}\n", concise_line(d, source_of(report, d.primary.file)),
                         printable(d.suppression->justification));
      continue;
    }
    shown.diagnostics.push_back(d);
  }
  if (shown.diagnostics.empty()) return;
  if (const std::shared_ptr<const SourceFile>* held = held_source_of(report, plan.head_file))
    shown.files.push_back(*held);
  std::ostringstream text;
  TextStyle text_style;
  text_style.color = style.color;
  text_style.quiet = true;
  TextEmitter emitter(text, text_style);
  emitter.file(shown.files.empty() ? nullptr : shown.files.front(), shown.diagnostics);
  std::istringstream lines(text.str());
  for (std::string line; std::getline(lines, line);) out << "    " << line << '\n';
}

void render_totals(std::ostream& out, const DiffReport& report) {
  const FigureChange cost = total_figure("cost.total"), hours = total_figure("cost.gpu_hours_billed"),
                     gpus = total_figure("cluster.count");
  auto line = [&](std::string_view name, const PortfolioTotal& base, const PortfolioTotal& head) {
    const bool costed = base.costed_plans + head.costed_plans > 0;
    out << fmt::format("  {}: cost {}; GPU-hours {}; GPUs {}\n", name, total_transition(cost, base.cost, head.cost, costed),
                       total_transition(hours, base.gpu_hours, head.gpu_hours, costed),
                       total_transition(gpus, base.gpus, head.gpus, true));
  };
  out << fmt::format("\ntotals of the {} plan{} of the change\n", report.plans.size(),
                     report.plans.size() == 1 ? "" : "s");
  for (const TotalChange& total : report.totals)
    line(total.gpu.empty() ? "no GPU stated" : printable(total.gpu), total.base, total.head);
  line("all", report.overall.base, report.overall.head);
}

}  // namespace

void render_diff_text(std::ostream& out, const DiffReport& report, const DiffStyle& style) {
  const std::string sides = fmt::format("{} → {}", printable_line_start(report.base_label), printable(report.head_label));
  if (report.plans.empty()) {
    out << fmt::format("{}: no change ({} plan{} unchanged)\n", sides, report.unchanged_plans,
                       report.unchanged_plans == 1 ? "" : "s");
    return;
  }
  out << fmt::format("{}: {}, {} unchanged\n", sides, change_count(report), report.unchanged_plans);
  for (const PlanDiff& plan : report.plans) {
    out << fmt::format("\n{} ({}): {}, {}\n", printable_line_start(plan.name), plan.kind, to_string(plan.status),
                       where(plan));
    out << "  " << plan_gist(plan) << '\n';
    if (const std::string note = corrections_note(plan); !note.empty()) out << "  " << printable(note) << '\n';
    render_figures(out, plan);
    render_inputs(out, plan);
    render_assumptions(out, plan);
    render_findings(out, report, plan);
    render_targets(out, plan);
    render_guardrails(out, report, plan, style);
  }
  render_totals(out, report);
}

}  // namespace planlint::detail
