#include "planlint/plan/assumed_keys.hpp"

#include <charconv>
#include <vector>

#include <fmt/format.h>

#include "planlint/plan/element_keys.hpp"

namespace planlint {

namespace {

constexpr std::string_view slices = "capacity[";

/// `key` split into the slice's name or index (between the brackets) and the field; nullopt
/// when it is not written as a slice's price or goodput.
std::optional<std::pair<std::string_view, std::string_view>> split(std::string_view key) {
  if (!key.starts_with(slices)) return std::nullopt;
  const std::size_t close = key.rfind("].");
  if (close == std::string_view::npos || close < slices.size()) return std::nullopt;
  const std::string_view field = key.substr(close + 2);
  if (field != "price" && field != "goodput") return std::nullopt;
  return std::pair{key.substr(slices.size(), close - slices.size()), field};
}

}  // namespace

std::string SliceField::path() const { return fmt::format("capacity[{}].{}", slice, field->key); }

bool is_slice_field_key(std::string_view key) { return split(key).has_value(); }

const KeySpec* slice_field_spec(std::string_view key) {
  const auto parts = split(key);
  return parts ? find_key("capacity", parts->second) : nullptr;
}

std::optional<SliceField> slice_field_by_place(std::string_view key) {
  const auto parts = split(key);
  if (!parts) return std::nullopt;
  const std::string_view which = parts->first;
  std::size_t index = 0;
  const auto [end, error] = std::from_chars(which.data(), which.data() + which.size(), index);
  if (error != std::errc() || end != which.data() + which.size()) return std::nullopt;
  return SliceField{index, slice_field_spec(key)};
}

SliceFields::SliceFields(const Plan& plan) : plan_(plan), names_(element_names("capacity", plan.capacity)) {}

std::optional<SliceField> SliceFields::find(std::string_view key) const {
  const auto parts = split(key);
  if (!parts) return std::nullopt;
  if (const std::optional<SliceField> by_place = slice_field_by_place(key))
    return by_place->slice < plan_.capacity.size() ? by_place : std::nullopt;
  // By name, as element_names() gives it ("kind=preemptible", "kind=preemptible,n=2").
  for (std::size_t i = 0; i < names_.size(); ++i)
    if (!names_[i].empty() && names_[i] == parts->first) return SliceField{i, slice_field_spec(key)};
  return std::nullopt;
}

std::optional<SliceField> find_slice_field(const Plan& plan, std::string_view key) {
  if (!is_slice_field_key(key)) return std::nullopt;
  return SliceFields(plan).find(key);
}

const PlanValue* assumed_value(const Plan& plan, std::string_view key) {
  if (const std::optional<SliceField> slice = find_slice_field(plan, key))
    return plan.capacity[slice->slice].values.find(*slice->field);
  return plan.find(key);
}

}  // namespace planlint
