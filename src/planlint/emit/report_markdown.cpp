/// The report as GitHub-flavoured Markdown, to paste into a pull request: one table of the
/// metrics (section, metric, value, range, arithmetic), the assumptions behind the ranges, and
/// the metrics that could not be computed.
#include <fmt/format.h>

#include "planlint/emit/report_common.hpp"

namespace planlint::detail {

std::string cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += "<br>";
    else out += c;
  }
  return out;
}

void render_markdown(std::ostream& out, const ReportInput& input) {
  const Estimates& estimates = *input.estimates;
  const std::vector<const MetricSpec*> shown = shown_metrics(input);

  out << fmt::format("### planlint report: `{}` ({})\n\n", cell(report_title(input)),
                     kind_name(input));
  out << fmt::format("Estimates recomputed from `{}`.\n\n", cell(input.path));
  if (!input.errors.empty()) {
    out << fmt::format("> **The plan has {}** (`planlint check` explains each); the numbers below are what it "
                       "implies as written, not a plan that holds:\n>\n",
                       errors_count_text(input.errors.size()));
    for (const ReportError& error : input.errors)
      out << fmt::format("> - {}{} (`{}`)\n", error.line ? fmt::format("line {}: ", error.line) : "",
                         cell(error.message), error.rule);
    out << '\n';
  }
  out << "| | metric | value | range | arithmetic |\n|---|---|---|---|---|\n";
  std::optional<ReportSection> heading;  // the section whose title is out
  for (const MetricSpec* spec : shown) {
    const MetricValue* metric = estimates.find(spec->id);
    if (!metric) continue;
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
    auto it = estimates.absent().find(spec->name);
    if (it == estimates.absent().end()) continue;
    if (!absent_heading) out << "\n**Not computed**\n\n";
    absent_heading = true;
    std::vector<std::string> needs;
    for (const std::string& missing : it->second) needs.push_back("`" + missing + "`");
    out << fmt::format("- `{}`: needs {}\n", spec->name, join(needs));
  }
}

}  // namespace planlint::detail
