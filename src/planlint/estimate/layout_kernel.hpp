#pragma once
/// The training figures of one parallel layout on plain numbers: what the plan fixes is read
/// once (read_training_inputs), and evaluate() composes the formulas of layout_formulas.hpp as
/// the metrics of the estimates do, for a layout the plan need not state. `planlint solve`
/// evaluates every layout of its space with it; a test holds its figures equal to the metrics
/// of every example and rule case.
///
///     const layout::TrainingInputs inputs = layout::read_training_inputs(plan, catalog, estimates);
///     layout::TrainingLayout l = layout::plan_layout(plan);
///     l.tp = 8;
///     const layout::TrainingFigures f = layout::evaluate(inputs, l);  // f.memory_lower_bound ...
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "planlint/catalog/catalog.hpp"
#include "planlint/estimate/estimates.hpp"
#include "planlint/estimate/layout_formulas.hpp"
#include "planlint/plan/plan.hpp"

namespace planlint::layout {

inline constexpr double absent = std::numeric_limits<double>::quiet_NaN();

/// training.recompute.
enum class Recompute : std::uint8_t { none, selective, full };
std::string_view recompute_name(Recompute recompute);

/// The keys of a training layout: what `planlint solve` varies.
struct TrainingLayout {
  int tp = 1, pp = 1, virtual_stages = 1, dp = 1, cp = 1, ep = 1, micro_batch = 1, zero = 0;
  Recompute recompute = Recompute::selective;
  bool sequence_parallel = false;
  Offload offload = Offload::none;
  friend bool operator==(const TrainingLayout&, const TrainingLayout&) = default;
};

/// What the plan fixes, in base units; NaN where the plan lacks it (the figures that need it are
/// then NaN, as the metrics are absent).
struct TrainingInputs {
  double params = absent;           ///< model.params, N
  double layers = absent, hidden = absent, heads = absent, kv_heads = absent, seq_len = absent;
  /// MoE with the expert split known (train.moe.expert_params): the states and all-reduce split it.
  bool moe = false, expert_split_known = false;
  double dense_params = absent, expert_params = absent, experts = absent;
  double experts_per_token = absent, moe_layers = absent;
  /// The state bytes per parameter before offload (the layout's training.offload moves them).
  StateBytes state_bytes;
  bool state_bytes_known = true;    ///< the optimizer (or bytes_per_param) is one planlint knows
  /// Activations per token and layer in units of h (layer_bytes), used below full recompute.
  double kept = 10, split = 24, score_bytes = 5;
  bool flash_attention = true;
  double first_stage_layers = 0;    ///< 0: not stated (L / pp)
  /// training.pipeline_schedule: its bubble, in-flight activations and parameter copies; a
  /// schedule other than 1F1B places its own chunks (virtual_stages is not read).
  PipelineSchedule schedule = PipelineSchedule::one_f_one_b;
  /// What offload reads: cluster.host_bandwidth (the host link, both directions; NaN for a GPU
  /// without a known one), cluster.host_memory (a node's; NaN: not stated, not checked) and
  /// cluster.gpus_per_node.
  double host_bandwidth = absent, host_memory = absent, gpus_per_node = absent;
  double measured_activations = absent;  ///< training.activation_memory, when stated
  double memory_reserve = absent, hbm = absent;
  double sequences_per_step = absent, tokens_per_step = absent;
  bool batch_in_sequences = true;   ///< global_batch is in sequences (must divide by dp · b)
  double count = absent, peak = absent, mfu = absent, goodput = absent, schedule_margin = absent, price = absent;
  /// FLOPs the step time (per token) and the GPU time divide by the MFU: with the attention's
  /// when it counts them.
  double step_flops_per_token = absent, gpu_flops = absent;
  bool mfu_counts_recompute = false;  ///< full recompute is 4/3 of the FLOPs the MFU counts
  double scale_up_domain = absent, inter_node_bandwidth = absent, intra_node_bandwidth = absent;
  double alltoall_element_bytes = 8;  ///< dispatch, combine, forward and backward
  /// LoRA: only the adapters' gradients are all-reduced (train.lora.adapter_params, NaN when the
  /// shapes are unstated), and with `adapters_counted` their states add to the frozen base's.
  bool lora = false, adapters_counted = false;
  double adapter_params = absent;
  StateBytes adapter_state_bytes;
  /// Plan keys the figures need that the plan lacks.
  std::vector<std::string> missing;
};

/// The figures of one layout, NaN where the metric of that name is absent.
struct TrainingFigures {
  double states = absent, activations = absent, reserve = absent, total = absent, lower_bound = absent;
  double step_seconds = absent, gpu_seconds = absent, days = absent, wall_days = absent, schedule_days = absent;
  double billed = absent, cost = absent;
  double allreduce_bytes = absent, dp_group_domains = absent, comm_seconds = absent, comm_fraction = absent;
  double comm_fraction_lower_bound = absent;
  double micro_batches = absent, bubble = absent;
  double ep_group_domains = absent, alltoall_bytes = absent, alltoall_seconds = absent, alltoall_fraction = absent;
  /// training.offload's: what host memory keeps a GPU, what the host link moves a step and its
  /// time (NaN without offload, as the metrics are absent), and what a node's host memory keeps
  /// (offload-host-memory's node_bytes).
  double offload_state_bytes = absent, offload_activation_bytes = absent;
  double offload_bytes = absent, offload_seconds = absent, offload_fraction = absent, offload_node_bytes = absent;
};

/// What the plan fixes, read once: its keys (defaults included) and the MoE split of
/// `estimates` (the plan's).
TrainingInputs read_training_inputs(const Plan& plan, const Catalog& catalog, const Estimates& estimates);
/// The plan's own layout (defaults included).
TrainingLayout plan_layout(const Plan& plan);

/// The terms a layout's memory is composed of, for the offload modes asked for: the states HBM
/// keeps without and with the optimizer offloaded, the states the host keeps, one layer's
/// activations and the layers' worth the first stage holds (without `activations`, none of the
/// latter two). None depends on l.offload.
struct MemoryTerms {
  double states = absent, weights_only_states = absent, host_states = absent;
  double per_layer = absent, held_layers = absent;
};

inline MemoryTerms memory_terms(const TrainingInputs& in, const TrainingLayout& l, bool kept, bool offloaded,
                                bool activations = true) {
  const double tp = l.tp, pp = l.pp, dp = l.dp, cp = l.cp, ep = l.ep;
  const double v = in.schedule == PipelineSchedule::one_f_one_b ? l.virtual_stages : 1;
  const bool moe_split = in.moe && ep > 1 && in.expert_split_known;
  const double copies = schedule_parameter_copies(pp, in.schedule);
  // The states of the model's parameters at k bytes each, as the layout splits and shards them.
  const auto model_states = [&](const StateBytes& k) {
    return moe_split ? moe_states_bytes(k, l.zero, in.params, in.dense_params, in.expert_params, tp, pp, dp, cp, ep)
                     : dense_states_bytes(k, l.zero, in.params, tp, pp, dp, cp);
  };
  // In HBM: the model's states and LoRA's adapters', × the schedule's parameter copies.
  const auto hbm_states = [&](bool optimizer_offloaded) {
    double states = absent;
    if (in.state_bytes_known) states = model_states(hbm_state_bytes(in.state_bytes, optimizer_offloaded));
    if (in.adapters_counted)
      states += dense_states_bytes(hbm_state_bytes(in.adapter_state_bytes, optimizer_offloaded), l.zero,
                                   in.adapter_params, tp, pp, dp, cp);
    return states * copies;
  };
  MemoryTerms t;
  if (kept) t.states = hbm_states(false);
  if (offloaded) {
    t.weights_only_states = hbm_states(true);
    // train.offload.state_bytes: a LoRA fine-tune offloads its adapters' states (the frozen base
    // has none).
    if (in.state_bytes_known)
      t.host_states = copies * (in.adapters_counted ? dense_states_bytes(host_state_bytes(in.adapter_state_bytes),
                                                                         l.zero, in.adapter_params, tp, pp, dp, cp)
                                                    : model_states(host_state_bytes(in.state_bytes)));
  }
  if (activations && std::isnan(in.measured_activations)) {
    LayerActivations layer;
    layer.seq_len = in.seq_len;
    layer.micro_batch = l.micro_batch;
    layer.hidden = in.hidden;
    layer.heads = in.heads;
    layer.kept = in.kept;
    layer.split = in.split;
    layer.score_bytes = in.score_bytes;
    layer.scores_kept = l.recompute == Recompute::none && !in.flash_attention;
    t.per_layer = layer_activation_bytes(layer, l.recompute == Recompute::full, l.sequence_parallel, tp);
    t.held_layers =
        first_stage_held_layers(in.layers, in.first_stage_layers, pp, v) * schedule_activation_factor(pp, in.schedule);
  }
  return t;
}

/// The memory per GPU of `l` (states to lower_bound) and what offload keeps in host memory, from
/// its terms (memory_terms with the states of l.offload).
inline void compose_memory(const TrainingInputs& in, const TrainingLayout& l, const MemoryTerms& t,
                           TrainingFigures& f) {
  const bool optimizer_offloaded = offloads_optimizer(l.offload);
  const bool activations_offloaded = offloads_activations(l.offload);
  f.states = optimizer_offloaded ? t.weights_only_states : t.states;
  f.offload_state_bytes = optimizer_offloaded ? t.host_states : absent;
  f.offload_activation_bytes = absent;
  if (!std::isnan(in.measured_activations)) {
    f.activations = in.measured_activations;
  } else {
    f.activations =
        activations_bytes(activations_offloaded ? offloaded_held_layers : t.held_layers, t.per_layer, l.cp);
    if (activations_offloaded) f.offload_activation_bytes = offload_activation_bytes(f.activations, t.held_layers);
  }
  f.reserve = memory_reserve_bytes(in.memory_reserve, f.states, f.activations);
  f.total = memory_total_bytes(f.states, f.activations, f.reserve);
  // memory-fit's bound: an MoE model's states without the expert split, split ep ways below ZeRO 3.
  const bool least_split = in.moe && !in.expert_split_known && l.ep > 1 && l.zero < 3;
  f.lower_bound =
      memory_lower_bound_bytes(least_split ? f.states / l.ep : f.states, f.activations, in.memory_reserve);
}

/// The step's time, the run's days and cost.
inline void evaluate_time(const TrainingInputs& in, const TrainingLayout& l, TrainingFigures& f) {
  const double recompute_factor = in.mfu_counts_recompute && l.recompute == Recompute::full ? 4.0 / 3.0 : 1;
  f.step_seconds = step_seconds(recompute_factor, in.step_flops_per_token, in.tokens_per_step, in.count, in.peak, in.mfu);
  f.gpu_seconds = gpu_seconds(recompute_factor, in.gpu_flops, in.peak, in.mfu);
  f.days = train_seconds(f.gpu_seconds, in.count);
  f.wall_days = wall_seconds(f.days, in.goodput);
  f.schedule_days = schedule_seconds(f.wall_days, in.schedule_margin);
  f.billed = billed_gpu_seconds(in.count, f.wall_days);
  f.cost = cost_total(f.billed, in.price);
}

/// The gradient all-reduce, the pipeline and the expert all-to-all.
inline void evaluate_comm(const TrainingInputs& in, const TrainingLayout& l, TrainingFigures& f) {
  const double tp = l.tp, pp = l.pp, dp = l.dp, cp = l.cp, ep = l.ep;
  const double v = in.schedule == PipelineSchedule::one_f_one_b ? l.virtual_stages : 1;
  const bool moe_split = in.moe && ep > 1 && in.expert_split_known;
  // Every figure set here, or absent: `f` may hold another layout's.
  f.allreduce_bytes = f.comm_seconds = absent;
  f.ep_group_domains = f.alltoall_bytes = f.alltoall_seconds = f.alltoall_fraction = absent;
  if (in.lora) {
    f.allreduce_bytes = dense_allreduce_bytes(in.adapter_params, tp, pp, dp, cp);
  } else {
    if (moe_split) {
      if (dp * (cp > 1 ? cp : 1) / ep >= 1)
        f.allreduce_bytes = moe_allreduce_bytes(in.dense_params, in.expert_params, tp, pp, dp, cp, ep);
    } else {
      f.allreduce_bytes = dense_allreduce_bytes(in.params, tp, pp, dp, cp);
    }
  }
  f.dp_group_domains = group_domains(tp, cp, dp, in.scale_up_domain);
  if (!std::isnan(f.allreduce_bytes) && (dp * cp <= 1 || !std::isnan(f.dp_group_domains)))
    f.comm_seconds = allreduce_seconds(f.allreduce_bytes, dp, cp, f.dp_group_domains, in.inter_node_bandwidth,
                                       in.intra_node_bandwidth);
  f.comm_fraction = step_fraction(f.comm_seconds, f.step_seconds);
  f.comm_fraction_lower_bound = in.moe && ep > 1 && !in.expert_split_known ? f.comm_fraction / ep : f.comm_fraction;

  f.micro_batches = micro_batches(in.sequences_per_step, dp, l.micro_batch);
  f.bubble = pipeline_bubble(pp, v, f.micro_batches, in.schedule);

  if (in.moe) {
    f.ep_group_domains = group_domains(tp, cp, ep, in.scale_up_domain);
    f.alltoall_bytes = alltoall_bytes(ep, in.experts_per_token, in.hidden, in.alltoall_element_bytes, in.moe_layers,
                                      pp, in.tokens_per_step, dp, tp, cp);
    if (!std::isnan(f.alltoall_bytes) && (ep <= 1 || !std::isnan(f.ep_group_domains)))
      f.alltoall_seconds = alltoall_seconds(f.alltoall_bytes, ep, f.ep_group_domains, in.inter_node_bandwidth,
                                            in.intra_node_bandwidth);
    f.alltoall_fraction = step_fraction(f.alltoall_seconds, f.step_seconds);
  }
}

/// The offload transfers (train.offload.bytes, seconds, fraction) and what a node's host memory
/// keeps: after compose_memory (the activations), evaluate_time (the step) and evaluate_comm
/// (the micro-batches).
inline void evaluate_offload(const TrainingInputs& in, const TrainingLayout& l, TrainingFigures& f) {
  f.offload_bytes = f.offload_seconds = f.offload_fraction = f.offload_node_bytes = absent;
  if (l.offload == Offload::none) return;
  double bytes = 0;
  if (offloads_optimizer(l.offload))
    bytes += optimizer_offload_bytes(in.lora ? in.adapter_params : in.params, l.zero, l.tp,
                                     l.pp, l.dp, l.cp);
  if (offloads_activations(l.offload)) {
    const bool first = in.first_stage_layers > 0;
    bytes += activation_offload_bytes(f.activations, f.micro_batches, first ? in.first_stage_layers : in.layers,
                                      first ? 1 : l.pp);
  }
  f.offload_bytes = bytes;
  f.offload_seconds = offload_seconds(bytes, in.host_bandwidth);
  f.offload_fraction = step_fraction(f.offload_seconds, f.step_seconds);
  const bool states = !std::isnan(f.offload_state_bytes), activations = !std::isnan(f.offload_activation_bytes);
  if (states || activations)
    f.offload_node_bytes = offload_node_bytes(states ? f.offload_state_bytes : 0,
                                              activations ? f.offload_activation_bytes : 0, in.gpus_per_node);
}

/// The figures of `l` into `f`, and the terms of its memory into `terms` (the states of
/// l.offload): the metrics' formulas, composed as the estimates compose them.
inline void evaluate(const TrainingInputs& in, const TrainingLayout& l, MemoryTerms& terms, TrainingFigures& f) {
  const bool optimizer_offloaded = offloads_optimizer(l.offload);
  terms = memory_terms(in, l, !optimizer_offloaded, optimizer_offloaded);
  compose_memory(in, l, terms, f);
  evaluate_time(in, l, f);
  evaluate_comm(in, l, f);
  evaluate_offload(in, l, f);
}

/// The figures of `l`.
inline TrainingFigures evaluate(const TrainingInputs& in, const TrainingLayout& l) {
  MemoryTerms terms;
  TrainingFigures f;
  evaluate(in, l, terms, f);
  return f;
}

/// The figures of `l` into `f`, which holds those of a layout that differs from it in offload
/// alone: what offload changes (the memory and the transfers) composed again from `terms`
/// (memory_terms of `l` with the states of l.offload), the rest (time, communication, pipeline)
/// kept. Equal to evaluate(in, l).
inline void evaluate_offload_twin(const TrainingInputs& in, const TrainingLayout& l, const MemoryTerms& terms,
                                  TrainingFigures& f) {
  compose_memory(in, l, terms, f);
  evaluate_offload(in, l, f);
}

}  // namespace planlint::layout
