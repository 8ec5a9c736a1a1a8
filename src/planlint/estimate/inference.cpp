/// Inference memory and capacity (docs/estimates.md, "Inference"): the weights and KV cache a
/// GPU holds and the sequences that fit beside them; the latency bounds that follow are
/// inference_latency.cpp's, and estimate_inference() runs both in order.
#include <cmath>

#include <fmt/format.h>

#include "planlint/estimate/attention_terms.hpp"
#include "planlint/estimate/inference_terms.hpp"

namespace planlint::detail {

std::optional<KvSplit> kv_split(EstimateContext& context, MetricBuilder& m) {
  // Attention ranks split the heads over tp / dp_attention GPUs: KvReplication's.
  if (context.number("inference.dp_attention").value_or(1) > 1) return std::nullopt;
  const std::optional<double> tp = context.number("inference.tp");
  // MLA's cache is one latent that every head reads (DeepSeek-V2 §2.1): under tensor parallelism
  // each GPU holds all of it, as with one KV head.
  const bool mla = context.find("model.kv_lora_rank") != nullptr;
  const std::optional<double> heads = mla ? std::optional<double>(1) : context.number("model.kv_heads");
  if (!tp || !heads || !(*tp >= 1) || !(*heads >= 1)) return std::nullopt;
  const serving::KvHold hold = serving::kv_hold(*tp, 1, 1, *heads, 1);
  if (!hold.split) return std::nullopt;  // tp divides kv_heads: the cache / tp
  const double per_gpu = serving::kv_heads_per_gpu(*heads, *tp);
  if (mla) {
    m.plan("model.kv_lora_rank");
    m.note(fmt::format("MLA caches one latent that every head reads (DeepSeek-V2 §2.1): every GPU of the tp {} "
                       "replica holds the whole KV cache",
                       units::format(*tp, units::dims::none)));
    return KvSplit{Term{1, "1"}, Term{1, "1"}, true, 1};
  }
  const Term kv_heads = m.plan("model.kv_heads");
  const bool whole = *tp >= *heads;
  if (context.with_provenance()) {
    auto count = [](double x) { return units::format(x, units::dims::none); };
    if (*heads == 1)
      m.note(fmt::format("the model has one KV head, which is not split across GPUs: every GPU of the tp {} "
                         "replica holds the whole KV cache",
                         count(*tp)));
    else if (whole && std::fmod(*tp, *heads) == 0)
      m.note(fmt::format("tp {} is more than the model's {} KV heads: each head's cache is held whole on "
                         "tp / kv_heads = {} GPUs, so the KV cache divides over {} GPUs, not {}",
                         count(*tp), count(*heads), count(*tp / *heads), count(*heads), count(*tp)));
    else
      m.note(fmt::format("tp {} and the model's {} KV heads do not divide one another, which serving engines "
                         "require; a head is not split across GPUs, so a GPU holds ⌈{} / {}⌉ = {} of them and "
                         "the KV cache divides over {} GPUs' worth, not {}",
                         count(*tp), count(*heads), count(*heads), count(*tp), count(per_gpu),
                         count(*heads / per_gpu), count(*tp)));
  }
  return KvSplit{kv_heads, Term{per_gpu, TermText::count(per_gpu)}, whole, hold.share};
}

Term kv_heads_term(EstimateContext& context, MetricBuilder& m) {
  if (context.find("model.kv_lora_rank") == nullptr) return m.plan("model.kv_heads");
  const Term latent = m.plan("model.kv_lora_rank");
  return Term{std::isnan(latent.value) ? latent.value : 1, "1"};
}

bool disaggregated(const EstimateContext& context) { return context.find("inference.prefill_gpu") != nullptr; }

ServingLayout serving_layout(EstimateContext& context, MetricBuilder& m, Pool pool) {
  const bool prefill = pool == Pool::prefill;
  ServingLayout layout{m.degree_above_one(prefill ? "inference.prefill_pp" : "inference.pp"),
                       m.degree_above_one(prefill ? "inference.prefill_dp_attention" : "inference.dp_attention"), std::nullopt};
  if (!layout.dp) return layout;
  if (!is_moe(context)) {
    layout.dense = Term{1, "1"};
    return layout;
  }
  // Each rank holds its own copy of the attention, the shared experts and the embeddings, N − N_e.
  const Term dense = m.metric(Metric::train_moe_dense_params);
  const Term n = m.plan("model.params");
  layout.dense = Term{dense.value / n.value, TermText::deferred([=] { return fmt::format("{} / {}", dense.text, n.text); })};
  return layout;
}

KvReplication kv_replication_terms(EstimateContext& context, MetricBuilder& m, const ServingLayout& layout,
                                   Pool pool) {
  const Term heads = kv_heads_term(context, m);
  const Term tp = m.plan(pool == Pool::prefill ? "inference.prefill_tp" : "inference.tp");
  const double rank_gpus = tp.value / layout.ranks();
  const double per_gpu = serving::kv_heads_per_gpu(heads.value, rank_gpus);
  return KvReplication{heads, Term{per_gpu, TermText::count(per_gpu)},
                       serving::kv_replication(rank_gpus, per_gpu, heads.value)};
}

std::optional<Term> tokens_per_step(EstimateContext& context, MetricBuilder& m) {
  if (context.plan().states_invalid("inference.tokens_per_step")) return m.plan("inference.tokens_per_step");
  return m.degree_above_one("inference.tokens_per_step");
}

std::optional<ExpertTerms> expert_terms(EstimateContext& context, MetricBuilder& m) {
  if (context.text("model.architecture") != "moe") return std::nullopt;
  const Term n = m.plan("model.params");
  return ExpertTerms{n, m.plan("model.active_params")};
}

// The microscaling formats store a shared scale per block beside the elements: MXFP4 and MXFP6
// an 8-bit power of two (E8M0) per 32 elements (OCP Microscaling Formats (MX) Specification
// v1.0, 2023), NVFP4 an FP8 (E4M3) scale per 16 elements (NVIDIA, "Introducing NVFP4 for
// Efficient and Accurate Low-Precision Inference", 2025); the per-tensor FP32 scale is
// negligible. The plain names count the elements alone, as int4 does not count its group scales.
std::optional<double> stored_element_bytes(std::string_view precision) {
  constexpr double bits = 1.0 / 8;
  if (precision == "fp32") return 4.0;
  if (precision == "bf16" || precision == "fp16") return 2.0;
  if (precision == "fp8" || precision == "int8") return 1.0;
  if (precision == "fp6") return 6 * bits;
  if (precision == "mxfp6") return (6 + 8.0 / 32) * bits;
  if (precision == "int4" || precision == "fp4") return 4 * bits;
  if (precision == "nvfp4") return (4 + 8.0 / 16) * bits;
  if (precision == "mxfp4") return (4 + 8.0 / 32) * bits;
  return std::nullopt;
}

namespace {

/// Records the precision at `path` as an input and returns its bytes per element.
Term precision_bytes(EstimateContext& context, MetricBuilder& m, std::string_view path) {
  const std::optional<std::string> precision = context.text(path);
  const std::optional<double> bytes = precision ? stored_element_bytes(*precision) : std::nullopt;
  if (!bytes) {
    m.missing(std::string(path));
    return Term{std::nan(""), "?"};
  }
  m.choice(path, *bytes,
           context.with_provenance()
               ? fmt::format("{}: {} per element", *precision, units::format(*bytes, units::dims::bytes))
               : std::string());
  return Term{*bytes, TermText::quantity(*bytes, units::dims::bytes)};
}

void weights(EstimateContext& context) {
  MetricBuilder m(context, Metric::infer_weights);
  const Term n = m.plan("model.params");
  const Term bytes = precision_bytes(context, m, "inference.weights");
  m.finish(n.value * bytes.value, "N · bytes(weights)", arithmetic("{} × {}", n, bytes));
}

// Keys and values (2) for every layer and KV head, per token.
void kv_per_token(EstimateContext& context) {
  MetricBuilder m(context, Metric::infer_kv_per_token);
  const Term layers = m.plan("model.layers");
  if (context.find("model.kv_lora_rank")) {
    // MLA (DeepSeek-V2 §2.1, table 1): each layer caches the compressed latent c_KV of width d_c
    // and the decoupled RoPE key of width d_h^R, shared by all heads: (d_c + d_h^R) · L elements
    // a token, 576 · 61 for DeepSeek-V3.
    const Term latent = m.plan("model.kv_lora_rank");
    const Term rope = m.plan("model.qk_rope_head_dim");
    const Term bytes = precision_bytes(context, m, "inference.kv_precision");
    return m.finish((latent.value + rope.value) * layers.value * bytes.value,
                    "(d_c + d_h^R) · L · bytes(kv_precision), d_c = kv_lora_rank, d_h^R = qk_rope_head_dim (MLA)",
                    arithmetic("({} + {}) × {} × {}", latent, rope, layers, bytes));
  }
  const Term kv_heads = m.plan("model.kv_heads");
  const Term head_dim = m.plan("model.head_dim");
  const Term bytes = precision_bytes(context, m, "inference.kv_precision");
  m.finish(2 * layers.value * kv_heads.value * head_dim.value * bytes.value,
           "2 · L · a_kv · d_h · bytes(kv_precision)",
           arithmetic("2 × {} × {} × {} × {}", layers, kv_heads, head_dim, bytes));
}

void kv_cache(EstimateContext& context) {
  MetricBuilder m(context, Metric::infer_kv_cache);
  const Term per_token = m.metric(Metric::infer_kv_per_token);
  const Term tokens = kv_tokens_term(context, m);
  const Term sequences = m.plan("inference.concurrency");
  m.finish(per_token.value * tokens.value * sequences.value, kv_formula(context, "kv_per_token · context · concurrency"),
           arithmetic("{} × {} × {}", per_token, tokens, sequences));
}

// The replica's weights and KV cache spread over its tp GPUs, plus the reserve on that.
void memory_total(EstimateContext& context) {
  MetricBuilder m(context, Metric::infer_memory_total);
  const Term model = m.metric(Metric::infer_weights);
  const Term cache = m.metric(Metric::infer_kv_cache);
  const Term tp = m.plan("inference.tp");
  const Term reserve = m.plan("cluster.memory_reserve");
  if (const ServingLayout layout = serving_layout(context, m); layout.any()) {
    // Each stage holds 1/pp of the layers; each attention rank its own sequences' cache.
    const KvReplication kv = kv_replication_terms(context, m, layout);
    m.finish(serving::memory_total_bytes(model.value, cache.value, reserve.value, layered_hold(tp, layout, kv)),
             "(" + layout.weights_formula() + " + kv_cache · infer.kv_replication) / " +
                 std::string(layout.gpus_formula()) + " · (1 + memory_reserve) (each GPU holds its stage's layers" +
                 (layout.dp ? "; an attention rank its own sequences' KV cache and its own copy of the weights "
                              "outside the routed experts)"
                            : ")"),
             [=] {
               return fmt::format("({} + {} × {}) / {} × (1 + {})", layout.weights_text(model), cache.text,
                                  units::format(kv.value, units::dims::none), layout.gpus_text(tp), reserve.text);
             });
    return;
  }
  if (const std::optional<KvSplit> split = kv_split(context, m)) {
    const std::string share(split->share_formula());
    m.finish(serving::memory_total_bytes(model.value, cache.value, reserve.value, split_hold(tp, split)),
             "weights / tp + kv_cache" + share + " + reserve (a KV head is not split across GPUs), "
             "reserve = memory_reserve · (weights / tp + kv_cache" + share + ")",
             [=] { return fmt::format("({} / {} + {}{}) × (1 + {})", model.text, tp.text, cache.text,
                                      split->share_text(), reserve.text); });
    return;
  }
  m.finish(serving::memory_total_bytes(model.value, cache.value, reserve.value, split_hold(tp, std::nullopt)),
           "(weights + kv_cache) / tp + reserve, reserve = memory_reserve · (weights + kv_cache) / tp",
           arithmetic("({} + {}) / {} × (1 + {})", model, cache, tp, reserve));
}

// What is left of the replica's HBM after the reserve and the weights, in whole sequences.
void max_concurrency(EstimateContext& context) {
  MetricBuilder m(context, Metric::infer_max_concurrency);
  const Term hbm = m.plan("cluster.hbm");
  const Term reserve = m.plan("cluster.memory_reserve");
  const Term tp = m.plan("inference.tp");
  const Term model = m.metric(Metric::infer_weights);
  const Term per_token = m.metric(Metric::infer_kv_per_token);
  const Term tokens = kv_tokens_term(context, m);
  if (const ServingLayout layout = serving_layout(context, m); layout.any()) {
    // Per GPU: what the reserve and the weights leave, over one sequence's cache on the GPUs of
    // the attention rank that holds it; each rank holds whole sequences of its own.
    const KvReplication kv = kv_replication_terms(context, m, layout);
    const serving::KvHold hold = layered_hold(tp, layout, kv);
    if (m.complete() && serving::weights_exceed_hbm(hbm.value, reserve.value, model.value, hold))
      m.note("the weights alone exceed the usable HBM of a GPU of the replica: no sequence fits");
    m.finish(serving::max_concurrency(hbm.value, reserve.value, model.value, per_token.value, tokens.value, hold),
             kv_formula(context, "⌊(hbm · (1 − memory_reserve) − " + layout.weights_formula() + " / " +
                                     std::string(layout.gpus_formula()) +
                                     ") / (kv_per_token · context · infer.kv_replication" +
                                     (layout.dp ? " · dp_attention" : "") + " / " +
                                     std::string(layout.gpus_formula()) + ")⌋" +
                                     (layout.dp ? " · dp_attention (each attention rank holds whole sequences)" : "")),
             [=] {
               std::string text = fmt::format("⌊({} × (1 − {}) − {} / {}) / ({} × {} × {}", hbm.text, reserve.text,
                                              layout.weights_text(model), layout.gpus_text(tp), per_token.text,
                                              tokens.text, units::format(kv.value, units::dims::none));
               if (layout.dp) text += fmt::format(" × {}", layout.dp->text);
               text += fmt::format(" / {})⌋", layout.gpus_text(tp));
               if (layout.dp) text += fmt::format(" × {}", layout.dp->text);
               return text;
             });
    return;
  }
  if (m.complete() && serving::weights_exceed_hbm(hbm.value, reserve.value, model.value, split_hold(tp, std::nullopt)))
    m.note("the weights alone exceed the usable HBM of the replica: no sequence fits");
  if (const std::optional<KvSplit> split = kv_split(context, m)) {
    // Each sequence's cache takes tp · share times its size over the replica.
    m.finish(serving::max_concurrency(hbm.value, reserve.value, model.value, per_token.value, tokens.value,
                                      split_hold(tp, split)),
             kv_formula(context, "⌊(hbm · (1 − memory_reserve) · tp − weights) / (kv_per_token · context" +
                                     std::string(split->spread_formula()) + ")⌋ (a KV head is not split across GPUs)"),
             [=] { return fmt::format("⌊({} × (1 − {}) × {} − {}) / ({} × {}{})⌋", hbm.text, reserve.text,
                                      tp.text, model.text, per_token.text, tokens.text, split->spread_text(tp)); });
    return;
  }
  m.finish(serving::max_concurrency(hbm.value, reserve.value, model.value, per_token.value, tokens.value,
                                    split_hold(tp, std::nullopt)),
           kv_formula(context, "⌊(hbm · (1 − memory_reserve) · tp − weights) / (kv_per_token · context)⌋"),
           arithmetic("⌊({} × (1 − {}) × {} − {}) / ({} × {})⌋", hbm, reserve, tp, model, per_token,
                      tokens));
}

}  // namespace

void estimate_inference(EstimateContext& context) {
  // An MoE model's routed experts and the rest, which an attention-data-parallel layout holds
  // differently (ServingLayout).
  if (is_moe(context)) estimate_training_moe_params(context);
  weights(context);
  kv_per_token(context);
  estimate_kv_tokens(context);
  kv_cache(context);
  memory_total(context);
  max_concurrency(context);
  decode_tokens_per_s(context);
  decode_flops_per_token(context);
  prefill_flops(context);
  if (disaggregated(context)) {
    kv_transfer_seconds(context);
    prefill_memory(context);
  }
  ttft(context);
  itl(context);
  itl_at_concurrency(context);
  estimate_capacity(context);
  cost_per_month(context);
}

}  // namespace planlint::detail
