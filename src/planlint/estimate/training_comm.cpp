/// Training communication and step structure (docs/estimates.md, "Training communication and
/// checkpoints"): the step time, the data-parallel gradient all-reduce and its share of the
/// step, the pipeline bubble, and the optimal checkpoint interval.
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "planlint/estimate/engine.hpp"

namespace planlint::detail {

Term training_tokens_per_step(EstimateContext& context, MetricBuilder& m) {
  const Term batch = m.plan("training.global_batch");
  const PlanValue* value = context.find("training.global_batch");
  if (!value || !value->quantity() || value->quantity()->dim == units::dims::tokens) return batch;
  const Term seq = m.plan("training.seq_len");
  return Term{batch.value * seq.value, TermText::deferred([batch, seq] {
                return fmt::format("({} × {})", batch.text, seq.text);
              })};
}

namespace {

/// Sequences per optimizer step: global_batch in sequences, or in tokens divided by seq_len.
Term sequences_per_step(EstimateContext& context, MetricBuilder& m) {
  const Term batch = m.plan("training.global_batch");
  const PlanValue* value = context.find("training.global_batch");
  if (!value || !value->quantity() || value->quantity()->dim != units::dims::tokens)
    return Term{batch.value, TermText::count(batch.value)};  // sequences, or missing
  const Term seq = m.plan("training.seq_len");
  const double batch_value = batch.value, seq_value = seq.value;
  return Term{batch.value / seq.value, TermText::deferred([batch_value, seq_value] {
                return fmt::format("{} / {}", show_count(batch_value), show_count(seq_value));
              })};
}

// Compute time of one step at the assumed MFU: the step's 6·N_a FLOPs per token spread over
// the whole cluster.
void step_seconds(EstimateContext& context) {
  MetricBuilder m(context, Metric::train_step_seconds);
  const Term n_active = m.plan("model.active_params");
  const Term tokens = training_tokens_per_step(context, m);
  const Term count = m.plan("cluster.count");
  const Term peak = m.plan("cluster.peak");
  const Term mfu = m.plan("training.mfu");
  // An MFU that counts the attention FLOPs, or full recomputation's second forward pass,
  // divides them too, as the GPU time does (counted_attention, counted_recompute, engine.hpp).
  const CountedRecompute recompute = counted_recompute(context, m);
  if (const std::optional<Term> attention = counted_attention(context, m)) {
    const double per_token = 6 * n_active.value + attention->value;
    return m.finish(layout::step_seconds(recompute.factor, per_token, tokens.value, count.value, peak.value, mfu.value),
                    m.formula(recompute.formula,
                              "(6 · N_a + train.attention_flops_per_token) · tokens_per_step / (n · P · MFU)"),
                    [=] {
                      return fmt::format("{}(6 × {} + {}) × {} / ({} × {} × {})", recompute.text, n_active.text,
                                         attention->text, tokens.text, count.text, peak.text, mfu.text);
                    });
  }
  m.finish(layout::step_seconds(recompute.factor, 6 * n_active.value, tokens.value, count.value, peak.value, mfu.value),
           m.formula(recompute.formula, "6 · N_a · tokens_per_step / (n · P · MFU)"),
           arithmetic("{}6 × {} × {} / ({} × {} × {})", recompute.text, n_active, tokens, count, peak, mfu));
}

// A ring all-reduce sends (and receives) 2·(g − 1)/g times the buffer per GPU over a group of g
// ranks; the buffer is this GPU's share of the 16-bit gradients, 2·N/M bytes (with LoRA the
// adapters' alone). The group is the dp ranks, and with context parallelism dp · cp: cp ranks hold
// the same weights and sum their gradients with the dp ranks' (Megatron-Core reduces over its
// "data parallel group with context parallel").
void allreduce_bytes(EstimateContext& context) {
  MetricBuilder m(context, Metric::train_comm_allreduce_bytes);
  const Term dp = m.plan("training.dp");
  const std::optional<Term> cp = m.degree_above_one("training.cp");
  const double group = dp.value * (cp ? cp->value : 1);
  const Term n = m.plan("model.params");
  const Term t = m.plan("training.tp");
  const Term p = m.plan("training.pp");
  if (auto zero = context.number("training.zero"); zero && *zero >= 3)
    m.note("ZeRO-3 also all-gathers the weights for the forward and backward passes (+50% "
           "traffic, Rajbhandari et al. 2020 §7.2), not counted here");
  // With LoRA only the adapters have gradients (the frozen base has none): the ring reduces
  // their 2 · N_a / M bytes, train.lora.adapter_params N_a.
  if (context.find("training.lora_rank")) {
    const Term adapters = m.metric(Metric::train_lora_adapter_params);
    return m.finish(layout::dense_allreduce_bytes(adapters.value, t.value, p.value, dp.value, cp ? cp->value : 1),
                    cp ? "2 · (g − 1)/g · 2 · N_a / M, g = dp · cp, M = tp · pp, N_a the LoRA adapters' parameters"
                       : "2 · (dp − 1)/dp · 2 · N_a / M, M = tp · pp, N_a the LoRA adapters' parameters",
                    arithmetic("2 × {}/{} × 2 B × {} / ({} × {})", TermText::count(group - 1),
                               TermText::count(group), adapters, t, p));
  }
  const auto ep = context.number("training.ep");
  const std::optional<double> routed = computed_metric(context, Metric::train_moe_expert_params);
  if (is_moe(context) && ep && *ep > 1 && routed) {
    // Per group (Megatron-Core's expert data parallelism): the dense parameters' gradients over
    // the dp · cp ranks, each routed expert's over the dp · cp / ep ranks that hold it.
    const Term dense = m.metric(Metric::train_moe_dense_params);
    const Term experts = m.metric(Metric::train_moe_expert_params);
    const Term ep_term = m.plan("training.ep");
    const double expert_group = group / ep_term.value;
    if (m.complete() && !(expert_group >= 1))
      m.missing("training.ep dividing dp · cp (the ranks that hold the same experts)");
    return m.finish(layout::moe_allreduce_bytes(dense.value, experts.value, t.value, p.value, dp.value,
                                                cp ? cp->value : 1, ep_term.value),
                    cp ? "2 · (g − 1)/g · 2 · N_d / M + 2 · (g_e − 1)/g_e · 2 · N_e / (M · ep), g = dp · cp, g_e = g / ep, "
                         "M = tp · pp"
                       : "2 · (dp − 1)/dp · 2 · N_d / M + 2 · (g_e − 1)/g_e · 2 · N_e / (M · ep), g_e = dp / ep, M = tp · pp",
                    arithmetic("2 × {}/{} × 2 B × {} / ({} × {}) + 2 × {}/{} × 2 B × {} / ({} × {} × {})",
                               TermText::count(group - 1), TermText::count(group), dense, t, p,
                               TermText::count(expert_group - 1), TermText::count(expert_group), experts, t, p,
                               ep_term));
  }
  if (is_moe(context) && ep && *ep > 1)
    m.note(fmt::format("upper bound: with ep = {} each GPU reduces only its share of the expert "
                       "gradients, which model.experts and model.experts_per_token would size",
                       show_count(*ep)));
  m.finish(layout::dense_allreduce_bytes(n.value, t.value, p.value, dp.value, cp ? cp->value : 1),
           cp ? "2 · (g − 1)/g · 2 · N / M, g = dp · cp, M = tp · pp" : "2 · (dp − 1)/dp · 2 · N / M, M = tp · pp",
           arithmetic("2 × {}/{} × 2 B × {} / ({} × {})", TermText::count(group - 1), TermText::count(group), n, t,
                      p));
}

// Ranks are laid out as in Megatron-LM (tp innermost, then cp, then dp, pp outermost), so a
// data-parallel group spans ⌈tp · cp · dp / scale_up_domain⌉ scale-up domains: one while
// tp · cp · dp ≤ scale_up_domain, and its all-reduce runs on the scale-up link (NVLink within an
// NVL72 rack or an HGX baseboard, ICI within a TPU slice, Infinity Fabric within an MI300X
// platform), which needs no network card.
double dp_group_domains(double tp, double cp, double dp, double per_domain) {
  return layout::group_domains(tp, cp, dp, per_domain);
}

void comm_dp_group_domains(EstimateContext& context) {
  MetricBuilder m(context, Metric::train_comm_dp_group_domains);
  const Term t = m.plan("training.tp");
  const Term cp = m.plan("training.cp");
  const Term dp = m.plan("training.dp");
  const Term per_domain = m.plan("cluster.scale_up_domain");
  m.finish(dp_group_domains(t.value, cp.value, dp.value, per_domain.value), "⌈tp · cp · dp / scale_up_domain⌉",
           arithmetic("⌈{} × {} × {} / {}⌉", t, cp, dp, TermText::count(per_domain.value)));
}

// The data-parallel group is as slow as the slowest link it crosses (comm_dp_group_domains).
void comm_seconds(EstimateContext& context) {
  MetricBuilder m(context, Metric::train_comm_seconds);
  const Term bytes = m.metric(Metric::train_comm_allreduce_bytes);
  const Term dp = m.plan("training.dp");
  const Term cp = m.plan("training.cp");
  if (m.complete() && dp.value * cp.value <= 1) {
    m.finish(0,
             cp.value > 1 ? "no data or context parallelism (dp · cp = 1): nothing to all-reduce"
                          : "no data parallelism (dp = 1): nothing to all-reduce",
             "0 B");
    return;
  }
  const Term t = m.plan("training.tp");
  const Term per_domain = m.plan("cluster.scale_up_domain");
  if (!m.complete()) return m.finish(0, "", "");
  const double domains = dp_group_domains(t.value, cp.value, dp.value, per_domain.value);
  if (domains > 1) {
    const Term bandwidth = m.plan("cluster.inter_node_bandwidth");
    m.finish(layout::allreduce_seconds(bytes.value, dp.value, cp.value, domains, bandwidth.value, 0),
             "allreduce_bytes / inter_node_bandwidth (dp spans scale-up domains: tp · cp · dp > scale_up_domain)",
             arithmetic("{} / {}", bytes, bandwidth));
    return;
  }
  // Scale-up link figures count both directions; a ring sends at one direction's rate.
  const Term bandwidth = m.plan("cluster.intra_node_bandwidth");
  m.finish(layout::allreduce_seconds(bytes.value, dp.value, cp.value, domains, 0, bandwidth.value),
           "allreduce_bytes / (intra_node_bandwidth / 2) (dp within a scale-up domain: tp · cp · dp ≤ "
           "scale_up_domain; the link's figure counts both directions)",
           arithmetic("{} / ({} / 2)", bytes, bandwidth));
}

// Without overlap of communication and computation (an upper bound on the exposed share).
void comm_fraction(EstimateContext& context) {
  MetricBuilder m(context, Metric::train_comm_fraction);
  const Term comm = m.metric(Metric::train_comm_seconds);
  const Term step = m.metric(Metric::train_step_seconds);
  m.finish(layout::step_fraction(comm.value, step.value), "comm.seconds / step_seconds",
           arithmetic("{} / {}", comm, step));
}

// What a GPU moves over its host link per step (training.offload):
//  - optimizer offload (ZeRO-Offload, Ren et al. 2021 §4): the 16-bit gradients of the parameters
//    whose step its CPU runs go to the host and their updated 16-bit weights come back, (2 + 2)
//    bytes for each of N / S, S = tp · pp, and · dp · cp with ZeRO ≥ 1 (the adapters' N_a with
//    LoRA);
//  - activation offload: each micro-batch's stored activations of the GPU's layers go out after
//    the forward pass and come back for the backward, train.memory.activations (two layers' worth)
//    × m × the layers a GPU holds (L / pp, first_stage_layers when stated).
void offload_bytes(EstimateContext& context) {
  const Offload offload = training_offload(context);
  if (!offload.any()) return;
  MetricBuilder m(context, Metric::train_offload_bytes);
  m.choice("training.offload");
  double value = 0;
  std::vector<std::string> formula;
  std::vector<std::function<std::string()>> parts;
  if (offload.optimizer) {
    const bool lora = context.find("training.lora_rank") != nullptr;
    const Term n = lora ? m.metric(Metric::train_lora_adapter_params) : m.plan("model.params");
    const Term t = m.plan("training.tp");
    const Term p = m.plan("training.pp");
    const Term zero = m.plan("training.zero");
    const Term dp = m.plan("training.dp");
    const std::optional<Term> cp = m.degree_above_one("training.cp");
    const bool sharded = zero.value >= 1;
    value += layout::optimizer_offload_bytes(n.value, sharded ? 1 : 0, t.value, p.value, dp.value, cp ? cp->value : 1);
    formula.emplace_back(sharded ? (cp ? "(2 + 2) · N / (tp · pp · dp · cp)" : "(2 + 2) · N / (tp · pp · dp)")
                                 : "(2 + 2) · N / (tp · pp)");
    parts.emplace_back([=] {
      return sharded ? (cp ? fmt::format("4 B × {} / ({} × {} × {} × {})", n.text, t.text, p.text, dp.text, cp->text)
                           : fmt::format("4 B × {} / ({} × {} × {})", n.text, t.text, p.text, dp.text))
                     : fmt::format("4 B × {} / ({} × {})", n.text, t.text, p.text);
    });
  }
  if (offload.activations) {
    const Term activations = m.metric(Metric::train_memory_activations);
    const Term micro = m.metric(Metric::train_micro_batches);
    const std::optional<Term> first = m.optional_plan("training.first_stage_layers");
    const Term layers = first ? *first : m.plan("model.layers");
    const Term p = first ? Term{1, "1"} : m.plan("training.pp");
    value += layout::activation_offload_bytes(activations.value, micro.value, layers.value, p.value);
    formula.emplace_back(first ? "train.memory.activations · m · first_stage_layers"
                               : "train.memory.activations · m · L / pp");
    parts.emplace_back([=] {
      return first ? fmt::format("{} × {} × {}", activations.text, micro.text, layers.text)
                   : fmt::format("{} × {} × {} / {}", activations.text, micro.text, layers.text, p.text);
    });
  }
  m.finish(value, fmt::format("{}", fmt::join(formula, " + ")), [parts] {
    std::string text;
    for (const auto& part : parts) text += (text.empty() ? "" : " + ") + part();
    return text;
  });
}

// The transfers at one direction's rate of the host link (the catalog's figure counts both):
// out and back follow each other (gradients in the backward pass, weights after the CPU's
// step; activations after the forward and before the backward).
void offload_seconds(EstimateContext& context) {
  if (!training_offload(context).any()) return;
  MetricBuilder m(context, Metric::train_offload_seconds);
  const Term bytes = m.metric(Metric::train_offload_bytes);
  const Term bandwidth = m.plan("cluster.host_bandwidth");
  m.finish(layout::offload_seconds(bytes.value, bandwidth.value), "offload.bytes / (host_bandwidth / 2)",
           arithmetic("{} / ({} / 2)", bytes, bandwidth));
}

// Before overlap: ZeRO-Offload overlaps the gradients' transfer with the backward pass, and
// activation offload prefetches; above 100% the link cannot keep up with the compute at all.
void offload_fraction(EstimateContext& context) {
  if (!training_offload(context).any()) return;
  MetricBuilder m(context, Metric::train_offload_fraction);
  const Term offload = m.metric(Metric::train_offload_seconds);
  const Term step = m.metric(Metric::train_step_seconds);
  m.finish(layout::step_fraction(offload.value, step.value), "offload.seconds / step_seconds",
           arithmetic("{} / {}", offload, step));
}

// The micro-batches each data-parallel replica runs per optimizer step (its gradient
// accumulation steps, and the m of the pipeline schedule): the step's sequences shared by dp
// replicas of micro_batch sequences each.
void micro_batches(EstimateContext& context) {
  MetricBuilder m(context, Metric::train_micro_batches);
  const Term sequences = sequences_per_step(context, m);
  const Term dp = m.plan("training.dp");
  const Term micro = m.plan("training.micro_batch");
  m.finish(layout::micro_batches(sequences.value, dp.value, micro.value), "global_batch / (dp · b), in sequences",
           arithmetic("{} / ({} × {})", sequences, TermText::count(dp.value), TermText::count(micro.value)));
}

// The zero-bubble schedules (Qi et al. 2024) and DualPipe (DeepSeek-V3 §3.2.1): the bubble of
// layout::pipeline_bubble, with F, B and W of equal time.
void scheduled_bubble(EstimateContext& context, MetricBuilder& m, layout::PipelineSchedule schedule,
                      const std::string& name, const Term& p, const Term& sequences, const Term& dp,
                      const Term& micro) {
  m.choice("training.pipeline_schedule");
  if (auto v = context.number("training.virtual_stages"); v && *v > 1)
    m.note(fmt::format("virtual_stages = {} is not read: the {} schedule places its own model chunks",
                       show_count(*v), name));
  const double micro_batches = layout::micro_batches(sequences.value, dp.value, micro.value);
  const auto m_text = [=] {
    return fmt::format("{} / ({} × {})", sequences.text, show_count(dp.value), show_count(micro.value));
  };
  switch (schedule) {
    case layout::PipelineSchedule::zb_h1:
      return m.finish(layout::pipeline_bubble(p.value, 1, micro_batches, schedule),
                      "(p − 1) / (3m), m = global_batch / (dp · b) (ZB-H1, Qi et al. 2024: (p − 1)(F + B − W) of "
                      "m · (F + B + W), the three of equal time)",
                      [=] { return fmt::format("({} − 1) / (3 × {})", show_count(p.value), m_text()); });
    case layout::PipelineSchedule::dualpipe:
      if (m.complete() && std::fmod(p.value, 2) != 0)
        m.missing("training.pp even (DualPipe pairs stage i with stage pp − 1 − i)");
      if (m.complete() && std::fmod(micro_batches, 2) != 0)
        m.note(fmt::format("DualPipe feeds micro-batches from both ends in pairs: m = {} is odd",
                           show_count(micro_batches)));
      return m.finish(layout::pipeline_bubble(p.value, 1, micro_batches, schedule),
                      "(p − 2) / (3m), m = global_batch / (dp · b) (DualPipe, DeepSeek-V3 table 2: (p/2 − 1)(F&B + "
                      "B − 3W) of m · (F + B), B = 2W = 2F, F&B = F + B: an upper bound)",
                      [=] { return fmt::format("({} − 2) / (3 × {})", show_count(p.value), m_text()); });
    default:
      return m.finish(0,
                      fmt::format("0 ({}, Qi et al. 2024: weight-gradient passes fill the bubble, (p − 1)(F + B − "
                                  "2W) = 0 with the three of equal time)",
                                  name),
                      "0");
  }
}

// 1F1B pipeline schedule (Narayanan et al. 2021, §2.2.1): (p − 1) idle slots per m
// micro-batches. The interleaved schedule (§2.2.2) gives each GPU v model chunks of L / (p · v)
// layers, so a slot is 1/v as long: (p − 1) / (v · m).
void pipeline_bubble(EstimateContext& context) {
  MetricBuilder m(context, Metric::train_pipeline_bubble);
  const Term p = m.plan("training.pp");
  if (m.complete() && p.value <= 1) {
    m.finish(0, "(p − 1) / m", "(1 − 1) / m");
    return;
  }
  const std::string schedule_name = context.text("training.pipeline_schedule").value_or("1f1b");
  const layout::PipelineSchedule schedule = layout::pipeline_schedule(schedule_name);
  // m as train.micro_batches computes it, written out so that the note shows its arithmetic.
  const Term sequences = sequences_per_step(context, m);
  const Term dp = m.plan("training.dp");
  const Term micro = m.plan("training.micro_batch");
  const double micro_batches = layout::micro_batches(sequences.value, dp.value, micro.value);
  if (schedule != layout::PipelineSchedule::one_f_one_b)
    return scheduled_bubble(context, m, schedule, schedule_name, p, sequences, dp, micro);
  const std::optional<Term> v = m.degree_above_one("training.virtual_stages");
  if (v) {
    if (m.complete() && std::fmod(micro_batches, p.value) != 0)
      m.note(fmt::format("the interleaved schedule of Narayanan et al. 2021 runs m in groups of p: m = {} is "
                         "not a multiple of p = {}",
                         show_count(micro_batches), show_count(p.value)));
    return m.finish(layout::pipeline_bubble(p.value, v->value, micro_batches),
                    "(p − 1) / (v · m), v = virtual_stages, m = global_batch / (dp · b) micro-batches per "
                    "step per pipeline",
                    arithmetic("({} − 1) / ({} × {} / ({} × {}))", TermText::count(p.value),
                               TermText::count(v->value), sequences, TermText::count(dp.value),
                               TermText::count(micro.value)));
  }
  m.finish(layout::pipeline_bubble(p.value, 1, micro_batches),
           "(p − 1) / m, m = global_batch / (dp · b) micro-batches per step per pipeline",
           arithmetic("({} − 1) / ({} / ({} × {}))", TermText::count(p.value), sequences,
                      TermText::count(dp.value), TermText::count(micro.value)));
}

// Young 1974 / Daly 2006: the interval that minimises checkpoint cost plus lost work is
// √(2 · write time · MTBF); the job fails when any of its nodes does.
void checkpoint_interval(EstimateContext& context) {
  MetricBuilder m(context, Metric::train_checkpoint_optimal_interval);
  const Term write = m.plan("training.checkpoint_write_time");
  const Term mtbf = m.plan("cluster.node_mtbf");
  const Term count = m.plan("cluster.count");
  const Term per_node = m.plan("cluster.gpus_per_node");
  const double nodes = std::ceil(count.value / per_node.value);
  m.finish(std::sqrt(2 * write.value * mtbf.value / nodes),
           "√(2 · checkpoint_write_time · node_mtbf / nodes), nodes = ⌈n / gpus_per_node⌉",
           arithmetic("√(2 × {} × {} / {} nodes)", write, mtbf, TermText::count(nodes)));
}

// An MoE model's all-reduce bytes are an upper bound at ep > 1: each GPU reduces only its share
// of the expert gradients. At the least every gradient is split ep ways.
void comm_fraction_lower_bound(EstimateContext& context) {
  MetricBuilder m(context, Metric::train_comm_fraction_lower_bound);
  const auto ep = context.number("training.ep");
  // With the expert split known the all-reduce is counted per group already.
  const bool split = is_moe(context) && ep && *ep > 1 && !computed_metric(context, Metric::train_moe_expert_params);
  const Term fraction = split ? m.metric(Metric::train_comm_fraction) : m.metric_terms(Metric::train_comm_fraction);
  if (split) {
    const Term ep_term = m.plan("training.ep");
    m.finish(fraction.value / ep_term.value,
             "train.comm.fraction / ep (MoE: at the least, ep splits every gradient)",
             arithmetic("{} / {}", fraction, ep_term));
    return;
  }
  m.finish(fraction.value, "train.comm.fraction", [=] { return fraction.text.str(); });
}

// The GPUs one copy of the model is split over: a tensor-parallel group of each pipeline stage,
// over the context-parallel ranks (Megatron-LM's layout, Narayanan et al. 2021 §3).
void model_gpus(EstimateContext& context) {
  MetricBuilder m(context, Metric::train_model_gpus);
  const Term t = m.plan("training.tp");
  const Term p = m.plan("training.pp");
  const Term cp = m.plan("training.cp");
  m.finish(t.value * p.value * cp.value, "tp · pp · cp", arithmetic("{} × {} × {}", t, p, cp));
}

// The GPUs the parallel layout runs on: dp copies of the model. With dp derived (the default)
// it is the GPU count; with dp stated it may not be (`parallelism-mismatch`).
void parallel_gpus(EstimateContext& context) {
  MetricBuilder m(context, Metric::train_parallel_gpus);
  const Term model = m.metric_terms(Metric::train_model_gpus);  // "8 × 2 × 1 × 8": the degrees
  const Term dp = m.plan("training.dp");
  m.finish(model.value * dp.value, "train.model_gpus · dp", arithmetic("{} × {}", model, dp));
}

// The nodes the run spans: a job stops when any of them fails.
void nodes(EstimateContext& context) {
  MetricBuilder m(context, Metric::train_nodes);
  const Term count = m.plan("cluster.count");
  const Term per_node = m.plan("cluster.gpus_per_node");
  m.finish(std::ceil(count.value / per_node.value), "⌈n / gpus_per_node⌉",
           arithmetic("⌈{} / {}⌉", count, per_node));
}

// Node failures over the run's wall-clock time, at the plan's node MTBF.
void failures(EstimateContext& context) {
  MetricBuilder m(context, Metric::train_failures);
  const Term node_count = m.metric(Metric::train_nodes);
  const Term wall = m.metric(Metric::train_wall_days);
  const Term mtbf = m.plan("cluster.node_mtbf");
  m.finish(node_count.value * wall.value / mtbf.value, "train.nodes · train.wall_days / node_mtbf",
           arithmetic("{} × {} / {}", node_count, wall, mtbf));
}

// The share of the training time a checkpoint interval T loses (Young 1974, Daly 2006): writes,
// w / T, and the work redone after a failure, half an interval at nodes / MTBF failures a unit
// of time: T · nodes / (2 · MTBF) = w · T / T_opt², T_opt the optimal interval.
void checkpoint_overhead(EstimateContext& context) {
  MetricBuilder m(context, Metric::train_checkpoint_overhead);
  const Term write = m.plan("training.checkpoint_write_time");
  const Term interval = m.plan("training.checkpoint_interval");
  const Term optimal = m.metric(Metric::train_checkpoint_optimal_interval);
  m.finish(write.value / interval.value + write.value * interval.value / (optimal.value * optimal.value),
           "w / T + w · T / T_opt², w = checkpoint_write_time, T = checkpoint_interval, T_opt = the optimal interval",
           arithmetic("{} / {} + {} × {} / {}²", write, interval, write, interval, optimal));
}

// At the optimal interval the two losses are equal: 2 · w / T_opt.
void checkpoint_optimal_overhead(EstimateContext& context) {
  MetricBuilder m(context, Metric::train_checkpoint_optimal_overhead);
  const Term write = m.plan("training.checkpoint_write_time");
  const Term optimal = m.metric(Metric::train_checkpoint_optimal_interval);
  m.finish(2 * write.value / optimal.value, "2 · w / T_opt",
           arithmetic("2 × {} / {}", write, optimal));
}

}  // namespace

void estimate_training_comm(EstimateContext& context) {
  step_seconds(context);
  allreduce_bytes(context);
  comm_dp_group_domains(context);
  comm_seconds(context);
  comm_fraction(context);
  micro_batches(context);
  pipeline_bubble(context);
  offload_bytes(context);
  offload_seconds(context);
  offload_fraction(context);
  model_gpus(context);
  parallel_gpus(context);
  checkpoint_interval(context);
  comm_fraction_lower_bound(context);
  nodes(context);
  failures(context);
  checkpoint_overhead(context);
  checkpoint_optimal_overhead(context);
  estimate_training_alltoall(context);
}

}  // namespace planlint::detail
