#pragma once
/// The exhaustive search of `planlint solve` over training layouts (docs/solve.md): every
/// layout the model's divisibility allows, evaluated on plain numbers with the layout kernel
/// (estimate/layout_kernel.hpp), kept when it fits the HBM as memory-fit holds it and meets the
/// hard targets, ranked by the objective.
///
///     SearchSpec spec;
///     spec.held = held_keys(plan_layout, {"tp"});
///     SearchResult result = search_training(inputs, plan_layout, spec);  // result.best[0] ...
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "planlint/estimate/layout_kernel.hpp"
#include "planlint/metrics/metric_table.hpp"

namespace planlint::solve {

/// The layout keys solve may change, in the order the output shows them.
enum class LayoutKey : std::uint8_t {
  tp,
  pp,
  virtual_stages,
  cp,
  ep,
  micro_batch,
  zero,
  recompute,
  sequence_parallel,
  offload
};
inline constexpr std::size_t layout_key_count = 10;
/// The plan key of each ("training.tp"), and its short name ("tp").
std::string_view plan_key(LayoutKey key);
std::string_view short_name(LayoutKey key);
/// The key called `name` ("tp" or "training.tp"); nullptr for none.
const LayoutKey* find_layout_key(std::string_view name);
/// "tp, pp, virtual_stages, cp, ep, micro_batch, zero, recompute, sequence_parallel, offload": the
/// keys' short names, as --keep and [solve] keep take them.
std::string layout_key_list();

/// What the search minimises first; ties go to fewer days, then fewer warnings.
enum class Objective : std::uint8_t { cost, days, gpus };

/// A [[targets]] bound on a metric the kernel computes.
struct TargetBound {
  std::string name;
  Metric metric = Metric::train_days;
  bool is_max = true;
  double bound = 0;  ///< base units
};

/// The figure of `metric` in `figures`; NaN for a metric the kernel does not compute.
double figure_of(const layout::TrainingFigures& figures, Metric metric);
/// Whether the kernel computes `metric` (a target on any other does not depend on the layout).
bool kernel_metric(Metric metric);
/// Whether training.offload changes `metric`: the memory per GPU and the offload figures.
bool offload_metric(Metric metric);

struct SearchSpec {
  /// The keys held at the plan's values.
  std::array<bool, layout_key_count> held{};
  Objective objective = Objective::cost;
  std::size_t top = 5;         ///< layouts kept
  std::size_t families = 5;    ///< excluded families reported
  std::vector<TargetBound> hard_targets, soft_targets;
  /// The warning rules' limits (pipeline-bubble's max_bubble, interconnect-bottleneck's
  /// max_comm_fraction), as the run's options set them.
  double max_bubble = 0.2, max_comm_fraction = 0.1;
  /// offload-bandwidth's max_offload_fraction: the offload transfers' share of the step.
  double max_offload_fraction = 1;
  /// The most layouts evaluated: a space beyond it (a hostile GPU count of many divisors) is
  /// not searched in part but refused (SearchResult::too_large), a few seconds in.
  std::uint64_t max_layouts = 100'000'000;
  /// A finding's fix (advice.hpp) searches the layouts that clear it: with these, a bubble over
  /// max_bubble or an all-reduce over max_comm_fraction excludes a layout as the HBM does.
  bool clear_bubble = false, clear_comm = false;
  /// With a layout here, the fewest keys changed from it rank right after the warnings: the
  /// nearest layout that clears a finding, not the one furthest from the plan.
  const layout::TrainingLayout* nearest_to = nullptr;
};

/// How a layout ranks: lexicographic, smaller first.
struct Rank {
  double objective = 0, days = 0;
  int warnings = 0;         ///< warning-level rules it trips (pipeline-bubble, interconnect-bottleneck, offload-bandwidth, tp-across-nodes)
  int changed = 0;          ///< keys changed from SearchSpec::nearest_to; 0 without it
  int soft_missed = 0;      ///< soft targets it misses
  /// training.offload (0 none, 1 optimizer, 2 activations, 3 both): the CPU's optimizer step and
  /// the host link's transfers, which the MFU does not state and which overlap the compute only
  /// in part: a layout offloads only where nothing that offloads less ranks as well before it.
  int offload = 0;
  /// GPUs of one model replica, tp · pp · cp: the least model parallelism that fits first, data
  /// parallelism for the rest (Narayanan et al. 2021 §3.3); its per-layer communication (tensor-
  /// and context-parallel collectives, pipeline sends) is not in the estimates.
  double model_gpus = 0;
  double overhead = 0;      ///< bubble + all-reduce + all-to-all + offload shares of the step, before overlap
  /// Recomputation (0 none, 1 selective, 2 full) and the ZeRO stage: each costs time the MFU does
  /// not state (a second forward pass, ZeRO-3's weight all-gathers), so the least that fits first.
  int recompute = 0, zero = 0;
  double memory = 0;        ///< memory-fit's bound per GPU: more headroom first
};

struct Ranked {
  /// The GPU type's index in the solve's GPU list (SolveReport::gpus); -1 for the plan's GPU
  /// when the list leaves it out.
  int gpu = 0;
  /// The global batch as a multiple of the plan's: 1 unless solve varies it (batch_scales).
  double batch_scale = 1;
  layout::TrainingLayout layout;
  layout::TrainingFigures figures;
  Rank rank;
};

/// The order of the results: by rank, then by the layout's keys and the GPU type (a stable order
/// for ties).
bool ranks_before(const Ranked& a, const Ranked& b);

/// Why a layout fails: the constraint that excludes it by the widest margin.
struct Failure {
  /// host_memory: offload-host-memory, what training.offload keeps in a node's host memory.
  enum class Kind : std::uint8_t { memory, hard_target, bubble, comm, host_memory } kind = Kind::memory;
  std::size_t target = 0;  ///< the index in SearchSpec::hard_targets, for Kind::hard_target
  /// How far over: memory-fit's bound over the HBM, a value over its max (or a min over the
  /// value), the bubble or the all-reduce's share over its limit, a node's offloaded bytes over
  /// its host memory.
  double ratio = 0;
};

/// A family of layouts (one tp, pp and cp) none of which passes, with its nearest miss.
struct FamilyMiss {
  Ranked nearest;
  Failure failure;
};

struct SearchResult {
  std::vector<Ranked> best;         ///< at most SearchSpec::top, best first
  std::vector<FamilyMiss> misses;   ///< the nearest excluded families, nearest first
  std::uint64_t layouts = 0;        ///< the space's size: layouts evaluated
  std::uint64_t passing = 0;        ///< of them, those that fit and meet the hard targets
  bool too_large = false;           ///< the space holds more than SearchSpec::max_layouts
};

/// The keys whose values differ between `a` and `b`.
int changed_keys(const layout::TrainingLayout& a, const layout::TrainingLayout& b);

/// The held keys: `kept` (short or plan names) and those the plan's inputs tie to its own value
/// (pp with a stated first_stage_layers, the activations' keys with a measured
/// activation_memory). Unknown names are returned in `unknown`. (offload_values() says which
/// offload modes a free offload takes.)
std::array<bool, layout_key_count> held_keys(const layout::TrainingInputs& inputs, const std::vector<std::string>& kept,
                                             std::vector<std::string>& unknown);

/// The failure of a layout's figures (nullopt: it passes).
std::optional<Failure> failure_of(const layout::TrainingInputs& inputs, const SearchSpec& spec,
                                  const layout::TrainingFigures& figures);
/// The rank of a layout's figures.
Rank rank_of(const layout::TrainingInputs& inputs, const SearchSpec& spec, const layout::TrainingLayout& l,
             const layout::TrainingFigures& figures);

/// The training.offload modes the search takes on `inputs`' GPU: the plan's alone when held;
/// else every mode, but without a known host link (cluster.host_bandwidth) only none and the
/// plan's own, and with measured activations (training.activation_memory) only the modes that
/// offload the activations as the plan does. None first.
std::vector<layout::Offload> offload_values(const layout::TrainingInputs& inputs, layout::Offload plan_offload,
                                            bool held);

/// Every layout of the space: `plan_layout`'s values for the held keys, the others over what the
/// model's divisibility allows.
SearchResult search_training(const layout::TrainingInputs& inputs, const layout::TrainingLayout& plan_layout,
                             const SearchSpec& spec);

}  // namespace planlint::solve
