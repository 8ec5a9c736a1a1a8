/// Training compute, time and cost (docs/estimates.md, "Training compute, time and cost"; Kaplan
/// et al. 2020 for 6 · N · D). Cost-tier metrics: compute.cpp
/// re-evaluates them at the assumptions' low/high for their ranges.
#include <fmt/format.h>

#include "planlint/estimate/attention_terms.hpp"

namespace planlint::detail {

namespace {

// 6 FLOPs per parameter per token: 2 in the forward pass (one multiply-add per weight), 4 in
// the backward pass (gradients with respect to activations and to weights). Kaplan et al. 2020
// eq. 2.1. The attention over the sequence, train.attention_flops_per_token, is left out (gpu_time adds
// it when the plan's MFU counts it).
void train_flops(EstimateContext& context) {
  MetricBuilder m(context, Metric::train_flops);
  const Term n = m.plan("model.active_params");
  const Term d = m.plan("training.tokens");
  const auto total = context.number("model.params");
  if (m.complete() && total && *total != n.value)
    m.note(fmt::format("compute follows the active parameters ({} of {} in total)", n.text,
                       show_count(*total)));
  m.finish(6 * n.value * d.value, "6 · N_a · D", arithmetic("6 × {} × {}", n, d));
}

// Chinchilla (Hoffmann et al. 2022): about 20 tokens per parameter is compute-optimal.
void tokens_per_param(EstimateContext& context) {
  MetricBuilder m(context, Metric::train_tokens_per_param);
  const Term d = m.plan("training.tokens");
  const Term n = m.plan("model.params");
  m.finish(d.value / n.value, "D / N", arithmetic("{} / {}", d, n));
}

// GPU time at the assumed utilisation: MFU is model FLOPs / (time · peak), PaLM appendix B.
// An MFU that counts the attention FLOPs (PaLM's model FLOPs, 6 · N + 12 · L · H · Q · T a
// token; Megatron-LM's) divides them too: training.mfu_counts_attention = true. One that counts
// full recomputation's second forward pass (a hardware FLOPs utilisation) divides 4/3 of them:
// training.mfu_counts_recompute = true (counted_recompute, engine.hpp).
void gpu_time(EstimateContext& context, Metric name, std::string_view formula,
              std::string_view formula_with_attention) {
  MetricBuilder m(context, name);
  const Term flops = m.metric(Metric::train_flops);
  const Term peak = m.plan("cluster.peak");
  const Term mfu = m.plan("training.mfu");
  const CountedRecompute recompute = counted_recompute(context, m);
  if (const std::optional<Term> attention = counted_attention(context, m)) {
    const Term tokens = m.plan("training.tokens");
    return m.finish(layout::gpu_seconds(recompute.factor, flops.value + attention->value * tokens.value, peak.value,
                                        mfu.value),
                    m.formula(recompute.formula, formula_with_attention), [=] {
                      return fmt::format("{}({} + {} × {}) / ({} × {})", recompute.text, flops.text, attention->text,
                                         tokens.text, peak.text, mfu.text);
                    });
  }
  m.finish(layout::gpu_seconds(recompute.factor, flops.value, peak.value, mfu.value), m.formula(recompute.formula, formula),
           arithmetic("{}{} / ({} × {})", recompute.text, flops, peak, mfu));
}

// Ideal: no failures, restarts or checkpoint stalls (train.wall_days adds them).
void train_days(EstimateContext& context) {
  MetricBuilder m(context, Metric::train_days);
  const Term gpu_seconds = m.metric(Metric::train_gpu_hours);
  const Term count = m.plan("cluster.count");
  const double seconds = layout::train_seconds(gpu_seconds.value, count.value);
  // GPU-hours over GPUs are hours: where the result shows in days, the arithmetic says ÷ 24.
  auto in_hours = arithmetic("{} / {}", gpu_seconds, count);
  auto in_days = arithmetic("{} / {} / 24", gpu_seconds, count);
  m.finish(seconds, "train.gpu_hours / n / 24", [=] {
    return show_metric_value(metric_spec(Metric::train_days), seconds).ends_with(" d") ? in_days() : in_hours();
  });
}

void wall_days(EstimateContext& context) {
  MetricBuilder m(context, Metric::train_wall_days);
  const Term days = m.metric(Metric::train_days);
  const Term goodput = m.metric(Metric::train_goodput);
  m.finish(layout::wall_seconds(days.value, goodput.value), "train.days / train.goodput",
           arithmetic("{} / {}", days, goodput));
}

void schedule_days(EstimateContext& context) {
  MetricBuilder m(context, Metric::train_schedule_days);
  const Term wall = m.metric(Metric::train_wall_days);
  const Term margin = m.plan("training.schedule_margin");
  m.finish(layout::schedule_seconds(wall.value, margin.value), "train.wall_days · schedule_margin",
           arithmetic("{} × {}", wall, margin));
}

// The whole allocation is billed for the wall time, idle or not.
void gpu_hours_billed(EstimateContext& context) {
  MetricBuilder m(context, Metric::cost_gpu_hours_billed);
  const Term count = m.plan("cluster.count");
  const Term wall = m.metric(Metric::train_wall_days);
  m.finish(layout::billed_gpu_seconds(count.value, wall.value), "n · train.wall_days · 24",
           arithmetic("{} × {}", count, wall));
}

void cost_total(EstimateContext& context) {
  MetricBuilder m(context, Metric::cost_total);
  const Term billed = m.metric(Metric::cost_gpu_hours_billed);
  const Term price = m.metric(Metric::cost_price);
  m.finish(layout::cost_total(billed.value, price.value), "cost.gpu_hours_billed · cost.price",
           arithmetic("{} × {}", billed, price));
}

// The model FLOPs a token that train.flops counts: 2 forward and 4 backward per active
// parameter (Kaplan et al. 2020 eq. 2.1).
void flops_per_token(EstimateContext& context) {
  MetricBuilder m(context, Metric::train_flops_per_token);
  const Term n = m.plan("model.active_params");
  m.finish(6 * n.value, "6 · N_a", arithmetic("6 × {}", n));
}

// R = train.attention_flops_per_token / (6 · N_a): how much the attention adds to the FLOPs train.flops counts.
void attention_share(EstimateContext& context) {
  MetricBuilder m(context, Metric::train_attention_share);
  const Term attention = m.metric(Metric::train_attention_flops_per_token);
  const Term model = m.metric(Metric::train_flops_per_token);
  m.finish(attention.value / model.value, "train.attention_flops_per_token / train.flops_per_token",
           arithmetic("{} / {}", attention, model));
}

// An MFU that counts full recomputation's second forward pass is a hardware FLOPs utilisation:
// 8 · N a token on the hardware where the model FLOPs count 6 · N, so its model FLOPs
// utilisation is 3/4 of it (Narayanan et al. 2021 §5.1; counted_recompute, engine.hpp).
void mfu_model_flops(EstimateContext& context) {
  MetricBuilder m(context, Metric::train_mfu_model_flops);
  const Term mfu = m.plan("training.mfu");
  const CountedRecompute recompute = counted_recompute(context, m);
  if (recompute.factor == 1) {
    m.finish(mfu.value, "training.mfu", [=] { return mfu.text.str(); });
    return;
  }
  m.finish(mfu.value / recompute.factor,
           "training.mfu · 3/4 (it counts full recomputation's second forward pass: 8 · N_a a token, not 6 · N_a)",
           arithmetic("{} × 3/4", mfu));
}

// An MFU stated against 6 · N · D alone (mfu_counts_attention = false) on the basis of the
// published MFUs, which count the attention FLOPs too: × (1 + R). Only for such a plan.
void mfu_with_attention(EstimateContext& context) {
  const PlanValue* counts = context.find("training.mfu_counts_attention");
  if (!counts || !counts->boolean() || *counts->boolean()) return;  // not stated against 6 · N · D
  MetricBuilder m(context, Metric::train_mfu_with_attention);
  m.choice("training.mfu_counts_attention");
  const Term mfu = m.metric(Metric::train_mfu_model_flops);
  const Term share = m.metric(Metric::train_attention_share);
  m.finish(mfu.value * (1 + share.value), "train.mfu.model_flops · (1 + train.attention_share)",
           arithmetic("{} × (1 + {})", mfu, share));
}

}  // namespace

void estimate_training_compute(EstimateContext& context) {
  train_flops(context);
  tokens_per_param(context);
  flops_per_token(context);
  estimate_training_attention(context);
  attention_share(context);
  mfu_model_flops(context);
  mfu_with_attention(context);
  gpu_time(context, Metric::train_gpu_seconds, "train.flops / (P · MFU)",
           "(train.flops + train.attention_flops_per_token · D) / (P · MFU)");
  gpu_time(context, Metric::train_gpu_hours, "train.flops / (P · MFU) / 3600",
           "(train.flops + train.attention_flops_per_token · D) / (P · MFU) / 3600");
  train_days(context);
  estimate_capacity(context);
  wall_days(context);
  schedule_days(context);
  gpu_hours_billed(context);
  cost_total(context);
}

}  // namespace planlint::detail
