#pragma once
/// The attention of a model, per layer kind (docs/estimates.md, "Attention"): the widths its
/// FLOPs multiply, the layers with a sliding window, and the keys a query attends. The training
/// FLOPs, the prompt's FLOPs and the KV cache read these, so that every metric and rule counts
/// one attention.
#include <string>
#include <string_view>

#include "planlint/estimate/engine.hpp"

namespace planlint::detail {

/// The widths of one layer's attention that its FLOPs multiply, for queries and keys (QKᵀ) and
/// for values (the weighted sum): where the plan states `model.qk_head_dim` or `model.v_head_dim`
/// (MLA: DeepSeek-V3's 192 and 128), the head widths d_qk and d_v (`separate`, d_h for the one
/// not stated), multiplied by the heads a; else both the query width h of attention_width().
/// Inputs recorded on `m`.
struct AttentionWidths {
  Term qk, v;
  bool separate = false;
};
AttentionWidths attention_widths(EstimateContext& context, MetricBuilder& m);

/// Whether the model states sliding-window layers (`model.sliding_window`).
bool has_sliding_window(const EstimateContext& context);

/// Keys one query attends in a layer of window `window` (a global layer: the sequence),
/// averaged over the `seq` queries of a sequence: min(S, W) counted in full; counted causally,
/// the keys before each query, S/2 up to the window and W − W²/(2S) beyond it.
double attended_keys(double seq, double window, bool causal);

/// The KV cache's tokens of a sequence: infer.kv_tokens for a model with sliding-window layers,
/// else inference.context. Recorded on `m`.
Term kv_tokens_term(EstimateContext& context, MetricBuilder& m);
/// `formula` with its "kv_per_token · context" read as "kv_per_token · infer.kv_tokens" for a
/// model with sliding-window layers.
std::string kv_formula(const EstimateContext& context, std::string_view formula);

/// The metrics of attention.cpp, each called from its group's entry point in report order:
/// train.attended_tokens and train.attention_flops_per_token; infer.kv_tokens;
/// infer.prefill_attended_tokens and infer.prefill_attention_flops.
void estimate_training_attention(EstimateContext& context);
void estimate_kv_tokens(EstimateContext& context);
void estimate_prefill_attention(EstimateContext& context);

}  // namespace planlint::detail
