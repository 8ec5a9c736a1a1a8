/// The `[guardrails]` table of a config: its keys, and what each takes (docs/review.md,
/// "Guardrails"; schemas/config.schema.json).
#include "planlint/config/guardrails.hpp"

#include <cmath>

#include <fmt/format.h>

namespace planlint {

namespace {

using Takes = GuardrailKey::Takes;

constexpr GuardrailKey keys[] = {
    {"cost_increase", Takes::fraction, &Guardrails::cost_increase,
     "the most a plan's cost (cost.total) may rise, as a share of its cost before: \"20%\""},
    {"cost_increase_amount", Takes::usd, &Guardrails::cost_increase_amount,
     "the most a plan's cost may rise, in dollars: \"$100K\" (an added plan: its whole cost)"},
    {"gpus_increase", Takes::count, &Guardrails::gpus_increase,
     "the most GPUs a plan's cluster.count may gain: 256"},
    {"days_increase", Takes::duration, &Guardrails::days_increase,
     "the most a plan's wall-clock training days may grow: \"7 d\" (a plain number: days)"},
    {"memory_headroom", Takes::fraction, &Guardrails::memory_headroom,
     "the least share of its GPU's HBM a plan's memory per GPU may leave free after a change: \"10%\""},
    {"new_errors", Takes::boolean, nullptr, "whether an error the change introduces is a breach: true"},
};

/// What a key takes, in words, for its error.
std::string_view expected(Takes takes) {
  switch (takes) {
    case Takes::fraction: return "a share such as \"20%\" or 0.2";
    case Takes::usd: return "an amount of dollars such as \"$100K\"";
    case Takes::count: return "a whole number of GPUs, 0 or more";
    case Takes::duration: return "a duration such as \"7 d\" (a plain number counts days)";
    case Takes::boolean: return "true or false";
  }
  return "";
}

}  // namespace

std::span<const GuardrailKey> guardrail_keys() { return keys; }

const GuardrailKey* find_guardrail_key(std::string_view name) {
  for (const GuardrailKey& key : keys)
    if (key.name == name) return &key;
  return nullptr;
}

std::optional<std::string> set_guardrail(const GuardrailKey& key, const GuardrailValue& value, Guardrails& out) {
  const std::string wrong = fmt::format("guardrails.{} must be {}", key.name, expected(key.takes));
  if (key.takes == Takes::boolean) {
    if (!value.boolean) return wrong;
    out.new_errors = *value.boolean;
    return std::nullopt;
  }
  if (!value.quantity || !std::isfinite(value.quantity->value) || value.quantity->value < 0) return wrong;
  const units::Quantity& q = *value.quantity;
  double limit = q.value;
  switch (key.takes) {
    case Takes::fraction:
      // "20%" or 0.2; a plain 20 would be 2000%, the slip a percentage without its sign is.
      if (q.dim != units::dims::none || (!value.written_as_percent && q.value > 1)) return wrong;
      break;
    case Takes::usd:
      if (q.dim != units::dims::usd && q.dim != units::dims::none) return wrong;
      break;
    case Takes::count:
      if ((q.dim != units::dims::none && q.dim != units::dims::gpus) || value.written_as_percent ||
          q.value != std::floor(q.value))
        return wrong;
      break;
    case Takes::duration:
      if (q.dim == units::dims::none && !value.written_as_percent) limit = q.value * 86400;  // days
      else if (q.dim != units::dims::seconds) return wrong;
      break;
    case Takes::boolean: break;
  }
  out.*key.limit = limit;
  return std::nullopt;
}

}  // namespace planlint
