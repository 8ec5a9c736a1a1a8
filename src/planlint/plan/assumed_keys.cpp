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

std::optional<SliceField> find_slice_field(const Plan& plan, std::string_view key) {
  const auto parts = split(key);
  if (!parts) return std::nullopt;
  const auto [which, field] = *parts;
  const KeySpec* spec = slice_field_spec(key);
  std::size_t index = 0;
  const auto [end, error] = std::from_chars(which.data(), which.data() + which.size(), index);
  if (error == std::errc() && end == which.data() + which.size())
    return index < plan.capacity.size() ? std::optional<SliceField>(SliceField{index, spec}) : std::nullopt;
  // By name, as element_names() gives it ("kind=preemptible", "kind=preemptible,n=2").
  const std::vector<std::string> names = element_names("capacity", plan.capacity);
  for (std::size_t i = 0; i < names.size(); ++i)
    if (!names[i].empty() && names[i] == which) return SliceField{i, spec};
  return std::nullopt;
}

const PlanValue* assumed_value(const Plan& plan, std::string_view key) {
  if (const std::optional<SliceField> slice = find_slice_field(plan, key))
    return plan.capacity[slice->slice].values.find(*slice->field);
  return plan.find(key);
}

}  // namespace planlint
