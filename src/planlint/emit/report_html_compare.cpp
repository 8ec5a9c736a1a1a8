/// The HTML report's comparison with an earlier version (`report --format html --compare-to
/// BASE`, docs/report.md): each plan of the change with its cost, days and GPUs before and
/// after, its findings introduced and fixed and its guardrails, then the totals. What
/// run_diff() found, shown as the diff's other formats show it (emit/diff_common.hpp).
#include <fmt/format.h>

#include "planlint/emit/diff_common.hpp"
#include "planlint/emit/report_html.hpp"
#include "planlint/svg/svg.hpp"

namespace planlint::detail {

namespace {

using svg::xml_text;

std::string figure_cells(const PlanDiff& plan, std::string_view name) {
  const FigureChange* figure = plan.figure(name);
  if (!figure) return "<td class=\"num\">—</td><td class=\"num\">—</td>";
  return fmt::format("<td class=\"num\">{}</td><td class=\"num\">{}</td>", xml_text(figure_side(*figure, false)),
                     xml_text(figure_side(*figure, true)));
}

std::string total_cells(const FigureChange& like, double before, double after) {
  return fmt::format("<td class=\"num\">{}</td><td class=\"num\">{}</td>", xml_text(figure_value(like, before)),
                     xml_text(figure_value(like, after)));
}

}  // namespace

void render_comparison(std::string& html, const DiffReport& diff) {
  html += fmt::format("<section class=\"comparison\" id=\"comparison\"><h2>Compared with <code>{}</code></h2>\n",
                      xml_text(diff.base_label));
  html += fmt::format("<p class=\"meta\">{}; {} plan{} unchanged.</p>\n", xml_text(change_count(diff)),
                      diff.unchanged_plans, diff.unchanged_plans == 1 ? "" : "s");
  if (diff.plans.empty()) {
    html += "</section>\n";
    return;
  }
  html += "<table class=\"comparison\"><thead><tr><th>plan</th><th>change</th><th class=\"num\">cost before</th>"
          "<th class=\"num\">cost after</th><th class=\"num\">days before</th><th class=\"num\">days after</th>"
          "<th class=\"num\">GPUs before</th><th class=\"num\">GPUs after</th><th>what moved</th></tr></thead><tbody>\n";
  for (const PlanDiff& plan : diff.plans) {
    const char* days = plan.figure("train.wall_days") ? "train.wall_days" : "train.days";
    html += fmt::format("<tr><td><code>{}</code></td><td>{}</td>{}{}{}<td>{}</td></tr>\n", xml_text(plan.name),
                        to_string(plan.status), figure_cells(plan, "cost.total"), figure_cells(plan, days),
                        figure_cells(plan, "cluster.count"), xml_text(plan_gist(plan)));
  }
  const FigureChange cost = total_figure("cost.total"), gpus = total_figure("cluster.count");
  html += fmt::format("</tbody><tfoot><tr><td>all</td><td></td>{}<td></td><td></td>{}<td>{}</td></tr></tfoot></table>\n",
                      total_cells(cost, diff.overall.base.cost, diff.overall.head.cost),
                      total_cells(gpus, diff.overall.base.gpus, diff.overall.head.gpus),
                      xml_text(total_change(diff.overall.base.cost, diff.overall.head.cost, cost)));
  std::string guardrails;
  for (const PlanDiff& plan : diff.plans)
    for (const Diagnostic& d : plan.guardrails)
      guardrails += fmt::format("<li><code>{}</code>, line {}: {}{}</li>\n", xml_text(plan.name),
                                d.primary.span.begin.line, xml_text(d.message),
                                d.suppression ? " (approved: " + xml_text(d.suppression->justification) + ")" : "");
  if (!guardrails.empty()) html += "<h3>Guardrails</h3>\n<ul class=\"guardrails\">\n" + guardrails + "</ul>\n";
  html += "</section>\n";
}

}  // namespace planlint::detail
