#pragma once
/// The plan format's keys as data, each declared once with its type, unit, range, default and
/// doc: the loader validates against it, the unknown-key check suggests from it, the defaults
/// are applied from it, and the key tables of docs/plan-format.md and schemas/plan.schema.json
/// are generated from it (key_docs.hpp, emit/plan_schema.hpp).
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "planlint/units/dimension.hpp"

namespace planlint {

enum class ValueKind {
  string,       ///< free text
  choice,       ///< one of `choices`
  boolean,
  date,         ///< a TOML local date
  quantity,     ///< a number or quantity string in one of `dims` (the first is the base unit)
  whole,        ///< a quantity that must be a whole number (layers, parallel degrees)
  metric,       ///< a metric name of estimates.md
  plan_key,     ///< a dotted plan key, e.g. "training.mfu"
  any_quantity, ///< a quantity whose dimension comes from another key (targets, assumptions)
};

/// What a plan that does not state a key gets (plan-format.md's "default" column).
struct KeyDefault {
  /// A fixed value, in the key's base unit for a number, which apply_defaults() sets from here;
  /// monostate for a derived default or none.
  std::variant<std::monostate, double, std::string_view, bool> fixed;
  /// For a fixed value, when it applies ("when `experts` is stated": apply_defaults() sets it
  /// under that condition, not wherever its section applies); else how the default follows
  /// ("`hidden / heads`"), or what an unstated key means. Markdown; empty for none.
  std::string_view how;
  /// The plan keys a derived default is computed from (default_sources()).
  std::vector<std::string_view> sources;

  bool is_fixed() const { return !std::holds_alternative<std::monostate>(fixed); }
  bool none() const { return !is_fixed() && how.empty(); }
  const double* number() const { return std::get_if<double>(&fixed); }
};

struct KeySpec {
  std::string_view section;  ///< "cluster"; for arrays of tables "targets", "assumptions", ...
  std::string_view key;      ///< "hbm"
  ValueKind kind;
  /// A phrase for messages and completion lists ("GPUs per node"): plain text, no default.
  std::string_view description;
  std::vector<units::Dimension> dims = {};  ///< accepted dimensions, base first
  std::string_view base_unit = {};          ///< the unit of a plain TOML number ("bytes")
  double plain_number_scale = 1;            ///< base-unit value of 1 plain number (price: 1/3600)
  std::vector<std::string_view> choices = {};
  bool required = false;
  double min = 0;                 ///< physical range, inclusive unless noted
  double max = 1e300;
  bool min_exclusive = false;     ///< a value must be > min (counts, sizes, MFU)
  /// Where the key sits, set by plan_keys(): the position of its section in plan_sections(),
  /// and its own among the keys of that section. A plan's tables hold their values by them
  /// (plan.hpp), so that a key the loader, the defaults or Plan::find has resolved once is not
  /// compared by name again.
  std::uint8_t section_index = 0;
  std::uint8_t index_in_section = 0;
  /// A value in sequences counts whole ones (a batch, a concurrency; not a mean over time).
  bool whole_sequences = false;
  /// What the key means, as plan-format.md's table, the schema and the editor's hover give it
  /// (Markdown); empty when `description` says it all.
  std::string_view doc = {};
  KeyDefault by_default = {};

  /// doc, or description when the key has no longer doc.
  std::string_view reference() const { return doc.empty() ? description : doc; }
};

/// The plan format's sections (plan_sections().size()), and the most keys a section may
/// have (plan_keys() checks it): a plan holds one table per section and indexes a table's
/// values by KeySpec::index_in_section.
inline constexpr std::size_t plan_section_count = 12;
inline constexpr std::size_t max_section_keys = 48;

/// The largest tolerance a config's [tolerances] accepts (1000%): the rule checker takes a
/// tolerance for a fraction up to it (a literal above it is a slip).
inline constexpr double max_tolerance = 10;

struct SectionSpec {
  std::string_view name;
  bool array;          ///< [[targets]] rather than [cluster]
  bool required;
  std::string_view description;
};

/// Every section of the plan format, in file order.
std::span<const SectionSpec> plan_sections();
const SectionSpec* find_section(std::string_view name);

/// Every key, grouped by section.
const std::vector<KeySpec>& plan_keys();
const KeySpec* find_key(std::string_view section, std::string_view key);
/// find_key for a dotted path ("training.mfu").
const KeySpec* find_key(std::string_view dotted_path);

/// The names of the fields of the arrays of tables' elements ([[targets]], [[assumptions]],
/// [[benchmarks]]), each once, in plan_keys() order: a rule's it.FIELD resolves to its place
/// here, so that a read finds the field's KeySpec in element_fields_of() without a name.
const std::vector<std::string_view>& element_field_names();
/// The fields of the array section `section` by their place in element_field_names(): the
/// KeySpec of each, nullptr where that section has no such field (empty for a table section).
std::span<const KeySpec* const> element_fields_of(const SectionSpec& section);

/// find_key for a dotted path that names one value of a plan: a key of a table ([cluster]),
/// not a field of each element of an array of tables ("targets.max"), which names no single
/// value. What an [[assumptions]] entry's key and a rule's value('...') may name.
const KeySpec* find_value_key(std::string_view dotted_path);
/// The dotted paths find_value_key finds ("plan.name", ..., "tolerances.cost"), in key order:
/// the names a did-you-mean for an assumption's key or a rule's value('...') picks from.
const std::vector<std::string>& value_key_paths();
/// Why the dotted path of a field of every element of an array of tables names no value ("the
/// max field of every [[targets]] entry, not one plan value"); empty for any other path.
std::string element_field_refusal(std::string_view dotted_path);

/// Keys valid in `section`, for did-you-mean suggestions.
std::vector<std::string_view> keys_of(std::string_view section);

}  // namespace planlint
