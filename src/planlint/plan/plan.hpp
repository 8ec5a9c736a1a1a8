#pragma once
/// The typed plan: every value of a plan file with the span of its TOML node, plus the defaults
/// plan-format.md defines (marked as such). Knows nothing of estimates or rules.
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "planlint/source/source_file.hpp"
#include "planlint/units/quantity.hpp"

namespace planlint {

struct Date {
  int year = 0, month = 0, day = 0;
  auto operator<=>(const Date&) const = default;
};

/// Where a value came from.
enum class Origin {
  plan,     ///< written in the plan file (span is the value's TOML node)
  default_, ///< a default of plan-format.md (span is the section header, or unknown)
  catalog,  ///< taken from the GPU catalog entry of cluster.gpu (span: cluster.gpu)
};

/// One value: a quantity (numbers are quantities, in base units), a string (also enums), a
/// boolean or a date.
using Scalar = std::variant<units::Quantity, std::string, bool, Date>;

struct PlanValue {
  Scalar value;
  Span span;       ///< the TOML value's source region
  Span key_span;   ///< the key's source region (unknown for defaults)
  Origin origin = Origin::plan;
  /// Written in a unit of bits ("400 Gbps") and kept in bytes: rules tell a bit rate written
  /// as bytes from a figure that was in bits all along.
  bool in_bits = false;

  const units::Quantity* quantity() const { return std::get_if<units::Quantity>(&value); }
  const std::string* text() const { return std::get_if<std::string>(&value); }
  const bool* boolean() const { return std::get_if<bool>(&value); }
  const Date* date() const { return std::get_if<Date>(&value); }
};

/// The value of the (name, value) pair named `name` in `entries`, or nullptr: a scan that
/// compares lengths first. The plan's short lists (a table's keys, the sections) use it
/// instead of a hash map.
template <typename Entries>
auto* find_named(Entries& entries, std::string_view name) {
  for (auto& entry : entries)
    if (entry.first.size() == name.size() && entry.first == name) return &entry.second;
  return static_cast<decltype(&entries.begin()->second)>(nullptr);
}

/// The values of one table, by key: a flat list in the order they were set. A table holds a
/// few dozen keys at most, and a scan that compares lengths first costs no more than hashing
/// the key; a hash map's node per key was the loader's largest share of allocations.
class TableValues {
 public:
  using Entry = std::pair<std::string, PlanValue>;

  const PlanValue* find(std::string_view key) const { return find_named(entries_, key); }
  /// Adds `key` unless the table has it (like std::map::emplace).
  bool emplace(std::string_view key, PlanValue value) {
    if (find(key)) return false;
    entries_.emplace_back(std::string(key), std::move(value));
    return true;
  }
  /// Adds `key`, or replaces its value.
  void insert_or_assign(std::string_view key, PlanValue value) {
    if (PlanValue* existing = find_named(entries_, key)) *existing = std::move(value);
    else entries_.emplace_back(std::string(key), std::move(value));
  }
  void reserve(std::size_t count) { entries_.reserve(count); }

 private:
  std::vector<Entry> entries_;
};

/// A table of the plan: a section (`[cluster]`) or one element of an array of tables
/// (`[[targets]]`). Keys are the plan-format keys (for [estimates], metric names).
struct PlanTable {
  Span header;  ///< the table header's region (`[cluster]`), unknown for an absent section
  bool present = false;
  TableValues values;

  const PlanValue* find(std::string_view key) const;
};

/// The plan's sections by name ("cluster" → its table): a handful, scanned in place; a
/// deque so that a reference to one stays valid when another is added.
class SectionTables {
 public:
  using Entry = std::pair<std::string, PlanTable>;

  const PlanTable* find(std::string_view name) const { return find_named(entries_, name); }
  PlanTable* find(std::string_view name) { return find_named(entries_, name); }
  /// The section, added (absent and empty) when the plan has none of that name yet.
  PlanTable& operator[](std::string_view name) {
    if (PlanTable* table = find(name)) return *table;
    return entries_.emplace_back(std::string(name), PlanTable{}).second;
  }

 private:
  std::deque<Entry> entries_;
};

/// A claim of the `[estimates]` section: a quantity, or a range {value, low, high}.
struct Claim {
  std::string metric;  ///< metric name, e.g. "train.days"
  Span key_span;
  std::optional<PlanValue> value, low, high;
  bool is_range() const { return low.has_value() || high.has_value(); }
};

enum class PlanKind { training, finetune, inference };

struct Plan {
  std::shared_ptr<const SourceFile> source;
  PlanKind kind = PlanKind::training;

  /// "plan", "model", "training", "inference", "cluster", "tolerances" (present or not).
  SectionTables sections;
  std::vector<PlanTable> targets, assumptions, benchmarks;
  std::vector<Claim> estimates;
  Span estimates_header;

  /// The value at a dotted path, "cluster.hbm" or "training.mfu" (defaults included);
  /// nullptr when absent.
  const PlanValue* find(std::string_view path) const;

  /// The quantity value (base units) at `path`, when present and a quantity.
  std::optional<double> number(std::string_view path) const;
  /// The string value at `path`, when present and a string.
  std::optional<std::string> text(std::string_view path) const;
  /// The boolean value at `path`, when present and a boolean.
  std::optional<bool> boolean(std::string_view path) const;

  /// The section, or an empty absent table.
  const PlanTable& section(std::string_view name) const;

  /// Keys the file states with a value that is not valid ("training.zero" = 4): reported as
  /// bad-quantity or bad-value, and neither given a default nor read as absent-by-omission,
  /// so that no metric or rule works from a value the author did not write.
  std::vector<std::string> invalid_keys;
  bool states_invalid(std::string_view path) const;

  bool is_training() const { return kind != PlanKind::inference; }
};

}  // namespace planlint
