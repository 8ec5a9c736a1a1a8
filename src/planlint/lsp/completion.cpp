// textDocument/completion: what may be written at the cursor, from the plan format's schema
// (sections, keys, enumerated values), the metric table (claims and targets) and the catalog
// of the document's settings (GPU ids).
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <optional>
#include <set>
#include <vector>

#include <fmt/format.h>

#include "planlint/catalog/catalog.hpp"
#include "planlint/metrics/metric_table.hpp"
#include "planlint/lsp/features.hpp"
#include "planlint/lsp/params.hpp"
#include "planlint/lsp/positions.hpp"
#include "planlint/plan/key_docs.hpp"
#include "planlint/plan/schema.hpp"
#include "planlint/source/toml_lexer.hpp"

namespace planlint::lsp {

namespace {

// LSP's CompletionItemKind.
constexpr int kind_value = 12, kind_property = 10, kind_module = 9, kind_enum_member = 20, kind_constant = 21;

std::string_view trim(std::string_view text) {
  const std::size_t begin = text.find_first_not_of(" \t");
  if (begin == std::string_view::npos) return {};
  const std::size_t end = text.find_last_not_of(" \t");
  return text.substr(begin, end - begin + 1);
}

/// A key part as TOML reads it: a bare key, or a quoted one decoded.
std::string key_part(std::string_view all, const TomlToken& token) {
  if (!token.is_string()) return std::string(token.text(all));
  TomlStringValue value;
  decode_toml_string(all, token, value);
  return std::move(value.text);
}

std::string joined(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& part : parts) out += (out.empty() ? "" : ".") + part;
  return out;
}

/// Where the cursor is in the TOML text: the table it is in, the keys that table states, and
/// what the cursor's line holds before it.
struct Context {
  std::string table;  ///< "cluster", "targets"; empty before the first header
  std::set<std::string> stated_keys;
  bool header = false;         ///< the cursor's line opens a [header] before the cursor
  bool header_array = false;   ///< ...with "[[", an array of tables
  bool header_closed = false;  ///< ...and closes it after the cursor
  std::optional<std::size_t> equals;  ///< the byte in the cursor's line of its key's '=', before the cursor
  std::string key;                    ///< the key before that '='
};

/// Reads the TOML text of `text` from 0-based line `first` to the end of the cursor's line:
/// headers and the keys of the table the last one before the cursor's line opens, and the
/// header or key of the cursor's line. The lexer's tokens: strings (multi-line ones too),
/// comments and arrays over several lines are not headers or keys.
Context read_context(const TextDocument& text, std::uint32_t first, std::uint32_t cursor_line, std::size_t cursor_bytes) {
  Context context;
  const std::size_t from = text.offset({first, 0});
  const std::size_t line_begin = text.offset({cursor_line, 0});
  const std::size_t at_cursor = line_begin + cursor_bytes;
  const std::size_t line_end = line_begin + text.line(cursor_line).size();
  const std::string_view all = std::string_view(text.text()).substr(0, line_end);
  TomlLexer lexer(all.substr(from));
  enum class Reading { nothing, header, key, value } reading = Reading::nothing;
  std::vector<std::string> parts;
  std::size_t begin = 0;  // of the header or key being read
  for (TomlToken token = lexer.next(); token.kind != TomlTokenKind::end; token = lexer.next()) {
    token.begin += from;
    token.end += from;
    switch (token.kind) {
      case TomlTokenKind::header_open:
        reading = Reading::header;
        begin = token.begin;
        parts.clear();
        if (begin >= line_begin && begin < at_cursor) {
          context.header = true;
          context.header_array = token.end - token.begin == 2;
        }
        break;
      case TomlTokenKind::header_close:
        if (reading != Reading::header) break;
        reading = Reading::nothing;
        if (begin < line_begin) {
          context.table = parts.empty() ? std::string() : parts.front();
          context.stated_keys.clear();
        } else if (token.begin >= at_cursor) {
          context.header_closed = true;
        }
        break;
      case TomlTokenKind::equals:
        if (reading != Reading::key) break;
        reading = Reading::value;
        if (begin < line_begin) {
          context.stated_keys.insert(joined(parts));
        } else if (token.begin < at_cursor) {
          context.equals = token.begin - line_begin;
          context.key = joined(parts);
        }
        break;
      case TomlTokenKind::line_break:
        if (lexer.open_containers() == 0) reading = Reading::nothing;
        break;
      default:
        if (!token.key) break;
        if (reading == Reading::header || reading == Reading::key) {
          parts.push_back(key_part(all, token));
        } else if (reading == Reading::nothing && lexer.open_containers() == 0) {
          reading = Reading::key;
          begin = token.begin;
          parts.assign(1, key_part(all, token));
        }
    }
  }
  return context;
}

/// The tables the plan's text states: each header's first part ([cluster], [[targets]]) and
/// each top-level key's (`cluster = { ... }`, `plan.name = ...`), as TOML reads them from
/// `text` (strings, comments and arrays are not headers or keys).
std::set<std::string> stated_tables(std::string_view text) {
  std::set<std::string> tables;
  TomlLexer lexer(text);
  enum class Reading { nothing, header, rest } reading = Reading::nothing;
  bool in_table = false;  // after the first header, a key belongs to its table
  for (TomlToken token = lexer.next(); token.kind != TomlTokenKind::end; token = lexer.next()) {
    switch (token.kind) {
      case TomlTokenKind::header_open:
        reading = Reading::header;
        in_table = true;
        break;
      case TomlTokenKind::header_close:
      case TomlTokenKind::equals: reading = Reading::rest; break;
      case TomlTokenKind::line_break:
        if (lexer.open_containers() == 0) reading = Reading::nothing;
        break;
      default:
        if (!token.key) break;
        if (reading == Reading::header || (reading == Reading::nothing && !in_table && lexer.open_containers() == 0))
          tables.insert(key_part(text, token));
        if (reading != Reading::rest) reading = Reading::rest;
    }
  }
  return tables;
}

/// Whether the text states a table that is not a section of a plan ([project], [tool.x]): a
/// TOML file of another tool (pyproject.toml), which gets no completion.
bool states_other_tables(std::string_view text) {
  for (const std::string& table : stated_tables(text))
    if (!find_section(table)) return true;
  return false;
}

json item(std::string label, int kind, std::string_view detail, std::string_view documentation, const LspRange& range,
          std::string new_text) {
  json out = {{"label", std::move(label)}, {"kind", kind}, {"textEdit", {{"range", to_json(range)}, {"newText", std::move(new_text)}}}};
  if (!detail.empty()) out["detail"] = std::string(detail);
  if (!documentation.empty()) out["documentation"] = std::string(documentation);
  return out;
}

/// What a key means and its default, as plan-format.md's table gives them (key_docs.hpp):
/// Markdown where the client shows it.
json key_documentation(const KeySpec& key, const ClientSupport& client) {
  std::string text(key.reference());
  if (const std::string fallback = default_text(key); !fallback.empty()) text += "\n\nDefault: " + fallback;
  if (!client.markdown_documentation) return text;
  return {{"kind", "markdown"}, {"value", std::move(text)}};
}

/// The value completions of `key` in `table`, inside a string (`quoted`) or before one.
void value_items(json& items, const Analysis& analysis, std::string_view table, std::string_view key, bool quoted,
                 bool closed, const LspRange& range) {
  const KeySpec* spec = find_key(table, key);
  if (!spec) return;
  auto add = [&](std::string value, int kind, std::string_view detail, std::string_view documentation) {
    std::string text = quoted ? value + (closed ? "" : "\"") : "\"" + value + "\"";
    items.push_back(item(std::move(value), kind, detail, documentation, range, std::move(text)));
  };
  if (table == "cluster" && key == "gpu") {
    for (const GpuSpec& gpu : analysis.catalog().gpus()) {
      std::string peaks;
      if (auto bf16 = gpu.dense_peak(Precision::bf16))
        peaks = fmt::format("dense bf16 {}, ", units::format(*bf16, units::dims::flop_per_second));
      add(gpu.id, kind_constant, gpu.name,
          fmt::format("{}{} HBM, {}", peaks, units::format(gpu.hbm_bytes, units::dims::bytes),
                      units::format(gpu.hbm_bandwidth_bytes_per_s, units::dims::bytes_per_second)));
    }
    return;
  }
  switch (spec->kind) {
    case ValueKind::choice:
      for (std::string_view choice : spec->choices) add(std::string(choice), kind_enum_member, spec->description, {});
      return;
    case ValueKind::metric:
      for (const MetricSpec& metric : metric_table()) add(std::string(metric.name), kind_value, metric.summary, {});
      return;
    case ValueKind::plan_key:
      for (const std::string& path : value_key_paths())
        if (const KeySpec* target = find_value_key(path)) add(path, kind_value, target->description, {});
      return;
    case ValueKind::boolean:
      if (quoted) return;
      for (std::string_view flag : {"true", "false"})
        items.push_back(item(std::string(flag), kind_value, spec->description, {}, range, std::string(flag)));
      return;
    default: return;
  }
}

}  // namespace

json completion(const Analysis& analysis, LspPosition at, const ClientSupport& client) {
  json items = json::array();
  const TextDocument& text = analysis.text;
  const std::string_view line = text.line(at.line);
  const std::size_t cursor = utf8_prefix_bytes(line, at.character);
  const std::string_view before = line.substr(0, cursor);
  const std::string_view after = line.substr(cursor);

  // The plan (or Markdown block) the cursor is in; a TOML file without a [plan] table yet gets
  // completions unless it states a table no plan has (a pyproject.toml gets none).
  std::size_t plan_begin = 0, plan_end = text.text().size();
  if (analysis.source) {
    const Positions positions(text, *analysis.source);
    if (const DocumentPlan* plan = analysis.plan_at(positions.source_position(at).line)) {
      plan_begin = positions.offset(Position{plan->first_line, 1});
      plan_end = std::max(plan_begin, positions.offset(Position{plan->last_line, UINT32_MAX}));
    } else if (!analysis.plans.empty() || analysis.markdown || states_other_tables(text.text())) {
      return {{"isIncomplete", false}, {"items", items}};
    }
  }
  const Context context = read_context(text, text.line_at(plan_begin), at.line, cursor);
  // The tables the plan has already: a [section] is written once (an [[array]] again and again).
  const std::set<std::string> written =
      stated_tables(std::string_view(text.text()).substr(plan_begin, plan_end - plan_begin));

  // The word being written: what the completion replaces.
  std::size_t word = before.size();
  while (word > 0 && (std::isalnum(static_cast<unsigned char>(before[word - 1])) || std::string_view("_-.").find(before[word - 1]) != std::string_view::npos))
    --word;
  const std::string_view partial = before.substr(word);
  const LspRange range{{at.line, at.character - utf16_length(partial)}, at};
  const std::string_view head = trim(before.substr(0, word));

  if (context.header) {
    // A header: [section] or [[array]].
    const bool array = context.header_array;
    const bool closed = context.header_closed;
    for (const SectionSpec& section : plan_sections()) {
      if (section.array != array || (!section.array && written.count(std::string(section.name)))) continue;
      items.push_back(item(std::string(section.name), kind_module, section.array ? "array of tables" : "table",
                           section.description, range,
                           std::string(section.name) + (closed ? "" : section.array ? "]]" : "]")));
    }
  } else if (context.equals) {
    // A value: inside its opening quote, or before it.
    const std::string& key = context.key;
    const std::string_view value = trim(before.substr(*context.equals + 1));
    const bool quoted = value.starts_with('"') && value.size() == 1 + partial.size();
    if (value.size() == partial.size() || quoted)
      value_items(items, analysis, context.table, key, quoted, after.starts_with('"'), range);
  } else if (head.empty() && context.table.empty()) {
    // Before any header (a new plan, or above [plan]): the sections not written yet.
    for (const SectionSpec& section : plan_sections()) {
      if (!section.array && written.count(std::string(section.name))) continue;
      const std::string header = section.array ? fmt::format("[[{}]]", section.name) : fmt::format("[{}]", section.name);
      items.push_back(item(header, kind_module, section.array ? "array of tables" : "table", section.description, range,
                           header));
    }
  } else if (head.empty() || head == "\"") {
    // A key of the table.
    const bool quote_open = head == "\"";
    if (context.table == "estimates") {
      for (const MetricSpec& metric : metric_table()) {
        if (context.stated_keys.count(std::string(metric.name))) continue;
        std::string new_text = quote_open ? std::string(metric.name) + (after.starts_with('"') ? "" : "\"")
                                          : fmt::format("\"{}\"", metric.name);
        items.push_back(item(std::string(metric.name), kind_property, fmt::format("claim of {}", metric.name),
                             metric.summary, range, std::move(new_text)));
      }
    } else if (!quote_open && !context.table.empty()) {
      for (const KeySpec& key : plan_keys()) {
        if (key.section != context.table || context.stated_keys.count(std::string(key.key))) continue;
        std::string detail = key.base_unit.empty() ? std::string() : fmt::format("in {}", key.base_unit);
        if (key.required) detail += detail.empty() ? "required" : ", required";
        json entry = item(std::string(key.key), kind_property, detail, {}, range, std::string(key.key));
        entry["documentation"] = key_documentation(key, client);
        items.push_back(std::move(entry));
      }
    }
  }
  return {{"isIncomplete", false}, {"items", std::move(items)}};
}

}  // namespace planlint::lsp
