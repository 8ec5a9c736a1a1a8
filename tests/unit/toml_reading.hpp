#pragma once
/// What toml++ makes of a text, in a form that two readings can be compared by: the table and
/// every node's and key's source region (planlint's spans come from them), or the error and its
/// place. The comment-body tests (test_toml_comments.cpp) and fuzz_lint compare a text's
/// reading with its reading without comment bodies. Header-only: fuzz_lint has no test support.
#include <string>
#include <string_view>
#include <vector>

#include <toml++/toml.h>

namespace planlint::test {

struct TomlReading {
  bool parsed = false;
  std::string error;  ///< description and place, when it did not parse
  toml::table table;
  std::vector<std::string> regions;  ///< "path @ line:col-line:col", in document order
};

inline std::string region_text(const toml::source_region& region) {
  return std::to_string(region.begin.line) + ":" + std::to_string(region.begin.column) + "-" +
         std::to_string(region.end.line) + ":" + std::to_string(region.end.column);
}

inline void collect_regions(const toml::node& node, const std::string& path,
                            std::vector<std::string>& out) {
  out.push_back(path + " @ " + region_text(node.source()));
  if (const toml::table* table = node.as_table()) {
    for (const auto& [key, child] : *table) {
      const std::string child_path = path + "." + std::string(key.str());
      out.push_back(child_path + " key @ " + region_text(key.source()));
      collect_regions(child, child_path, out);
    }
  } else if (const toml::array* array = node.as_array()) {
    for (std::size_t i = 0; i < array->size(); ++i)
      collect_regions(*array->get(i), path + "[" + std::to_string(i) + "]", out);
  }
}

/// What toml++ makes of `text`, read as the file "doc.toml".
inline TomlReading read_toml(std::string_view text) {
  TomlReading reading;
  toml::parse_result parsed = toml::parse(text, std::string_view("doc.toml"));
  if (!parsed) {
    reading.error = std::string(parsed.error().description()) + " at " + region_text(parsed.error().source());
    return reading;
  }
  reading.table = std::move(parsed).table();
  reading.parsed = true;
  collect_regions(reading.table, "", reading.regions);
  return reading;
}

}  // namespace planlint::test
