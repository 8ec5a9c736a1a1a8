/// Attention per layer kind (docs/estimates.md, "Attention"): sliding-window and global layers
/// (Beltagy et al. 2020, Longformer; Jiang et al. 2023, Mistral 7B §2; Gemma Team 2024, Gemma 2
/// §2; Gemma Team 2025, Gemma 3 §2.1), separate query/key and value widths (DeepSeek-AI 2024,
/// DeepSeek-V3 §2.1.1), and the counting of the attention FLOPs, in full (Chowdhery et al. 2022,
/// PaLM, appendix B) or causally (MaxText's MFU, FlashAttention's benchmarks).
#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "planlint/estimate/attention_terms.hpp"

namespace planlint::detail {

namespace {

bool stated(const EstimateContext& context, std::string_view path) {
  const PlanValue* value = context.find(path);
  return value && value->origin == Origin::plan;
}

}  // namespace

Term attention_width(EstimateContext& context, MetricBuilder& m) {
  const auto heads = context.number("model.heads"), dim = context.number("model.head_dim"),
             hidden = context.number("model.hidden");
  if (stated(context, "model.head_dim") && heads && dim && (!hidden || *heads * *dim != *hidden)) {
    const Term a = m.plan("model.heads"), d = m.plan("model.head_dim");
    if (hidden)
      m.note(fmt::format("h is the attention's width, heads · head_dim = {}, not model.hidden = {} (PaLM's H · Q)",
                         show_count(a.value * d.value), show_count(*hidden)));
    return Term{a.value * d.value, TermText::deferred(arithmetic("({} × {})", a, d))};
  }
  return m.plan("model.hidden");
}

AttentionWidths attention_widths(EstimateContext& context, MetricBuilder& m) {
  if (!stated(context, "model.qk_head_dim") && !stated(context, "model.v_head_dim")) {
    const Term h = attention_width(context, m);
    return {h, h, false};
  }
  auto width = [&](std::string_view path) {
    return m.plan(stated(context, path) ? path : std::string_view("model.head_dim"));
  };
  const Term qk = width("model.qk_head_dim"), v = width("model.v_head_dim");
  return {qk, v, true};
}

bool has_sliding_window(const EstimateContext& context) { return context.find("model.sliding_window") != nullptr; }

double attended_keys(double seq, double window, bool causal) {
  if (!causal) return std::min(seq, window);
  // Query i attends min(i, W) keys: the mean over i = 1..S is S/2 while S ≤ W, and
  // (W²/2 + (S − W) · W) / S = W − W²/(2S) beyond it (continuous).
  return seq <= window ? seq / 2 : window - window * window / (2 * seq);
}

namespace {

/// The mean over the layers of the keys a query attends at sequence length `seq`, as a metric:
/// (L_g · k(S, S) + L_l · k(S, W)) / L, L_l = L − L_g. Without a window, every layer is global.
void mean_attended(EstimateContext& context, Metric metric, std::string_view seq_key, bool causal,
                   std::string_view causal_note) {
  MetricBuilder m(context, metric);
  const Term seq = m.plan(seq_key);
  if (!has_sliding_window(context)) {
    m.finish(attended_keys(seq.value, seq.value, causal), "S / 2 (causal: the keys before each query)",
             arithmetic("{} / 2", seq));
    return;
  }
  const Term layers = m.plan("model.layers");
  const Term window = m.plan("model.sliding_window");
  Term global = m.plan("model.global_layers");
  if (m.complete() && global.value > layers.value) {
    m.note(fmt::format("model.global_layers {} is more than model.layers {}: every layer is taken as global",
                       show_count(global.value), show_count(layers.value)));
    global = Term{layers.value, TermText::count(layers.value)};
  }
  const double local = layers.value - global.value;
  const double value = (global.value * attended_keys(seq.value, seq.value, causal) +
                        local * attended_keys(seq.value, window.value, causal)) /
                       layers.value;
  const std::string local_count = show_count(local);
  if (!causal) {
    m.finish(value, "(L_g · S + (L − L_g) · min(S, W)) / L, L_g = global_layers, W = sliding_window",
             [=] {
               return fmt::format("({} × {} + {} × min({}, {})) / {}", global.text, seq.text, local_count, seq.text,
                                  window.text, layers.text);
             });
    return;
  }
  const bool beyond = seq.value > window.value;
  m.finish(value,
           fmt::format("(L_g · S/2 + (L − L_g) · k) / L, k = S/2 up to the window W, W − W²/(2S) beyond it ({}), "
                       "L_g = global_layers",
                       causal_note),
           [=] {
             const std::string local_keys = beyond ? fmt::format("({} − {}² / (2 × {}))", window.text,
                                                                 show_count(window.value), show_count(seq.value))
                                                   : fmt::format("{} / 2", seq.text);
             return fmt::format("({} × {} / 2 + {} × {}) / {}", global.text, seq.text, local_count, local_keys,
                                layers.text);
           });
}

bool counts_causal(EstimateContext& context) { return context.text("training.attention_flops") == "causal"; }

// Keys a training token's query attends, when the count is not simply S: a model with
// sliding-window layers, or attention counted causally.
void train_attended_tokens(EstimateContext& context) {
  const bool causal = counts_causal(context);
  if (!has_sliding_window(context) && !causal) return;
  mean_attended(context, Metric::train_attended_tokens, "training.seq_len", causal,
                "training.attention_flops = \"causal\"");
}

// The attention's FLOPs a token, forward and backward, scores and weighted values: 2 · (d_qk + d_v)
// a head and key forward, 3 times that with the backward pass; with d_qk = d_v = d_h and
// a · d_h = h, 12 · L · h · S (Chowdhery et al. 2022, PaLM, appendix B), which 6 · N_a leaves out.
void attention_flops_per_token(EstimateContext& context) {
  MetricBuilder m(context, Metric::train_attention_flops_per_token);
  const Term layers = m.plan("model.layers");
  const AttentionWidths widths = attention_widths(context, m);
  const bool attended = has_sliding_window(context) || counts_causal(context);
  if (attended) m.choice("training.attention_flops");
  const Term keys = attended ? m.metric(Metric::train_attended_tokens) : m.plan("training.seq_len");
  const std::string_view s = attended ? "train.attended_tokens" : "S";
  if (!widths.separate) {
    m.finish(12 * layers.value * widths.qk.value * keys.value, fmt::format("12 · L · h · {}", s),
             arithmetic("12 × {} × {} × {}", layers, widths.qk, keys));
    return;
  }
  const Term heads = m.plan("model.heads");
  m.finish(6 * layers.value * heads.value * (widths.qk.value + widths.v.value) * keys.value,
           fmt::format("6 · L · a · (d_qk + d_v) · {}", s),
           arithmetic("6 × {} × {} × ({} + {}) × {}", layers, heads, widths.qk, widths.v, keys));
}

// Tokens of a sequence the KV cache holds, averaged over the layers: a sliding-window layer keeps
// the last W (Mistral 7B §2: a rolling buffer cache of W), a global layer every token.
void kv_tokens(EstimateContext& context) {
  if (!has_sliding_window(context)) return;
  mean_attended(context, Metric::infer_kv_tokens, "inference.context", false, "");
}

// Keys a prompt token attends, causally: the prefill computes only the keys before each token.
void prefill_attended_tokens(EstimateContext& context) {
  if (!has_sliding_window(context)) return;
  mean_attended(context, Metric::infer_prefill_attended_tokens, "inference.prompt_tokens", true, "causal");
}

// The causal attention of the prompt's forward pass, scores and weighted values over L layers:
// 2 · a · (d_qk + d_v) FLOPs a query and key, over S queries of S/2 keys each: 2 · L · S² · h
// with d_qk = d_v (half of full attention's 4 · L · S² · h), which infer.prefill_flops
// (2 · N_a a token) leaves out.
void prefill_attention_flops(EstimateContext& context) {
  MetricBuilder m(context, Metric::infer_prefill_attention_flops);
  const Term layers = m.plan("model.layers");
  const Term prompt = m.plan("inference.prompt_tokens");
  const AttentionWidths widths = attention_widths(context, m);
  const TermText prompt_count = TermText::count(prompt.value);
  if (has_sliding_window(context)) {
    const Term keys = m.metric(Metric::infer_prefill_attended_tokens);
    if (!widths.separate) {
      m.finish(4 * layers.value * prompt.value * keys.value * widths.qk.value,
               "4 · L · S · infer.prefill_attended_tokens · h",
               arithmetic("4 × {} × {} × {} × {}", layers, prompt_count, keys, widths.qk));
      return;
    }
    const Term heads = m.plan("model.heads");
    m.finish(2 * layers.value * prompt.value * keys.value * heads.value * (widths.qk.value + widths.v.value),
             "2 · L · S · infer.prefill_attended_tokens · a · (d_qk + d_v)",
             arithmetic("2 × {} × {} × {} × {} × ({} + {})", layers, prompt_count, keys, heads, widths.qk,
                        widths.v));
    return;
  }
  const double s2 = prompt.value * prompt.value;
  if (!widths.separate) {
    m.finish(2 * layers.value * s2 * widths.qk.value, "2 · L · S² · h",
             arithmetic("2 × {} × {}² × {}", layers, prompt_count, widths.qk));
    return;
  }
  const Term heads = m.plan("model.heads");
  m.finish(layers.value * s2 * heads.value * (widths.qk.value + widths.v.value), "L · S² · a · (d_qk + d_v)",
           arithmetic("{} × {}² × {} × ({} + {})", layers, prompt_count, heads, widths.qk, widths.v));
}

}  // namespace

Term kv_tokens_term(EstimateContext& context, MetricBuilder& m) {
  return has_sliding_window(context) ? m.metric(Metric::infer_kv_tokens) : m.plan("inference.context");
}

std::string kv_formula(const EstimateContext& context, std::string_view formula) {
  std::string out(formula);
  if (!has_sliding_window(context)) return out;
  constexpr std::string_view plain = "kv_per_token · context", windowed = "kv_per_token · infer.kv_tokens";
  if (const auto at = out.find(plain); at != std::string::npos) out.replace(at, plain.size(), windowed);
  return out;
}

void estimate_training_attention(EstimateContext& context) {
  train_attended_tokens(context);
  attention_flops_per_token(context);
}

void estimate_kv_tokens(EstimateContext& context) { kv_tokens(context); }

void estimate_prefill_attention(EstimateContext& context) {
  prefill_attended_tokens(context);
  prefill_attention_flops(context);
}

}  // namespace planlint::detail
