/// Inference latency and cost bounds (docs/estimates.md, "Inference"; Pope et al. 2022,
/// "Efficiently Scaling Transformer Inference"): decode is bound by HBM bandwidth (every token
/// reads the weights and the sequence's KV cache), prefill by compute.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "planlint/estimate/attention_terms.hpp"
#include "planlint/estimate/inference_terms.hpp"

namespace planlint::detail {

namespace {

/// What the decode formulas say about the plan's layout, appended to the formula: "(MoE: ...;
/// a KV head ...)"; empty for a dense model at a tp that divides kv_heads, a token a step.
std::string decode_caveats(bool moe, std::string_view moe_text, bool heads, bool steps) {
  std::string out;
  auto add = [&](std::string_view text) {
    out += out.empty() ? " (" : "; ";
    out += text;
  };
  if (moe) add(moe_text);
  if (heads) add("a KV head is not split across GPUs");
  if (steps) add("speculative decoding: a step emits tokens_per_step tokens");
  if (!out.empty()) out += ")";
  return out;
}

}  // namespace

// Upper bound for one sequence alone on the replica: each decode step reads every weight and
// the sequence's whole KV cache once from HBM.
void decode_tokens_per_s(EstimateContext& context) {
  MetricBuilder m(context, Metric::infer_decode_tokens_per_s);
  const Term bandwidth = m.plan("cluster.hbm_bandwidth");
  const Term tp = m.plan("inference.tp");
  const Term model = m.metric(Metric::infer_weights);
  const Term per_token = m.metric(Metric::infer_kv_per_token);
  const Term tokens = kv_tokens_term(context, m);
  // A GPU reads the whole cache of the heads it holds (KvSplit).
  const std::optional<KvSplit> heads = kv_split(context, m);
  // One sequence's token runs through its routed experts only: a step reads N_a of the N
  // parameters' weights. Counting every expert's weights would make this upper bound a
  // lower one, and decode-bound and sla-unreachable report a working plan.
  // A speculative step's k tokens are routed apart: 1 − (1 − N_a / N)^k of the weights.
  const std::optional<ExpertTerms> experts = expert_terms(context, m);
  const bool moe = experts.has_value();
  const std::optional<Term> steps = tokens_per_step(context, m);
  const double weights_read = model.value * (moe ? experts->routed_share(steps ? steps->value : 1) : 1);
  // Pipeline stages change nothing here: the sequence's token passes each in turn. An attention
  // rank runs the sequence on its tp / dp_attention GPUs: they read its own copy of the weights
  // outside the routed experts and the sequence's cache, dp_attention times a tp share.
  if (const ServingLayout layout = serving_layout(context, m); layout.dp) {
    const KvReplication kv = kv_replication_terms(context, m, layout);
    const double value = serving::decode_tokens_per_s(bandwidth.value, weights_read, model.value, per_token.value,
                                                      tokens.value, steps ? steps->value : 1,
                                                      layered_hold(tp, layout, kv));
    const std::string formula =
        std::string("hbm_bandwidth · tp / (weights") +
        (moe ? (steps ? " · (1 − (1 − N_a / N)^tokens_per_step)" : " · N_a / N") : "") +
        " + (dp_attention − 1) · weights · N_d / N + kv_per_token · context · infer.kv_replication · dp_attention)" +
        (steps ? " · tokens_per_step" : "") +
        " (an attention rank, tp / dp_attention GPUs, runs the sequence" +
        (moe ? "; MoE: one sequence reads its routed experts' weights" : "") + ")";
    m.finish(value, kv_formula(context, formula), [=] {
      std::string text = fmt::format("{} × {} / ({}", bandwidth.text, tp.text, model.text);
      if (moe && steps)
        text += fmt::format(" × (1 − (1 − {} / {})^{})", experts->n_active.text, experts->n.text, steps->text);
      else if (moe)
        text += fmt::format(" × {} / {}", experts->n_active.text, experts->n.text);
      text += fmt::format(" + ({} − 1) × {} × {} + {} × {} × {} × {})", layout.dp->text, model.text,
                          layout.dense->text, per_token.text, tokens.text,
                          units::format(kv.value, units::dims::none), layout.dp->text);
      if (steps) text += fmt::format(" × {}", steps->text);
      return text;
    });
    return;
  }
  const double value = serving::decode_tokens_per_s(bandwidth.value, weights_read, model.value, per_token.value,
                                                    tokens.value, steps ? steps->value : 1, split_hold(tp, heads));
  if (!moe && !heads && !steps) {
    m.finish(value, kv_formula(context, "hbm_bandwidth · tp / (weights + kv_per_token · context)"),
             arithmetic("{} × {} / ({} + {} × {})", bandwidth, tp, model, per_token, tokens));
    return;
  }
  const std::string formula =
      std::string("hbm_bandwidth · tp / (weights") +
      (moe ? (steps ? " · (1 − (1 − N_a / N)^tokens_per_step)" : " · N_a / N") : "") + " + kv_per_token · context" +
      (heads ? std::string(heads->spread_formula()) : "") + ")" + (steps ? " · tokens_per_step" : "") +
      decode_caveats(moe, "MoE: one sequence reads its routed experts' weights", heads.has_value(), steps.has_value());
  m.finish(value, kv_formula(context, formula), [=] {
    std::string text = fmt::format("{} × {} / ({}", bandwidth.text, tp.text, model.text);
    if (moe && steps) text += fmt::format(" × (1 − (1 − {} / {})^{})", experts->n_active.text, experts->n.text, steps->text);
    else if (moe) text += fmt::format(" × {} / {}", experts->n_active.text, experts->n.text);
    text += fmt::format(" + {} × {}", per_token.text, tokens.text);
    if (heads) text += heads->spread_text(tp);
    text += ")";
    if (steps) text += fmt::format(" × {}", steps->text);
    return text;
  });
}

void decode_flops_per_token(EstimateContext& context) {
  MetricBuilder m(context, Metric::infer_decode_flops_per_token);
  const Term n_active = m.plan("model.active_params");
  m.finish(2 * n_active.value, "2 · N_a", arithmetic("2 × {}", n_active));
}

void prefill_flops(EstimateContext& context) {
  MetricBuilder m(context, Metric::infer_prefill_flops);
  const Term n_active = m.plan("model.active_params");
  const Term prompt = m.plan("inference.prompt_tokens");
  m.finish(2 * n_active.value * prompt.value, "2 · N_a · prompt_tokens",
           arithmetic("2 × {} × {}", n_active, prompt));
}

// Lower bound: the prompt's forward pass at the assumed prefill MFU on the replica's GPUs.
void ttft(EstimateContext& context) {
  MetricBuilder m(context, Metric::infer_ttft);
  const Term flops = m.metric(Metric::infer_prefill_flops);
  if (disaggregated(context)) {
    // The prefill pool computes the prompt (its GPUs, peak and layout), then sends its KV cache
    // to the decode pool (DistServe, Zhong et al. 2024, §3: TTFT = prefill + transmission).
    const Term peak = m.plan("inference.prefill_peak");
    const Term tp = m.plan("inference.prefill_tp");
    const ServingLayout layout = serving_layout(context, m, Pool::prefill);
    const Term mfu = m.plan("inference.mfu");
    const Term transfer = m.metric(Metric::infer_kv_transfer_seconds);
    const double compute = serving::prefill_seconds(flops.value, peak.value, tp.value, layout.stages(), mfu.value);
    m.finish(compute + transfer.value,
             "prefill_flops / (P · tp · " + std::string(layout.pp ? "pp · " : "") +
                 "MFU) + infer.kv_transfer_seconds (the prefill pool's P, tp" + (layout.pp ? ", pp" : "") +
                 "; the KV cache sent to the decode pool)",
             [=] {
               return fmt::format("{} / ({} × {}{} × {}) + {}", flops.text, peak.text, tp.text,
                                  layout.pp ? fmt::format(" × {}", layout.pp->text) : std::string(), mfu.text,
                                  transfer.text);
             });
    return;
  }
  const Term peak = m.plan("cluster.peak");
  const Term tp = m.plan("inference.tp");
  const Term mfu = m.plan("inference.mfu");
  // Pipeline stages compute a prompt together only when its chunks pipeline through them
  // (chunked prefill): the bound counts every GPU of the replica.
  if (const std::optional<Term> pp = m.degree_above_one("inference.pp")) {
    m.finish(serving::prefill_seconds(flops.value, peak.value, tp.value, pp->value, mfu.value),
             "prefill_flops / (P · tp · pp · MFU) (the prompt's chunks pipelined through the stages)",
             arithmetic("{} / ({} × {} × {} × {})", flops, peak, tp, *pp, mfu));
    return;
  }
  m.finish(serving::prefill_seconds(flops.value, peak.value, tp.value, 1, mfu.value), "prefill_flops / (P · tp · MFU)",
           arithmetic("{} / ({} × {} × {})", flops, peak, tp, mfu));
}

void itl(EstimateContext& context) {
  MetricBuilder m(context, Metric::infer_itl);
  const Term speed = m.metric(Metric::infer_decode_tokens_per_s);
  m.finish(1 / speed.value, "1 / decode_tokens_per_s", arithmetic("1 / {}", speed));
}

// Lower bound at the planned concurrency: the replica decodes its sequences together
// (continuous batching), and each step reads the weights once and every sequence's KV cache,
// so each sequence waits for the whole step. An MoE step reads the experts any of its
// sequences is routed to: taking each sequence as N_a / N of the weights, drawn apart,
// 1 − (1 − N_a / N)^concurrency of them (N_a / N for one sequence, nearly all for 32).
void itl_at_concurrency(EstimateContext& context) {
  MetricBuilder m(context, Metric::infer_itl_at_concurrency);
  const Term bandwidth = m.plan("cluster.hbm_bandwidth");
  const Term tp = m.plan("inference.tp");
  const Term model = m.metric(Metric::infer_weights);
  const Term cache = m.metric(Metric::infer_kv_cache);
  // A GPU reads the whole cache of the heads it holds (KvSplit).
  const std::optional<KvSplit> heads = kv_split(context, m);
  const std::optional<ExpertTerms> experts = expert_terms(context, m);
  const bool moe = experts.has_value();
  const std::optional<Term> sequences =
      moe ? std::optional<Term>(m.plan("inference.concurrency")) : std::nullopt;
  const std::optional<Term> steps = tokens_per_step(context, m);
  // The step routes every sequence's tokens: concurrency · tokens_per_step of them.
  const double read = moe ? experts->routed_share(sequences->value * (steps ? steps->value : 1)) : 1;
  // The routed share of an MoE model's weights, as the formula and the arithmetic show it.
  const std::string_view routed_formula =
      !moe ? "" : steps ? " · (1 − (1 − N_a / N)^(concurrency · tokens_per_step))" : " · (1 − (1 − N_a / N)^concurrency)";
  const auto routed_text = [=]() -> std::string {
    if (moe && steps)
      return fmt::format(" × (1 − (1 − {} / {})^({} × {}))", experts->n_active.text, experts->n.text, sequences->text,
                         steps->text);
    if (moe) return fmt::format(" × (1 − (1 − {} / {})^{})", experts->n_active.text, experts->n.text, sequences->text);
    return {};
  };
  if (const ServingLayout layout = serving_layout(context, m); layout.any()) {
    // Every GPU of every stage reads its own weights at least once a step and its share of every
    // sequence's cache: however the stages' micro-batches interleave, a token of each sequence
    // takes that long on the replica's tp · pp GPUs.
    const KvReplication kv = kv_replication_terms(context, m, layout);
    const double value = serving::itl_at_concurrency(bandwidth.value, model.value * read, model.value, cache.value,
                                                     steps ? steps->value : 1, layered_hold(tp, layout, kv));
    const std::string formula =
        std::string("(weights") + std::string(routed_formula) +
        (layout.dp ? " + (dp_attention − 1) · weights · N_d / N" : "") +
        " + kv_cache · infer.kv_replication) / (hbm_bandwidth · " + std::string(layout.gpus_formula()) +
        (steps ? " · tokens_per_step" : "") + ")" +
        decode_caveats(moe, "MoE: the experts the batch's sequences are routed to", false, steps.has_value()) +
        " (every GPU of each stage reads its weights and its share of each sequence's cache once a step)";
    m.finish(value, formula, [=] {
      std::string text = "(" + std::string(model.text.str()) + routed_text();
      if (layout.dp) text += fmt::format(" + ({} − 1) × {} × {}", layout.dp->text, model.text, layout.dense->text);
      text += fmt::format(" + {} × {}) / ({} × {}", cache.text, units::format(kv.value, units::dims::none),
                          bandwidth.text, layout.gpus_text(tp));
      if (steps) text += fmt::format(" × {}", steps->text);
      return text + ")";
    });
    return;
  }
  const double value = serving::itl_at_concurrency(bandwidth.value, model.value * read, model.value, cache.value,
                                                   steps ? steps->value : 1, split_hold(tp, heads));
  if (!moe && !heads && !steps) {
    m.finish(value, "(weights + kv_cache) / (hbm_bandwidth · tp)",
             arithmetic("({} + {}) / ({} × {})", model, cache, bandwidth, tp));
    return;
  }
  const std::string formula =
      std::string("(weights") + std::string(routed_formula) + " + kv_cache" + (heads ? std::string(heads->spread_formula()) : "") + ") / (hbm_bandwidth · tp" +
      (steps ? " · tokens_per_step" : "") + ")" +
      decode_caveats(moe, "MoE: the experts the batch's sequences are routed to", heads.has_value(),
                     steps.has_value());
  m.finish(value, formula, [=] {
    std::string text = "(" + std::string(model.text.str()) + routed_text();
    text += fmt::format(" + {}", cache.text);
    if (heads) text += heads->spread_text(tp);
    text += fmt::format(") / ({} × {}", bandwidth.text, tp.text);
    if (steps) text += fmt::format(" × {}", steps->text);
    return text + ")";
  });
}

// A month of serving with every GPU of the cluster billed: a month is 365.25 d / 12 = 730.5 h.
void cost_per_month(EstimateContext& context) {
  MetricBuilder m(context, Metric::infer_cost_per_month);
  const Term gpus = m.plan("cluster.count");
  const Term price = m.metric(Metric::cost_price);
  if (disaggregated(context)) {
    const Term prefill = m.plan("inference.prefill_count");
    m.finish(serving::cost_per_month(gpus.value + prefill.value, price.value),
             "(cluster.count + inference.prefill_count) · cost.price · 730.5 h (the decode and the prefill pools)",
             arithmetic("({} + {}) × {} × 730.5 h", gpus, prefill, price));
    return;
  }
  m.finish(serving::cost_per_month(gpus.value, price.value), "cluster.count · cost.price · 730.5 h",
           arithmetic("{} × {} × 730.5 h", gpus, price));
}

}  // namespace planlint::detail
