// A rule file states policy: the physics a rule needs is a named metric (docs/estimates.md),
// and what a finding prints is a template with sections (docs/writing-rules.md). A field that
// re-derives a metric or spells every case out runs to kilobytes; this keeps every field of
// the built-in rules but `docs` within 600 characters.
#include <algorithm>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <toml++/toml.h>

namespace fs = std::filesystem;

namespace {

constexpr std::size_t max_field_characters = 600;

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

}  // namespace

TEST_CASE("no field of a built-in rule but docs is over 600 characters", "[rules][load]") {
  const fs::path rules = fs::path(PLANLINT_SOURCE_DIR) / "rules";
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(rules))
    if (entry.is_regular_file() && entry.path().extension() == ".toml" &&
        entry.path().parent_path().filename() != "catalog")  // GPU data, not rules
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
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
