#pragma once
/// The numeric formulas of the training metrics that depend on the parallel layout, on plain
/// numbers: the one statement of each formula, which the metrics of training_memory.cpp,
/// training_comm.cpp, training_moe.cpp and training_compute.cpp take their values from (they
/// build the arithmetic text from the same terms), and which `planlint solve` evaluates
/// millions of layouts with (layout_kernel.hpp). docs/estimates.md states and cites each.
///
///     double states = layout::dense_states_bytes(k, 2, 70e9, 8, 4, 32, 1);
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string_view>

namespace planlint::layout {

/// Model-state bytes per parameter, split as the ZeRO stages shard them (Rajbhandari et al.
/// 2020 §3.1: mixed-precision AdamW, 2 + 2 + 12).
struct StateBytes {
  double weights = 2, gradients = 2, optimizer = 12;
  double total() const { return weights + gradients + optimizer; }
};

/// The ranks ZeRO shards over: M · dp, and · cp with context parallelism (its ranks hold the
/// same weights and sum their gradients with the dp ranks').
inline double zero_shards(double tp, double pp, double dp, double cp) {
  return tp * pp * dp * (cp > 1 ? cp : 1);
}

/// Model states per GPU of a dense model (or an MoE model whose expert split is not known):
/// ZeRO 0 k · N / M; 1 (k_w + k_g) · N / M + k_o · N / S; 2 k_w · N / M + (k_g + k_o) · N / S;
/// 3 k · N / S; M = tp · pp, S = M · dp · cp.
inline double dense_states_bytes(const StateBytes& k, int zero, double params, double tp, double pp, double dp,
                                 double cp) {
  const double model_parallel = tp * pp;
  switch (zero) {
    case 0: return k.total() * params / model_parallel;
    case 1: return (k.weights + k.gradients) * params / model_parallel + k.optimizer * params / zero_shards(tp, pp, dp, cp);
    case 2: return k.weights * params / model_parallel + (k.gradients + k.optimizer) * params / zero_shards(tp, pp, dp, cp);
    default: return k.total() * params / zero_shards(tp, pp, dp, cp);
  }
}

/// Model states per GPU of an MoE model with expert parallelism (Megatron-Core's layout): the
/// dense parameters N_d over M, the routed experts N_e over M · ep; the bytes a stage leaves
/// unsharded stay on each holder, the rest is spread over M · dp · cp.
inline double moe_states_bytes(const StateBytes& k, int zero, double params, double dense_params,
                               double expert_params, double tp, double pp, double dp, double cp, double ep) {
  const double unsharded = zero == 0   ? k.total()
                           : zero == 1 ? k.weights + k.gradients
                           : zero == 2 ? k.weights
                                       : 0;
  const double sharded = k.total() - unsharded;
  const double model_parallel = tp * pp;
  const double held = dense_params / model_parallel + expert_params / (model_parallel * ep);
  if (zero == 0) return k.total() * held;
  const double shards = zero_shards(tp, pp, dp, cp);
  if (zero >= 3) return k.total() * params / shards;
  return unsharded * held + sharded * params / shards;
}

/// training.offload: what a layout keeps in the host CPU's memory and moves over its host link
/// each step.
enum class Offload : std::uint8_t { none, optimizer, activations, optimizer_activations };

/// The mode `name` writes ("optimizer+activations"); none for any other.
inline Offload offload_mode(std::string_view name) {
  if (name == "optimizer") return Offload::optimizer;
  if (name == "activations") return Offload::activations;
  if (name == "optimizer+activations") return Offload::optimizer_activations;
  return Offload::none;
}

inline std::string_view offload_name(Offload offload) {
  switch (offload) {
    case Offload::none: return "none";
    case Offload::optimizer: return "optimizer";
    case Offload::activations: return "activations";
    case Offload::optimizer_activations: return "optimizer+activations";
  }
  return "none";
}

inline bool offloads_optimizer(Offload offload) {
  return offload == Offload::optimizer || offload == Offload::optimizer_activations;
}
inline bool offloads_activations(Offload offload) {
  return offload == Offload::activations || offload == Offload::optimizer_activations;
}

/// The state bytes per parameter HBM keeps: with the optimizer offloaded (ZeRO-Offload, Ren et
/// al. 2021 §4) the gradients and optimizer states live in host memory and the CPU runs the
/// step, so HBM keeps the weights only.
inline StateBytes hbm_state_bytes(const StateBytes& k, bool optimizer_offloaded) {
  return optimizer_offloaded ? StateBytes{k.weights, 0, 0} : k;
}

/// The state bytes per parameter host memory keeps with the optimizer offloaded: the gradients
/// and optimizer states, sharded as they would be on the GPU (train.offload.state_bytes).
inline StateBytes host_state_bytes(const StateBytes& k) { return StateBytes{0, k.gradients, k.optimizer}; }

/// Activation bytes of one layer per GPU (Korthikanti et al. 2022 §4.1, table 2), before the
/// pipeline's in-flight micro-batches and context parallelism: `kept` and `split` the bytes per
/// token and layer in units of h that tensor parallelism keeps whole and splits (10 and 24 for
/// GPT-3's shape), `score_bytes` the attention scores' 5 (2 without dropout) · a · S / h when
/// they are stored (`scores_kept`: no recompute, no flash attention).
struct LayerActivations {
  double seq_len = 0, micro_batch = 0, hidden = 0, heads = 0;
  double kept = 10, split = 24, score_bytes = 5;
  bool scores_kept = false;
};

inline double layer_activation_bytes(const LayerActivations& a, bool full_recompute, bool sequence_parallel,
                                     double tp) {
  const double sbh = a.seq_len * a.micro_batch * a.hidden;
  // Sequence parallelism (or tp = 1) splits every stored tensor by t; plain tensor parallelism
  // only the ones inside the attention and MLP blocks.
  const bool split_all = sequence_parallel || tp == 1;
  // Full recompute keeps each layer's 16-bit input only.
  if (full_recompute) return 2 * sbh / (split_all ? tp : 1);
  if (split_all) {
    const double scores = a.scores_kept ? a.score_bytes * a.heads * a.seq_len / a.hidden : 0;
    return sbh * (a.kept + a.split + scores) / tp;
  }
  const double scores = a.scores_kept ? a.score_bytes * a.heads * a.seq_len / (a.hidden * tp) : 0;
  return sbh * (a.kept + a.split / tp + scores);
}

/// The layers' worth of activations the first pipeline stage holds (Korthikanti et al. 2022
/// §4.2.3): L with 1F1B, pp · first_stage_layers when the plan states the latter (0: not
/// stated), and with an interleaved schedule of v chunks (1 + (pp − 1)/(pp · v)) times that.
inline double first_stage_held_layers(double layers, double first_stage_layers, double pp, double virtual_stages) {
  double held = first_stage_layers > 0 ? first_stage_layers * pp : layers;
  const bool pipelined = first_stage_layers > 0 || pp > 1;
  if (pipelined && virtual_stages > 1) held *= 1 + (pp - 1) / (pp * virtual_stages);
  return held;
}

/// With activation offload, the layers' worth of one micro-batch HBM holds: the layer computing
/// and the one whose activations are in transfer to or from host memory.
inline constexpr double offloaded_held_layers = 2;

/// With activation offload, the activations per GPU host memory keeps: what the first stage's
/// held layers would keep in HBM, HBM's two layers' worth × H / 2 (train.offload.activation_bytes).
inline double offload_activation_bytes(double hbm_activations, double held_layers) {
  return hbm_activations * held_layers / offloaded_held_layers;
}

/// Optimizer offload's bytes a GPU moves per step (ZeRO-Offload, Ren et al. 2021 §4): the 16-bit
/// gradients of the parameters whose step its CPU runs out, their 16-bit weights back, (2 + 2) ·
/// N / S; S = tp · pp, and · dp · cp with ZeRO ≥ 1.
inline double optimizer_offload_bytes(double params, int zero, double tp, double pp, double dp, double cp) {
  const double shards = zero >= 1 ? zero_shards(tp, pp, dp, cp) : tp * pp;
  return 4 * params / shards;
}

/// Activation offload's bytes a GPU moves per step: each micro-batch's stored activations of its
/// layers out after the forward pass and back for the backward, HBM's activations (two layers'
/// worth) · m · the layers a GPU holds, L / pp (first_stage_layers / 1 when the plan states it).
inline double activation_offload_bytes(double hbm_activations, double micro_batches, double layers, double pp) {
  return hbm_activations * micro_batches * layers / pp;
}

/// The offload transfers' time at one direction of the host link (its figure counts both): out
/// and back follow each other.
inline double offload_seconds(double bytes, double host_bandwidth) { return bytes / (host_bandwidth / 2); }

/// What a node's host memory keeps (offload-host-memory): the offloaded states and activations
/// of a GPU (0 for either not offloaded) × the GPUs of a node.
inline double offload_node_bytes(double state_bytes, double activation_bytes, double gpus_per_node) {
  return (state_bytes + activation_bytes) * gpus_per_node;
}

/// Activations per GPU: the first stage's layers of one micro-batch, over cp (each GPU holds S/cp
/// of every sequence).
inline double activations_bytes(double held_layers, double per_layer_bytes, double cp) {
  return held_layers * per_layer_bytes / cp;
}

/// The reserve for fragmentation and communication buffers, memory_reserve · (states +
/// activations).
inline double memory_reserve_bytes(double reserve, double states, double activations) {
  return reserve * (states + activations);
}

inline double memory_total_bytes(double states, double activations, double reserve_bytes) {
  return states + activations + reserve_bytes;
}

/// What memory-fit holds to the HBM with the activations sized: (least states + activations) ·
/// (1 + memory_reserve).
inline double memory_lower_bound_bytes(double least_states, double activations, double reserve) {
  return (least_states + activations) * (1 + reserve);
}

/// A ring all-reduce of the 16-bit gradients, 2 · (g − 1)/g · 2 · N / M bytes per GPU, g = dp ·
/// cp.
inline double dense_allreduce_bytes(double params, double tp, double pp, double dp, double cp) {
  const double group = dp * (cp > 1 ? cp : 1);
  return 2 * (group - 1) / group * 2 * params / (tp * pp);
}

/// The MoE split (Megatron-Core's expert data parallelism): the dense gradients over g = dp · cp,
/// each expert's over g / ep. NaN when ep does not divide into g.
inline double moe_allreduce_bytes(double dense_params, double expert_params, double tp, double pp, double dp,
                                  double cp, double ep) {
  const double group = dp * (cp > 1 ? cp : 1);
  const double expert_group = group / ep;
  const double model_parallel = tp * pp;
  return 2 * (group - 1) / group * 2 * dense_params / model_parallel +
         2 * (expert_group - 1) / expert_group * 2 * expert_params / (model_parallel * ep);
}

/// Scale-up domains a group spans, ranks laid out tp innermost, then cp, then dp (or ep).
inline double group_domains(double tp, double cp, double degree, double per_domain) {
  return std::ceil(tp * cp * degree / per_domain);
}

/// The all-reduce time: 0 without data or context parallelism; over the network when the group
/// spans scale-up domains; else on the scale-up link at one direction's rate (its figure counts
/// both).
inline double allreduce_seconds(double bytes, double dp, double cp, double domains, double inter_node_bandwidth,
                                double intra_node_bandwidth) {
  if (dp * cp <= 1) return 0;
  if (domains > 1) return bytes / inter_node_bandwidth;
  return bytes / (intra_node_bandwidth / 2);
}

/// Compute time of one step at the assumed MFU: FLOPs a token (6 · N_a, plus the attention's when
/// the MFU counts them) · tokens / (n · P · MFU), × 4/3 when it counts full recomputation.
inline double step_seconds(double recompute_factor, double flops_per_token, double tokens_per_step, double count,
                           double peak, double mfu) {
  return recompute_factor * flops_per_token * tokens_per_step / (count * peak * mfu);
}

/// GPU time at the assumed MFU: the training FLOPs over P · MFU, × 4/3 when it counts full
/// recomputation.
inline double gpu_seconds(double recompute_factor, double flops, double peak, double mfu) {
  return recompute_factor * flops / (peak * mfu);
}

/// The share of a step's compute time a communication takes, before any overlap.
inline double step_fraction(double seconds, double step_seconds) { return seconds / step_seconds; }

/// Micro-batches per data-parallel replica per step, global_batch / (dp · b), in sequences.
inline double micro_batches(double sequences_per_step, double dp, double micro_batch) {
  return sequences_per_step / (dp * micro_batch);
}

/// training.pipeline_schedule: 1F1B (interleaved with virtual stages, Narayanan et al. 2021), the
/// zero-bubble schedules of Qi et al. 2024 (ZB-H1, ZB-H2, ZB-V) and DeepSeek-V3's DualPipe.
enum class PipelineSchedule : std::uint8_t { one_f_one_b, zb_h1, zb_h2, zb_v, dualpipe };

/// The schedule named `name` ("zb-h1"); 1F1B for any other.
inline PipelineSchedule pipeline_schedule(std::string_view name) {
  if (name == "zb-h1") return PipelineSchedule::zb_h1;
  if (name == "zb-h2") return PipelineSchedule::zb_h2;
  if (name == "zb-v") return PipelineSchedule::zb_v;
  if (name == "dualpipe") return PipelineSchedule::dualpipe;
  return PipelineSchedule::one_f_one_b;
}

/// The pipeline bubble, idle time over a step's compute time, with a forward F, an
/// input-gradient backward B and a weight-gradient backward W of equal time (Qi et al. 2024,
/// "Zero Bubble Pipeline Parallelism", §2; DeepSeek-V3's backward 2 units = B + W):
///  - 1F1B (Narayanan et al. 2021 §2.2): (p − 1) / m, interleaved over v chunks (p − 1) / (v · m);
///  - ZB-H1: (p − 1)(F + B − W) of m · (F + B + W), (p − 1) / (3m), 1F1B's memory;
///  - ZB-H2 and ZB-V: (p − 1)(F + B − 2W) = 0 (ZB-H2 at (2p − 1)/p of 1F1B's activations,
///    ZB-V with two chunks a GPU at 1F1B's);
///  - DualPipe (DeepSeek-V3 §3.2.1, table 2): (p/2 − 1)(F&B + B_full − 3W) of m · 3 units, F&B
///    taken as F + B_full (no gain from the overlap: an upper bound), (p − 2) / (3m); p even
///    (NaN for an odd p).
inline double pipeline_bubble(double pp, double virtual_stages, double micro_batches,
                              PipelineSchedule schedule = PipelineSchedule::one_f_one_b) {
  if (pp <= 1) return 0;
  switch (schedule) {
    case PipelineSchedule::zb_h1: return (pp - 1) / (3 * micro_batches);
    case PipelineSchedule::zb_h2:
    case PipelineSchedule::zb_v: return 0;
    case PipelineSchedule::dualpipe:
      if (std::fmod(pp, 2) != 0) return std::numeric_limits<double>::quiet_NaN();
      return (pp - 2) / (3 * micro_batches);
    case PipelineSchedule::one_f_one_b: break;
  }
  if (virtual_stages > 1) return (pp - 1) / (virtual_stages * micro_batches);
  return (pp - 1) / micro_batches;
}

/// The first stage's in-flight activations against 1F1B's p micro-batches: ZB-H2 2p − 1 (Qi et
/// al. 2024 §2.2), DualPipe p + 1 (DeepSeek-V3 table 2); 1F1B, ZB-H1 and ZB-V hold 1F1B's.
inline double schedule_activation_factor(double pp, PipelineSchedule schedule) {
  if (pp <= 1) return 1;
  if (schedule == PipelineSchedule::zb_h2) return (2 * pp - 1) / pp;
  if (schedule == PipelineSchedule::dualpipe) return (pp + 1) / pp;
  return 1;
}

/// Copies of its stage's parameters a GPU holds: DualPipe's two directions each hold one
/// (DeepSeek-V3 table 2, "Parameter 2×"), so its model states double.
inline double schedule_parameter_copies(double pp, PipelineSchedule schedule) {
  return pp > 1 && schedule == PipelineSchedule::dualpipe ? 2 : 1;
}

/// Expert all-to-all bytes a GPU sends per step (DeepSeek-V3 §3.2.2): (ep − 1)/ep · k · h ·
/// element bytes · moe_layers / pp · tokens_per_step / (dp · tp · cp).
inline double alltoall_bytes(double ep, double experts_per_token, double hidden, double element_bytes,
                             double moe_layers, double pp, double tokens_per_step, double dp, double tp, double cp) {
  return (ep - 1) / ep * experts_per_token * hidden * element_bytes * moe_layers / pp * tokens_per_step /
         (dp * tp * cp);
}

/// The all-to-all time: 0 at ep = 1; when the ep group spans domains, the share of peers in other
/// domains at the network's rate; else on the scale-up link at one direction's rate.
inline double alltoall_seconds(double bytes, double ep, double domains, double inter_node_bandwidth,
                               double intra_node_bandwidth) {
  if (ep <= 1) return 0;
  if (domains > 1) {
    const double local = ep / domains;
    return bytes * (ep - local) / (ep - 1) / inter_node_bandwidth;
  }
  return bytes / (intra_node_bandwidth / 2);
}

/// Ideal training time on `count` GPUs (no failures), the GPU time over the GPUs.
inline double train_seconds(double gpu_seconds, double count) { return gpu_seconds / count; }

/// Wall-clock time, the ideal time over the goodput.
inline double wall_seconds(double train_seconds, double goodput) { return train_seconds / goodput; }

/// The committed time, the wall time · the schedule margin.
inline double schedule_seconds(double wall_seconds, double margin) { return wall_seconds * margin; }

/// GPU time billed: the whole allocation over the wall time.
inline double billed_gpu_seconds(double count, double wall_seconds) { return count * wall_seconds; }

/// The cost, billed GPU time · price (price per GPU-second in base units).
inline double cost_total(double billed_gpu_seconds, double price) { return billed_gpu_seconds * price; }

}  // namespace planlint::layout
