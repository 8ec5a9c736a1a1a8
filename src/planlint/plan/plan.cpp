#include "planlint/plan/plan.hpp"

namespace planlint {

bool TableValues::emplace(const KeySpec& key, PlanValue&& value) {
  if (find(key)) return false;
  add(key, std::move(value));
  return true;
}

void TableValues::insert_or_assign(const KeySpec& key, PlanValue&& value) {
  if (const std::uint8_t at = position_[key.index_in_section]) entries_[at - 1].second = std::move(value);
  else add(key, std::move(value));
}

void TableValues::add(const KeySpec& key, PlanValue&& value) {
  entries_.emplace_back(&key, std::move(value));
  position_[key.index_in_section] = static_cast<std::uint8_t>(entries_.size());
}

const PlanValue* PlanTable::find(std::string_view key) const {
  return values.find(key);
}

const PlanTable& Plan::section(std::string_view name) const {
  static const PlanTable absent;
  const PlanTable* table = sections.find(name);
  return table ? *table : absent;
}

const PlanValue* Plan::find(std::string_view path) const {
  // Every value of a section is a plan key's: the key's spec names its table and its place
  // there, with one lookup of the path in the static key index.
  const KeySpec* key = find_key(path);
  return key ? sections.of(*key).values.find(*key) : nullptr;
}

bool Plan::states_invalid(std::string_view path) const {
  for (const std::string& key : invalid_keys)
    if (key == path) return true;
  return false;
}

const Plan::Misspelling* Plan::misspelt(std::string_view path) const {
  for (const Misspelling& misspelling : misspellings)
    if (path.starts_with(misspelling.path) &&
        (path.size() == misspelling.path.size() || path[misspelling.path.size()] == '.'))
      return &misspelling;
  return nullptr;
}

namespace {

std::optional<double> number_of(const PlanValue* value) {
  if (!value || !value->quantity()) return std::nullopt;
  return value->quantity()->value;
}

std::optional<std::string> text_of(const PlanValue* value) {
  if (!value || !value->text()) return std::nullopt;
  return *value->text();
}

}  // namespace

std::optional<double> Plan::number(std::string_view path) const { return number_of(find(path)); }
std::optional<double> Plan::number(const KeySpec& key) const { return number_of(find(key)); }

std::optional<std::string> Plan::text(std::string_view path) const { return text_of(find(path)); }
std::optional<std::string> Plan::text(const KeySpec& key) const { return text_of(find(key)); }

std::optional<bool> Plan::boolean(std::string_view path) const {
  const PlanValue* value = find(path);
  if (!value || !value->boolean()) return std::nullopt;
  return *value->boolean();
}

}  // namespace planlint
