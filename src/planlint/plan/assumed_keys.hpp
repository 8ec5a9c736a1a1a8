#pragma once
/// What an [[assumptions]] entry's `key` names: a value of a table ("training.mfu",
/// "cluster.price"), or the price or goodput of one [[capacity]] slice, by what the slice is or
/// by its place:
///
///     key = "capacity[kind=preemptible].price"    # element_keys.hpp's name of the slice
///     key = "capacity[1].goodput"                 # the second slice
///
/// A slice's price and goodput are assumptions as cluster.price and training.goodput are: the
/// cost's range reads their lows and highs (docs/estimates.md, "Ranges").
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "planlint/plan/plan.hpp"
#include "planlint/plan/schema.hpp"

namespace planlint {

/// One [[capacity]] slice's field.
struct SliceField {
  std::size_t slice = 0;
  const KeySpec* field = nullptr;  ///< capacity.price or capacity.goodput
  /// "capacity[1].price": the key the estimates' inputs and the findings' key paths name it by.
  std::string path() const;
};

/// Whether `key` is written as a slice's field an assumption may name, `capacity[...].price` or
/// `capacity[...].goodput`, whatever slices the plan holds.
bool is_slice_field_key(std::string_view key);
/// The field's spec (capacity.price, capacity.goodput) of a key written as a slice's field; its
/// unit and range read the assumption's value, low and high. nullptr for another key.
const KeySpec* slice_field_spec(std::string_view key);

/// The slice field a key names by place ("capacity[1].price"), read without a plan: the key the
/// estimates' inputs and the ranges' overrides name it by (SliceField::path); nullopt for another.
std::optional<SliceField> slice_field_by_place(std::string_view key);

/// The slice fields keys name in one plan: the slices' names made once, for a plan's many
/// assumptions (a key by name otherwise costs the names of every slice).
class SliceFields {
 public:
  explicit SliceFields(const Plan& plan);
  /// The slice field `key` names; nullopt when it is not one, or names no slice the plan has.
  std::optional<SliceField> find(std::string_view key) const;

 private:
  const Plan& plan_;
  std::vector<std::string> names_;  ///< element_names of the slices
};

/// SliceFields(plan).find(key), for one key.
std::optional<SliceField> find_slice_field(const Plan& plan, std::string_view key);

/// The value an assumption's `key` names in `plan`: a table's value or a slice's field; nullptr
/// when the plan states none.
const PlanValue* assumed_value(const Plan& plan, std::string_view key);

}  // namespace planlint
