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

}  // namespace planlint::detail
