/// The report as GitHub-flavoured Markdown, to paste into a pull request: one table of the
/// metrics (section, metric, value, range, arithmetic), the assumptions behind the ranges, and
/// the metrics that could not be computed; for a run in stages, then each stage's.
#include <fmt/format.h>

#include "planlint/diag/printable.hpp"
#include "planlint/emit/report_common.hpp"

namespace planlint::detail {

/// Text of the plan or of planlint inside a table cell (markdown_text: no HTML, link or code
/// span from the plan).
std::string cell(std::string_view text) { return markdown_text(text); }

namespace {

/// The metrics' table, the ranges' sources, the sensitivity and the metrics not computed; of a
/// stage (`stage`), without the run's totals, which the run's own table shows.
void render_metrics_markdown(std::ostream& out, const ReportInput& input, bool numbers, bool stage) {
  const Estimates& estimates = *input.estimates;
  const std::vector<const MetricSpec*> shown = shown_metrics(input);
  if (numbers) out << "| | metric | value | range | arithmetic |\n|---|---|---|---|---|\n";
  std::optional<ReportSection> heading;  // the section whose title is out
  for (const MetricSpec* spec : shown) {
    const MetricValue* metric = estimates.find(spec->id);
    if (!metric || (stage && spec->section == ReportSection::run)) continue;
    std::string arithmetic = cell(metric->arithmetic.str());
    for (const std::string& note : metric->notes) arithmetic += "<br>*" + cell(note) + "*";
    out << fmt::format("| {} | `{}` | {} | {} | {} |\n", heading == spec->section ? "" : section_title(spec->section),
                       spec->name, cell(value_text(*metric)), cell(range_text(*metric)), arithmetic);
    heading = spec->section;
  }

  if (!estimates.range_sources().empty()) {
    out << "\nRanges at the `[[assumptions]]` low/high:";
    std::string separator = " ";
    for (const RangeSource& source : estimates.range_sources()) {
      out << separator << cell(range_source_text(source));
      separator = "; ";
    }
    out << ".\n";
  }
  render_sensitivity_markdown(out, input);

  bool absent_heading = false;
  for (const MetricSpec* spec : shown) {
    const std::vector<std::string>* missing_inputs = estimates.missing_inputs(spec->id);
    if (!missing_inputs) continue;
    if (!absent_heading) out << "\n**Not computed**\n\n";
    absent_heading = true;
    std::vector<std::string> needs;
    for (const std::string& missing : *missing_inputs) needs.push_back(markdown_code_span(missing));
    out << fmt::format("- `{}`: needs {}\n", spec->name, join(needs));
  }
}

}  // namespace

void render_markdown(std::ostream& out, const ReportInput& input) {
  const std::vector<const MetricSpec*> shown = shown_metrics(input);

  const bool numbers = has_numbers(input, shown);
  if (input.plan)
    out << fmt::format("### planlint report: {} ({})\n\n", markdown_code_span(report_title(input)),
                       kind_name(input));
  else
    out << fmt::format("### planlint report: {}\n\n", markdown_code_span(input.path));
  if (numbers) out << fmt::format("Estimates recomputed from {}.\n\n", markdown_code_span(input.path));
  if (!input.errors.empty()) {
    out << fmt::format("> **The plan has {}** (`planlint check` explains each); {}:\n>\n",
                       errors_count_text(input.errors.size()), errors_consequence(numbers, !input.corrections.empty()));
    for (const ReportError& error : input.errors)
      out << fmt::format("> - {}{} ({})\n", error.line ? fmt::format("line {}: ", error.line) : "",
                         cell(error.message), markdown_code_span(error.rule));
    out << '\n';
  }
  if (numbers && !input.corrections.empty()) out << fmt::format("> **Note:** {}.\n\n", cell(corrections_text(input)));
  render_metrics_markdown(out, input, numbers, false);
  // A run in stages: the totals above, then each stage as the plan it is.
  for (std::size_t i = 0; i < input.stages.size(); ++i) {
    const ReportStage& stage = input.stages[i];
    const ReportInput part{stage.plan, stage.estimates, input.path};
    out << fmt::format("\n#### Stage {} of {}: {}\n\n", i + 1, input.stages.size(), cell(stage.name));
    render_metrics_markdown(out, part, has_numbers(part, shown_metrics(part)), true);
  }
}

}  // namespace planlint::detail
