/// The diff as a pull-request comment (GitHub-flavoured Markdown): the hidden marker a script
/// finds the comment by, a summary table of every plan first (the largest cost change first),
/// the totals, then one collapsible section per plan. Plan text is escaped as the Markdown
/// report escapes it (code spans, markdown_text; xml_escape inside the HTML of a <summary>), so
/// a plan adds no HTML, link or image. The comment stays under style.markdown_limit: sections
/// that do not fit are left out with a note saying how many.
#include <algorithm>
#include <cmath>
#include <sstream>

#include <fmt/format.h>

#include "planlint/diag/printable.hpp"
#include "planlint/emit/diff_common.hpp"
#include "planlint/emit/junit.hpp"
#include "planlint/estimate/engine.hpp"

namespace planlint::detail {

namespace {

std::string code(std::string_view text) { return markdown_code_span(text); }
std::string cell(std::string_view text) { return markdown_text(text); }

std::string figure_cell(const PlanDiff& plan, std::string_view label, std::string_view suffix = "") {
  for (const FigureChange& figure : plan.figures)
    if (figure.label == label) {
      std::string text = cell(figure_side(figure, false)) + " → " + cell(figure_side(figure, true)) + std::string(suffix);
      if (figure.base && figure.head && figure.changed())
        if (const std::optional<double> fraction = figure.change_fraction())
          text += fmt::format(" ({}{})", *fraction < 0 ? "−" : "+", cell(show_percent(std::fabs(*fraction))));
      return text;
    }
  return "";
}

/// The cost column: a training plan's cost, else a serving plan's cost of a month.
std::string cost_cell(const PlanDiff& plan) {
  if (plan.figure("cost.total")) return figure_cell(plan, "cost");
  return figure_cell(plan, "serving cost per month", " a month");
}

std::string findings_cell(const PlanDiff& plan) {
  std::string text;
  if (!plan.introduced.empty()) text += fmt::format("+{} new", plan.introduced.size());
  if (!plan.resolved.empty()) text += fmt::format("{}−{} fixed", text.empty() ? "" : ", ", plan.resolved.size());
  return text;
}

std::string guardrail_cell(const PlanDiff& plan) {
  std::size_t open = 0, approved = 0;
  for (const Diagnostic& d : plan.guardrails) (d.suppression ? approved : open)++;
  if (open > 0) return fmt::format("**{} exceeded**", open);
  if (approved > 0) return fmt::format("{} approved", approved);
  return "";
}

std::string plan_place(const PlanDiff& plan) {
  switch (plan.status) {
    case PlanStatus::removed: return fmt::format("{} line {}", code(plan.base_file), plan.base_line);
    case PlanStatus::renamed: return fmt::format("{} → {} line {}", code(plan.base_file), code(plan.head_file), plan.head_line);
    default: return fmt::format("{} line {}", code(plan.head_file), plan.head_line);
  }
}

double cost_change(const PlanDiff& plan) {
  const FigureChange* cost = plan.figure("cost.total");
  if (!cost) cost = plan.figure("infer.cost_per_month");
  return cost ? std::fabs(cost->head.value_or(0) - cost->base.value_or(0)) : 0;
}

std::string summary_table(const std::vector<const PlanDiff*>& order, std::size_t rows) {
  std::string out = "| plan | | cost | GPU-hours | days | GPUs | memory per GPU | findings | guardrails |\n"
                    "|---|---|---|---|---|---|---|---|---|\n";
  for (std::size_t i = 0; i < std::min(rows, order.size()); ++i) {
    const PlanDiff& plan = *order[i];
    out += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", code(plan.name), to_string(plan.status),
                       cost_cell(plan), figure_cell(plan, "GPU-hours"), figure_cell(plan, "days"),
                       figure_cell(plan, "GPUs"), figure_cell(plan, "memory per GPU"), findings_cell(plan),
                       guardrail_cell(plan));
  }
  if (rows < order.size()) out += fmt::format("| *… {} more plans* | | | | | | | | |\n", order.size() - rows);
  return out;
}

std::string totals(const DiffReport& report) {
  const FigureChange cost = total_figure("cost.total"), hours = total_figure("cost.gpu_hours_billed"),
                     gpus = total_figure("cluster.count");
  std::string out = "| totals | cost | GPU-hours | GPUs |\n|---|---|---|---|\n";
  auto row = [&](const std::string& name, const PortfolioTotal& base, const PortfolioTotal& head) {
    const bool costed = base.costed_plans + head.costed_plans > 0;
    out += fmt::format("| {} | {} | {} | {} |\n", name, total_transition(cost, base.cost, head.cost, costed, cell),
                       total_transition(hours, base.gpu_hours, head.gpu_hours, costed, cell),
                       total_transition(gpus, base.gpus, head.gpus, true, cell));
  };
  for (const TotalChange& total : report.totals)
    row(total.gpu.empty() ? "no GPU stated" : code(total.gpu), total.base, total.head);
  row("**all**", report.overall.base, report.overall.head);
  return out;
}

std::string details(const PlanDiff& plan) {
  std::string out = fmt::format("<details><summary><code>{}</code> ({}): {}</summary>\n\n", xml_escape(plan.name),
                                to_string(plan.status), xml_escape(plan_gist(plan)));
  out += fmt::format("{} plan, {}.\n\n", plan.kind, plan_place(plan));
  if (const std::string note = corrections_note(plan); !note.empty()) out += fmt::format("*{}.*\n\n", cell(note));
  if (!plan.figures.empty()) {
    out += "| figure | before | after | change |\n|---|---|---|---|\n";
    for (const FigureChange& figure : plan.figures)
      out += fmt::format("| {} | {} | {} | {} |\n", cell(figure.label), cell(figure_side(figure, false)),
                         cell(figure_side(figure, true)), cell(figure_change(figure)));
    out += '\n';
  }
  if (!plan.inputs.empty()) {
    out += "**Inputs changed**\n\n| key | before | after | line |\n|---|---|---|---|\n";
    for (const InputChange& input : plan.inputs)
      out += fmt::format("| {} | {} | {} | {} |\n", code(input.key),
                         input.base_text ? code(*input.base_text) : "*unset*",
                         input.head_text ? code(*input.head_text) : "*unset*",
                         input.head_line ? std::to_string(input.head_line) : fmt::format("was {}", input.base_line));
    out += '\n';
  }
  if (!plan.assumptions.empty()) {
    out += "**Assumptions**\n\n";
    for (const AssumptionChange& a : plan.assumptions) {
      std::string range;
      if (a.kind == AssumptionChange::Kind::added) range = code(a.head_range.value_or(""));
      else if (a.kind == AssumptionChange::Kind::removed) range = code(a.base_range.value_or(""));
      else range = code(a.base_range.value_or("")) + " → " + code(a.head_range.value_or(""));
      out += fmt::format("- {} ({}): {}{}, {}\n", code(a.id), code(a.key), to_string(a.kind), cell(changed_fields(a)),
                         range);
    }
    out += '\n';
  }
  if (!plan.introduced.empty() || !plan.resolved.empty() || !plan.unchanged.empty()) {
    out += fmt::format("**Findings**: {} introduced, {} resolved, {} unchanged\n\n", plan.introduced.size(),
                       plan.resolved.size(), plan.unchanged.size());
    auto finding = [&](std::string_view mark, const Diagnostic& d) {
      out += fmt::format("- {} {}, line {}: {} ({})\n", mark, to_string(d.severity), d.primary.span.begin.line,
                         cell(d.message), code(d.rule));
    };
    for (const DiffFinding& f : plan.introduced) finding("**new**", f.diagnostic);
    for (const DiffFinding& f : plan.resolved) finding("fixed", f.diagnostic);
    out += '\n';
  }
  if (!plan.targets.empty()) {
    out += "**Targets**\n\n";
    for (const TargetFlip& target : plan.targets)
      out += fmt::format("- {}: {} → **{}**\n", cell(target_text(target)), met_text(target.base_met),
                         met_text(target.head_met));
    out += '\n';
  }
  if (!plan.guardrails.empty()) {
    out += "**Guardrails**\n\n";
    for (const Diagnostic& d : plan.guardrails) {
      if (d.suppression)
        out += fmt::format("- approved, line {}: {}: *{}*\n", d.primary.span.begin.line, cell(d.message),
                           cell(d.suppression->justification));
      else
        out += fmt::format("- **exceeded**, line {}: {} ({})\n", d.primary.span.begin.line, cell(d.message), code(d.rule));
    }
    out += '\n';
  }
  out += "</details>\n";
  return out;
}

}  // namespace

void render_diff_markdown(std::ostream& out, const DiffReport& report, const DiffStyle& style) {
  std::string head = std::string(diff_comment_marker) + "\n";
  head += fmt::format("### planlint diff: {}\n\n", change_count(report));
  head += fmt::format("{} → {}; {} plan{} unchanged.\n\n", code(report.base_label), code(report.head_label),
                      report.unchanged_plans, report.unchanged_plans == 1 ? "" : "s");
  if (report.plans.empty()) {
    out << head;
    return;
  }
  std::size_t open = 0;
  for (const PlanDiff& plan : report.plans)
    for (const Diagnostic& d : plan.guardrails)
      if (!d.suppression) ++open;
  if (open > 0)
    head += fmt::format("> **{} guardrail{} exceeded**: approve each on its line with `# planlint: allow "
                        "guardrail-exceeded -- <reason>`, or change the plan.\n\n",
                        open, open == 1 ? "" : "s");

  std::vector<const PlanDiff*> order;
  for (const PlanDiff& plan : report.plans) order.push_back(&plan);
  std::stable_sort(order.begin(), order.end(),
                   [](const PlanDiff* a, const PlanDiff* b) { return cost_change(*a) > cost_change(*b); });

  // What must fit: the heading, the table and the totals, then as many sections as fit, then
  // the note. A table too long by itself loses its last rows first.
  const std::string total_table = totals(report);
  const std::size_t note_room = 200;
  std::size_t rows = order.size();
  std::string table = summary_table(order, rows);
  while (rows > 0 && head.size() + table.size() + total_table.size() + note_room > style.markdown_limit) {
    rows = rows > 64 ? rows - rows / 8 : rows - 1;
    table = summary_table(order, rows);
  }
  std::string body = head + table + "\n" + total_table + "\n";
  std::size_t shown = 0;
  for (const PlanDiff* plan : order) {
    const std::string section = details(*plan);
    if (body.size() + section.size() + note_room > style.markdown_limit) break;
    body += section;
    ++shown;
  }
  if (shown < order.size())
    body += fmt::format("\n*{} more plan{} not shown here (the comment's size limit): run `planlint diff` for the "
                        "whole of it.*\n",
                        order.size() - shown, order.size() - shown == 1 ? "" : "s");
  out << body;
}

}  // namespace planlint::detail
