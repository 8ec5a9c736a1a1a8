#include "planlint/diff/inputs.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "planlint/plan/element_keys.hpp"
#include "planlint/plan/schema.hpp"

namespace planlint::detail {

namespace {

/// A value as the file states it: nullptr for a default, a catalog figure or an absent key.
const PlanValue* stated(const PlanValue* value) {
  return value && value->origin == Origin::plan ? value : nullptr;
}

bool same_value(const PlanValue& a, const PlanValue& b) {
  if (a.value.index() != b.value.index()) return false;
  if (const units::Quantity* q = a.quantity()) return q->value == b.quantity()->value && q->dim == b.quantity()->dim;
  if (const std::string* text = a.text()) return *text == *b.text();
  if (const bool* flag = a.boolean()) return *flag == *b.boolean();
  return *a.date() == *b.date();
}

std::optional<std::string> written(const Plan& plan, const PlanValue* value) {
  if (!value) return std::nullopt;
  return value_excerpt(*plan.source, value->span);
}

/// Adds the change of the key `key_name()` names when its values differ (the name is made only
/// then: most keys of a plan's schema are the same on both sides, or stated on neither).
template <typename KeyName>
void compare_value(std::vector<InputChange>& out, const KeyName& key_name, const Plan& base, const PlanValue* before,
                   const Plan& head, const PlanValue* after) {
  before = stated(before);
  after = stated(after);
  if (!before && !after) return;
  if (before && after && same_value(*before, *after)) return;
  out.push_back(InputChange{key_name(), written(base, before), written(head, after),
                            before ? before->span.begin.line : 0u, after ? after->span.begin.line : 0u,
                            after ? after->span : Span{}});
}

/// The elements of an array of tables by name ("name=days"), else by place ("3").
std::map<std::string, const PlanTable*> by_name(std::string_view section, const std::vector<PlanTable>& elements) {
  const std::vector<std::string> names = element_names(section, elements);
  std::map<std::string, const PlanTable*> out;
  for (std::size_t i = 0; i < elements.size(); ++i)
    out.emplace(names[i].empty() ? std::to_string(i) : names[i], &elements[i]);
  return out;
}

/// The fields of the element `name` of `section` on each side (either null: not on that side).
void compare_fields(std::vector<InputChange>& out, const SectionSpec& section, const std::string& name,
                    const Plan& base, const PlanTable* old_element, const Plan& head, const PlanTable* new_element) {
  for (const KeySpec* field : element_fields_of(section)) {
    if (!field) continue;
    compare_value(out, [&] { return fmt::format("{}[{}].{}", section.name, name, field->key); }, base,
                  old_element ? old_element->values.find(*field) : nullptr, head,
                  new_element ? new_element->values.find(*field) : nullptr);
  }
}

void compare_elements(std::vector<InputChange>& out, const SectionSpec& section, const Plan& base,
                      const std::vector<PlanTable>& before, const Plan& head, const std::vector<PlanTable>& after) {
  const auto old_elements = by_name(section.name, before), new_elements = by_name(section.name, after);
  std::vector<std::string> names;
  for (const auto& [name, element] : new_elements) names.push_back(name);
  for (const auto& [name, element] : old_elements)
    if (!new_elements.count(name)) names.push_back(name);
  for (const std::string& name : names) {
    const auto was = old_elements.find(name), is = new_elements.find(name);
    const PlanTable* old_element = was == old_elements.end() ? nullptr : was->second;
    const PlanTable* new_element = is == new_elements.end() ? nullptr : is->second;
    compare_fields(out, section, name, base, old_element, head, new_element);
  }
}

const Claim* claim_of(const Plan& plan, std::string_view metric) {
  for (const Claim& claim : plan.estimates)
    if (claim.metric == metric) return &claim;
  return nullptr;
}

void compare_claims(std::vector<InputChange>& out, const Plan& base, const Plan& head) {
  std::vector<std::string> metrics;
  for (const Claim& claim : head.estimates) metrics.push_back(claim.metric);
  for (const Claim& claim : base.estimates)
    if (!claim_of(head, claim.metric)) metrics.push_back(claim.metric);
  for (const std::string& metric : metrics) {
    const Claim* before = claim_of(base, metric);
    const Claim* after = claim_of(head, metric);
    for (const auto& [field, part] : {std::pair{"", &Claim::value}, std::pair{".low", &Claim::low},
                                      std::pair{".high", &Claim::high}}) {
      const PlanValue* old_value = before && (before->*part) ? &*(before->*part) : nullptr;
      const PlanValue* new_value = after && (after->*part) ? &*(after->*part) : nullptr;
      compare_value(out, [&, field = field] { return fmt::format("estimates.\"{}\"{}", metric, field); }, base, old_value, head,
                    new_value);
    }
  }
}

std::string range_written(const Plan& plan, const PlanTable& assumption) {
  const PlanValue* low = stated(assumption.find("low"));
  const PlanValue* high = stated(assumption.find("high"));
  if (!low && !high) return "no range";
  return fmt::format("{}–{}", low ? value_excerpt(*plan.source, low->span) : "?",
                     high ? value_excerpt(*plan.source, high->span) : "?");
}

}  // namespace

std::vector<InputChange> changed_inputs(const Plan& base, const Plan& head) {
  std::vector<InputChange> out;
  // The tables' keys (an array of tables' fields are keys of no table: element_fields_of).
  for (const KeySpec& key : plan_keys())
    compare_value(out, [&] { return fmt::format("{}.{}", key.section, key.key); }, base, base.find(key), head,
                  head.find(key));
  compare_elements(out, *find_section("targets"), base, base.targets, head, head.targets);
  compare_elements(out, *find_section("benchmarks"), base, base.benchmarks, head, head.benchmarks);
  compare_elements(out, *find_section("capacity"), base, base.capacity, head, head.capacity);
  compare_claims(out, base, head);  // [estimates]: claims by metric, not keys
  // The head's file order; a key the head no longer states after, in the base's order.
  std::stable_sort(out.begin(), out.end(), [](const InputChange& a, const InputChange& b) {
    if ((a.head_line == 0) != (b.head_line == 0)) return b.head_line == 0;
    return a.head_line != 0 ? a.head_line < b.head_line : a.base_line < b.base_line;
  });
  return out;
}

std::vector<AssumptionChange> changed_assumptions(const Plan& base, const Plan& head) {
  const auto before = by_name("assumptions", base.assumptions), after = by_name("assumptions", head.assumptions);
  std::vector<AssumptionChange> out;
  auto describe = [](const std::string& name, const PlanTable& assumption) {
    AssumptionChange change;
    const PlanValue* id = assumption.find("id");
    change.id = id && id->text() ? *id->text() : "assumptions[" + name + "]";
    if (const PlanValue* key = assumption.find("key"); key && key->text()) change.key = *key->text();
    return change;
  };
  for (const auto& [name, element] : after) {
    auto was = before.find(name);
    std::vector<InputChange> fields;
    if (was != before.end()) {
      compare_fields(fields, *find_section("assumptions"), name, base, was->second, head, element);
      if (fields.empty()) continue;  // the same on both sides
    }
    AssumptionChange change = describe(name, *element);
    change.head_line = element->header.begin.line;
    change.head_span = element->header;
    change.head_range = range_written(head, *element);
    if (was == before.end()) {
      change.kind = AssumptionChange::Kind::added;
      out.push_back(std::move(change));
      continue;
    }
    change.base_line = was->second->header.begin.line;
    change.base_range = range_written(base, *was->second);
    const bool reranged = std::any_of(fields.begin(), fields.end(), [](const InputChange& field) {
      return field.key.ends_with(".low") || field.key.ends_with(".high");
    });
    change.kind = reranged ? AssumptionChange::Kind::reranged : AssumptionChange::Kind::edited;
    for (const InputChange& field : fields) change.fields.push_back(field.key.substr(field.key.rfind('.') + 1));
    out.push_back(std::move(change));
  }
  for (const auto& [name, element] : before) {
    if (after.count(name)) continue;
    AssumptionChange change = describe(name, *element);
    change.kind = AssumptionChange::Kind::removed;
    change.base_line = element->header.begin.line;
    change.base_range = range_written(base, *element);
    out.push_back(std::move(change));
  }
  std::stable_sort(out.begin(), out.end(), [](const AssumptionChange& a, const AssumptionChange& b) {
    if ((a.head_line == 0) != (b.head_line == 0)) return b.head_line == 0;
    return a.head_line != 0 ? a.head_line < b.head_line : a.base_line < b.base_line;
  });
  return out;
}

}  // namespace planlint::detail
