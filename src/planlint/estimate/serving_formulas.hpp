#pragma once
/// The numeric formulas of the inference metrics that depend on the serving layout (tp, pp,
/// dp_attention, replicas), on plain numbers: the one statement of each formula, which the
/// metrics of inference.cpp, inference_latency.cpp and inference_reads.cpp take their values
/// from (they build the arithmetic text from the same terms), and which `planlint solve`
/// evaluates serving layouts with (serving_kernel.hpp). docs/estimates.md, "Inference", states
/// and cites each.
///
///     const serving::KvHold hold = serving::kv_hold(4, 1, 1, 8, 8, false, 1);
///     double per_gpu = serving::memory_total_bytes(70e9, 258e9, 0.1, hold);
#include <algorithm>
#include <cmath>

namespace planlint::serving {

/// A month of serving: 365.25 d / 12 = 730.5 h, in seconds.
inline constexpr double month_seconds = 365.25 * 86400 / 12;

/// ⌈kv_heads / t⌉: the KV heads each of the t GPUs of an attention rank holds (a head's keys and
/// values are not split across GPUs).
inline double kv_heads_per_gpu(double kv_heads, double rank_gpus) { return std::ceil(kv_heads / rank_gpus); }

/// infer.kv_replication: t · ⌈kv_heads / t⌉ / kv_heads for the t = tp / dp_attention GPUs of an
/// attention rank (1 where t divides kv_heads, t / kv_heads above them, t for MLA's one latent).
inline double kv_replication(double rank_gpus, double heads_per_gpu, double kv_heads) {
  return rank_gpus * heads_per_gpu / kv_heads;
}

/// The weights a replica holds over one copy with dp_attention ranks: 1 + (dp − 1) · N_d / N.
inline double weight_copies(double ranks, double dense_share) { return ranks > 1 ? 1 + (ranks - 1) * dense_share : 1; }

/// How a replica holds (and a decode step reads) its weights and KV cache, the branches the
/// formulas take: `layered` with pipeline stages or attention ranks (the cache by
/// `replication`), `split` at dp_attention 1 where tp does not divide kv_heads (a GPU holds the
/// `share` ⌈kv_heads / tp⌉ / kv_heads of it), else evenly over tp.
struct KvHold {
  double tp = 1;
  double stages = 1;       ///< inference.pp
  double ranks = 1;        ///< inference.dp_attention
  double copies = 1;       ///< weight_copies(ranks, N_d / N)
  double dense_share = 1;  ///< N_d / N, with ranks > 1 (1 for a dense model)
  bool layered = false;
  bool split = false;
  double share = 1;        ///< with split
  double replication = 1;  ///< with layered
  double gpus() const { return tp * stages; }
};

/// The hold of a replica of tp · pp GPUs with `ranks` attention ranks; `kv_heads` the model's KV
/// heads (1 for MLA's latent), `dense_share` N_d / N (1 for a dense model). What kv_split and
/// kv_replication_terms find for a plan (inference.cpp).
inline KvHold kv_hold(double tp, double pp, double ranks, double kv_heads, double dense_share) {
  KvHold h;
  h.tp = tp;
  h.stages = pp;
  h.ranks = ranks;
  h.dense_share = ranks > 1 ? dense_share : 1;
  h.copies = weight_copies(ranks, h.dense_share);
  h.layered = pp > 1 || ranks > 1;
  const double rank_gpus = tp / ranks;
  h.replication = kv_replication(rank_gpus, kv_heads_per_gpu(kv_heads, rank_gpus), kv_heads);
  const double per_gpu = std::ceil(kv_heads / tp);
  h.split = ranks <= 1 && per_gpu * tp != kv_heads;
  h.share = per_gpu / kv_heads;
  return h;
}

/// How many times its even share over tp a GPU of an unlayered replica holds (and reads) of the
/// KV cache: tp · share when split by whole heads, else 1.
inline double split_spread(const KvHold& h) { return h.split ? h.tp * h.share : 1; }

/// infer.memory.total: each GPU holds its stage's weights and its share of the cache, plus the
/// reserve on that.
inline double memory_total_bytes(double weights, double kv_cache, double reserve, const KvHold& h) {
  if (h.layered) return (weights * h.copies + kv_cache * h.replication) / h.gpus() * (1 + reserve);
  if (h.split) return (weights / h.tp + kv_cache * h.share) * (1 + reserve);
  return (weights + kv_cache) / h.tp * (1 + reserve);
}

/// infer.max_concurrency: the whole sequences of `per_token` · `tokens` bytes that the usable HBM
/// holds beside the weights; each attention rank holds whole sequences of its own.
inline double max_concurrency(double hbm, double reserve, double weights, double per_token, double tokens,
                              const KvHold& h) {
  if (h.layered) {
    const double free_per_gpu = hbm * (1 - reserve) - weights * h.copies / h.gpus();
    const double sequence_per_gpu = per_token * tokens * h.replication * h.ranks / h.gpus();
    return std::floor(std::max(0.0, free_per_gpu) / sequence_per_gpu) * h.ranks;
  }
  const double free = hbm * (1 - reserve) * h.tp - weights;
  if (h.split) return std::floor(std::max(0.0, free) / (per_token * tokens * h.tp * h.share));
  return std::floor(std::max(0.0, free) / (per_token * tokens));
}

/// Whether the weights alone exceed the usable HBM (max_concurrency's note).
inline bool weights_exceed_hbm(double hbm, double reserve, double weights, const KvHold& h) {
  if (h.layered) return hbm * (1 - reserve) - weights * h.copies / h.gpus() < 0;
  return hbm * (1 - reserve) * h.tp - weights < 0;
}

/// infer.decode_tokens_per_s: one sequence alone, each step reading `weights_read` (an MoE
/// model's routed share) and the sequence's cache; `steps` tokens a step (speculative decoding).
/// An attention rank reads its own copy of the weights outside the routed experts.
inline double decode_tokens_per_s(double bandwidth, double weights_read, double weights, double per_token,
                                  double tokens, double steps, const KvHold& h) {
  if (h.ranks > 1)
    return bandwidth * h.tp /
           (weights_read + (h.ranks - 1) * weights * h.dense_share + per_token * tokens * h.replication * h.ranks) *
           steps;
  const double kv_read = per_token * tokens * split_spread(h);
  return bandwidth * h.tp / (weights_read + kv_read) * steps;
}

/// infer.itl_at_concurrency: a step of the whole batch reads `weights_read` (an MoE model's
/// experts the batch is routed to) and every sequence's cache on the replica's GPUs.
inline double itl_at_concurrency(double bandwidth, double weights_read, double weights, double kv_cache, double steps,
                                 const KvHold& h) {
  if (h.layered) {
    const double extra_copies = h.ranks > 1 ? (h.ranks - 1) * weights * h.dense_share : 0;
    return (weights_read + extra_copies + kv_cache * h.replication) / (bandwidth * h.tp * h.stages) / steps;
  }
  return (weights_read + kv_cache * split_spread(h)) / (bandwidth * h.tp) / steps;
}

/// infer.ttft's compute: the prompt's forward pass at the MFU on the replica's tp · pp GPUs (the
/// prefill pool's for a disaggregated service, which adds the KV transfer).
inline double prefill_seconds(double prefill_flops, double peak, double tp, double pp, double mfu) {
  return prefill_flops / (peak * tp * pp * mfu);
}

/// infer.kv_per_sequence_per_gpu: one sequence's cache of `sequence_bytes` on each GPU of its
/// replica (of the attention rank that holds it), `replication` infer.kv_replication.
inline double kv_per_sequence_per_gpu(double sequence_bytes, double replication, const KvHold& h) {
  if (h.layered) return sequence_bytes * replication * h.ranks / h.gpus();
  return sequence_bytes * replication / h.tp;
}

/// infer.memory.one_sequence: infer.memory.total at a concurrency of one.
inline double memory_one_sequence_bytes(double weights, double sequence_per_gpu, double reserve, const KvHold& h) {
  if (h.layered) return (weights * h.copies / h.gpus() + sequence_per_gpu) * (1 + reserve);
  return (weights / h.tp + sequence_per_gpu) * (1 + reserve);
}

/// infer.memory.weights_alone: the weights (`copies` of them with attention ranks) over the
/// replica's GPUs, with the reserve.
inline double memory_weights_alone_bytes(double weights, double copies, double replica_gpus, double reserve) {
  return weights * copies / replica_gpus * (1 + reserve);
}

/// infer.cost_per_month: every GPU billed for 730.5 h.
inline double cost_per_month(double gpus, double price) { return gpus * price * month_seconds; }

/// infer.service_gpus: replicas · tp · pp.
inline double service_gpus(double replicas, double tp, double pp) { return replicas * tp * pp; }

/// infer.service_concurrency: replicas · a replica's concurrency.
inline double service_concurrency(double replicas, double per_replica) { return replicas * per_replica; }

/// infer.peak_replicas: ⌈peak concurrency / a replica's concurrency⌉.
inline double peak_replicas(double peak_concurrency, double per_replica) {
  return std::ceil(peak_concurrency / per_replica);
}

}  // namespace planlint::serving
