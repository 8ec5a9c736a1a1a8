#include "planlint/metrics/metric_table.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>

namespace planlint {

namespace {

using namespace units::dims;
using enum Metric;
using enum ReportSection;
constexpr auto flop_per_token = flop / tokens;
constexpr RangedKeys mfu = static_cast<RangedKeys>(RangedKey::mfu);
constexpr RangedKeys mfu_goodput = mfu | static_cast<RangedKeys>(RangedKey::goodput);
constexpr RangedKeys mfu_goodput_price = mfu_goodput | static_cast<RangedKeys>(RangedKey::price);
constexpr RangedKeys price = static_cast<RangedKeys>(RangedKey::price);
constexpr PlainNumber in_days{86400, "days"};
constexpr PlainNumber in_gpu_hours{3600, "GPU-hours"};
constexpr PlainNumber in_seconds{1, "seconds"};
constexpr MoeScaling active = MoeScaling::active_params, total = MoeScaling::total_params,
                     routed = MoeScaling::routed_experts, no_moe = MoeScaling::none;

// docs/estimates.md has each formula with its source; report order: compute → time → cost →
// memory → communication, then inference: memory → compute → latency.
constexpr MetricSpec table[] = {
    {train_flops, "train.flops", flop, Tier::cost, compute, false, active, 0, {},
     "training compute, 6 · N_a · D"},
    {train_tokens_per_param, "train.tokens_per_param", none, Tier::cost, compute, false, total, 0, {},
     "training tokens per parameter, D / N"},
    {train_flops_per_token, "train.flops_per_token", flop_per_token, Tier::cost, compute, false, active, 0, {},
     "model FLOPs a token that train.flops counts, 6 · N_a"},
    {train_attention_flops_per_token, "train.attention_flops_per_token", flop_per_token, Tier::cost, compute, false,
     no_moe, 0, {}, "attention FLOPs a token, 12 · L · h · S, which train.flops leaves out"},
    {train_attention_share, "train.attention_share", none, Tier::cost, compute, false, active, 0, {},
     "attention FLOPs over model FLOPs, 12 · L · h · S / (6 · N_a)"},
    {train_mfu_model_flops, "train.mfu.model_flops", none, Tier::cost, compute, true, no_moe, mfu, {},
     "training.mfu as model FLOPs utilisation (3/4 of an MFU that counts full recomputation)"},
    {train_mfu_with_attention, "train.mfu.with_attention", none, Tier::cost, compute, true, no_moe, mfu, {},
     "an MFU stated against 6 · N · D, counting the attention FLOPs as published MFUs do"},
    {train_gpu_seconds, "train.gpu_seconds", gpu_seconds, Tier::cost, json_only, false, active, mfu,
     {1, "GPU-seconds"}, "GPU time at the assumed MFU"},
    {train_gpu_hours, "train.gpu_hours", gpu_seconds, Tier::cost, time, false, active, mfu, in_gpu_hours,
     "GPU-hours at the assumed MFU"},
    {train_days, "train.days", seconds, Tier::cost, time, false, active, mfu, in_days,
     "ideal days on the cluster, no failures"},
    {train_wall_days, "train.wall_days", seconds, Tier::cost, time, false, active, mfu_goodput, in_days,
     "wall-clock days, ideal days / goodput"},
    {train_schedule_days, "train.schedule_days", seconds, Tier::cost, time, false, active, mfu_goodput, in_days,
     "committed days, wall days · schedule margin"},
    {cost_gpu_hours_billed, "cost.gpu_hours_billed", gpu_seconds, Tier::cost, cost, false, active, mfu_goodput,
     in_gpu_hours, "GPU-hours billed over the wall time"},
    {cost_total, "cost.total", usd, Tier::cost, cost, false, active, mfu_goodput_price, {},
     "billed GPU-hours · price"},
    {train_moe_expert_params, "train.moe.expert_params", none, Tier::capacity, memory, false, total, 0, {},
     "MoE: routed expert parameters, moe_layers · E · m · h · F_e (m = 3 SwiGLU, 2 GeLU)"},
    {train_moe_dense_params, "train.moe.dense_params", none, Tier::capacity, memory, false, total, 0, {},
     "MoE: parameters outside the routed experts (attention, shared experts, dense layers), N − N_e"},
    {train_moe_active_params, "train.moe.active_params", none, Tier::capacity, memory, false, active, 0, {},
     "MoE: parameters a token passes through, from the expert keys, N − N_e + N_e · k / E"},
    {train_memory_states, "train.memory.states", bytes, Tier::capacity, memory, false, total, 0, {},
     "model states per GPU (weights, grads, optimizer)"},
    {train_memory_activations, "train.memory.activations", bytes, Tier::capacity, memory, false, no_moe, 0, {},
     "activations per GPU"},
    {train_memory_reserve, "train.memory.reserve", bytes, Tier::capacity, memory, false, no_moe, 0, {},
     "fragmentation and buffer reserve per GPU"},
    {train_memory_total, "train.memory.total", bytes, Tier::capacity, memory, false, no_moe, 0, {},
     "training memory per GPU"},
    {train_memory_lower_bound_states, "train.memory.lower_bound_states", bytes, Tier::capacity, memory, false, total, 0,
     {}, "the least model states per GPU (MoE: split ep ways; no activations: at ZeRO-3 unless stated)"},
    {train_memory_lower_bound, "train.memory.lower_bound", bytes, Tier::capacity, memory, false, no_moe, 0, {},
     "the least memory per GPU the plan can need"},
    {train_memory_min_pp, "train.memory.min_pp", none, Tier::capacity, memory, false, no_moe, 0, {},
     "fewest pipeline stages whose memory per GPU fits the HBM, GPU count, tp and cp kept"},
    {train_step_seconds, "train.step_seconds", seconds, Tier::capacity, communication, false, active, 0, in_seconds,
     "compute time of one optimizer step"},
    {train_comm_allreduce_bytes, "train.comm.allreduce_bytes", bytes, Tier::capacity, communication, false, total, 0,
     {}, "gradient all-reduce bytes per GPU per step"},
    {train_comm_dp_group_nodes, "train.comm.dp_group_nodes", none, Tier::capacity, communication, false, no_moe, 0, {},
     "nodes a data-parallel group spans, ⌈tp · cp · dp / gpus_per_node⌉ (1: its all-reduce runs on NVLink)"},
    {train_comm_seconds, "train.comm.seconds", seconds, Tier::capacity, communication, false, total, 0, in_seconds,
     "gradient all-reduce time per step"},
    {train_comm_fraction, "train.comm.fraction", none, Tier::capacity, communication, true, no_moe, 0, {},
     "all-reduce time / step time"},
    {train_comm_fraction_lower_bound, "train.comm.fraction_lower_bound", none, Tier::capacity, communication, true,
     no_moe, 0, {}, "the least all-reduce share of the step (MoE: every gradient split ep ways)"},
    {train_comm_ep_group_nodes, "train.comm.ep_group_nodes", none, Tier::capacity, communication, false, no_moe, 0,
     {}, "nodes an expert-parallel group spans, ⌈tp · cp · ep / gpus_per_node⌉"},
    {train_comm_alltoall_bytes, "train.comm.alltoall_bytes", bytes, Tier::capacity, communication, false, no_moe, 0,
     {}, "MoE: expert all-to-all bytes a GPU sends per step (dispatch and combine, forward and backward)"},
    {train_comm_alltoall_seconds, "train.comm.alltoall_seconds", seconds, Tier::capacity, communication, false,
     no_moe, 0, in_seconds, "MoE: expert all-to-all time per step, over the link the ep group spans"},
    {train_comm_alltoall_fraction, "train.comm.alltoall_fraction", none, Tier::capacity, communication, true,
     no_moe, 0, {}, "MoE: all-to-all time / step time, before any overlap with compute"},
    {train_micro_batches, "train.micro_batches", none, Tier::capacity, communication, false, no_moe, 0, {},
     "micro-batches per data-parallel replica per step, m = global_batch / (dp · b)"},
    {train_pipeline_bubble, "train.pipeline_bubble", none, Tier::capacity, communication, true, no_moe, 0, {},
     "pipeline bubble fraction, (p − 1) / (v · m)"},
    {train_model_gpus, "train.model_gpus", gpus, Tier::capacity, communication, false, no_moe, 0, {},
     "GPUs of one model replica, tp · pp · cp"},
    {train_parallel_gpus, "train.parallel_gpus", gpus, Tier::capacity, communication, false, no_moe, 0, {},
     "GPUs the parallel layout uses, tp · pp · cp · dp (cluster.count when dp is derived)"},
    {train_nodes, "train.nodes", none, Tier::capacity, communication, false, no_moe, 0, {},
     "nodes the run spans, ⌈n / gpus_per_node⌉"},
    {train_failures, "train.failures", none, Tier::capacity, communication, false, active, 0, {},
     "node failures expected over the wall time, nodes · wall time / node MTBF"},
    {train_checkpoint_optimal_interval, "train.checkpoint.optimal_interval", seconds, Tier::capacity, communication,
     false, no_moe, 0, in_seconds, "Young/Daly checkpoint interval"},
    {train_checkpoint_overhead, "train.checkpoint.overhead", none, Tier::capacity, communication, true, no_moe, 0, {},
     "training time lost to checkpoint writes and redone work at the plan's interval"},
    {train_checkpoint_optimal_overhead, "train.checkpoint.optimal_overhead", none, Tier::capacity, communication, true,
     no_moe, 0, {}, "training time lost at the optimal interval, 2 · w / T_opt"},
    {infer_weights, "infer.weights", bytes, Tier::capacity, serving_memory, false, total, 0, {},
     "weight bytes of one model copy"},
    {infer_kv_per_token, "infer.kv_per_token", bytes / tokens, Tier::capacity, serving_memory, false, no_moe, 0, {},
     "KV cache bytes per token"},
    {infer_kv_cache, "infer.kv_cache", bytes, Tier::capacity, serving_memory, false, no_moe, 0, {},
     "KV cache for the planned concurrency"},
    {infer_memory_total, "infer.memory.total", bytes, Tier::capacity, serving_memory, false, no_moe, 0, {},
     "inference memory per GPU"},
    {infer_max_concurrency, "infer.max_concurrency", sequences, Tier::capacity, serving_memory, false, no_moe, 0, {},
     "sequences one replica can hold"},
    {infer_kv_heads_per_gpu, "infer.kv_heads_per_gpu", none, Tier::capacity, serving_memory, false, no_moe, 0, {},
     "KV heads each GPU of a replica holds whole, ⌈kv_heads / tp⌉"},
    {infer_kv_replication, "infer.kv_replication", none, Tier::capacity, serving_memory, false, no_moe, 0, {},
     "times the replica holds its KV cache over an even split, tp · ⌈kv_heads / tp⌉ / kv_heads"},
    {infer_memory_reserve, "infer.memory.reserve", bytes, Tier::capacity, serving_memory, false, no_moe, 0, {},
     "reserve of inference memory per GPU"},
    {infer_kv_per_sequence, "infer.kv_per_sequence", bytes, Tier::capacity, serving_memory, false, no_moe, 0, {},
     "one sequence's KV cache at the full context, kv_per_token · context"},
    {infer_kv_per_sequence_per_gpu, "infer.kv_per_sequence_per_gpu", bytes, Tier::capacity, serving_memory, false,
     no_moe, 0, {}, "one sequence's KV cache on each GPU of its replica"},
    {infer_memory_one_sequence, "infer.memory.one_sequence", bytes, Tier::capacity, serving_memory, false, no_moe, 0,
     {}, "inference memory per GPU at a concurrency of one"},
    {infer_replica_gpus, "infer.replica_gpus", none, Tier::capacity, serving_memory, false, no_moe, 0, {},
     "GPUs the weights spread over: tp, or the most a node (or a replica) gives"},
    {infer_memory_weights_alone, "infer.memory.weights_alone", bytes, Tier::capacity, serving_memory, false, total, 0,
     {}, "weights per GPU with their reserve, before any KV cache"},
    {infer_node_memory, "infer.node_memory", bytes, Tier::capacity, serving_memory, false, no_moe, 0, {},
     "memory a node gives a replica after the reserve, gpus_per_node · hbm · (1 − memory_reserve)"},
    {infer_peak_concurrency, "infer.peak_concurrency", sequences, Tier::capacity, serving_memory, false, no_moe, 0,
     {}, "sequences in flight at the demand's peak, mean_concurrency · peak_factor"},
    {infer_service_gpus, "infer.service_gpus", gpus, Tier::capacity, serving_memory, false, no_moe, 0, {},
     "GPUs the replicas use, replicas · tp"},
    {infer_service_concurrency, "infer.service_concurrency", sequences, Tier::capacity, serving_memory, false, no_moe,
     0, {}, "sequences the replicas hold at once, replicas · concurrency (infer.max_concurrency without one)"},
    {infer_peak_replicas, "infer.peak_replicas", none, Tier::capacity, serving_memory, false, no_moe, 0, {},
     "replicas the demand's peak needs, ⌈infer.peak_concurrency / a replica's concurrency⌉"},
    {infer_decode_flops_per_token, "infer.decode_flops_per_token", flop_per_token, Tier::cost, serving_compute, false,
     active, 0, {}, "decode compute per token, 2 · N_a"},
    {infer_prefill_flops, "infer.prefill_flops", flop, Tier::cost, serving_compute, false, active, 0, {},
     "prefill compute per request"},
    {infer_prefill_attention_flops, "infer.prefill_attention_flops", flop, Tier::cost, serving_compute, false, no_moe,
     0, {}, "the prompt's causal attention FLOPs, 2 · L · S² · a · d_h"},
    {infer_prefill_attention_share, "infer.prefill_attention_share", none, Tier::cost, serving_compute, false, active,
     0, {}, "attention FLOPs over prefill FLOPs, L · S · a · d_h / N_a"},
    {infer_decode_tokens_per_s, "infer.decode_tokens_per_s", tokens_per_second, Tier::capacity, latency, false,
     routed, 0, {}, "per-sequence decode speed bound from HBM bandwidth"},
    {infer_itl, "infer.itl", seconds, Tier::latency, latency, false, routed, 0, in_seconds,
     "inter-token latency, lower bound"},
    {infer_itl_at_concurrency, "infer.itl_at_concurrency", seconds, Tier::latency, latency, false, routed, 0,
     in_seconds, "inter-token latency at the planned concurrency, lower bound"},
    {infer_ttft, "infer.ttft", seconds, Tier::latency, latency, false, active, 0, in_seconds,
     "time to first token, lower bound"},
    {infer_ttft_with_attention, "infer.ttft_with_attention", seconds, Tier::latency, latency, false, no_moe, 0,
     in_seconds, "TTFT lower bound with the prompt's attention FLOPs"},
    {infer_expert_share, "infer.expert_share", none, Tier::capacity, latency, true, routed, 0, {},
     "share of an MoE model's weights one sequence's decode step reads"},
    {infer_expert_share_at_concurrency, "infer.expert_share_at_concurrency", none, Tier::capacity, latency, true,
     routed, 0, {}, "share of an MoE model's weights a full replica's decode step reads"},
    {infer_weights_read, "infer.weights_read", bytes, Tier::capacity, latency, false, active, 0, {},
     "weight bytes one sequence's decode step reads"},
    {infer_weights_read_at_concurrency, "infer.weights_read_at_concurrency", bytes, Tier::capacity, latency, false,
     routed, 0, {}, "weight bytes a full replica's decode step reads"},
    {infer_kv_read, "infer.kv_read", bytes, Tier::capacity, latency, false, no_moe, 0, {},
     "KV cache bytes one sequence's decode step reads, at the full context"},
    {infer_kv_read_at_concurrency, "infer.kv_read_at_concurrency", bytes, Tier::capacity, latency, false, no_moe, 0,
     {}, "KV cache bytes a full replica's decode step reads, at full contexts"},
    {infer_cost_per_month, "infer.cost_per_month", usd, Tier::cost, serving_cost, false, no_moe, price, {},
     "serving cost of a month, every GPU billed: cluster.count · price · 730.5 h"},
    {gpu_catalog_peak, "gpu.catalog_peak", flop_per_second, Tier::capacity, hardware, false, no_moe, 0, {},
     "the catalog's dense peak of cluster.gpu at the compute precision"},
    {gpu_bf16_peak_share, "gpu.bf16_peak_share", none, Tier::capacity, hardware, false, no_moe, 0, {},
     "the catalog's dense bf16 peak over its peak at the compute precision"},
    {gpu_hbm_gib, "gpu.hbm_gib", bytes, Tier::capacity, hardware, false, no_moe, 0, {},
     "the catalog's HBM read in GiB (its marketed figure is)"},
    {gpu_node_peak, "gpu.node_peak", flop_per_second, Tier::capacity, hardware, false, no_moe, 0, {},
     "a node's dense peak, gpus_per_node · gpu.catalog_peak"},
    {gpu_node_hbm, "gpu.node_hbm", bytes, Tier::capacity, hardware, false, no_moe, 0, {},
     "a node's HBM, gpus_per_node · the catalog's"},
    {gpu_node_hbm_gib, "gpu.node_hbm_gib", bytes, Tier::capacity, hardware, false, no_moe, 0, {},
     "a node's HBM read in GiB, gpus_per_node · gpu.hbm_gib"},
    {gpu_node_hbm_bandwidth, "gpu.node_hbm_bandwidth", bytes_per_second, Tier::capacity, hardware, false, no_moe, 0,
     {}, "a node's HBM bandwidth, gpus_per_node · the catalog's"},
};

consteval bool in_enum_order() {
  for (std::size_t i = 0; i < std::size(table); ++i)
    if (static_cast<std::size_t>(table[i].id) != i) return false;
  return std::size(table) == metric_count;
}
static_assert(in_enum_order(), "the table lists every Metric once, in the enum's order");

}  // namespace

std::string_view to_string(Tier tier) {
  switch (tier) {
    case Tier::capacity: return "capacity";
    case Tier::cost: return "cost";
    case Tier::latency: return "latency";
  }
  return "cost";
}

std::string_view to_string(MoeScaling scaling) {
  switch (scaling) {
    case MoeScaling::none: return "none";
    case MoeScaling::active_params: return "active_params";
    case MoeScaling::total_params: return "total_params";
    case MoeScaling::routed_experts: return "routed_experts";
  }
  return "none";
}

std::string_view section_title(ReportSection section) {
  switch (section) {
    case ReportSection::compute: return "Compute";
    case ReportSection::time: return "Time";
    case ReportSection::cost: return "Cost";
    case ReportSection::memory: return "Memory per GPU";
    case ReportSection::communication: return "Communication and checkpoints";
    case ReportSection::serving_memory: return "Memory";
    case ReportSection::serving_compute: return "Compute";
    case ReportSection::latency: return "Latency bounds";
    case ReportSection::serving_cost: return "Cost";
    case ReportSection::hardware: return "GPU figures (catalog)";
    case ReportSection::json_only: return "";
  }
  return "";
}

bool shows_section(ReportSection section, bool training) {
  switch (section) {
    case ReportSection::compute:
    case ReportSection::time:
    case ReportSection::cost:
    case ReportSection::memory:
    case ReportSection::communication: return training;
    case ReportSection::serving_memory:
    case ReportSection::serving_compute:
    case ReportSection::latency:
    case ReportSection::serving_cost: return !training;
    case ReportSection::hardware: return true;
    case ReportSection::json_only: return false;
  }
  return false;
}

std::string_view plan_key_of(RangedKey key) {
  switch (key) {
    case RangedKey::mfu: return "training.mfu";
    case RangedKey::goodput: return "training.goodput";
    case RangedKey::price: return "cluster.price";
  }
  return "training.mfu";
}

std::span<const MetricSpec> metric_table() { return table; }

const MetricSpec& metric_spec(Metric metric) { return table[static_cast<std::size_t>(metric)]; }

const MetricSpec* find_metric(std::string_view name) {
  // By name, through the names sorted once: claims, targets and rule literals name metrics.
  static const auto by_name = [] {
    std::array<const MetricSpec*, metric_count> sorted{};
    for (std::size_t i = 0; i < metric_count; ++i) sorted[i] = &table[i];
    std::sort(sorted.begin(), sorted.end(), [](const MetricSpec* a, const MetricSpec* b) { return a->name < b->name; });
    return sorted;
  }();
  const auto it = std::lower_bound(by_name.begin(), by_name.end(), name,
                                   [](const MetricSpec* metric, std::string_view n) { return metric->name < n; });
  return it != by_name.end() && (*it)->name == name ? *it : nullptr;
}

std::vector<std::string_view> metric_name_list() {
  std::vector<std::string_view> names;
  for (const MetricSpec& metric : table) names.push_back(metric.name);
  return names;
}

std::string plain_number_unit(const MetricSpec& metric) {
  if (!metric.plain.unit.empty()) return std::string(metric.plain.unit);
  if (metric.fraction) return "fraction";
  if (metric.dim.dimensionless()) return "plain numbers";
  return units::describe(metric.dim);
}

std::string metric_table_markdown() {
  std::string out =
      "| metric | unit | tier | section | MoE | ranged by | what it is |\n|---|---|---|---|---|---|---|\n";
  for (const MetricSpec& metric : table) {
    std::string ranged;
    for (RangedKey key : ranged_keys)
      if (ranged_by(metric, key)) ranged += fmt::format("{}`{}`", ranged.empty() ? "" : ", ", plan_key_of(key));
    const std::string section = metric.section == ReportSection::json_only
                                    ? std::string("(JSON only)")
                                    : std::string(section_title(metric.section));
    out += fmt::format("| `{}` | {} | {} | {} | {} | {} | {} |\n", metric.name,
                       metric.fraction ? std::string("fraction") : plain_number_unit(metric), to_string(metric.tier),
                       section, metric.moe == MoeScaling::none ? "" : to_string(metric.moe),
                       ranged.empty() ? "—" : ranged, metric.summary);
  }
  return out;
}

}  // namespace planlint
