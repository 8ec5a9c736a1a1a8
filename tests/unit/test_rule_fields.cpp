// A rule file states policy: the physics a rule needs is a named metric (docs/estimates.md),
// and what a finding prints is a template with sections (docs/writing-rules.md). A field that
// re-derives a metric or spells every case out runs to kilobytes; this keeps every field of
// the built-in rules but `docs` within 250 characters: a message is one sentence stating the
// problem with its figures, a help one sentence with the fix, and the arithmetic is in the notes.
#include <algorithm>
#include <optional>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <toml++/toml.h>

namespace fs = std::filesystem;

namespace {

constexpr std::size_t max_field_characters = 250;

/// Characters (code points) of UTF-8 text: `≤` and `–` count as one, as a reader counts them.
std::size_t characters(std::string_view text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

/// "path: N characters" for every string in `node` (tables and arrays walked, `[let]` and
/// `[options]` included) longer than the limit; the top-level `docs` is the rule's Markdown.
void collect_long_fields(const toml::node& node, const std::string& path, std::vector<std::string>& out) {
  if (const toml::table* table = node.as_table()) {
    for (const auto& [key, child] : *table) {
      if (path.empty() && key.str() == "docs") continue;
      collect_long_fields(child, path.empty() ? std::string(key.str()) : path + "." + std::string(key.str()), out);
    }
  } else if (const toml::array* array = node.as_array()) {
    for (std::size_t i = 0; i < array->size(); ++i)
      collect_long_fields(*array->get(i), fmt::format("{}[{}]", path, i), out);
  } else if (const auto* text = node.as_string()) {
    if (const std::size_t length = characters(text->get()); length > max_field_characters)
      out.push_back(fmt::format("{}: {} characters", path, length));
  }
}

/// The literal text of a message template: placeholders and section tags (`{...}`, nested)
/// left out, `{{` and `}}` read as braces, and code spans and quoted text (`planlint report`,
/// "...") left out, where a full stop is no sentence's end.
std::string template_prose(std::string_view text) {
  std::string prose;
  int depth = 0;
  char quote = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (depth == 0 && (c == '{' || c == '}') && i + 1 < text.size() && text[i + 1] == c) {
      if (!quote) prose += c;
      ++i;
    } else if (c == '{') {
      ++depth;
    } else if (c == '}' && depth > 0) {
      --depth;
    } else if (depth == 0 && (c == '`' || c == '"')) {
      if (!quote) quote = c;
      else if (quote == c) quote = 0;
    } else if (depth == 0 && !quote) {
      prose += c;
    }
  }
  return prose;
}

/// Where a sentence ends inside or at the end of `prose`: a '.', '!' or '?' before a space or
/// the end, abbreviations ("e.g.", "et al.") aside. A finding's text is one sentence: none.
std::size_t sentence_ends(std::string prose) {
  for (std::string_view abbreviation : {"e.g.", "i.e.", "et al.", "vs."})
    for (std::size_t at = prose.find(abbreviation); at != std::string::npos; at = prose.find(abbreviation, at))
      prose.replace(at, abbreviation.size(), std::string(abbreviation.size(), 'x'));
  std::size_t ends = 0;
  for (std::size_t i = 0; i < prose.size(); ++i)
    if ((prose[i] == '.' || prose[i] == '!' || prose[i] == '?') &&
        (i + 1 == prose.size() || prose[i + 1] == ' ' || prose[i + 1] == '\n'))
      ++ends;
  return ends;
}

/// The rule files of rules/ (the GPU catalog aside), in name order.
std::vector<fs::path> rule_files() {
  const fs::path rules = fs::path(PLANLINT_SOURCE_DIR) / "rules";
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(rules))
    if (entry.is_regular_file() && entry.path().extension() == ".toml" &&
        entry.path().parent_path().filename() != "catalog")  // GPU data, not rules
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST_CASE("no field of a built-in rule but docs is over 250 characters", "[rules][load]") {
  const std::vector<fs::path> files = rule_files();
  REQUIRE(files.size() > 40);

  for (const fs::path& file : files) {
    const std::string name = fs::relative(file, PLANLINT_SOURCE_DIR).generic_string();
    toml::parse_result parsed = toml::parse_file(file.string());
    INFO(name);
    REQUIRE(parsed);  // a rule file that does not parse fails its own tests; here, stop
    std::vector<std::string> long_fields;
    collect_long_fields(parsed.table(), "", long_fields);
    for (const std::string& field : long_fields)
      FAIL_CHECK(fmt::format("{}: {} (at most {}: the physics into a metric, repeated wording into sections)",
                             name, field, max_field_characters));
  }
}

TEST_CASE("a built-in rule's message and help are one sentence each", "[rules][load]") {
  // The detector itself: a full stop before a space or the end ends a sentence; one inside a
  // placeholder, a code span, a quotation or an abbreviation does not.
  CHECK(sentence_ends(template_prose("it is off. Correct it")) == 1);
  CHECK(sentence_ends(template_prose("correct it.")) == 1);
  CHECK(sentence_ends(template_prose("is it off? yes")) == 1);
  CHECK(sentence_ends(template_prose("{if a}off. {/if}by {x}")) == 1);
  CHECK(sentence_ends(template_prose("{x:GB} of {ratio(a, 2.5)} (e.g. 1.5 TB), see `planlint report`")) == 0);
  CHECK(sentence_ends(template_prose("write \"{it.metric}\" = {{ value = \"...\" }} as Narayanan et al. do")) == 0);

  const std::vector<fs::path> files = rule_files();
  REQUIRE(files.size() > 40);
  for (const fs::path& file : files) {
    const std::string name = fs::relative(file, PLANLINT_SOURCE_DIR).generic_string();
    toml::parse_result parsed = toml::parse_file(file.string());
    INFO(name);
    REQUIRE(parsed);
    for (const char* field : {"message", "help"}) {
      const std::optional<std::string> text = parsed.table()[field].value<std::string>();
      if (!text) continue;
      if (sentence_ends(template_prose(*text)) != 0)
        FAIL_CHECK(fmt::format("{}: {} has more than one sentence, or ends with a full stop: \"{}\" (one sentence, "
                               "the rest as notes: docs/writing-rules.md)",
                               name, field, template_prose(*text)));
    }
  }
}
