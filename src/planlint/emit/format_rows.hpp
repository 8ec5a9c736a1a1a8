#pragma once
/// The lookups every format table (check's output formats, `planlint report`'s, `planlint
/// diff`'s) makes of its rows, each row a struct with a `name`.
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace planlint {

/// The rows' names, in the table's order (what --format lists).
template <class Row>
std::vector<std::string> row_names(std::span<const Row> table) {
  std::vector<std::string> names;
  names.reserve(table.size());
  for (const Row& row : table) names.emplace_back(row.name);
  return names;
}

/// The row called `name`, or nullptr.
template <class Row>
const Row* find_row(std::span<const Row> table, std::string_view name) {
  for (const Row& row : table)
    if (row.name == name) return &row;
  return nullptr;
}

}  // namespace planlint
