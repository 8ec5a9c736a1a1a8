#include "planlint/emit/report_html.hpp"

#include <fmt/format.h>

#include "planlint/emit/report_common.hpp"
#include "planlint/estimate/engine.hpp"
#include "planlint/svg/charts.hpp"
#include "planlint/svg/svg.hpp"

namespace planlint {

namespace {

using svg::xml_text;
using detail::show_on_page;
using detail::show_plan_value;

/// Screen and print: one column, tables that break across pages by row and fit a page 800 px
/// wide, charts that scale; in print, a heading stays with what follows it, and each plan
/// after the first page starts a page.
constexpr std::string_view style = R"(
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d2430; margin: 2em auto; max-width: 72em; padding: 0 1.5em; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { font-size: 1.3em; border-bottom: 2px solid #d8dee9; padding-bottom: 0.2em; margin-top: 2.2em; }
h3 { font-size: 1.05em; margin: 1.4em 0 0.4em; }
p.meta { color: #5b6475; margin-top: 0; }
table { border-collapse: collapse; width: 100%; margin: 0.4em 0 1em; font-variant-numeric: tabular-nums; }
th, td { text-align: left; padding: 0.25em 0.45em; border-bottom: 1px solid #e5e9f0; vertical-align: top; overflow-wrap: break-word; }
th { background: #f2f4f8; font-weight: 600; }
td.num, th.num, td.date { text-align: right; white-space: nowrap; }
td.date { text-align: left; }
table.portfolio, table.grand-total, table.assumptions { font-size: 0.9em; }
table.portfolio td.plan, td.source { overflow-wrap: anywhere; }
table.portfolio td.plan { min-width: 10em; }
td.driver .sub { white-space: nowrap; }
table.metrics { font-size: 0.9em; }
table.metrics td.arithmetic { min-width: 14em; }
table.metrics td.range { white-space: normal; }
table.grand-total td.num { font-size: 1.15em; font-weight: 600; }
.sub { color: #5b6475; font-size: 0.85em; font-weight: normal; }
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
.swatch { display: inline-block; width: 0.8em; height: 0.8em; vertical-align: -0.05em; }
.swatch.low-end { background: #88c0d0; } .swatch.high-end { background: #d08770; }
.swatch.target { width: 0; border-left: 2px dashed #b00020; }
figcaption { color: #5b6475; font-size: 0.9em; }
svg text { font: 12px system-ui, sans-serif; fill: #1d2430; }
svg .axis { fill: #5b6475; }
svg .track { fill: #eceff4; }
svg .part-0 { fill: #5e81ac; } svg .part-1 { fill: #d08770; } svg .part-2 { fill: #a3be8c; }
svg .part-3 { fill: #b48ead; } svg .part-4 { fill: #ebcb8b; } svg .part-5 { fill: #88c0d0; }
svg .capacity { stroke: #b00020; stroke-width: 2; }
svg .centre { stroke: #1d2430; stroke-width: 1.5; }
svg .target { stroke: #b00020; stroke-width: 2; stroke-dasharray: 5 3; }
svg .target-label { fill: #b00020; }
svg .low-end { fill: #88c0d0; } svg .high-end { fill: #d08770; }
@page { margin: 14mm 12mm; }
@media print {
  body { margin: 0; max-width: none; padding: 0; font-size: 10px; }
  h2 { margin-top: 0.8em; }
  section.plan { break-before: page; }
  section.plan.first { break-before: auto; }
  h1, h2, h3, p.meta { break-after: avoid; page-break-after: avoid; }
  tr, figure, pre.findings, table.grand-total { break-inside: avoid; page-break-inside: avoid; }
  thead { display: table-header-group; }
  a { color: inherit; text-decoration: none; }
}
)";

void render_targets(std::string& html, const std::vector<TargetResult>& targets) {
  if (targets.empty()) return;
  html += "<h3>Targets</h3>\n<table class=\"targets\"><thead><tr><th>target</th><th>metric</th><th>bound</th><th "
          "class=\"num\">planlint computes</th><th>kind</th><th>result</th></tr></thead><tbody>\n";
  for (const TargetResult& target : targets) {
    const std::string bound =
        target.bound && target.spec
            ? fmt::format("{} {}", target.is_max ? "at most" : "at least", show_on_page(*target.spec, *target.bound))
            : "—";
    const std::string value = target.value && target.spec ? show_on_page(*target.spec, *target.value) : "—";
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
    parts.push_back({part.bytes, fmt::format("{} {}", part.metric->name, detail::show_metric_value(*part.metric, part.bytes))});
  const std::string hbm = memory.hbm_bytes ? fmt::format("HBM {}", detail::show_metric_value(*memory.total, *memory.hbm_bytes))
                                           : std::string();
  html += "<h3>Memory per GPU</h3>\n<figure class=\"memory\">";
  html += svg::stacked_bar(parts, memory.hbm_bytes.value_or(0), hbm,
                           fmt::format("{} {} against the GPU's HBM", memory.total->name,
                                       detail::show_metric_value(*memory.total, memory.total_bytes)));
  html += fmt::format("<figcaption><code>{}</code> = {}{}</figcaption></figure>\n", memory.total->name,
                      detail::show_metric_value(*memory.total, memory.total_bytes),
                      memory.hbm_bytes ? fmt::format(", against {}", hbm) : std::string());
}

/// The hard targets on `metric`, as lines on its tornado: what an assumption's end must not cross.
std::vector<svg::TornadoMarker> hard_targets(const std::vector<TargetResult>& targets, const MetricSpec& metric) {
  std::vector<svg::TornadoMarker> markers;
  for (const TargetResult& target : targets)
    if (target.hard && target.bound && target.spec == &metric)
      markers.push_back({*target.bound, fmt::format("{}: {} {}", target.name, target.is_max ? "at most" : "at least",
                                                    show_on_page(metric, *target.bound))});
  return markers;
}

void render_tornado(std::string& html, const HtmlPlan& plan, Metric metric) {
  const ReportInput& input = plan.report;
  const MetricSensitivity* entry = input.sensitivity ? input.sensitivity->find(metric_spec(metric).name) : nullptr;
  const MetricValue* value = input.estimates->find(metric);
  if (!value) return;
  const MetricSpec& spec = metric_spec(metric);
  const std::vector<svg::TornadoMarker> targets = hard_targets(plan.targets, spec);
  html += fmt::format("<figure class=\"tornado\" data-metric=\"{}\">", spec.name);
  if (!entry || entry->bars.empty()) {
    html += fmt::format("<p class=\"note\"><code>{}</code> moves with no assumption that has a range.</p>", spec.name);
  } else {
    std::vector<svg::TornadoBar> bars;
    for (const SensitivityBar& bar : entry->bars)
      bars.push_back({fmt::format("{} {} → {}", bar.key, detail::show_plan_value(bar.key, bar.key_low, bar.key_dim),
                                  detail::show_plan_value(bar.key, bar.key_high, bar.key_dim)),
                      bar.at_low, bar.at_high, show_on_page(spec, bar.at_low), show_on_page(spec, bar.at_high)});
    html += svg::tornado(bars, value->value, show_on_page(spec, value->value),
                         fmt::format("{}: each assumption from its low to its high end", spec.name), targets);
  }
  html += fmt::format("<figcaption><code>{}</code> {}, each assumption from its <span class=\"swatch low-end\"></span> "
                      "low to its <span class=\"swatch high-end\"></span> high end, the others at the plan's values",
                      spec.name, xml_text(show_on_page(spec, value->value)));
  if (!targets.empty() && entry && !entry->bars.empty())
    html += "; <span class=\"swatch target\"></span> a hard target";
  if (entry && !entry->unranged.empty()) html += "; " + xml_text(detail::unranged_text(*entry));
  html += "</figcaption></figure>\n";
}

/// The plan's [[assumptions]]: each with its value, range, source and last check.
void render_assumptions(std::string& html, const Plan& plan) {
  if (plan.assumptions.empty()) return;
  html += "<h3>Assumptions</h3>\n<table class=\"assumptions\"><thead><tr><th>assumption</th><th>key</th><th "
          "class=\"num\">value</th><th class=\"num\">range</th><th>source</th><th>checked</th></tr></thead><tbody>\n";
  for (const PlanTable& assumption : plan.assumptions) {
    const auto text_of = [&](std::string_view key) -> std::string {
      const PlanValue* value = assumption.find(key);
      return value && value->text() ? *value->text() : std::string();
    };
    const std::string key = text_of("key");
    const auto shown = [&](std::string_view field) -> std::string {
      const PlanValue* value = assumption.find(field);
      if (!value) return "";
      if (const units::Quantity* q = value->quantity()) return show_plan_value(key, q->value, q->dim);
      return value->text() ? *value->text() : "";
    };
    const std::string low = shown("low"), high = shown("high");
    const std::string source = text_of("source");
    const PlanValue* updated = assumption.find("updated");
    const std::string checked = updated && updated->date()
                                    ? fmt::format("{:04}-{:02}-{:02}", updated->date()->year, updated->date()->month,
                                                  updated->date()->day)
                                    : "—";
    html += fmt::format("<tr><td>{}</td><td><code>{}</code></td><td class=\"num\">{}</td><td class=\"num\">{}</td><td "
                        "class=\"source\">{}</td><td class=\"date\">{}</td></tr>\n",
                        xml_text(text_of("id")), xml_text(key), xml_text(shown("value")),
                        low.empty() || high.empty() ? "—" : xml_text(low + " – " + high),
                        source.empty() ? "<span class=\"fail\">no source</span>" : xml_text(source), checked);
  }
  html += "</tbody></table>\n";
}

/// A metric's name that may break after its dots and underscores (`train.memory.<wbr/>total`),
/// so that a long one does not widen its column past the page.
std::string breakable_name(std::string_view name) {
  std::string out;
  for (const char c : xml_text(name)) {
    out += c;
    if (c == '.' || c == '_') out += "<wbr/>";
  }
  return out;
}

/// A money metric's value as the page shows money, else `text`.
std::string money_or(const MetricValue& metric, std::string text) {
  return metric.spec && metric.spec->dim == units::dims::usd ? detail::show_money(metric.value) : text;
}

/// `of_stage`: the table of a stage of a run in stages, under `heading_text`.
void render_metrics(std::string& html, const ReportInput& input, std::string_view heading_text = "Estimates",
                    bool of_stage = false) {
  html += "<h3>" + xml_text(heading_text) + "</h3>\n<table class=\"metrics\"><thead><tr><th></th><th>metric</th><th class=\"num\">value</th><th "
          "class=\"num\">range</th><th>arithmetic</th></tr></thead><tbody>\n";
  std::optional<ReportSection> heading;
  for (const MetricSpec* spec : detail::shown_metrics(input)) {
    const MetricValue* metric = input.estimates->find(spec->id);
    // A stage holds the run's totals too, which the run's own table shows.
    if (!metric || (of_stage && spec->section == ReportSection::run)) continue;
    std::string arithmetic = xml_text(metric->arithmetic.str());
    for (const std::string& note : metric->notes) arithmetic += "<br/><span class=\"note\">" + xml_text(note) + "</span>";
    html += fmt::format("<tr><td class=\"section\">{}</td><td><code>{}</code></td><td class=\"num\">{}</td><td "
                        "class=\"num range\">{}</td><td class=\"arithmetic\">{}</td></tr>\n",
                        heading == spec->section ? "" : section_title(spec->section), breakable_name(spec->name),
                        xml_text(money_or(*metric, detail::value_text(*metric))),
                        xml_text(metric->low && metric->high && spec->dim == units::dims::usd
                                     ? detail::show_money_range(*metric->low, *metric->high)
                                     : detail::range_text(*metric)),
                        arithmetic);
    heading = spec->section;
  }
  html += "</tbody></table>\n";
  if (!input.estimates->range_sources().empty()) {
    std::vector<std::string> sources;
    for (const RangeSource& source : input.estimates->range_sources()) sources.push_back(detail::range_source_text(source));
    html += "<p class=\"note\">Ranges at the [[assumptions]] low/high: " + xml_text(detail::join(sources, "; ")) + "</p>\n";
  }
}

/// "training plan · owner alice · approved · last review 2026-11-01 · plans/a.toml".
std::string plan_meta(const HtmlPlan& plan) {
  const PlanApproval& approval = plan.approval;
  std::string meta = fmt::format("{} plan", detail::kind_name(plan.report));
  meta += approval.owner.empty() ? " · no owner" : " · owner " + xml_text(approval.owner);
  meta += approval.status.empty() ? " · no status" : " · " + xml_text(approval.status);
  if (approval.last_review)
    meta += fmt::format(" · last review {:04}-{:02}-{:02}", approval.last_review->year, approval.last_review->month,
                        approval.last_review->day);
  return meta + fmt::format(" · <code>{}</code>", xml_text(plan.report.path));
}

void render_plan(std::string& html, const HtmlPlan& plan, bool first) {
  const ReportInput& input = plan.report;
  html += fmt::format("<section class=\"plan{}\" id=\"{}\"><h2>{}</h2>\n<p class=\"meta\">{}</p>\n",
                      first ? " first" : "", xml_text(plan.anchor), xml_text(detail::report_title(input)), plan_meta(plan));
  if (!input.corrections.empty())
    html += "<p class=\"meta\">" + xml_text(detail::corrections_text(input)) + ".</p>\n";
  if (plan.findings) {
    html += "<h3>Findings</h3>\n";
    if (plan.findings->empty()) html += "<p class=\"clean\">No findings.</p>\n";
    else html += "<pre class=\"findings\">" + xml_text(*plan.findings) + "</pre>\n";
  }
  render_targets(html, plan.targets);
  if (plan.memory) render_memory(html, *plan.memory);
  // A run in stages: its sensitivity is each stage's (not shown); its totals are below.
  if (detail::is_training(input) && input.plan && input.stages.empty()) {
    html += "<h3>What moves the cost and the days</h3>\n";
    render_tornado(html, plan, Metric::cost_total);
    render_tornado(html, plan, Metric::train_days);
    if (input.sensitivity && !input.sensitivity->target_breaks.empty()) {
      html += "<ul class=\"breaks\">\n";
      for (const TargetBreak& broken : input.sensitivity->target_breaks)
        html += "<li>" + xml_text(detail::target_break_text(broken)) + "</li>\n";
      html += "</ul>\n";
    }
  }
  if (input.plan) render_assumptions(html, *input.plan);
  render_metrics(html, input, input.stages.empty() ? "Estimates" : "Estimates of the whole run");
  // A run in stages: each stage's estimates as the plan it is.
  for (std::size_t i = 0; i < input.stages.size(); ++i) {
    const ReportStage& stage = input.stages[i];
    render_metrics(html, ReportInput{stage.plan, stage.estimates, input.path},
                   fmt::format("Stage {} of {}: {}", i + 1, input.stages.size(), stage.name), true);
  }
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
  const bool portfolio = report.plans.size() > 1;
  if (portfolio) detail::render_portfolio(html, report);
  if (report.comparison) detail::render_comparison(html, *report.comparison);
  // Without a portfolio, the plan starts on the first page, under the title.
  for (std::size_t i = 0; i < report.plans.size(); ++i)
    render_plan(html, report.plans[i], i == 0 && !portfolio && !report.comparison);
  html += "</body></html>\n";
  out << html;
}

}  // namespace planlint
