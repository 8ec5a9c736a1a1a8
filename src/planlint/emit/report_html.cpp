#include "planlint/emit/report_html.hpp"

#include <fmt/format.h>

#include "planlint/emit/report_common.hpp"
#include "planlint/estimate/engine.hpp"
#include "planlint/svg/charts.hpp"
#include "planlint/svg/svg.hpp"

namespace planlint {

namespace {

using svg::xml_text;
using detail::show_count;
using detail::show_metric_value;
using detail::show_plan_value;

/// Screen and print: one column, tables that break across pages by row, charts that scale.
constexpr std::string_view style = R"(
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d2430; margin: 2em auto; max-width: 72em; padding: 0 1.5em; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { font-size: 1.3em; border-bottom: 2px solid #d8dee9; padding-bottom: 0.2em; margin-top: 2.2em; }
h3 { font-size: 1.05em; margin: 1.4em 0 0.4em; }
p.meta { color: #5b6475; margin-top: 0; }
table { border-collapse: collapse; width: 100%; margin: 0.4em 0 1em; font-variant-numeric: tabular-nums; }
th, td { text-align: left; padding: 0.25em 0.6em; border-bottom: 1px solid #e5e9f0; vertical-align: top; }
th { background: #f2f4f8; font-weight: 600; }
td.num, th.num { text-align: right; white-space: nowrap; }
tfoot td { font-weight: 600; background: #f8f9fb; }
td.section { color: #5b6475; font-style: italic; }
code, pre { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 0.92em; }
pre.findings { background: #f8f9fb; border-left: 3px solid #bf616a; padding: 0.6em 0.8em; white-space: pre-wrap; overflow-wrap: anywhere; }
p.clean { color: #2e7d32; }
.pass { color: #2e7d32; font-weight: 600; }
.fail { color: #b00020; font-weight: 600; }
.unknown { color: #5b6475; }
.note { color: #5b6475; font-size: 0.9em; }
figure { margin: 0.6em 0 1.2em; }
figure svg { display: block; width: 100%; max-width: 720px; height: auto; }
td code { white-space: nowrap; }
.swatch { display: inline-block; width: 0.8em; height: 0.8em; vertical-align: -0.05em; }
.swatch.low-end { background: #88c0d0; } .swatch.high-end { background: #d08770; }
figcaption { color: #5b6475; font-size: 0.9em; }
svg text { font: 12px system-ui, sans-serif; fill: #1d2430; }
svg .axis { fill: #5b6475; }
svg .track { fill: #eceff4; }
svg .part-0 { fill: #5e81ac; } svg .part-1 { fill: #d08770; } svg .part-2 { fill: #a3be8c; }
svg .part-3 { fill: #b48ead; } svg .part-4 { fill: #ebcb8b; } svg .part-5 { fill: #88c0d0; }
svg .capacity { stroke: #b00020; stroke-width: 2; }
svg .centre { stroke: #1d2430; stroke-width: 1.5; }
svg .low-end { fill: #88c0d0; } svg .high-end { fill: #d08770; }
@media print { body { margin: 0; max-width: none; font-size: 11px; } section.plan { break-before: page; } tr, figure { break-inside: avoid; } a { color: inherit; text-decoration: none; } }
)";

std::string optional_value(const MetricSpec& spec, const std::optional<double>& value) {
  return value ? show_metric_value(spec, *value) : "—";
}

std::string date_text(const std::optional<Date>& date) {
  return date ? fmt::format("{:04}-{:02}-{:02}", date->year, date->month, date->day) : "—";
}

std::string cost_range(const std::optional<double>& low, const std::optional<double>& high) {
  if (!low || !high) return "—";
  const MetricSpec& cost = metric_spec(Metric::cost_total);
  if (*low == *high) return show_metric_value(cost, *low);
  return fmt::format("{} – {}", show_metric_value(cost, *low), show_metric_value(cost, *high));
}

/// A number cell: the figure as it reads, and in data-value as a number in the JSON report's
/// unit (seconds, GPU-hours, USD), for a reader that adds them up.
std::string number_cell(std::string_view column, const std::optional<double>& value, const std::string& text) {
  if (!value) return fmt::format("<td class=\"num\" data-col=\"{}\">{}</td>", column, xml_text(text));
  return fmt::format("<td class=\"num\" data-col=\"{}\" data-value=\"{:.6f}\">{}</td>", column, *value, xml_text(text));
}

std::string range_data(const std::optional<double>& low, const std::optional<double>& high) {
  if (!low || !high) return "";
  return fmt::format(" data-low=\"{:.6f}\" data-high=\"{:.6f}\"", *low, *high);
}

void render_portfolio(std::string& html, const Portfolio& portfolio) {
  const MetricSpec& days = metric_spec(Metric::train_days);
  const MetricSpec& hours = metric_spec(Metric::train_gpu_hours);
  const MetricSpec& cost = metric_spec(Metric::cost_total);
  html += "<section id=\"portfolio\"><h2>Portfolio</h2>\n";
  html += "<p class=\"meta\">Ordered by cost, dearest first. Days are wall-clock days (over the goodput); GPU-hours "
          "and cost are billed over them. The cost range is at the [[assumptions]] low and high ends.</p>\n";
  html += "<table class=\"portfolio\"><thead><tr><th>plan</th><th>kind</th><th class=\"num\">GPUs</th><th>GPU "
          "type</th><th class=\"num\">days</th><th class=\"num\">GPU-hours</th><th class=\"num\">cost</th><th "
          "class=\"num\">cost range</th><th class=\"num\">errors</th><th class=\"num\">warnings</th><th>last "
          "reviewed</th></tr></thead>\n<tbody>\n";
  for (const PortfolioPlan& plan : portfolio.plans) {
    html += fmt::format("<tr data-plan=\"{}\" data-gpu=\"{}\"><td><a href=\"#{}\">{}</a></td><td>{}</td>",
                        xml_text(plan.name), xml_text(plan.gpu), xml_text(plan.anchor), xml_text(plan.name),
                        xml_text(plan.kind));
    html += number_cell("gpus", plan.gpus, plan.gpus ? show_count(*plan.gpus) : "—");
    html += fmt::format("<td><code>{}</code></td>", xml_text(plan.gpu));
    html += number_cell("days", plan.days, optional_value(days, plan.days));
    html += number_cell("gpu_hours", plan.gpu_hours ? std::optional<double>(*plan.gpu_hours / 3600) : std::nullopt,
                        optional_value(hours, plan.gpu_hours));
    html += number_cell("cost", plan.cost, optional_value(cost, plan.cost));
    html += fmt::format("<td class=\"num\" data-col=\"cost_range\"{}>{}</td>", range_data(plan.cost_low, plan.cost_high),
                        cost_range(plan.cost_low, plan.cost_high));
    html += fmt::format("<td class=\"num\" data-col=\"errors\">{}</td><td class=\"num\" data-col=\"warnings\">{}</td><td>{}</td></tr>\n",
                        plan.errors, plan.warnings, date_text(plan.last_reviewed));
  }
  html += "</tbody>\n<tfoot>\n";
  for (const PortfolioTotal& total : portfolio.totals) {
    html += fmt::format("<tr class=\"total\" data-gpu=\"{}\"><td>total, {} plan{}</td><td></td>", xml_text(total.gpu),
                        total.plans, total.plans == 1 ? "" : "s");
    html += number_cell("gpus", total.gpus, show_count(total.gpus));
    html += fmt::format("<td><code>{}</code></td><td></td>", xml_text(total.gpu.empty() ? "(no GPU)" : total.gpu));
    const bool costed = total.costed_plans > 0;
    html += number_cell("gpu_hours", costed ? std::optional<double>(total.gpu_hours / 3600) : std::nullopt,
                        costed ? show_metric_value(hours, total.gpu_hours) : "—");
    html += number_cell("cost", costed ? std::optional<double>(total.cost) : std::nullopt,
                        costed ? show_metric_value(cost, total.cost) : "—");
    html += fmt::format("<td class=\"num\" data-col=\"cost_range\"{}>{}</td><td colspan=\"3\"></td></tr>\n",
                        costed ? range_data(total.cost_low, total.cost_high) : "",
                        costed ? cost_range(total.cost_low, total.cost_high) : "—");
  }
  html += "</tfoot></table></section>\n";
}

void render_targets(std::string& html, const std::vector<TargetResult>& targets) {
  if (targets.empty()) return;
  html += "<h3>Targets</h3>\n<table class=\"targets\"><thead><tr><th>target</th><th>metric</th><th>bound</th><th "
          "class=\"num\">planlint computes</th><th>kind</th><th>result</th></tr></thead><tbody>\n";
  for (const TargetResult& target : targets) {
    const std::string bound =
        target.bound && target.spec
            ? fmt::format("{} {}", target.is_max ? "at most" : "at least", show_metric_value(*target.spec, *target.bound))
            : "—";
    const std::string value = target.value && target.spec ? show_metric_value(*target.spec, *target.value) : "—";
    const std::string result = !target.met ? "<span class=\"unknown\">not computed</span>"
                               : *target.met ? "<span class=\"pass\">pass</span>"
                                             : "<span class=\"fail\">fail</span>";
    html += fmt::format("<tr><td>{}</td><td><code>{}</code></td><td>{}</td><td class=\"num\">{}</td><td>{}</td><td>{}</td></tr>\n",
                        xml_text(target.name), xml_text(target.metric), xml_text(bound), xml_text(value),
                        target.hard ? "hard" : "soft", result);
  }
  html += "</tbody></table>\n";
}

void render_memory(std::string& html, const MemoryBar& memory) {
  std::vector<svg::BarPart> parts;
  for (const MemoryBar::Part& part : memory.parts)
    parts.push_back({part.bytes, fmt::format("{} {}", part.metric->name, show_metric_value(*part.metric, part.bytes))});
  const std::string hbm = memory.hbm_bytes ? fmt::format("HBM {}", show_metric_value(*memory.total, *memory.hbm_bytes))
                                           : std::string();
  html += "<h3>Memory per GPU</h3>\n<figure class=\"memory\">";
  html += svg::stacked_bar(parts, memory.hbm_bytes.value_or(0), hbm,
                           fmt::format("{} {} against the GPU's HBM", memory.total->name,
                                       show_metric_value(*memory.total, memory.total_bytes)));
  html += fmt::format("<figcaption><code>{}</code> = {}{}</figcaption></figure>\n", memory.total->name,
                      show_metric_value(*memory.total, memory.total_bytes),
                      memory.hbm_bytes ? fmt::format(", against {}", hbm) : std::string());
}

void render_tornado(std::string& html, const ReportInput& input, Metric metric) {
  const MetricSensitivity* entry = input.sensitivity ? input.sensitivity->find(metric_spec(metric).name) : nullptr;
  const MetricValue* value = input.estimates->find(metric);
  if (!value) return;
  const MetricSpec& spec = metric_spec(metric);
  html += fmt::format("<figure class=\"tornado\" data-metric=\"{}\">", spec.name);
  if (!entry || entry->bars.empty()) {
    html += fmt::format("<p class=\"note\"><code>{}</code> moves with no assumption that has a range.</p>", spec.name);
  } else {
    std::vector<svg::TornadoBar> bars;
    for (const SensitivityBar& bar : entry->bars)
      bars.push_back({fmt::format("{} {} → {}", bar.key, detail::show_plan_value(bar.key, bar.key_low, bar.key_dim),
                                  detail::show_plan_value(bar.key, bar.key_high, bar.key_dim)),
                      bar.at_low, bar.at_high, show_metric_value(spec, bar.at_low), show_metric_value(spec, bar.at_high)});
    html += svg::tornado(bars, value->value, show_metric_value(spec, value->value),
                         fmt::format("{}: each assumption from its low to its high end", spec.name));
  }
  html += fmt::format("<figcaption><code>{}</code> {}, each assumption from its <span class=\"swatch low-end\"></span> "
                      "low to its <span class=\"swatch high-end\"></span> high end, the others at the plan's values",
                      spec.name, xml_text(show_metric_value(spec, value->value)));
  if (entry && !entry->unranged.empty()) html += "; " + xml_text(detail::unranged_text(*entry));
  html += "</figcaption></figure>\n";
}

void render_metrics(std::string& html, const ReportInput& input) {
  html += "<h3>Estimates</h3>\n<table class=\"metrics\"><thead><tr><th></th><th>metric</th><th class=\"num\">value</th><th "
          "class=\"num\">range</th><th>arithmetic</th></tr></thead><tbody>\n";
  std::optional<ReportSection> heading;
  for (const MetricSpec* spec : detail::shown_metrics(input)) {
    const MetricValue* metric = input.estimates->find(spec->id);
    if (!metric) continue;
    std::string arithmetic = xml_text(metric->arithmetic.str());
    for (const std::string& note : metric->notes) arithmetic += "<br/><span class=\"note\">" + xml_text(note) + "</span>";
    html += fmt::format("<tr><td class=\"section\">{}</td><td><code>{}</code></td><td class=\"num\">{}</td><td "
                        "class=\"num\">{}</td><td>{}</td></tr>\n",
                        heading == spec->section ? "" : section_title(spec->section), spec->name,
                        xml_text(detail::value_text(*metric)), xml_text(detail::range_text(*metric)), arithmetic);
    heading = spec->section;
  }
  html += "</tbody></table>\n";
  if (!input.estimates->range_sources().empty()) {
    std::vector<std::string> sources;
    for (const RangeSource& source : input.estimates->range_sources()) sources.push_back(detail::range_source_text(source));
    html += "<p class=\"note\">Ranges at the [[assumptions]] low/high: " + xml_text(detail::join(sources, "; ")) + "</p>\n";
  }
}

void render_plan(std::string& html, const HtmlPlan& plan) {
  const ReportInput& input = plan.report;
  html += fmt::format("<section class=\"plan\" id=\"{}\"><h2>{}</h2>\n<p class=\"meta\">{} plan, <code>{}</code></p>\n",
                      xml_text(plan.anchor), xml_text(detail::report_title(input)), detail::kind_name(input),
                      xml_text(input.path));
  if (plan.findings) {
    html += "<h3>Findings</h3>\n";
    if (plan.findings->empty()) html += "<p class=\"clean\">No findings.</p>\n";
    else html += "<pre class=\"findings\">" + xml_text(*plan.findings) + "</pre>\n";
  }
  render_targets(html, plan.targets);
  if (plan.memory) render_memory(html, *plan.memory);
  if (detail::is_training(input) && input.plan) {
    html += "<h3>What moves the cost and the days</h3>\n";
    render_tornado(html, input, Metric::cost_total);
    render_tornado(html, input, Metric::train_days);
    if (input.sensitivity && !input.sensitivity->target_breaks.empty()) {
      html += "<ul class=\"breaks\">\n";
      for (const TargetBreak& broken : input.sensitivity->target_breaks)
        html += "<li>" + xml_text(detail::target_break_text(broken)) + "</li>\n";
      html += "</ul>\n";
    }
  }
  render_metrics(html, input);
  html += "</section>\n";
}

}  // namespace

void render_html_report(std::ostream& out, const HtmlReport& report) {
  std::string html;
  html += "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\"><head><meta charset=\"utf-8\"/>"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>"
          "<title>planlint report</title><style>";
  html += style;
  html += "</style></head><body>\n<h1>planlint report</h1>\n";
  html += fmt::format("<p class=\"meta\">{} plan{}: the findings of <code>planlint check</code>, the recomputed "
                      "estimates with their ranges, and what each assumption moves.</p>\n",
                      report.plans.size(), report.plans.size() == 1 ? "" : "s");
  if (report.plans.size() > 1) render_portfolio(html, report.portfolio);
  if (report.comparison) detail::render_comparison(html, *report.comparison);
  for (const HtmlPlan& plan : report.plans) render_plan(html, plan);
  html += "</body></html>\n";
  out << html;
}

}  // namespace planlint
