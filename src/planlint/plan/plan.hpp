#pragma once
/// The typed plan: every value of a plan file with the span of its TOML node, plus the defaults
/// plan-format.md defines (marked as such). Knows nothing of estimates or rules.
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "planlint/plan/date.hpp"
#include "planlint/plan/schema.hpp"
#include "planlint/source/source_file.hpp"
#include "planlint/units/quantity.hpp"

namespace planlint {

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

/// The values of one table, by key: a flat list in the order they were set, and the position
/// of each key's value by its KeySpec::index_in_section. Every key is a key of the table's
/// section; the loader, the defaults and Plan::find, which have the key's spec, find its value
/// without comparing names; a lookup by name scans (a table holds a few dozen keys at most).
class TableValues {
 public:
  using Entry = std::pair<const KeySpec*, PlanValue>;

  /// The value of `key`, a key of this table's section.
  const PlanValue* find(const KeySpec& key) const {
    const std::uint8_t at = position_[key.index_in_section];
    return at ? &entries_[at - 1].second : nullptr;
  }
  /// The value of the key named `name`.
  const PlanValue* find(std::string_view name) const {
    for (const Entry& entry : entries_)
      if (entry.first->key == name) return &entry.second;
    return nullptr;
  }
  /// Adds `key` unless the table has it (like std::map::emplace).
  bool emplace(const KeySpec& key, PlanValue&& value);
  /// Adds `key`, or replaces its value.
  void insert_or_assign(const KeySpec& key, PlanValue&& value);
  void reserve(std::size_t count) { entries_.reserve(count); }
  /// The values in the order they were set.
  const std::vector<Entry>& entries() const { return entries_; }

 private:
  void add(const KeySpec& key, PlanValue&& value);

  std::vector<Entry> entries_;
  /// 1 + the position in entries_ of each key's value, by KeySpec::index_in_section; 0: unset.
  std::array<std::uint8_t, max_section_keys> position_{};
};

/// A table of the plan: a section (`[cluster]`) or one element of an array of tables
/// (`[[targets]]`). Keys are the plan-format keys (for [estimates], metric names).
struct PlanTable {
  Span header;  ///< the table header's region (`[cluster]`), unknown for an absent section
  bool present = false;
  TableValues values;

  const PlanValue* find(std::string_view key) const;
};

/// The plan's sections: one table for each of plan_sections(), absent and empty until the
/// loader reads it (the arrays of tables, [[targets]] and the others, are Plan's own lists
/// and leave theirs empty: present, with the first element's header, when the plan writes one,
/// so that a finding about the array as a whole has a place).
class SectionTables {
 public:
  /// The section called `name`; nullptr when the plan format has no such section.
  const PlanTable* find(std::string_view name) const {
    const SectionSpec* section = find_section(name);
    return section ? &tables_[index_of(*section)] : nullptr;
  }
  PlanTable* find(std::string_view name) {
    return const_cast<PlanTable*>(std::as_const(*this).find(name));
  }
  /// The section called `name`, which must be one of plan_sections() (std::out_of_range).
  PlanTable& operator[](std::string_view name) {
    if (PlanTable* table = find(name)) return *table;
    throw std::out_of_range("not a plan section: " + std::string(name));
  }
  /// The section `key` belongs to.
  const PlanTable& of(const KeySpec& key) const { return tables_[key.section_index]; }
  PlanTable& of(const KeySpec& key) { return tables_[key.section_index]; }

 private:
  static std::size_t index_of(const SectionSpec& section) {
    return static_cast<std::size_t>(&section - plan_sections().data());
  }
  std::array<PlanTable, plan_section_count> tables_;
};

/// A claim of the `[estimates]` section: a quantity, or a range {value, low, high}.
struct Claim {
  std::string metric;  ///< metric name, e.g. "train.days"
  Span key_span;
  std::optional<PlanValue> value, low, high;
  bool is_range() const { return low.has_value() || high.has_value(); }
};

enum class PlanKind { training, finetune, inference };

struct Plan;

/// One stage of a run ([[stages]]): the plan with the stage's own [training] keys and
/// cluster.count in place of the plan's, its values keeping their spans in the stage's table.
struct Stage {
  std::string name;
  Span header;     ///< the [[stages]] element
  Span name_span;  ///< its `name` value
  /// The plan as the stage runs it, its defaults applied anew (dp follows the stage's
  /// cluster.count); [estimates] holds the stage's own claims ([stages.estimates]), [[targets]]
  /// none (the plan's bound the whole run). Its own `stages` is empty.
  std::shared_ptr<const Plan> plan;
};

struct Plan {
  std::shared_ptr<const SourceFile> source;
  PlanKind kind = PlanKind::training;

  /// "plan", "model", "training", "inference", "cluster", "tolerances" (present or not).
  SectionTables sections;
  std::vector<PlanTable> targets, assumptions, benchmarks;
  /// The capacity bought as a mix ([[capacity]]): the slices of the job's GPUs, each its kind,
  /// share, price and goodput; empty when the plan buys one kind at cluster.price. A stage
  /// runs on the plan's mix.
  std::vector<PlanTable> capacity;
  std::vector<Claim> estimates;
  Span estimates_header;
  /// The run's stages in order ([[stages]]); empty for a plan of one stage.
  std::vector<Stage> stages;

  /// The value at a dotted path, "cluster.hbm" or "training.mfu" (defaults included);
  /// nullptr when absent.
  const PlanValue* find(std::string_view path) const;
  /// find() of a key already resolved (a rule's path: expr::PathRef).
  const PlanValue* find(const KeySpec& key) const { return sections.of(key).values.find(key); }

  /// The quantity value (base units) at `path`, when present and a quantity.
  std::optional<double> number(std::string_view path) const;
  std::optional<double> number(const KeySpec& key) const;
  /// The string value at `path`, when present and a string.
  std::optional<std::string> text(std::string_view path) const;
  std::optional<std::string> text(const KeySpec& key) const;
  /// The boolean value at `path`, when present and a boolean.
  std::optional<bool> boolean(std::string_view path) const;

  /// The section, or an empty absent table.
  const PlanTable& section(std::string_view name) const;

  /// Keys the file states with a value that is not valid ("training.zero" = 4): reported as
  /// bad-quantity or bad-value, and neither given a default nor read as absent-by-omission,
  /// so that no metric or rule works from a value the author did not write.
  std::vector<std::string> invalid_keys;
  bool states_invalid(std::string_view path) const;

  /// A section or key the file writes under a misspelt name (`[clutser]` for [cluster],
  /// `goodpt` for training.goodput: an unknown-key error with a did-you-mean, the right name not
  /// written as well). Like an invalid value it is stated but not read: it gets no default, a
  /// required one is not also "missing", and a finding that only follows from its absence is
  /// left to the unknown-key error.
  struct Misspelling {
    std::string path;     ///< "cluster", "training.goodput"
    std::string written;  ///< "clutser", "goodpt"
  };
  std::vector<Misspelling> misspellings;
  /// The misspelling that `path` is or lies under, or nullptr.
  const Misspelling* misspelt(std::string_view path) const;
  /// Whether the file states `path` in a way planlint cannot read: an invalid value or a
  /// misspelt name.
  bool states_unread(std::string_view path) const {
    return (!invalid_keys.empty() && states_invalid(path)) || (!misspellings.empty() && misspelt(path));
  }

  bool is_training() const { return kind != PlanKind::inference; }
};

}  // namespace planlint
