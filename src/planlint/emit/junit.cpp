#include "planlint/emit/junit.hpp"

#include <ctime>
#include <map>

#include <fmt/format.h>

#include "planlint/diag/printable.hpp"
#include "planlint/emit/repository_path.hpp"
#include "planlint/source/column_cursor.hpp"
#include "planlint/svg/svg.hpp"

namespace planlint {

std::string xml_escape(std::string_view raw) {
  // The printable policy first (planlint/diag/printable.hpp): no line break, control, bidi or
  // separator character and no malformed UTF-8 reaches the XML.
  return svg::xml_text(printable(raw));
}

std::string junit_timestamp_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}", utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday, utc.tm_hour,
                     utc.tm_min, utc.tm_sec);
}

void JunitEmitter::open() {
  if (opened_) return;
  out_ << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n";
  opened_ = true;
}

void JunitEmitter::file(const std::shared_ptr<const SourceFile>& source, std::vector<Diagnostic>& diagnostics) {
  open();
  auto repository_path = [&](const std::string& file) {
    return path_in_repository(file, paths_.repository_root, paths_.working_directory).value_or(file);
  };
  std::map<std::string_view, std::vector<const Diagnostic*>> by_rule;  // in the report's order
  for (const Diagnostic& d : diagnostics)
    if (!d.suppression) by_rule[d.rule].push_back(&d);
  const std::string path = xml_escape(repository_path(source->path()));
  std::string text = fmt::format(
      "  <testsuite name=\"{}\" package=\"planlint\" id=\"{}\" hostname=\"localhost\" timestamp=\"{}\" tests=\"{}\" "
      "failures=\"{}\" errors=\"0\" time=\"0\">\n    <properties/>\n",
      path, suites_++, timestamp_, std::max<std::size_t>(by_rule.size(), 1), by_rule.size());
  if (by_rule.empty()) text += fmt::format("    <testcase name=\"planlint\" classname=\"{}\" time=\"0\"/>\n", path);
  // A rule's findings come in line and column order: the findings of one long line cost one
  // pass over it per rule.
  ColumnCursor columns;
  for (const auto& [rule, findings] : by_rule) {
    const Diagnostic& first = *findings.front();
    text += fmt::format(
        "    <testcase name=\"{}\" classname=\"{}\" time=\"0\">\n      <failure message=\"{}\" type=\"{}\">",
        xml_escape(rule), path, xml_escape(first.message), to_string(first.severity));
    for (const Diagnostic* d : findings) {
      // One line per finding, its file name as the text output shows it (printable_path: no colon
      // that fakes a position or begins a workflow command).
      text += svg::xml_text(fmt::format("{}:{}:{}: {}: {}\n", printable_path(repository_path(d->primary.file)),
                                       d->primary.span.begin.line,
                                       columns.shown(source.get(), d->primary.file, d->primary.span.begin),
                                       to_string(d->severity), printable(d->message)));
      if (d->help) text += svg::xml_text(fmt::format("help: {}\n", printable(*d->help)));
    }
    text += "</failure>\n    </testcase>\n";
  }
  text += "    <system-out/>\n    <system-err/>\n  </testsuite>\n";
  out_ << text;
}

void JunitEmitter::finish(const std::vector<RuleDescriptor>&) {
  open();
  out_ << "</testsuites>\n";
}

}  // namespace planlint
