#pragma once
/// The terms the inference formulas share (inference.cpp, inference_reads.cpp): how a
/// replica's KV cache divides over its GPUs, the share of an MoE model's weights a decode step
/// reads, and speculative decoding's tokens a step.
#include <cmath>
#include <optional>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "planlint/estimate/engine.hpp"
#include "planlint/estimate/serving_formulas.hpp"

namespace planlint::detail {

/// How a replica's KV cache divides over its GPUs when it does not simply divide over tp. A KV
/// head's keys and values are not split across GPUs, so each GPU holds ⌈kv_heads / tp⌉ whole
/// heads: at tp > kv_heads serving engines (vLLM, TensorRT-LLM, LMDeploy) hold each head on
/// tp / kv_heads GPUs and the cache divides over kv_heads (with MQA or MLA, kv_heads 1, every
/// GPU holds all of it); at a tp that does not divide kv_heads the GPUs holding the most heads
/// bound the replica. At a tp that divides kv_heads both ways agree (nullopt). Notes what it
/// does for this plan on `m`.
struct KvSplit {
  Term heads;           ///< model.kv_heads, recorded as an input
  Term heads_per_gpu;   ///< ⌈kv_heads / tp⌉
  bool whole_heads;     ///< tp ≥ kv_heads: one head a GPU
  double share;         ///< the share of the replica's KV cache on one GPU: ⌈kv_heads / tp⌉ / kv_heads

  /// What divides or multiplies the cache, in the formula and in the arithmetic.
  std::string_view share_formula() const { return whole_heads ? " / kv_heads" : " · ⌈kv_heads / tp⌉ / kv_heads"; }
  std::string_view spread_formula() const {
    return whole_heads ? " · tp / kv_heads" : " · tp · ⌈kv_heads / tp⌉ / kv_heads";
  }
  std::string share_text() const {
    return whole_heads ? fmt::format(" / {}", heads.text) : fmt::format(" × {} / {}", heads_per_gpu.text, heads.text);
  }
  std::string spread_text(const Term& tp) const {
    return whole_heads ? fmt::format(" × {} / {}", tp.text, heads.text)
                       : fmt::format(" × {} × {} / {}", tp.text, heads_per_gpu.text, heads.text);
  }
};

std::optional<KvSplit> kv_split(EstimateContext& context, MetricBuilder& m);

/// The KV heads a replica's cache divides by, as an input: model.kv_heads, or for MLA one, the
/// latent every head reads (DeepSeek-V2 §2.1), with model.kv_lora_rank recorded.
Term kv_heads_term(EstimateContext& context, MetricBuilder& m);

/// A replica's layout beyond tensor parallelism (docs/estimates.md, "Serving layouts"): pipeline
/// stages of tp GPUs (inference.pp) and attention data-parallel ranks of tp / dp_attention GPUs
/// each (inference.dp_attention), each an input only above 1. A rank runs the attention of its
/// own sequences and so holds their KV cache alone, and its own copy of the weights outside the
/// routed experts (SGLang's DP attention; the experts stay split over the stage's tp GPUs).
struct ServingLayout {
  std::optional<Term> pp;     ///< inference.pp above 1
  std::optional<Term> dp;     ///< inference.dp_attention above 1
  std::optional<Term> dense;  ///< with dp: N_d / N, the share each rank holds whole (1 for a dense model)

  bool any() const { return pp || dp; }
  double stages() const { return pp ? pp->value : 1; }
  double ranks() const { return dp ? dp->value : 1; }
  /// The weights a replica holds over one copy: 1 + (dp − 1) · N_d / N.
  double weight_copies() const { return dp ? serving::weight_copies(dp->value, dense->value) : 1; }
  /// "weights · (1 + (dp_attention − 1) · N_d / N)" or "weights", and its arithmetic.
  std::string weights_formula() const {
    return dp ? "weights · (1 + (dp_attention − 1) · N_d / N)" : "weights";
  }
  std::string weights_text(const Term& weights) const {
    return dp ? fmt::format("{} × (1 + ({} − 1) × {})", weights.text, dp->text, dense->text)
              : fmt::format("{}", weights.text);
  }
  /// The replica's GPUs: "(tp · pp)" or "tp", and its arithmetic.
  std::string_view gpus_formula() const { return pp ? "(tp · pp)" : "tp"; }
  std::string gpus_text(const Term& tp) const {
    return pp ? fmt::format("({} × {})", tp.text, pp->text) : fmt::format("{}", tp.text);
  }
};

/// The pool a layout describes: the replicas of [inference] on [cluster] (the decode pool of a
/// disaggregated service), or the prefill pool of inference.prefill_gpu.
enum class Pool { serving, prefill };

ServingLayout serving_layout(EstimateContext& context, MetricBuilder& m, Pool pool = Pool::serving);

/// Whether the plan has a disaggregated prefill pool (inference.prefill_gpu).
bool disaggregated(const EstimateContext& context);

/// How many times over a replica's GPUs hold its KV cache against an even split over tp:
/// t · ⌈kv_heads / t⌉ / kv_heads for the t = tp / dp_attention GPUs of an attention rank: 1 where
/// t divides kv_heads, t / kv_heads where t exceeds them, t for MLA's one latent. The one formula
/// of infer.kv_replication, which the memory and decode bounds share.
struct KvReplication {
  Term heads;          ///< kv_heads_term
  Term heads_per_gpu;  ///< ⌈kv_heads / t⌉
  double value;        ///< t · ⌈kv_heads / t⌉ / kv_heads
};
KvReplication kv_replication_terms(EstimateContext& context, MetricBuilder& m, const ServingLayout& layout,
                                   Pool pool = Pool::serving);

/// The hold (serving_formulas.hpp) of a replica whose layout has pipeline stages or attention
/// ranks, with its KV replication.
inline serving::KvHold layered_hold(const Term& tp, const ServingLayout& layout, const KvReplication& kv) {
  serving::KvHold hold;
  hold.tp = tp.value;
  hold.stages = layout.stages();
  hold.ranks = layout.ranks();
  hold.dense_share = layout.dense ? layout.dense->value : 1;
  hold.copies = layout.weight_copies();
  hold.layered = true;
  hold.replication = kv.value;
  return hold;
}

/// The hold of a replica of tp GPUs and no attention ranks: split by whole heads (KvSplit) or even.
inline serving::KvHold split_hold(const Term& tp, const std::optional<KvSplit>& split) {
  serving::KvHold hold;
  hold.tp = tp.value;
  hold.split = split.has_value();
  if (split) hold.share = split->share;
  return hold;
}

/// A disaggregated service's prefill pool (inference_prefill.cpp): the least memory a prefill
/// GPU needs, and the time a prompt's KV cache takes to reach the decode pool.
void prefill_memory(EstimateContext& context);
void kv_transfer_seconds(EstimateContext& context);

/// inference.tokens_per_step above 1 (speculative decoding: a step verifies the draft tokens
/// and emits the accepted ones, reading the weights and the KV cache once), as an input. A
/// stated value that is not valid makes the metric absent (its bad-quantity names it), as any
/// invalid input does, rather than a default of 1 standing in for it.
std::optional<Term> tokens_per_step(EstimateContext& context, MetricBuilder& m);

/// An MoE model's parameters (recorded as inputs), for the share of its weights a decode step
/// reads: each routed token takes N_a of the N, drawn apart, so `tokens` of them read
/// 1 − (1 − N_a / N)^tokens. nullopt for a dense model, which reads them all.
struct ExpertTerms {
  Term n, n_active;
  double routed_share(double tokens) const {
    const double one = n_active.value / n.value;
    return tokens == 1 ? one : 1 - std::pow(1 - one, tokens);
  }
};

std::optional<ExpertTerms> expert_terms(EstimateContext& context, MetricBuilder& m);

/// The latency and cost bounds (inference_latency.cpp), in the order estimate_inference() runs
/// them: each reads the memory and capacity metrics computed before it.
void decode_tokens_per_s(EstimateContext& context);
void decode_flops_per_token(EstimateContext& context);
void prefill_flops(EstimateContext& context);
void ttft(EstimateContext& context);
void itl(EstimateContext& context);
void itl_at_concurrency(EstimateContext& context);
void cost_per_month(EstimateContext& context);

}  // namespace planlint::detail
