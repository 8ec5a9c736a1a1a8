#include "planlint/emit/junit.hpp"

#include <ctime>
#include <map>

#include <fmt/format.h>

#include "planlint/diag/printable.hpp"
#include "planlint/emit/repository_path.hpp"
#include "planlint/source/columns.hpp"

namespace planlint {

namespace {

/// The length of the UTF-8 sequence at text[i] when it is a valid one, else 0.
std::size_t utf8_sequence(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char c = byte(i);
  const std::size_t length = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
  if (length == 0 || i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k)
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  // Overlong forms, surrogates and code points above U+10FFFF.
  if ((c == 0xE0 && byte(i + 1) < 0xA0) || (c == 0xED && byte(i + 1) > 0x9F) || (c == 0xF0 && byte(i + 1) < 0x90) ||
      (c == 0xF4 && byte(i + 1) > 0x8F))
    return 0;
  return length;
}

}  // namespace

std::string xml_escape(std::string_view raw) {
  // The printable policy first (planlint/diag/printable.hpp), line feeds kept: no control, bidi
  // or separator character and no malformed UTF-8 reaches the XML.
  const std::string shown = printable_lines(raw);
  const std::string_view text = shown;
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t length = utf8_sequence(text, i);
    if (length != 1) {
      if (length == 0) out += "\xEF\xBF\xBD";
      else out.append(text.substr(i, length));
      i += std::max<std::size_t>(length, 1);
      continue;
    }
    const char c = text[i++];
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        if ((static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f)
          out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
        else
          out += c;
    }
  }
  return out;
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
  for (const auto& [rule, findings] : by_rule) {
    const Diagnostic& first = *findings.front();
    text += fmt::format(
        "    <testcase name=\"{}\" classname=\"{}\" time=\"0\">\n      <failure message=\"{}\" type=\"{}\">",
        xml_escape(rule), path, xml_escape(first.message), to_string(first.severity));
    for (const Diagnostic* d : findings) {
      text += xml_escape(fmt::format("{}:{}:{}: {}: {}\n", repository_path(d->primary.file), d->primary.span.begin.line,
                                     shown_column(source.get(), d->primary.file, d->primary.span.begin),
                                     to_string(d->severity), printable(d->message)));
      if (d->help) text += xml_escape(fmt::format("help: {}\n", printable(*d->help)));
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
