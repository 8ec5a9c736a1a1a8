/// What a plan fixes for the layout kernel (layout_kernel.hpp): its keys, read as the metrics
/// read them, through the same functions where a metric reads more than a number (the state
/// bytes of the optimizer, the activation widths of the architecture).
#include <cmath>

#include "planlint/estimate/engine.hpp"
#include "planlint/estimate/layout_kernel.hpp"

namespace planlint::layout {

namespace {

double number_or_absent(const Plan& plan, std::string_view path) { return plan.number(path).value_or(absent); }

double metric_or_absent(const Estimates& estimates, Metric metric) {
  const MetricValue* found = estimates.find(metric);
  return found ? found->value : absent;
}

}  // namespace

std::string_view recompute_name(Recompute recompute) {
  switch (recompute) {
    case Recompute::none: return "none";
    case Recompute::selective: return "selective";
    case Recompute::full: return "full";
  }
  return "selective";
}

TrainingLayout plan_layout(const Plan& plan) {
  TrainingLayout l;
  const auto degree = [&](std::string_view path, int fallback) {
    const std::optional<double> value = plan.number(path);
    return value && *value >= 1 && *value < 1e9 ? static_cast<int>(*value) : fallback;
  };
  l.tp = degree("training.tp", 1);
  l.pp = degree("training.pp", 1);
  l.virtual_stages = degree("training.virtual_stages", 1);
  l.cp = degree("training.cp", 1);
  l.dp = degree("training.dp", 1);
  l.ep = degree("training.ep", 1);
  l.micro_batch = degree("training.micro_batch", 1);
  const std::optional<double> zero = plan.number("training.zero");
  l.zero = zero && *zero >= 0 && *zero <= 3 ? static_cast<int>(*zero) : 0;
  const std::optional<std::string> recompute = plan.text("training.recompute");
  l.recompute = recompute == "none" ? Recompute::none : recompute == "full" ? Recompute::full : Recompute::selective;
  l.sequence_parallel = plan.boolean("training.sequence_parallel").value_or(l.tp > 1);
  l.offload = offload_mode(plan.text("training.offload").value_or("none"));
  return l;
}

TrainingInputs read_training_inputs(const Plan& plan, const Catalog& catalog, const Estimates& estimates) {
  TrainingInputs in;
  const detail::Overrides none;
  detail::EstimateContext context(plan, catalog, none, detail::EstimateContext::Record::values);
  const auto require = [&](std::string_view path) {
    const std::optional<double> value = plan.number(path);
    if (!value) in.missing.push_back(context.missing_name(path));
    return value.value_or(absent);
  };

  in.params = require("model.params");
  in.layers = require("model.layers");
  in.hidden = require("model.hidden");
  in.heads = require("model.heads");
  in.kv_heads = number_or_absent(plan, "model.kv_heads");
  in.seq_len = require("training.seq_len");

  // The model states' bytes per parameter, as train.memory.states reads them before offload
  // (the layout's training.offload moves them: hbm_state_bytes).
  {
    detail::MetricBuilder m(context, Metric::train_memory_states);
    in.state_bytes = detail::plan_state_bytes(context, m);
    in.state_bytes_known = m.complete();
    if (!m.complete()) in.missing.emplace_back("training.optimizer");
  }
  in.moe = plan.text("model.architecture") == "moe";
  if (in.moe) {
    in.expert_params = metric_or_absent(estimates, Metric::train_moe_expert_params);
    in.dense_params = metric_or_absent(estimates, Metric::train_moe_dense_params);
    in.expert_split_known = !std::isnan(in.expert_params);
    in.experts = number_or_absent(plan, "model.experts");
    in.experts_per_token = number_or_absent(plan, "model.experts_per_token");
    in.moe_layers = number_or_absent(plan, "model.moe_layers");
    in.alltoall_element_bytes = (plan.text("training.precision") == "fp8" ? 1 : 2) + 2 + 2 + 2;
  }

  // The activations' widths, as train.memory.activations reads them below full recompute.
  const bool dropout = plan.boolean("training.dropout").value_or(true);
  in.score_bytes = dropout ? 5 : 2;
  in.flash_attention = plan.boolean("training.flash_attention").value_or(true);
  if (detail::activation_shape_stated(context)) {
    detail::MetricBuilder m(context, Metric::train_memory_activations);
    const detail::LayerBytes bytes = detail::activation_layer_bytes(context, m, in.layers, in.hidden, in.heads);
    in.kept = bytes.kept;
    in.split = bytes.split;
  }
  in.first_stage_layers = plan.number("training.first_stage_layers").value_or(0);
  in.schedule = pipeline_schedule(plan.text("training.pipeline_schedule").value_or("1f1b"));
  in.measured_activations = number_or_absent(plan, "training.activation_memory");

  in.memory_reserve = require("cluster.memory_reserve");
  in.hbm = require("cluster.hbm");

  // The step: tokens and sequences (training_tokens_per_step, sequences_per_step).
  const PlanValue* batch = plan.find("training.global_batch");
  const double batch_value = require("training.global_batch");
  in.batch_in_sequences = !(batch && batch->quantity() && batch->quantity()->dim == units::dims::tokens);
  in.tokens_per_step = in.batch_in_sequences ? batch_value * in.seq_len : batch_value;
  in.sequences_per_step = in.batch_in_sequences ? batch_value : batch_value / in.seq_len;

  in.count = require("cluster.count");
  in.peak = require("cluster.peak");
  in.mfu = require("training.mfu");
  // The capacity's, blended over a [[capacity]] mix (estimate/capacity.cpp).
  in.goodput = metric_or_absent(estimates, Metric::train_goodput);
  in.price = metric_or_absent(estimates, Metric::cost_price);
  in.schedule_margin = number_or_absent(plan, "training.schedule_margin");
  // An MFU that counts the attention FLOPs divides them too (counted_attention, engine.hpp).
  const bool counts_attention = plan.boolean("training.mfu_counts_attention") == true;
  const double per_token = metric_or_absent(estimates, Metric::train_flops_per_token);
  const double flops = metric_or_absent(estimates, Metric::train_flops);
  if (counts_attention) {
    const double attention = metric_or_absent(estimates, Metric::train_attention_flops_per_token);
    in.step_flops_per_token = per_token + attention;
    in.gpu_flops = flops + attention * number_or_absent(plan, "training.tokens");
  } else {
    in.step_flops_per_token = per_token;
    in.gpu_flops = flops;
  }
  in.mfu_counts_recompute = plan.boolean("training.mfu_counts_recompute") == true;

  in.scale_up_domain = number_or_absent(plan, "cluster.scale_up_domain");
  in.inter_node_bandwidth = number_or_absent(plan, "cluster.inter_node_bandwidth");
  in.intra_node_bandwidth = number_or_absent(plan, "cluster.intra_node_bandwidth");
  in.host_bandwidth = number_or_absent(plan, "cluster.host_bandwidth");
  in.host_memory = number_or_absent(plan, "cluster.host_memory");
  in.gpus_per_node = number_or_absent(plan, "cluster.gpus_per_node");
  in.lora = plan.find("training.lora_rank") != nullptr;
  in.adapter_params = metric_or_absent(estimates, Metric::train_lora_adapter_params);
  in.adapters_counted = detail::lora_adapters_counted(context) &&
                        !std::isnan(metric_or_absent(estimates, Metric::train_memory_adapter_states));
  if (in.adapters_counted) {
    detail::MetricBuilder m(context, Metric::train_memory_adapter_states);
    in.adapter_state_bytes = detail::plan_adapter_state_bytes(context, m);
  }
  return in;
}

}  // namespace planlint::layout
