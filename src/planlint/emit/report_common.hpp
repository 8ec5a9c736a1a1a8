#pragma once
/// Helpers shared by the report renderers (report.cpp, report_markdown.cpp, report_json.cpp).
#include <string>
#include <string_view>
#include <vector>

#include "planlint/emit/report.hpp"

namespace planlint::detail {

/// The plan's name, or the file's path when the plan has none.
std::string report_title(const ReportInput& input);
/// "training", "finetune", "inference".
std::string_view kind_name(const ReportInput& input);
bool is_training(const ReportInput& input);
/// What a plan's errors mean for the numbers after them, for "the plan has N errors (…); ___":
/// a plan too broken to compute anything from gets no empty table.
/// With `corrected`, the numbers are those of the plan with its findings' input fixes applied.
std::string errors_consequence(bool has_numbers, bool corrected = false);
/// "the figures below are computed once cluster.peak is 989 TFLOPS (sparse-peak's fix), not
/// from the value the plan states", or "" when no finding corrects an input.
std::string corrections_text(const ReportInput& input);
/// Whether any of `shown` has a value to print.
bool has_numbers(const ReportInput& input, const std::vector<const MetricSpec*>& shown);

/// A value in the unit JSON reports it in (value × scale), with that unit's name.
struct JsonValue {
  double scale = 1;
  std::string unit;
};
/// The unit a metric's value is reported in by every JSON output: the one its name says
/// (train.days in d, train.gpu_hours in GPU·h), else the base unit of its dimension.
JsonValue metric_unit(const MetricSpec* spec, units::Dimension dim);

/// The metrics the text and Markdown reports show for the plan's kind, in report order.
std::vector<const MetricSpec*> shown_metrics(const ReportInput& input);
/// The metric's value as reports show it ("9.6 d", "16.7%").
std::string value_text(const MetricValue& metric);
/// "7.68–12.8 d", "$7.69M–$29.5M"; empty without a range.
std::string range_text(const MetricValue& metric);
/// "training.mfu 30%–50% (assumption mfu)".
std::string range_source_text(const RangeSource& source);
/// "'training time' (train.days at most 14 d) breaks at training.mfu 30%, its low end
/// (assumption mfu): 15 d".
std::string target_break_text(const TargetBreak& broken);
/// "no range: training.goodput, cluster.price"; empty when every assumption has one.
std::string unranged_text(const MetricSensitivity& entry);

/// "cluster.node_mtbf, training.checkpoint_write_time".
std::string join(const std::vector<std::string>& items, std::string_view separator = ", ");

/// Text safe inside a Markdown table cell: pipes escaped, line breaks as <br>.
std::string cell(std::string_view text);

/// Display width of UTF-8 text (code points; every character planlint prints is one column).
std::size_t display_width(std::string_view text);
/// `text` followed by spaces up to `width` code points (display_width), for aligned columns.
std::string pad(std::string_view text, std::size_t width);

/// "1 error", "3 errors".
std::string errors_count_text(std::size_t count);
/// `stage_heading`: a stage's report under that heading, in place of the plan's first line.
void render_text(std::ostream& out, const ReportInput& input, std::string_view stage_heading = {});
/// The text and Markdown reports' sensitivity sections (nothing without input.sensitivity).
void render_sensitivity_text(std::ostream& out, const ReportInput& input);
void render_sensitivity_markdown(std::ostream& out, const ReportInput& input);
void render_markdown(std::ostream& out, const ReportInput& input);
void render_json(std::ostream& out, const ReportInput& input);

}  // namespace planlint::detail
