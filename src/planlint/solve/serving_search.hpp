#pragma once
/// The exhaustive search of `planlint solve` over an inference plan's replica layouts
/// (docs/solve.md, "Inference plans"): every tp and pp the model's heads and layers allow, each
/// with the least replicas that hold the demand's peak (computed, not searched), evaluated on
/// plain numbers with the serving kernel (estimate/serving_kernel.hpp), kept when it fits the HBM
/// as inference-memory-fit holds it, its latency bounds meet the SLAs and the claimed decode
/// speed (sla-unreachable, decode-bound), and the hard targets hold; ranked by the objective.
///
///     ServeSpec spec;
///     ServeResult result = search_serving(inputs, plan_layout, spec);  // result.best[0] ...
#include <cstdint>
#include <optional>
#include <vector>

#include "planlint/estimate/serving_kernel.hpp"
#include "planlint/search/search.hpp"

namespace planlint::solve {

/// The figure of `metric` in `figures`; NaN for a metric the serving kernel does not compute.
double serving_figure_of(const serving::ServingFigures& figures, Metric metric);
/// Whether the serving kernel computes `metric` (a target on any other does not depend on the layout).
bool serving_kernel_metric(Metric metric);

struct ServeSpec {
  bool hold_tp = false, hold_pp = false;
  Objective objective = Objective::cost;  ///< cost or gpus
  std::size_t top = 5;
  std::size_t families = 5;
  std::vector<TargetBound> hard_targets, soft_targets;
  /// benchmark-deviation's error_factor: a figure that far from its benchmark is an error.
  double benchmark_error_factor = 2;
};

/// How a serving layout ranks: lexicographic, smaller first.
struct ServeRank {
  double objective = 0;   ///< $/month, or the service's GPUs
  /// tp-across-nodes, batch-decode-bound, prefill-attention-flops, benchmark-deviation
  int warnings = 0;
  int soft_missed = 0;
  double replica_gpus = 0;  ///< tp · pp: the smaller replica first (finer scaling with the demand)
  double itl_at_concurrency = 0, itl = 0, ttft = 0;  ///< lower latency first
  double memory = 0;
};

struct ServeRanked {
  int gpu = 0;  ///< the GPU type's index in the solve's list, -1 for the plan's when it is left out
  serving::ReplicaLayout layout;
  serving::ServingFigures figures;
  ServeRank rank;
};

bool serve_ranks_before(const ServeRanked& a, const ServeRanked& b);

/// Why a serving layout fails: the constraint it misses by the widest margin.
struct ServeFailure {
  enum class Kind : std::uint8_t {
    memory, no_sequence, ttft, itl, decode_claim, hard_target, benchmark, prefill_memory,
    booked  ///< the plan's own replicas need more GPUs than it books (replica-count-mismatch)
  } kind = Kind::memory;
  /// The index in ServeSpec::hard_targets (Kind::hard_target) or ServingInputs::benchmarks
  /// (Kind::benchmark).
  std::size_t target = 0;
  double ratio = 0;
};

struct ServeMiss {
  ServeRanked nearest;
  ServeFailure failure;
};

struct ServeResult {
  std::vector<ServeRanked> best;
  std::vector<ServeMiss> misses;  ///< per tp of which no layout passes, the nearest miss
  std::uint64_t layouts = 0, passing = 0;
};

/// Whether tp is a layout the plan's model and held degrees allow: dp_attention and ep divide it
/// (the loader's check), and its attention rank's tp / dp_attention GPUs divide the heads and
/// divide or are divided by the KV heads (tp-heads-indivisible).
bool serving_tp_allowed(const serving::ServingInputs& in, long long tp);

/// The tp values of the space, ascending: dp_attention times the divisors of the heads that
/// serving_tp_allowed allows.
std::vector<int> serving_tps(const serving::ServingInputs& in);

/// The layout `l` with its replicas computed, evaluated.
ServeRanked evaluate_serving(const serving::ServingInputs& in, const ServeSpec& spec, serving::ReplicaLayout l);
std::optional<ServeFailure> serve_failure_of(const serving::ServingInputs& in, const ServeSpec& spec,
                                             const serving::ServingFigures& figures);
ServeRank serve_rank_of(const serving::ServingInputs& in, const ServeSpec& spec, const serving::ReplicaLayout& l,
                        const serving::ServingFigures& figures);

/// Every layout of the space: tp over serving_tps, pp from 1 to the layers, each held at the
/// plan's value when the spec says so.
ServeResult search_serving(const serving::ServingInputs& in, const serving::ReplicaLayout& plan_layout,
                           const ServeSpec& spec);

}  // namespace planlint::solve
