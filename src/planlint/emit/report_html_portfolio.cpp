// The HTML report's first page (docs/report.md): the grand total of the plans' costs, then the
// portfolio, one row per plan with its owner, status, figures, main cost driver, findings and
// last review, and the totals per GPU type. Money reads one way everywhere on the page
// (show_money); a days column holds days.
#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "planlint/diag/printable.hpp"
#include "planlint/emit/report_common.hpp"
#include "planlint/emit/report_html.hpp"
#include "planlint/estimate/engine.hpp"
#include "planlint/svg/svg.hpp"

namespace planlint::detail {

namespace {

using svg::xml_text;

std::string date_text(const std::optional<Date>& date) {
  return date ? fmt::format("{:04}-{:02}-{:02}", date->year, date->month, date->day) : "—";
}

/// A number cell: the figure as it reads, and in data-value as a number in the JSON report's
/// unit (seconds, GPU-hours, USD), for a reader that adds them up; data-low and data-high with
/// a range, which shows under the figure.
std::string number_cell(std::string_view column, const std::optional<double>& value, const std::string& text,
                        const std::optional<RangedFigure>& range = std::nullopt, std::string_view per = "") {
  if (!value) return fmt::format("<td class=\"num\" data-col=\"{}\">—</td>", column);
  std::string cell = fmt::format("<td class=\"num\" data-col=\"{}\" data-value=\"{:.6f}\"", column, *value);
  if (range) cell += fmt::format(" data-low=\"{:.6f}\" data-high=\"{:.6f}\"", range->low, range->high);
  cell += ">" + xml_text(text);
  if (!per.empty()) cell += "<br/><span class=\"sub\">" + xml_text(per) + "</span>";
  if (range && range->low != range->high)
    cell += "<br/><span class=\"sub\">" + xml_text(show_money_range(range->low, range->high)) + "</span>";
  return cell + "</td>";
}

/// Days as days, whatever their size: "1.03 d", never "24.8 h" (the JSON unit of train.days).
std::string days_text(double seconds) {
  const JsonValue days = metric_unit(&metric_spec(Metric::train_days), units::dims::seconds);
  return fmt::format("{:.3g} {}", seconds * days.scale, days.unit);
}

/// GPU-hours under a "GPU-hours" heading: the number in the metric's JSON unit ("28.9M").
std::string gpu_hours_text(double gpu_seconds) {
  const JsonValue hours = metric_unit(&metric_spec(Metric::train_gpu_hours), units::dims::gpu_seconds);
  return show_count(gpu_seconds * hours.scale);
}

std::string driver_cell(const PlanApproval& approval) {
  if (!approval.cost_driver) return "<td class=\"driver\">—</td>";
  const SensitivityBar& bar = approval.cost_driver->bar;
  const MetricSpec& metric = *approval.cost_driver->metric;
  // The key, and the cost at its two ends (the key's own ends are in the plan's tornado and
  // assumptions).
  return fmt::format("<td class=\"driver\" data-key=\"{}\" title=\"{} {} – {}: {} {}\">{}<br/><span "
                     "class=\"sub\">{}</span></td>",
                     xml_text(bar.key), xml_text(bar.key), xml_text(show_plan_value(bar.key, bar.key_low, bar.key_dim)),
                     xml_text(show_plan_value(bar.key, bar.key_high, bar.key_dim)), xml_text(metric.name),
                     xml_text(show_money_range(std::min(bar.at_low, bar.at_high), std::max(bar.at_low, bar.at_high))),
                     xml_text(bar.key),
                     xml_text(show_money_range(std::min(bar.at_low, bar.at_high), std::max(bar.at_low, bar.at_high))));
}

std::string findings_text(std::size_t errors, std::size_t warnings) {
  if (errors + warnings == 0) return "none";
  std::string text;
  if (errors) text += fmt::format("{} error{}", errors, errors == 1 ? "" : "s");
  if (warnings) text += fmt::format("{}{} warning{}", errors ? "<br/>" : "", warnings, warnings == 1 ? "" : "s");
  return text;
}

void render_grand_total(std::string& html, const GrandTotal& total) {
  html += "<table class=\"grand-total\"><thead><tr><th>grand total</th><th class=\"num\">training cost</th><th "
          "class=\"num\">serving cost per month</th><th class=\"num\">serving cost per year</th></tr></thead><tbody><tr>";
  html += fmt::format("<td>{} training plan{}, {} serving plan{}</td>", total.training_plans,
                      total.training_plans == 1 ? "" : "s", total.serving_plans, total.serving_plans == 1 ? "" : "s");
  const auto figure = [&](std::string_view column, std::size_t plans, const RangedFigure& sum) {
    html += plans ? number_cell(column, sum.value, show_money(sum.value), sum) : number_cell(column, std::nullopt, "");
  };
  figure("training_cost", total.training_plans, total.training_cost);
  figure("serving_month", total.serving_plans, total.serving_per_month);
  figure("serving_year", total.serving_plans, total.serving_per_year());
  html += "</tr></tbody></table>\n";
}

}  // namespace

std::string show_money(double usd) {
  static constexpr std::pair<double, std::string_view> scales[] = {{1e12, "T"}, {1e9, "B"}, {1e6, "M"}, {1e3, "K"}, {1, ""}};
  const double magnitude = std::fabs(usd);
  for (const auto& [scale, suffix] : scales) {
    // 999.6 rounds to 1000 at three figures: it reads as the next scale's 1.00.
    if (magnitude < scale * 0.9995 && scale != 1) continue;
    const double scaled = usd / scale;
    const double shown = std::fabs(scaled);
    const int decimals = shown >= 99.95 ? 0 : shown >= 9.995 ? 1 : 2;
    return fmt::format("${:.{}f}{}", scaled, decimals, suffix);
  }
  return "$0.00";
}

std::string show_money_range(double low, double high) {
  if (show_money(low) == show_money(high)) return show_money(low);
  return fmt::format("{} – {}", show_money(low), show_money(high));
}

std::string show_on_page(const MetricSpec& spec, double value) {
  return spec.dim == units::dims::usd ? show_money(value) : show_metric_value(spec, value);
}

std::string short_name(std::string_view name, std::size_t width) {
  const std::string shown = printable_lines(name);
  if (display_width(shown) <= width) return shown;
  std::size_t bytes = 0, characters = 0;
  for (; bytes < shown.size(); ++bytes)
    if ((static_cast<unsigned char>(shown[bytes]) & 0xC0) != 0x80 && ++characters == width) break;
  return shown.substr(0, bytes) + "…";
}

void render_portfolio(std::string& html, const HtmlReport& report) {
  const Portfolio& portfolio = report.portfolio;
  std::map<std::string_view, const HtmlPlan*> by_anchor;
  for (const HtmlPlan& plan : report.plans) by_anchor.emplace(plan.anchor, &plan);

  html += "<section id=\"portfolio\"><h2>Portfolio</h2>\n";
  render_grand_total(html, report.total);
  html += "<p class=\"meta\">Ordered by cost, dearest first. Days are wall-clock days (over the goodput); GPU-hours "
          "and cost are billed over them; a serving plan's cost is a month's. Under each cost, its range at the "
          "[[assumptions]] low and high ends; the main cost driver is the assumption whose range moves it most.</p>\n";
  html += "<table class=\"portfolio\"><thead><tr><th class=\"plan\">plan</th><th>owner, status</th><th "
          "class=\"num\">GPUs</th><th class=\"num\">days</th><th class=\"num\">GPU-hours</th><th "
          "class=\"num\">cost</th><th>main cost driver</th><th>findings</th><th>last review</th></tr></thead>\n<tbody>\n";
  for (const PortfolioPlan& row : portfolio.plans) {
    const auto found = by_anchor.find(row.anchor);
    const PlanApproval approval = found == by_anchor.end() ? PlanApproval{} : found->second->approval;
    html += fmt::format(
        "<tr data-plan=\"{}\" data-gpu=\"{}\"><td class=\"plan\"><a href=\"#{}\" title=\"{}\">{}</a><br/><span "
        "class=\"sub\">{}{}{}</span></td>",
        xml_text(row.name), xml_text(row.gpu), xml_text(row.anchor), xml_text(row.name), xml_text(short_name(row.name)),
        xml_text(row.kind), row.gpu.empty() ? "" : " · ", xml_text(short_name(row.gpu, 20)));
    html += fmt::format("<td>{}<br/><span class=\"sub status\">{}</span></td>",
                        approval.owner.empty() ? "—" : xml_text(short_name(approval.owner, 20)),
                        approval.status.empty() ? "no status" : xml_text(approval.status));
    html += number_cell("gpus", row.gpus, row.gpus ? show_count(*row.gpus) : "");
    html += number_cell("days", row.days, row.days ? days_text(*row.days) : "");
    html += number_cell("gpu_hours", row.gpu_hours ? std::optional<double>(*row.gpu_hours / 3600) : std::nullopt,
                        row.gpu_hours ? gpu_hours_text(*row.gpu_hours) : "");
    if (approval.training_cost || !approval.serving_per_month)
      html += number_cell("cost", row.cost, row.cost ? show_money(*row.cost) : "", approval.training_cost);
    else
      html += number_cell("serving_month", approval.serving_per_month->value, show_money(approval.serving_per_month->value),
                          approval.serving_per_month, "a month");
    html += driver_cell(approval);
    html += fmt::format("<td data-errors=\"{}\" data-warnings=\"{}\">{}</td><td class=\"date\">{}</td></tr>\n",
                        row.errors, row.warnings, findings_text(row.errors, row.warnings), date_text(row.last_reviewed));
  }
  html += "</tbody>\n<tfoot>\n";
  bool summed = false;  // a total's GPUs are a sum of plans that may not overlap
  for (const PortfolioTotal& total : portfolio.totals) {
    html += fmt::format("<tr class=\"total\" data-gpu=\"{}\"><td>total, <code>{}</code><br/><span class=\"sub\">{} "
                        "plan{}</span></td><td></td>",
                        xml_text(total.gpu), xml_text(short_name(total.gpu.empty() ? "(no GPU)" : total.gpu, 20)),
                        total.plans, total.plans == 1 ? "" : "s");
    const auto peak = std::find_if(report.peaks.begin(), report.peaks.end(),
                                   [&](const GpuPeak& candidate) { return candidate.gpu == total.gpu; });
    if (peak != report.peaks.end() && peak->dated) {
      html += number_cell("gpus", peak->gpus, show_count(peak->gpus),
                          std::nullopt, peak->from ? "at once from " + date_text(peak->from) : "");
    } else {
      html += number_cell("gpus", total.gpus, show_count(total.gpus) + (total.plans > 1 ? " *" : ""));
      summed = summed || total.plans > 1;
    }
    html += "<td></td>";
    const bool costed = total.costed_plans > 0;
    html += number_cell("gpu_hours", costed ? std::optional<double>(total.gpu_hours / 3600) : std::nullopt,
                        costed ? gpu_hours_text(total.gpu_hours) : "");
    html += number_cell("cost", costed ? std::optional<double>(total.cost) : std::nullopt,
                        costed ? show_money(total.cost) : "",
                        costed ? std::optional<RangedFigure>(RangedFigure{total.cost, total.cost_low, total.cost_high})
                               : std::nullopt);
    html += "<td colspan=\"3\"></td></tr>\n";
  }
  html += "</tfoot></table>\n";
  html += "<p class=\"note\">A total's GPUs are the most its plans hold at once: each plan from its "
          "<code>plan.start</code> for its days (a serving plan from its start on).";
  if (summed)
    html += " * Where a plan states no <code>plan.start</code>, the GPUs add up its plans' "
            "<code>cluster.count</code>: the GPUs needed at once only if the plans run at the same time.";
  html += "</p>\n";
  html += "</section>\n";
}

}  // namespace planlint::detail
