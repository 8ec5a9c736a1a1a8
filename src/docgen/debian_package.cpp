#include "docgen/debian_package.hpp"

#include <ctime>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

namespace planlint::docgen {

namespace {

/// `text`'s words in lines of at most `width` characters, the first after `first_indent`,
/// the others after `indent` (a word longer than a line gets a line of its own).
std::string wrap(const std::string& text, std::size_t width, const std::string& first_indent,
                 const std::string& indent) {
  std::string out, line = first_indent;
  bool line_has_word = false;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t start = text.find_first_not_of(' ', at);
    if (start == std::string::npos) break;
    const std::size_t end = std::min(text.find(' ', start), text.size());
    const std::string word = text.substr(start, end - start);
    if (line_has_word && line.size() + 1 + word.size() > width) {
      out += line + "\n";
      line = indent;
      line_has_word = false;
    }
    line += (line_has_word ? " " : "") + word;
    line_has_word = true;
    at = end;
  }
  return out + line + "\n";
}

std::string joined(const std::vector<std::string>& words, std::string_view separator) {
  return fmt::format("{}", fmt::join(words, separator));
}

/// "a, b and c".
std::string listed(const std::vector<std::string>& words) {
  if (words.size() < 2) return joined(words, "");
  std::vector<std::string> head(words.begin(), words.end() - 1);
  return joined(head, ", ") + " and " + words.back();
}

}  // namespace

std::string package_description(const ProgramModel& program) {
  constexpr std::size_t width = 79;
  std::vector<std::string> commands;
  for (const CommandModel& command : program.commands) commands.push_back(command.name);
  std::string out = wrap(program.long_description, width, "", "");
  out += "\n" + wrap(fmt::format("Commands: {}. Findings as {} (planlint check --format); estimate reports as {} "
                                 "(planlint report --format).",
                                 listed(commands), listed(program.check_formats), listed(program.report_formats)),
                     width, "", "");
  out += "\n" + wrap("With a language server for editors (planlint lsp), a man page and bash, zsh and fish "
                     "completions.",
                     width, "", "");
  return out;
}

namespace {

/// The items of CHANGELOG.md's section `heading` ("## Unreleased"): each "- " item and each
/// paragraph, on one line, without Markdown's bold marks.
std::vector<std::string> section_items(std::string_view markdown, std::string_view heading) {
  std::vector<std::string> items;
  bool inside = false, after_blank = true;
  std::size_t at = 0;
  while (at < markdown.size()) {
    std::size_t end = markdown.find('\n', at);
    if (end == std::string_view::npos) end = markdown.size();
    std::string_view line = markdown.substr(at, end - at);
    at = end + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.starts_with("## ")) {
      std::string_view title = line.substr(3);
      while (!title.empty() && title.back() == ' ') title.remove_suffix(1);
      inside = title == heading;
      after_blank = true;
      continue;
    }
    if (!inside) continue;
    const std::size_t text_start = line.find_first_not_of(' ');
    if (text_start == std::string_view::npos) {
      after_blank = true;
      continue;
    }
    std::string_view text = line.substr(text_start);
    if (text_start == 0 && text.starts_with("- ")) {
      items.emplace_back(text.substr(2));
    } else if (items.empty() || (text_start == 0 && after_blank)) {
      items.emplace_back(text);
    } else {
      items.back() += " ";
      items.back() += text;
    }
    after_blank = false;
  }
  for (std::string& item : items)
    for (std::size_t bold; (bold = item.find("**")) != std::string::npos;) item.erase(bold, 2);
  return items;
}

/// RFC 2822's date, as Debian's changelog trailer has it: "Mon, 07 Dec 2026 02:00:00 +0000".
std::string rfc2822_date(std::int64_t seconds) {
  const std::time_t time = static_cast<std::time_t>(seconds);
  std::tm utc{};
  if (gmtime_r(&time, &utc) == nullptr) throw std::runtime_error("the date is out of range");
  // Day and month names in English whatever the locale: the C locale's, which docgen runs in.
  char text[64];
  return std::string(text, std::strftime(text, sizeof text, "%a, %d %b %Y %H:%M:%S +0000", &utc));
}

}  // namespace

std::string debian_changelog(std::string_view changelog_markdown, const ChangelogEntrySource& source) {
  std::vector<std::string> items = section_items(changelog_markdown, "Unreleased");
  std::string distribution = "UNRELEASED";
  if (items.empty()) {
    items = section_items(changelog_markdown, source.version);
    distribution = "unstable";
  }
  if (items.empty())
    throw std::runtime_error("CHANGELOG.md has no item under \"## Unreleased\" nor under \"## " + source.version +
                             "\"");
  items.push_back("Earlier versions: CHANGELOG.md, beside this file.");
  std::string out = fmt::format("{} ({}) {}; urgency=medium\n\n", source.package, source.version, distribution);
  for (const std::string& item : items) out += wrap(item, 80, "  * ", "    ");
  out += fmt::format("\n -- {}  {}\n", source.maintainer, rfc2822_date(source.date_seconds));
  return out;
}

}  // namespace planlint::docgen
