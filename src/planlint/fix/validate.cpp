#include "planlint/fix/validate.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "planlint/diag/printable.hpp"
#include "planlint/markdown/markdown.hpp"
#include "planlint/source/toml_limits.hpp"
#include "planlint/source/toml_span.hpp"

namespace planlint::fix::detail {

namespace {

/// The TOML of a file: the whole of a plan file, each plan block of a Markdown doc.
struct TomlPart {
  std::string_view text;
  std::uint32_t first_line = 1;
};

std::vector<TomlPart> toml_parts(std::string_view path, std::string_view text) {
  if (!is_markdown_path(path)) return {TomlPart{text, 1}};
  std::vector<TomlPart> parts;
  for (const PlanBlock& block : plan_blocks(text)) parts.push_back({block_text(text, block), block.first_line});
  return parts;
}

/// A key of the document where it is written: its table, and the byte after it.
struct KeyAt {
  const toml::table* table = nullptr;
  std::string_view name;
  std::size_t end = 0;
};

class KeyIndex {
 public:
  KeyIndex(const SourceFile& source, std::uint32_t first_line) : source_(source), columns_(source, first_line) {}

  void add(const toml::table& table, std::map<std::size_t, KeyAt>& keys) {
    for (auto&& [key, node] : table) {
      if (key.source().begin) {
        const Span span = columns_.span(key.source());
        keys.emplace(source_.offset(span.begin), KeyAt{&table, key.str(), source_.offset(span.end)});
      }
      add(node, keys);
    }
  }

 private:
  void add(const toml::node& node, std::map<std::size_t, KeyAt>& keys) {
    if (const toml::table* table = node.as_table()) add(*table, keys);
    else if (const toml::array* array = node.as_array())
      for (const toml::node& element : *array) add(element, keys);
  }

  const SourceFile& source_;
  planlint::detail::ColumnConverter columns_;
};

bool is_bare_key(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
}

std::string where(const SourceFile& source, const Diagnostic& finding) {
  const Position at = finding.primary.span.begin;
  return fmt::format("{}:{}:{}", printable_path(source.path()), at.line, at.column);
}

std::string quoted_list(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " and " : ", ";
    out += "'" + printable(names[i]) + "'";
  }
  return out;
}

/// The line of the first error when the TOML of `text` (a file named `path`) does not parse,
/// as byte offsets [begin, end) of `text`, with toml++'s description; nullopt when it parses.
struct ParseFailure {
  std::size_t begin = 0, end = 0;
  std::string description;
};

std::optional<ParseFailure> parse_failure(std::string_view path, std::string_view text, std::size_t parts_before) {
  const std::vector<TomlPart> parts = toml_parts(path, text);
  if (parts.size() != parts_before) return ParseFailure{0, text.size(), "the doc's plan blocks would change"};
  for (const TomlPart& part : parts) {
    const TomlResult parsed = parse_toml(part.text);
    if (parsed) continue;
    const std::uint32_t line = parsed.error().source.begin.line;
    if (line == 0) return ParseFailure{0, text.size(), parsed.error().description};
    // The line's bytes in `text`: part.text views it.
    std::size_t begin = static_cast<std::size_t>(part.text.data() - text.data());
    for (std::uint32_t l = 1; l < line && begin < text.size(); ++l) begin = std::min(text.find('\n', begin), text.size()) + 1;
    begin = std::min(begin, text.size());
    const std::size_t end = std::min(text.find('\n', begin), text.size());
    return ParseFailure{begin, end, parsed.error().description};
  }
  return std::nullopt;
}

/// How many times a text that does not parse is tried again without the fixes on the error's
/// line, before none is made: each try is a parse of the file.
constexpr int max_parse_retries = 4;

}  // namespace

std::vector<Candidate> keep_valid(const SourceFile& source, std::vector<Candidate> candidates,
                                  std::vector<std::string>& notes) {
  if (candidates.empty()) return candidates;
  const std::string_view text = source.text();
  const std::vector<TomlPart> parts = toml_parts(source.path(), text);

  // Renames, found by the key each replaces exactly, grouped by table and new name.
  std::vector<toml::table> documents;
  documents.reserve(parts.size());
  std::map<std::size_t, KeyAt> keys;
  for (const TomlPart& part : parts) {
    TomlResult parsed = parse_toml(part.text);
    if (!parsed) return {};  // collect_fixes fixes no file with a syntax error
    documents.push_back(std::move(*parsed));
    KeyIndex(source, part.first_line).add(documents.back(), keys);
  }
  std::vector<bool> dropped(candidates.size(), false);
  std::map<std::pair<const toml::table*, std::string>, std::vector<std::size_t>> renames;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const std::vector<TextEdit>& edits = candidates[i].edits;
    if (edits.size() != 1 || !is_bare_key(edits[0].replacement)) continue;
    auto key = keys.find(edits[0].begin);
    if (key == keys.end() || key->second.end != edits[0].end || key->second.name == edits[0].replacement) continue;
    const toml::table& table = *key->second.table;
    if (table.contains(edits[0].replacement)) {
      dropped[i] = true;
      notes.push_back(fmt::format("{}: the fix of '{}' is not made: its table has a '{}' already, and a key written "
                                  "twice is invalid TOML; merge the two by hand",
                                  where(source, *candidates[i].finding), printable(key->second.name),
                                  printable(edits[0].replacement)));
      continue;
    }
    renames[{&table, edits[0].replacement}].push_back(i);
  }
  for (const auto& [target, group] : renames) {
    if (group.size() < 2) continue;
    std::vector<std::string> names;
    for (std::size_t i : group) names.emplace_back(text.substr(candidates[i].edits[0].begin,
                                                               candidates[i].edits[0].end - candidates[i].edits[0].begin));
    for (std::size_t i : group) dropped[i] = true;
    notes.push_back(fmt::format("{}: the fixes of {} are not made: each renames a key of one table to '{}', and a "
                                "key written twice is invalid TOML; fix one by hand",
                                where(source, *candidates[group.front()].finding), quoted_list(names),
                                printable(target.second)));
  }

  // The rest, made together, must parse: each try drops the fixes on the line of the error.
  for (int attempt = 0;; ++attempt) {
    std::vector<std::pair<TextEdit, std::size_t>> edits;  // each edit, and its candidate
    for (std::size_t i = 0; i < candidates.size(); ++i)
      if (!dropped[i])
        for (const TextEdit& edit : candidates[i].edits) edits.emplace_back(edit, i);
    if (edits.empty()) break;
    std::sort(edits.begin(), edits.end(), [](const auto& a, const auto& b) { return a.first.begin < b.first.begin; });
    std::vector<TextEdit> made;
    made.reserve(edits.size());
    for (const auto& edit : edits) made.push_back(edit.first);
    const std::string fixed = apply_edits(text, made);
    const std::optional<ParseFailure> failure = parse_failure(source.path(), fixed, parts.size());
    if (!failure) break;
    // Where each edit lands in the fixed text, to find those on the error's line.
    std::vector<bool> on_line(candidates.size(), false);
    long shift = 0;
    bool any = false;
    for (const auto& [edit, i] : edits) {
      const std::size_t begin = static_cast<std::size_t>(static_cast<long>(edit.begin) + shift);
      const std::size_t end = begin + edit.replacement.size();
      if (begin <= failure->end && end >= failure->begin && attempt < max_parse_retries) on_line[i] = any = true;
      shift += static_cast<long>(edit.replacement.size()) - static_cast<long>(edit.end - edit.begin);
    }
    const bool all = !any;  // no fix on the line, or out of tries: none is made
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      if (dropped[i] || !(all || on_line[i])) continue;
      dropped[i] = true;
      notes.push_back(fmt::format("{}: the fix of {} is not made: the file would not parse after it ({})",
                                  where(source, *candidates[i].finding), printable(candidates[i].finding->rule),
                                  printable(failure->description)));
    }
  }
  std::vector<Candidate> kept;
  for (std::size_t i = 0; i < candidates.size(); ++i)
    if (!dropped[i]) kept.push_back(std::move(candidates[i]));
  return kept;
}

}  // namespace planlint::fix::detail
