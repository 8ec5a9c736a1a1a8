/// The report's sections, the shared helpers of its renderers, and the text renderer.
#include "planlint/emit/report.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "planlint/diag/printable.hpp"
#include "planlint/emit/format_rows.hpp"
#include "planlint/emit/report_common.hpp"
#include "planlint/emit/report_html.hpp"
#include "planlint/estimate/engine.hpp"

namespace planlint {

namespace {
constexpr ReportFormatSpec report_format_table[] = {
    {"text", ReportFormat::text},
    {"markdown", ReportFormat::markdown},
    {"json", ReportFormat::json},
    {"html", ReportFormat::html, true},
};
}  // namespace

std::span<const ReportFormatSpec> report_formats() { return report_format_table; }

std::vector<std::string> report_format_names() { return row_names<ReportFormatSpec>(report_format_table); }

const ReportFormatSpec* find_report_format(std::string_view name) {
  if (name == "md") name = "markdown";  // the library's alias; the command line lists the names
  return find_row<ReportFormatSpec>(report_format_table, name);
}

std::optional<ReportFormat> parse_report_format(std::string_view name) {
  if (const ReportFormatSpec* format = find_report_format(name)) return format->format;
  return std::nullopt;
}

void render_report(std::ostream& out, const ReportInput& input, ReportFormat format) {
  static const Estimates none;
  ReportInput complete = input;
  if (!complete.estimates) complete.estimates = &none;
  switch (format) {
    case ReportFormat::text: return detail::render_text(out, complete);
    case ReportFormat::markdown: return detail::render_markdown(out, complete);
    case ReportFormat::json: return detail::render_json(out, complete);
    case ReportFormat::html: {
      HtmlReport page;
      HtmlPlan& plan = page.plans.emplace_back();
      plan.report = complete;
      plan.anchor = "plan-1";
      return render_html_report(out, page);
    }
  }
}

std::vector<ReportStage> report_stages(const Plan& plan, const std::vector<Estimates>& stage_estimates) {
  std::vector<ReportStage> stages;
  for (std::size_t i = 0; i < plan.stages.size() && i < stage_estimates.size(); ++i)
    stages.push_back(ReportStage{plan.stages[i].name, plan.stages[i].plan.get(), &stage_estimates[i]});
  return stages;
}

namespace detail {

std::string report_title(const ReportInput& input) {
  if (input.plan)
    if (auto name = input.plan->text("plan.name")) return *name;
  return input.path;
}

std::string_view kind_name(const ReportInput& input) {
  if (!input.plan) return "unknown";
  switch (input.plan->kind) {
    case PlanKind::training: return "training";
    case PlanKind::finetune: return "finetune";
    case PlanKind::inference: return "inference";
  }
  return "training";
}

std::string errors_count_text(std::size_t count) {
  return count == 1 ? std::string("1 error") : fmt::format("{} errors", count);
}

bool is_training(const ReportInput& input) { return !input.plan || input.plan->is_training(); }

std::string errors_consequence(bool has_numbers, bool corrected) {
  if (has_numbers && corrected)
    return "the numbers below are what it implies with the inputs its findings' fixes correct, not a plan that holds";
  return has_numbers ? "the numbers below are what it implies as written, not a plan that holds"
                     : "planlint computes no numbers from it until it is fixed";
}

std::string corrections_text(const ReportInput& input) {
  if (input.corrections.empty()) return {};
  return fmt::format("the figures below are computed once {} ({}), not from the value{} the plan states",
                     once_text(input.corrections), fixes_text(input.corrections),
                     input.corrections.size() == 1 ? "" : "s");
}

bool has_numbers(const ReportInput& input, const std::vector<const MetricSpec*>& shown) {
  return std::any_of(shown.begin(), shown.end(),
                     [&](const MetricSpec* spec) { return input.estimates->find(spec->id) != nullptr; });
}

std::vector<const MetricSpec*> shown_metrics(const ReportInput& input) {
  std::vector<const MetricSpec*> shown;
  for (const MetricSpec& metric : metric_table())
    if (shows_section(metric.section, is_training(input))) shown.push_back(&metric);
  return shown;
}

std::string value_text(const MetricValue& metric) {
  return show_metric_value(metric, metric.value);
}

namespace {
/// "7.68 d" → {"7.68", " d"}; "$7.69M" → {"$7.69M", ""}.
std::pair<std::string, std::string> split_unit(const std::string& text) {
  const auto space = text.find(' ');
  if (space == std::string::npos) return {text, ""};
  return {text.substr(0, space), text.substr(space)};
}
}  // namespace

std::string range_text(const MetricValue& metric) {
  if (!metric.has_range()) return "";
  const auto [low, low_unit] = split_unit(show_metric_value(metric, *metric.low));
  const auto [high, high_unit] = split_unit(show_metric_value(metric, *metric.high));
  if (low_unit == high_unit) return fmt::format("{}–{}{}", low, high, low_unit);
  // Both ends in the high end's unit ("1.921–3.07 d", not "46.1 h – 3.07 d"), where the low
  // end reads in it.
  if (!high_unit.empty() && !(metric.spec && metric.spec->fraction))
    if (const std::string in_high = units::format_in(*metric.low, metric.dim, high_unit); !in_high.empty())
      if (const auto [low_number, unit] = split_unit(in_high); unit == high_unit)
        return fmt::format("{}–{}{}", low_number, high, high_unit);
  return fmt::format("{}{} – {}{}", low, low_unit, high, high_unit);
}

std::string range_source_text(const RangeSource& source) {
  const std::string low = show_plan_value(source.key, source.low, source.dim);
  const std::string high = show_plan_value(source.key, source.high, source.dim);
  if (source.assumption.empty()) return fmt::format("{} {}–{}", source.key, low, high);
  return fmt::format("{} {}–{} (assumption {})", source.key, low, high, source.assumption);
}

std::string join(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (const std::string& item : items) {
    if (!out.empty()) out += separator;
    out += item;
  }
  return out;
}

std::size_t display_width(std::string_view text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

std::string pad(std::string_view text, std::size_t width) {
  std::string out(text);
  const std::size_t shown = display_width(text);
  if (shown < width) out.append(width - shown, ' ');
  return out;
}

void render_text(std::ostream& out, const ReportInput& input, std::string_view stage_heading) {
  const Estimates& estimates = *input.estimates;
  const std::vector<const MetricSpec*> shown = shown_metrics(input);

  // One set of column widths for the whole report, so the sections line up.
  std::size_t name_width = 0, value_width = 0, range_width = 0;
  for (const MetricSpec* spec : shown)
    if (const MetricValue* metric = estimates.find(spec->id)) {
      name_width = std::max(name_width, spec->name.size());
      value_width = std::max(value_width, display_width(value_text(*metric)));
      range_width = std::max(range_width, display_width(range_text(*metric)));
    }

  // The plan's text is printable(), and its name, which begins the first line, cannot start a
  // GitHub workflow command.
  const bool numbers = has_numbers(input, shown);
  if (!stage_heading.empty())
    out << '\n' << printable(stage_heading) << '\n';
  else if (input.plan)
    out << fmt::format("{}: {} estimates ({})\n", printable_line_start(report_title(input)), kind_name(input),
                       printable(input.path));
  else
    out << fmt::format("{}: no estimates\n", printable_line_start(input.path));
  if (!input.errors.empty()) {
    out << fmt::format("\nerror: the plan has {} (`planlint check` explains each); {}:\n",
                       errors_count_text(input.errors.size()), errors_consequence(numbers, !input.corrections.empty()));
    for (const ReportError& error : input.errors)
      out << fmt::format("  {}{} [{}]\n", error.line ? fmt::format("{}:{}: ", error.line, error.column) : "",
                         printable(error.message), printable(error.rule));
  }
  if (numbers && !input.corrections.empty()) out << fmt::format("\nnote: {}\n", printable(corrections_text(input)));
  std::optional<ReportSection> heading;  // the section whose heading is out
  for (const MetricSpec* spec : shown) {
    const MetricValue* metric = estimates.find(spec->id);
    // A stage holds the run's totals too, which the run's own section shows.
    if (!metric || (!stage_heading.empty() && spec->section == ReportSection::run)) continue;
    if (heading != spec->section) out << '\n' << section_title(spec->section) << '\n';
    heading = spec->section;
    std::string line = "  " + pad(spec->name, name_width) + "  " + pad(value_text(*metric), value_width);
    if (range_width > 0) line += "  " + pad(range_text(*metric), range_width);
    line += "  " + printable(metric->arithmetic.str());
    out << line << '\n';
    for (const std::string& note : metric->notes)
      out << std::string(name_width + 4, ' ') << "note: " << printable(note) << '\n';
  }
  if (!estimates.range_sources().empty()) {
    std::vector<std::string> sources;
    for (const RangeSource& source : estimates.range_sources())
      sources.push_back(range_source_text(source));
    out << "\nRanges at the [[assumptions]] low/high: " << printable(join(sources)) << '\n';
  }
  render_sensitivity_text(out, input);

  std::vector<std::pair<std::string_view, const std::vector<std::string>*>> absent;
  for (const MetricSpec* spec : shown)
    if (const std::vector<std::string>* missing = estimates.missing_inputs(spec->id))
      absent.emplace_back(spec->name, missing);
  if (!absent.empty()) {
    std::size_t absent_width = 0;
    for (const auto& [name, missing] : absent) absent_width = std::max(absent_width, name.size());
    out << "\nNot computed\n";
    for (const auto& [name, missing] : absent)
      out << "  " << pad(name, absent_width) << "  needs " << printable(join(*missing)) << '\n';
  }
  // A run in stages: the totals above, then each stage as the plan it is.
  for (std::size_t i = 0; i < input.stages.size(); ++i) {
    const ReportStage& stage = input.stages[i];
    ReportInput part{stage.plan, stage.estimates, input.path};
    out << "\n" << std::string(40, '-');
    render_text(out, part, fmt::format("Stage {} of {}: {}", i + 1, input.stages.size(), stage.name));
  }
}

}  // namespace detail

}  // namespace planlint
