/// What an inference plan's rules compare beside the bounds of inference.cpp (estimates.md,
/// "Inference"): how the KV cache spreads over a replica's GPUs, the bytes a decode step reads
/// (an MoE model's routed experts, the KV heads each GPU holds whole), the memory of one
/// sequence and of the weights alone, and the prompt's attention FLOPs that the TTFT bound
/// leaves out.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "planlint/estimate/attention_terms.hpp"
#include "planlint/estimate/inference_terms.hpp"

namespace planlint::detail {

namespace {

// A KV head's keys and values are not split across GPUs: each GPU of a tp replica holds
// ⌈kv_heads / tp⌉ whole heads (KvSplit); of an attention rank, ⌈kv_heads / (tp / dp_attention)⌉.
// MLA's one latent is one head (KvReplication).
void kv_heads_per_gpu(EstimateContext& context) {
  MetricBuilder m(context, Metric::infer_kv_heads_per_gpu);
  const Term heads = kv_heads_term(context, m);
  const Term tp = m.plan("inference.tp");
  const ServingLayout layout = serving_layout(context, m);
  const KvReplication kv = kv_replication_terms(context, m, layout);
  const bool mla = context.find("model.kv_lora_rank") != nullptr;
  const std::string heads_name = mla ? "1" : "kv_heads";
  const std::string why = mla ? " (MLA: one latent, held whole)" : " (a KV head is not split across GPUs)";
  if (layout.dp) {
    m.finish(kv.heads_per_gpu.value, "⌈" + heads_name + " / (tp / dp_attention)⌉" + why,
             [=] { return fmt::format("⌈{} / ({} / {})⌉", heads.text, tp.text, layout.dp->text); });
    return;
  }
  m.finish(kv.heads_per_gpu.value, "⌈" + heads_name + " / tp⌉" + why,
           arithmetic("⌈{} / {}⌉", heads, tp));
}

// How many times over the replica's GPUs hold (and a decode step reads) its KV cache, against
// an even split over tp: 1 where tp divides kv_heads, tp / kv_heads at tp > kv_heads, tp for
// MLA (every GPU holds the latent), each over the tp / dp_attention GPUs of an attention rank.
void kv_replication(EstimateContext& context) {
  MetricBuilder m(context, Metric::infer_kv_replication);
  const Term tp = m.plan("inference.tp");
  const Term per_gpu = m.metric(Metric::infer_kv_heads_per_gpu);
  const Term heads = kv_heads_term(context, m);
  const ServingLayout layout = serving_layout(context, m);
  const bool mla = context.find("model.kv_lora_rank") != nullptr;
  if (m.complete() && mla && context.with_provenance())
    m.note(layout.dp ? fmt::format("MLA caches one latent that every head reads (DeepSeek-V2 §2.1): each of the {} "
                                   "attention ranks holds its own sequences' cache, whole on each of its GPUs",
                                   units::format(layout.ranks(), units::dims::none))
                     : "MLA caches one latent that every head reads (DeepSeek-V2 §2.1): every GPU of the tensor-parallel "
                       "group holds the whole KV cache; data-parallel attention (inference.dp_attention) divides it");
  const std::string heads_name = mla ? "1" : "kv_heads";
  if (layout.dp) {
    m.finish(serving::kv_replication(tp.value / layout.ranks(), per_gpu.value, heads.value),
             "(tp / dp_attention) · ⌈" + heads_name + " / (tp / dp_attention)⌉ / " + heads_name +
                 (mla ? " (MLA: one latent)" : ""),
             [=] {
               return fmt::format("({} / {}) × {} / {}", tp.text, layout.dp->text, per_gpu.text, heads.text);
             });
    return;
  }
  m.finish(serving::kv_replication(tp.value, per_gpu.value, heads.value),
           "tp · ⌈" + heads_name + " / tp⌉ / " + heads_name + (mla ? " (MLA: one latent)" : ""),
           arithmetic("{} × {} / {}", tp, per_gpu, heads));
}

// One sequence's KV cache at the full context, over its replica's GPUs as a whole.
void kv_per_sequence(EstimateContext& context) {
  MetricBuilder m(context, Metric::infer_kv_per_sequence);
  const Term per_token = m.metric(Metric::infer_kv_per_token);
  const Term tokens = kv_tokens_term(context, m);
  m.finish(per_token.value * tokens.value, kv_formula(context, "kv_per_token · context"),
           arithmetic("{} × {}", per_token, tokens));
}

// One sequence's KV cache on each GPU of its replica: the heads a GPU holds, of the stage's
// layers; with data-parallel attention, on the GPUs of the rank that holds the sequence.
void kv_per_sequence_per_gpu(EstimateContext& context) {
  MetricBuilder m(context, Metric::infer_kv_per_sequence_per_gpu);
  const Term sequence = m.metric(Metric::infer_kv_per_sequence);
  const Term replication = m.metric(Metric::infer_kv_replication);
  const Term tp = m.plan("inference.tp");
  if (const ServingLayout layout = serving_layout(context, m); layout.any()) {
    serving::KvHold hold;
    hold.tp = tp.value;
    hold.stages = layout.stages();
    hold.ranks = layout.ranks();
    hold.layered = true;
    m.finish(serving::kv_per_sequence_per_gpu(sequence.value, replication.value, hold),
             std::string("infer.kv_per_sequence · infer.kv_replication") + (layout.dp ? " · dp_attention" : "") +
                 " / " + std::string(layout.gpus_formula()),
             [=] {
               return fmt::format("{} × {}{} / {}", sequence.text, replication.text,
                                  layout.dp ? fmt::format(" × {}", layout.dp->text) : std::string(),
                                  layout.gpus_text(tp));
             });
    return;
  }
  m.finish(serving::kv_per_sequence_per_gpu(sequence.value, replication.value, split_hold(tp, std::nullopt)),
           "infer.kv_per_sequence · infer.kv_replication / tp",
           arithmetic("{} × {} / {}", sequence, replication, tp));
}

// The reserve of infer.memory.total: memory_reserve of the weights and KV cache a GPU holds.
void memory_reserve(EstimateContext& context) {
  MetricBuilder m(context, Metric::infer_memory_reserve);
  const Term reserve = m.plan("cluster.memory_reserve");
  const Term model = m.metric(Metric::infer_weights);
  const Term cache = m.metric(Metric::infer_kv_cache);
  const Term replication = m.metric(Metric::infer_kv_replication);
  const Term tp = m.plan("inference.tp");
  if (const ServingLayout layout = serving_layout(context, m); layout.any()) {
    m.finish(reserve.value * (model.value * layout.weight_copies() + cache.value * replication.value) /
                 (tp.value * layout.stages()),
             "memory_reserve · (" + layout.weights_formula() + " + kv_cache · infer.kv_replication) / " +
                 std::string(layout.gpus_formula()),
             [=] {
               return fmt::format("{} × ({} + {} × {}) / {}", reserve.text, layout.weights_text(model), cache.text,
                                  replication.text, layout.gpus_text(tp));
             });
    return;
  }
  m.finish(reserve.value * (model.value + cache.value * replication.value) / tp.value,
           "memory_reserve · (weights + kv_cache · infer.kv_replication) / tp",
           arithmetic("{} × ({} + {} × {}) / {}", reserve, model, cache, replication, tp));
}

// infer.memory.total at a concurrency of one: the least any concurrency needs at the plan's tp.
void memory_one_sequence(EstimateContext& context) {
  MetricBuilder m(context, Metric::infer_memory_one_sequence);
  const Term model = m.metric(Metric::infer_weights);
  const Term tp = m.plan("inference.tp");
  const Term sequence = m.metric(Metric::infer_kv_per_sequence_per_gpu);
  const Term reserve = m.plan("cluster.memory_reserve");
  if (const ServingLayout layout = serving_layout(context, m); layout.any()) {
    serving::KvHold hold;
    hold.tp = tp.value;
    hold.stages = layout.stages();
    hold.copies = layout.weight_copies();
    hold.layered = true;
    m.finish(serving::memory_one_sequence_bytes(model.value, sequence.value, reserve.value, hold),
             "(" + layout.weights_formula() + " / " + std::string(layout.gpus_formula()) +
                 " + infer.kv_per_sequence_per_gpu) · (1 + memory_reserve)",
             [=] {
               return fmt::format("({} / {} + {}) × (1 + {})", layout.weights_text(model), layout.gpus_text(tp),
                                  sequence.text, reserve.text);
             });
    return;
  }
  m.finish(serving::memory_one_sequence_bytes(model.value, sequence.value, reserve.value, split_hold(tp, std::nullopt)),
           "(weights / tp + infer.kv_per_sequence_per_gpu) · (1 + memory_reserve)",
           arithmetic("({} / {} + {}) × (1 + {})", model, tp, sequence, reserve));
}

// The GPUs a replica spreads its weights over: the plan's tp · pp; a plan that states none has not
// chosen one yet, and is taken at the most one scale-up domain gives (tensor parallelism beyond it
// crosses the network every layer), and no more than the GPUs of one of its replicas when it
// states inference.replicas.
void replica_gpus(EstimateContext& context) {
  MetricBuilder m(context, Metric::infer_replica_gpus);
  const PlanValue* tp_value = context.find("inference.tp");
  if (tp_value && tp_value->origin == Origin::plan) {
    const Term tp = m.plan("inference.tp");
    if (const std::optional<Term> pp = m.degree_above_one("inference.pp")) {
      m.finish(tp.value * pp->value, "tp · pp", arithmetic("{} × {}", tp, *pp));
      return;
    }
    m.finish(tp.value, "inference.tp", [=] { return tp.text.str(); });
    return;
  }
  const Term count = m.plan("cluster.count");
  const Term per_domain = m.plan("cluster.scale_up_domain");
  const PlanValue* replicas_value = context.find("inference.replicas");
  if (replicas_value && replicas_value->origin == Origin::plan) {
    const Term replicas = m.plan("inference.replicas");
    const double per_replica = std::floor(count.value / replicas.value);
    m.finish(std::min(per_replica, per_domain.value),
             "min(⌊n / replicas⌋, scale_up_domain) (no inference.tp: the GPUs of one replica, at most a scale-up "
             "domain's)",
             arithmetic("min(⌊{} / {}⌋, {})", TermText::count(count.value), TermText::count(replicas.value),
                        TermText::count(per_domain.value)));
    return;
  }
  m.finish(std::min(count.value, per_domain.value),
           "min(n, scale_up_domain) (no inference.tp: the most one scale-up domain gives)",
           arithmetic("min({}, {})", TermText::count(count.value), TermText::count(per_domain.value)));
}

// The weights a GPU holds with their reserve, before any KV cache: what no concurrency avoids.
void memory_weights_alone(EstimateContext& context) {
  MetricBuilder m(context, Metric::infer_memory_weights_alone);
  const Term model = m.metric(Metric::infer_weights);
  const Term gpus = m.metric(Metric::infer_replica_gpus);
  const Term reserve = m.plan("cluster.memory_reserve");
  if (const ServingLayout layout = serving_layout(context, m); layout.dp) {
    m.finish(serving::memory_weights_alone_bytes(model.value, layout.weight_copies(), gpus.value, reserve.value),
             layout.weights_formula() + " / infer.replica_gpus · (1 + memory_reserve)", [=] {
               return fmt::format("{} / {} × (1 + {})", layout.weights_text(model),
                                  TermText::count(gpus.value).str(), reserve.text);
             });
    return;
  }
  m.finish(serving::memory_weights_alone_bytes(model.value, 1, gpus.value, reserve.value),
           "weights / infer.replica_gpus · (1 + memory_reserve)",
           arithmetic("{} / {} × (1 + {})", model, TermText::count(gpus.value), reserve));
}

// The memory one scale-up domain gives a replica after the reserve: a model whose weights alone
// exceed it needs a replica that spans domains (tp-across-nodes).
void domain_memory(EstimateContext& context) {
  MetricBuilder m(context, Metric::infer_domain_memory);
  const Term per_domain = m.plan("cluster.scale_up_domain");
  const Term hbm = m.plan("cluster.hbm");
  const Term reserve = m.plan("cluster.memory_reserve");
  m.finish(per_domain.value * hbm.value * (1 - reserve.value), "scale_up_domain · hbm · (1 − memory_reserve)",
           arithmetic("{} × {} × (1 − {})", TermText::count(per_domain.value), hbm, reserve));
}

// The sequences in flight at the demand's peak, which the replicas must hold together.
void peak_concurrency(EstimateContext& context) {
  MetricBuilder m(context, Metric::infer_peak_concurrency);
  const Term mean = m.plan("inference.mean_concurrency");
  const Term factor = m.plan("inference.peak_factor");
  m.finish(mean.value * factor.value, "mean_concurrency · peak_factor", arithmetic("{} × {}", mean, factor));
}

// The GPUs the service's replicas run on, each tp · pp of them.
void service_gpus(EstimateContext& context) {
  MetricBuilder m(context, Metric::infer_service_gpus);
  const Term replicas = m.plan("inference.replicas");
  const Term tp = m.plan("inference.tp");
  if (const std::optional<Term> pp = m.degree_above_one("inference.pp")) {
    m.finish(serving::service_gpus(replicas.value, tp.value, pp->value), "replicas · tp · pp", arithmetic("{} × {} × {}", replicas, tp, *pp));
    return;
  }
  m.finish(serving::service_gpus(replicas.value, tp.value, 1), "replicas · tp", arithmetic("{} × {}", replicas, tp));
}

// Whether the plan states the sequences a replica holds; without it a replica holds as many as
// fit (infer.max_concurrency: a sketch that has not chosen a concurrency).
bool states_concurrency(const EstimateContext& context) {
  const PlanValue* concurrency = context.find("inference.concurrency");
  return concurrency && concurrency->origin == Origin::plan;
}

Term replica_concurrency(EstimateContext& context, MetricBuilder& m) {
  return states_concurrency(context) ? m.plan("inference.concurrency") : m.metric(Metric::infer_max_concurrency);
}

// What the replicas hold at once, which the demand's peak must fit in.
void service_concurrency(EstimateContext& context) {
  MetricBuilder m(context, Metric::infer_service_concurrency);
  const Term replicas = m.plan("inference.replicas");
  const Term per_replica = replica_concurrency(context, m);
  m.finish(serving::service_concurrency(replicas.value, per_replica.value),
           states_concurrency(context) ? "replicas · concurrency"
                                       : "replicas · infer.max_concurrency (no inference.concurrency)",
           arithmetic("{} × {}", replicas, per_replica));
}

// The replicas that hold the demand's peak, each at its concurrency.
void peak_replicas(EstimateContext& context) {
  MetricBuilder m(context, Metric::infer_peak_replicas);
  const Term peak = m.metric(Metric::infer_peak_concurrency);
  const Term per_replica = replica_concurrency(context, m);
  m.finish(serving::peak_replicas(peak.value, per_replica.value), "⌈infer.peak_concurrency / a replica's concurrency⌉",
           arithmetic("⌈{} / {}⌉", peak, per_replica));
}

// The share of an MoE model's weights a decode step reads: its tokens (one sequence's
// tokens_per_step, or every sequence's at the planned concurrency) routed apart, each to N_a of
// the N parameters (ExpertTerms). Only for an MoE model: a dense model reads every weight.
void expert_share(EstimateContext& context, Metric metric, bool at_concurrency) {
  if (context.text("model.architecture") != "moe") return;
  MetricBuilder m(context, metric);
  const ExpertTerms experts = *expert_terms(context, m);
  const std::optional<Term> steps = tokens_per_step(context, m);
  const std::optional<Term> sequences =
      at_concurrency ? std::optional<Term>(m.plan("inference.concurrency")) : std::nullopt;
  const double tokens = (sequences ? sequences->value : 1) * (steps ? steps->value : 1);
  const double value = experts.routed_share(tokens);
  if (tokens == 1) {
    m.finish(value, "N_a / N", arithmetic("{} / {}", experts.n_active, experts.n));
    return;
  }
  const std::string_view exponent = sequences && steps ? "concurrency · tokens_per_step"
                                    : sequences        ? "concurrency"
                                                       : "tokens_per_step";
  m.finish(value, fmt::format("1 − (1 − N_a / N)^({}) (tokens routed apart)", exponent), [=] {
    const std::string power = sequences && steps ? fmt::format("({} × {})", sequences->text, steps->text)
                              : sequences        ? sequences->text.str()
                                                 : steps->text.str();
    return fmt::format("1 − (1 − {} / {})^{}", experts.n_active.text, experts.n.text, power);
  });
}

// The weight bytes a decode step reads: an MoE model's routed experts' share, every weight of a
// dense one.
void weights_read(EstimateContext& context, Metric metric, Metric share) {
  MetricBuilder m(context, metric);
  if (context.text("model.architecture") != "moe") {
    const Term model = m.metric_terms(Metric::infer_weights);
    m.finish(model.value, "infer.weights (a dense model reads every weight)", [=] { return model.text.str(); });
    return;
  }
  const Term model = m.metric(Metric::infer_weights);
  const Term routed = m.metric(share);
  m.finish(model.value * routed.value, fmt::format("infer.weights · {}", metric_spec(share).name),
           arithmetic("{} × {}", model, routed));
}

// The KV bytes a decode step reads: one sequence's cache at the full context, or the planned
// concurrency's, each GPU reading the whole cache of the heads it holds.
void kv_read(EstimateContext& context, Metric metric, bool at_concurrency) {
  MetricBuilder m(context, metric);
  const Term replication = m.metric(Metric::infer_kv_replication);
  if (at_concurrency) {
    const Term cache = m.metric(Metric::infer_kv_cache);
    m.finish(cache.value * replication.value, "kv_cache · infer.kv_replication",
             arithmetic("{} × {}", cache, replication));
    return;
  }
  const Term sequence = m.metric(Metric::infer_kv_per_sequence);
  m.finish(sequence.value * replication.value, "infer.kv_per_sequence · infer.kv_replication",
           arithmetic("{} × {}", sequence, replication));
}

// R = infer.prefill_attention_flops / (2 · N_a · S), L · S · h / N_a without a window: what the attention adds to
// the prefill FLOPs the TTFT bound counts.
void prefill_attention_share(EstimateContext& context) {
  MetricBuilder m(context, Metric::infer_prefill_attention_share);
  const Term attention = m.metric(Metric::infer_prefill_attention_flops);
  const Term prefill = m.metric(Metric::infer_prefill_flops);
  m.finish(attention.value / prefill.value, "infer.prefill_attention_flops / infer.prefill_flops",
           arithmetic("{} / {}", attention, prefill));
}

void ttft_with_attention(EstimateContext& context) {
  MetricBuilder m(context, Metric::infer_ttft_with_attention);
  const Term ttft = m.metric(Metric::infer_ttft);
  const Term share = m.metric(Metric::infer_prefill_attention_share);
  m.finish(ttft.value * (1 + share.value), "infer.ttft · (1 + infer.prefill_attention_share)",
           arithmetic("{} × (1 + {})", ttft, share));
}

}  // namespace

void estimate_inference_reads(EstimateContext& context) {
  kv_heads_per_gpu(context);
  kv_replication(context);
  kv_per_sequence(context);
  kv_per_sequence_per_gpu(context);
  memory_reserve(context);
  memory_one_sequence(context);
  replica_gpus(context);
  memory_weights_alone(context);
  domain_memory(context);
  peak_concurrency(context);
  service_gpus(context);
  service_concurrency(context);
  peak_replicas(context);
  expert_share(context, Metric::infer_expert_share, false);
  expert_share(context, Metric::infer_expert_share_at_concurrency, true);
  weights_read(context, Metric::infer_weights_read, Metric::infer_expert_share);
  weights_read(context, Metric::infer_weights_read_at_concurrency, Metric::infer_expert_share_at_concurrency);
  kv_read(context, Metric::infer_kv_read, false);
  kv_read(context, Metric::infer_kv_read_at_concurrency, true);
  estimate_prefill_attention(context);
  prefill_attention_share(context);
  ttft_with_attention(context);
}

}  // namespace planlint::detail
