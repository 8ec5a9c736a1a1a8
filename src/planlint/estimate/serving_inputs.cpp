/// What an inference plan fixes for the serving kernel (serving_kernel.hpp): its keys, read as
/// the metrics read them, and the metrics no serving layout changes, taken from the plan's
/// estimates.
#include <cmath>

#include "planlint/estimate/engine.hpp"
#include "planlint/estimate/serving_kernel.hpp"
#include "planlint/plan/defaults.hpp"

namespace planlint::serving {

namespace {

double metric_or_absent(const Estimates& estimates, Metric metric) {
  const MetricValue* found = estimates.find(metric);
  return found ? found->value : absent;
}

bool stated(const Plan& plan, std::string_view path) {
  const PlanValue* value = plan.find(path);
  return value && value->origin == Origin::plan;
}

}  // namespace

ReplicaLayout plan_replica_layout(const Plan& plan) {
  ReplicaLayout l;
  const auto degree = [&](std::string_view path) {
    const std::optional<double> value = plan.number(path);
    return value && *value >= 1 && *value < 1e9 ? static_cast<int>(*value) : 1;
  };
  l.tp = degree("inference.tp");
  l.pp = degree("inference.pp");
  // One replica where the count books less than one (replica-count-mismatch's reading).
  l.replicas = plan.number("inference.replicas").value_or(1);
  return l;
}

ServingInputs read_serving_inputs(const Plan& plan, const Catalog& catalog, const Estimates& estimates) {
  ServingInputs in;
  const detail::Overrides none;
  const detail::EstimateContext context(plan, catalog, none, detail::EstimateContext::Record::values);
  const auto require = [&](std::string_view path) {
    const std::optional<double> value = plan.number(path);
    if (!value) in.missing.push_back(context.missing_name(path));
    return value.value_or(absent);
  };
  const auto require_metric = [&](Metric metric, std::string_view needs) {
    const double value = metric_or_absent(estimates, metric);
    if (std::isnan(value)) in.missing.emplace_back(needs);
    return value;
  };

  in.weights = require_metric(Metric::infer_weights, "model.params and inference.weights");
  in.kv_per_token = require_metric(Metric::infer_kv_per_token, "the model's KV-cache shape (infer.kv_per_token)");
  in.kv_tokens = plan.find("model.sliding_window") ? metric_or_absent(estimates, Metric::infer_kv_tokens)
                                                   : require("inference.context");
  if (stated(plan, "inference.concurrency")) {
    in.concurrency = require("inference.concurrency");
    in.kv_cache = metric_or_absent(estimates, Metric::infer_kv_cache);
  }
  in.hbm = require("cluster.hbm");
  in.memory_reserve = require("cluster.memory_reserve");
  in.hbm_bandwidth = require("cluster.hbm_bandwidth");
  in.peak = plan.number("cluster.peak").value_or(absent);
  in.mfu = plan.number("inference.mfu").value_or(absent);
  in.prefill_flops = metric_or_absent(estimates, Metric::infer_prefill_flops);
  in.attention_share = metric_or_absent(estimates, Metric::infer_prefill_attention_share);
  in.price = metric_or_absent(estimates, Metric::cost_price);  // blended over a [[capacity]] mix
  in.count = require("cluster.count");
  in.layers = require("model.layers");
  in.heads = require("model.heads");
  const bool mla = plan.find("model.kv_lora_rank") != nullptr;
  in.model_kv_heads = plan.number("model.kv_heads").value_or(absent);
  in.kv_heads = mla ? 1 : in.model_kv_heads;
  if (std::isnan(in.kv_heads)) in.missing.emplace_back("model.kv_heads");
  in.ranks = plan.number("inference.dp_attention").value_or(1);
  in.ep = plan.number("inference.ep").value_or(1);
  if (plan.text("model.architecture") == "moe") {
    // N_d / N, as serving_layout reads it for attention ranks.
    in.dense_share = metric_or_absent(estimates, Metric::train_moe_dense_params) / require("model.params");
  }
  in.weights_read = metric_or_absent(estimates, Metric::infer_weights_read);
  in.weights_read_at_concurrency = metric_or_absent(estimates, Metric::infer_weights_read_at_concurrency);
  in.tokens_per_step = plan.number("inference.tokens_per_step").value_or(1);
  if (!(in.tokens_per_step > 1)) in.tokens_per_step = 1;
  if (stated(plan, "inference.mean_concurrency"))
    in.peak_concurrency = metric_or_absent(estimates, Metric::infer_peak_concurrency);
  // Without a replica count (the count books less than one replica), one replica, as
  // replica-count-mismatch reads the plan.
  in.plan_replicas = plan.number("inference.replicas").value_or(1);
  in.replicas_stated = stated(plan, "inference.replicas");
  in.disaggregated = plan.find("inference.prefill_gpu") != nullptr;
  if (in.disaggregated) {
    in.disaggregated_ttft = metric_or_absent(estimates, Metric::infer_ttft);
    in.prefill_count = plan.number("inference.prefill_count").value_or(0);
    in.prefill_memory = metric_or_absent(estimates, Metric::infer_prefill_memory);
    in.prefill_hbm = plan.number("inference.prefill_hbm").value_or(absent);
  }
  // The scale-up domain as tp-across-nodes reads it: the plan's, or its GPU's, which the default
  // caps at the job's GPUs (a replica's tp never exceeds those).
  if (stated(plan, "cluster.scale_up_domain"))
    in.scale_up_domain = plan.number("cluster.scale_up_domain").value_or(absent);
  else
    in.scale_up_domain = job_scale_up_domain(catalog.find(plan.text("cluster.gpu").value_or("")),
                                             plan.number("cluster.gpus_per_node"), 1e18)
                             .value_or(absent);
  if (stated(plan, "inference.sla_ttft")) in.sla_ttft = plan.number("inference.sla_ttft").value_or(absent);
  if (stated(plan, "inference.sla_itl")) in.sla_itl = plan.number("inference.sla_itl").value_or(absent);
  if (stated(plan, "inference.tokens_per_s")) in.tokens_per_s = plan.number("inference.tokens_per_s").value_or(absent);
  for (const PlanTable& benchmark : plan.benchmarks) {
    const PlanValue* metric = benchmark.find("metric");
    const PlanValue* value = benchmark.find("value");
    const MetricSpec* spec = metric && metric->text() ? find_metric(*metric->text()) : nullptr;
    if (!spec || !value || !value->quantity() || (spec->tier != Tier::capacity && spec->tier != Tier::cost)) continue;
    in.benchmarks.push_back({spec->id, value->quantity()->value});
  }
  in.benchmark_tolerance = plan.number("tolerances.formula_vs_benchmark").value_or(in.benchmark_tolerance);
  return in;
}

}  // namespace planlint::serving
