#pragma once
/// `[guardrails]` of `.planlint.toml`: how far a change may move a plan's figures before
/// `planlint diff` reports it as `guardrail-exceeded` (docs/review.md, "Guardrails").
///
///     [guardrails]
///     cost_increase = "20%"
///     cost_increase_amount = "$100K"
///     gpus_increase = 256
///     days_increase = "7 d"
///     memory_headroom = "10%"
///     new_errors = true
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "planlint/units/quantity.hpp"

namespace planlint {

/// The limits of a config; one it leaves out is not checked.
struct Guardrails {
  std::optional<double> cost_increase;         ///< a share of the plan's cost before: 0.2
  std::optional<double> cost_increase_amount;  ///< USD
  std::optional<double> gpus_increase;         ///< GPUs (cluster.count)
  std::optional<double> days_increase;         ///< seconds of wall-clock training time
  std::optional<double> memory_headroom;       ///< the least share of HBM a GPU keeps free
  bool new_errors = false;                     ///< an error the change introduces is a breach
};

/// A key of `[guardrails]`, declared once: its name, what it takes, and the limit it sets.
struct GuardrailKey {
  std::string_view name;
  enum class Takes { fraction, usd, count, duration, boolean } takes;
  std::optional<double> Guardrails::*limit = nullptr;  ///< null for the boolean
  std::string_view description;
};

/// Every key, in the order docs/review.md lists them.
std::span<const GuardrailKey> guardrail_keys();
const GuardrailKey* find_guardrail_key(std::string_view name);

/// A value as the config writes it: a number or quantity string, or a boolean.
struct GuardrailValue {
  std::optional<units::Quantity> quantity;
  std::optional<bool> boolean;
  bool written_as_percent = false;  ///< "20%", not 0.2 or 20
};

/// Sets `key`'s limit in `out` from `value`; the error ("guardrails.cost_increase must be a
/// share such as \"20%\" or 0.2") when the value is not what the key takes.
std::optional<std::string> set_guardrail(const GuardrailKey& key, const GuardrailValue& value, Guardrails& out);

}  // namespace planlint
