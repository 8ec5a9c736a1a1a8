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
///
/// Its keys, what each takes and its doc are rows of config_keys() (config_keys.hpp).
#include <optional>

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

}  // namespace planlint
