// textDocument/completion: what may be written at the cursor, from the plan format's schema
// (sections, keys, enumerated values), the metric table (claims and targets) and the catalog
// of the document's settings (GPU ids).
#include <algorithm>
#include <cctype>
#include <set>

#include <fmt/format.h>

#include "planlint/catalog/catalog.hpp"
#include "planlint/estimate/metric_table.hpp"
#include "planlint/lsp/features.hpp"
#include "planlint/lsp/params.hpp"
#include "planlint/lsp/positions.hpp"
#include "planlint/plan/schema.hpp"
#include "planlint/source/toml_lexing.hpp"

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

std::string unquoted(std::string_view text) {
  text = trim(text);
  if (text.size() >= 2 && (text.front() == '"' || text.front() == '\'') && text.back() == text.front())
    text = text.substr(1, text.size() - 2);
  return std::string(text);
}

/// Where the cursor is in the TOML text: the table it is in and the keys that table states.
struct Context {
  std::string table;  ///< "cluster", "targets"; empty before the first header
  std::set<std::string> stated_keys;
};

/// Reads the TOML lines [first, cursor) of `text` (0-based): headers, and the keys of the
/// table the last header opens. Strings (multi-line ones too), comments and arrays that span
/// lines are stepped over, so that only a real header counts.
Context read_context(const TextDocument& text, std::uint32_t first, std::uint32_t cursor) {
  Context context;
  const std::string_view all = text.text();
  std::size_t at = text.offset({first, 0});
  const std::size_t end = text.offset({cursor, 0});
  int depth = 0;  // arrays and inline tables open across lines
  bool line_start = true;
  while (at < end) {
    if (line_start && depth == 0) {
      const std::string_view line = trim(text.line(text.position(at).line));
      if (line.starts_with('[')) {
        const bool array = line.starts_with("[[");
        const std::size_t close = line.find(']');
        std::string name = unquoted(line.substr(array ? 2 : 1, close == std::string_view::npos ? std::string_view::npos
                                                                                            : close - (array ? 2 : 1)));
        context.table = name.substr(0, name.find('.'));
        context.stated_keys.clear();
      } else if (const std::size_t equals = line.find('='); equals != std::string_view::npos && !line.starts_with('#')) {
        context.stated_keys.insert(unquoted(line.substr(0, equals)));
      }
    }
    line_start = false;
    const std::size_t next = std::min(all.find_first_of("\"'#[]{}\n", at), end);
    if (next >= end) break;
    const char c = all[next];
    at = next + 1;
    if (c == '\n') line_start = true;
    else if (c == '#') at = std::min(all.find('\n', next), end);
    else if (c == '"' || c == '\'') {
      std::size_t after = next;
      skip_toml_string(all, after);
      at = after;
    } else if (c == '[' || c == '{') {
      // A header's brackets are not an array: they stand first on a line at depth 0, read above.
      const std::string_view before = trim(std::string_view(all).substr(text.offset({text.position(next).line, 0}),
                                                                         next - text.offset({text.position(next).line, 0})));
      if (!(depth == 0 && (before.empty() || before == "["))) ++depth;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return context;
}

json item(std::string label, int kind, std::string_view detail, std::string_view documentation, const LspRange& range,
          std::string new_text) {
  json out = {{"label", std::move(label)}, {"kind", kind}, {"textEdit", {{"range", to_json(range)}, {"newText", std::move(new_text)}}}};
  if (!detail.empty()) out["detail"] = std::string(detail);
  if (!documentation.empty()) out["documentation"] = std::string(documentation);
  return out;
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

json completion(const Analysis& analysis, LspPosition at, const ClientSupport&) {
  json items = json::array();
  const TextDocument& text = analysis.text;
  const std::string_view line = text.line(at.line);
  const std::size_t cursor = utf8_prefix_bytes(line, at.character);
  const std::string_view before = line.substr(0, cursor);
  const std::string_view after = line.substr(cursor);

  // The plan (or Markdown block) the cursor is in; a TOML file without a [plan] table yet gets
  // completions while it has no header at all (a new plan), and a pyproject.toml none.
  std::uint32_t first = 0;
  if (analysis.source) {
    const Positions positions(text, *analysis.source);
    const DocumentPlan* plan = analysis.plan_at(positions.source_position(at).line);
    if (plan) first = positions.position(Position{plan->first_line, 1}).line;
    else if (!analysis.plans.empty() || analysis.markdown || text.text().find('[') != std::string::npos)
      return {{"isIncomplete", false}, {"items", items}};
  }
  const Context context = read_context(text, first, at.line);

  // The word being written: what the completion replaces.
  std::size_t word = before.size();
  while (word > 0 && (std::isalnum(static_cast<unsigned char>(before[word - 1])) || std::string_view("_-.").find(before[word - 1]) != std::string_view::npos))
    --word;
  const std::string_view partial = before.substr(word);
  const LspRange range{{at.line, at.character - utf16_length(partial)}, at};
  const std::string_view head = trim(before.substr(0, word));

  if (const std::string_view lead = trim(before); lead.starts_with('[')) {
    // A header: [section] or [[array]].
    const bool array = lead.starts_with("[[");
    const bool closed = after.find(']') != std::string_view::npos;
    for (const SectionSpec& section : plan_sections()) {
      if (section.array != array) continue;
      items.push_back(item(std::string(section.name), kind_module, section.array ? "array of tables" : "table",
                           section.description, range,
                           std::string(section.name) + (closed ? "" : section.array ? "]]" : "]")));
    }
  } else if (const std::size_t equals = before.find('='); equals != std::string_view::npos) {
    // A value: inside its opening quote, or before it.
    const std::string key = unquoted(before.substr(0, equals));
    const std::string_view value = trim(before.substr(equals + 1));
    const bool quoted = value.starts_with('"') && value.size() == 1 + partial.size();
    if (value.size() == partial.size() || quoted)
      value_items(items, analysis, context.table, key, quoted, after.starts_with('"'), range);
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
        items.push_back(item(std::string(key.key), kind_property, detail, key.reference(), range, std::string(key.key)));
      }
    }
  }
  return {{"isIncomplete", false}, {"items", std::move(items)}};
}

}  // namespace planlint::lsp
