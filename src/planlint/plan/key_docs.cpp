#include "planlint/plan/key_docs.hpp"

#include <array>
#include <vector>

#include <fmt/format.h>

namespace planlint {

namespace {

bool is_fraction(const KeySpec& key) { return key.base_unit == "fraction"; }
bool is_number(const KeySpec& key) { return key.kind == ValueKind::quantity || key.kind == ValueKind::whole; }
/// A whole number that must be positive: a count of things or a parallel degree.
bool is_count(const KeySpec& key) { return key.kind == ValueKind::whole && (key.min_exclusive || key.min >= 1); }

/// The unit of a plain TOML number, where it says more than the type: "bytes", "GPUs".
std::string plain_number_text(const KeySpec& key) {
  if (!is_number(key)) return {};
  if (is_fraction(key)) return "fraction (0.4 = 40%)";
  if (key.base_unit == "count" || key.base_unit == "factor") return {};
  return std::string(key.base_unit);
}

/// The accepted values of a number: "> 0, whole", "≥ 1", "(0, 100%]", "0–3".
std::string range_text(const KeySpec& key) {
  if (!is_number(key)) return {};
  const double scale = is_fraction(key) ? 100 : 1;
  const char* percent = is_fraction(key) ? "%" : "";
  std::string range;
  if (key.max < 1e299)
    range = key.min_exclusive ? fmt::format("({:g}, {:g}{}]", key.min * scale, key.max * scale, percent)
                              : fmt::format("{:g}–{:g}{}", key.min * scale, key.max * scale, percent);
  else
    range = fmt::format("{} {:g}{}", key.min_exclusive ? ">" : "≥", key.min * scale, key.min > 0 ? percent : "");
  if (is_count(key)) range += ", whole";
  return range;
}

/// A table cell: `|` would end it.
std::string cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

/// The columns after the key's, in order.
constexpr std::array<std::string_view, 5> headings = {"type", "plain number", "default", "range", "meaning"};
constexpr std::size_t column_count = headings.size();

}  // namespace

std::string key_type_text(const KeySpec& key) {
  std::string type;
  switch (key.kind) {
    case ValueKind::string: type = "string"; break;
    case ValueKind::choice:
      for (std::string_view choice : key.choices) type += fmt::format("{}`\"{}\"`", type.empty() ? "" : ", ", choice);
      break;
    case ValueKind::boolean: type = "bool"; break;
    case ValueKind::date: type = "TOML date (`2026-11-01`, unquoted)"; break;
    case ValueKind::quantity:
      type = is_fraction(key) ? "fraction" : key.base_unit == "factor" ? "factor" : "quantity";
      break;
    case ValueKind::whole: type = is_count(key) ? "count" : "whole number"; break;
    case ValueKind::metric: type = "metric name"; break;
    case ValueKind::plan_key: type = "plan key"; break;
    case ValueKind::any_quantity: type = "quantity"; break;
  }
  if (key.required) type += ", **required**";
  return type;
}

std::string default_text(const KeySpec& key) {
  const KeyDefault& fallback = key.by_default;
  if (fallback.none()) return {};
  std::string value;
  if (const double* number = fallback.number())
    value = is_fraction(key) ? fmt::format("{:g}%", *number * 100) : fmt::format("{:g}", *number);
  else if (const auto* choice = std::get_if<std::string_view>(&fallback.fixed))
    value = fmt::format("`\"{}\"`", *choice);
  else if (const bool* flag = std::get_if<bool>(&fallback.fixed))
    value = *flag ? "`true`" : "`false`";
  else
    return std::string(fallback.how);
  return fallback.how.empty() ? value : fmt::format("{} ({})", value, fallback.how);
}

std::string key_table_markdown(const SectionSpec& section) {
  struct Row {
    std::string keys;
    std::array<std::string, column_count> cells;
  };
  std::vector<Row> rows;
  for (const KeySpec& key : plan_keys()) {
    if (key.section != section.name) continue;
    const std::array<std::string, column_count> cells = {
        cell(key_type_text(key)), cell(plain_number_text(key)), cell(default_text(key)), cell(range_text(key)),
        cell(key.reference())};
    if (!rows.empty() && rows.back().cells == cells)
      rows.back().keys += fmt::format(" / `{}`", key.key);
    else
      rows.push_back({fmt::format("`{}`", key.key), cells});
  }
  // The type and the meaning always; the other columns where a key fills them.
  std::array<bool, column_count> shown = {true, false, false, false, true};
  for (const Row& row : rows)
    for (std::size_t column = 0; column < column_count; ++column) shown[column] |= !row.cells[column].empty();
  std::string out = "| key |", rule = "|---|";
  for (std::size_t column = 0; column < column_count; ++column)
    if (shown[column]) {
      out += fmt::format(" {} |", headings[column]);
      rule += "---|";
    }
  out += "\n" + rule + "\n";
  for (const Row& row : rows) {
    out += fmt::format("| {} |", row.keys);
    for (std::size_t column = 0; column < column_count; ++column)
      if (shown[column]) out += row.cells[column].empty() ? " |" : fmt::format(" {} |", row.cells[column]);
    out += "\n";
  }
  return out;
}

}  // namespace planlint
