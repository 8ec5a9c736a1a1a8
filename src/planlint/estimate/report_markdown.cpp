/// The report as GitHub-flavoured Markdown, to paste into a pull request: one table of the
/// metrics (section, metric, value, range, arithmetic), the assumptions behind the ranges, and
/// the metrics that could not be computed.
#include <fmt/format.h>

#include "planlint/estimate/report_common.hpp"

namespace planlint::detail {

namespace {

/// Text safe inside a table cell: pipes escaped, line breaks as <br>.
std::string cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += "<br>";
    else out += c;
  }
  return out;
}

}  // namespace

void render_markdown(std::ostream& out, const ReportInput& input) {
  const Estimates& estimates = *input.estimates;
  const auto groups = report_groups(is_training(input));

  out << fmt::format("### planlint report: `{}` ({})\n\n", cell(report_title(input)),
                     kind_name(input));
  out << fmt::format("Estimates recomputed from `{}`.\n\n", cell(input.path));
  out << "| | metric | value | range | arithmetic |\n|---|---|---|---|---|\n";
  for (const ReportGroup& group : groups) {
    bool first = true;
    for (std::string_view name : group.metrics) {
      const MetricValue* metric = estimates.find(name);
      if (!metric) continue;
      std::string arithmetic = cell(metric->arithmetic.str());
      for (const std::string& note : metric->notes) arithmetic += "<br>*" + cell(note) + "*";
      out << fmt::format("| {} | `{}` | {} | {} | {} |\n", first ? group.title : "", name,
                         cell(value_text(*metric)), cell(range_text(*metric)), arithmetic);
      first = false;
    }
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

  bool heading = false;
  for (const ReportGroup& group : groups)
    for (std::string_view name : group.metrics) {
      auto it = estimates.absent().find(name);
      if (it == estimates.absent().end()) continue;
      if (!heading) out << "\n**Not computed**\n\n";
      heading = true;
      std::vector<std::string> needs;
      for (const std::string& missing : it->second) needs.push_back("`" + missing + "`");
      out << fmt::format("- `{}`: needs {}\n", name, join(needs));
    }
}

}  // namespace planlint::detail
