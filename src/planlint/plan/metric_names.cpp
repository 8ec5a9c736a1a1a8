#include "planlint/plan/metric_names.hpp"

#include <iterator>

#include "planlint/plan/name_index.hpp"

namespace planlint {

namespace {
using namespace units::dims;
constexpr auto flop_per_token = flop / tokens;

// estimates.md, in the order a capacity engineer reasons: compute → time → cost → memory →
// communication, then inference.
constexpr MetricName all_metrics[] = {
    {"train.flops", flop, Tier::cost, "training compute, 6 · N_a · D"},
    {"train.tokens_per_param", none, Tier::cost, "training tokens per parameter, D / N"},
    {"train.gpu_seconds", gpu_seconds, Tier::cost, "GPU time at the assumed MFU"},
    {"train.gpu_hours", gpu_seconds, Tier::cost, "GPU-hours at the assumed MFU"},
    {"train.days", seconds, Tier::cost, "ideal days on the cluster, no failures"},
    {"train.wall_days", seconds, Tier::cost, "wall-clock days, ideal days / goodput"},
    {"train.schedule_days", seconds, Tier::cost, "committed days, wall days · schedule margin"},
    {"cost.gpu_hours_billed", gpu_seconds, Tier::cost, "GPU-hours billed over the wall time"},
    {"cost.total", usd, Tier::cost, "billed GPU-hours · price"},
    {"train.memory.states", bytes, Tier::capacity, "model states per GPU (weights, grads, optimizer)"},
    {"train.memory.activations", bytes, Tier::capacity, "activations per GPU"},
    {"train.memory.reserve", bytes, Tier::capacity, "fragmentation and buffer reserve per GPU"},
    {"train.memory.total", bytes, Tier::capacity, "training memory per GPU"},
    {"train.step_seconds", seconds, Tier::capacity, "compute time of one optimizer step"},
    {"train.comm.allreduce_bytes", bytes, Tier::capacity, "gradient all-reduce bytes per GPU per step"},
    {"train.comm.seconds", seconds, Tier::capacity, "gradient all-reduce time per step"},
    {"train.comm.fraction", none, Tier::capacity, "all-reduce time / step time"},
    {"train.micro_batches", none, Tier::capacity,
     "micro-batches per data-parallel replica per step, m = global_batch / (dp · b)"},
    {"train.pipeline_bubble", none, Tier::capacity, "pipeline bubble fraction, (p − 1) / (v · m)"},
    {"train.checkpoint.optimal_interval", seconds, Tier::capacity, "Young/Daly checkpoint interval"},
    {"infer.weights", bytes, Tier::capacity, "weight bytes of one model copy"},
    {"infer.kv_per_token", bytes / tokens, Tier::capacity, "KV cache bytes per token"},
    {"infer.kv_cache", bytes, Tier::capacity, "KV cache for the planned concurrency"},
    {"infer.memory.total", bytes, Tier::capacity, "inference memory per GPU"},
    {"infer.max_concurrency", sequences, Tier::capacity, "sequences one replica can hold"},
    {"infer.decode_tokens_per_s", tokens_per_second, Tier::capacity,
     "per-sequence decode speed bound from HBM bandwidth"},
    {"infer.decode_flops_per_token", flop_per_token, Tier::cost, "decode compute per token, 2 · N_a"},
    {"infer.prefill_flops", flop, Tier::cost, "prefill compute per request"},
    {"infer.ttft", seconds, Tier::latency, "time to first token, lower bound"},
    {"infer.itl", seconds, Tier::latency, "inter-token latency, lower bound"},
    {"infer.itl_at_concurrency", seconds, Tier::latency,
     "inter-token latency at the planned concurrency, lower bound"},
};

static_assert(std::size(all_metrics) <= max_metric_count, "Estimates keeps a slot for each metric");
}  // namespace

std::string_view to_string(Tier tier) {
  switch (tier) {
    case Tier::capacity: return "capacity";
    case Tier::cost: return "cost";
    case Tier::latency: return "latency";
  }
  return "cost";
}

std::span<const MetricName> metric_names() { return all_metrics; }

const MetricName* find_metric(std::string_view name) {
  static const NameIndex<MetricName> index(all_metrics, [](const MetricName& m) { return m.name; });
  return index.find(name);
}

bool is_fraction_metric(std::string_view name) {
  return name == "train.comm.fraction" || name == "train.pipeline_bubble";
}

std::vector<std::string_view> metric_name_list() {
  std::vector<std::string_view> names;
  for (const MetricName& metric : all_metrics) names.push_back(metric.name);
  return names;
}

std::string plain_number_unit(const MetricName& metric) {
  if (is_fraction_metric(metric.name)) return "fraction";
  if (metric.dim.dimensionless()) return "plain numbers";
  const double scale = plain_number_scale(metric);
  if (metric.dim == units::dims::gpu_seconds) return scale == 3600 ? "GPU-hours" : "GPU-seconds";
  if (metric.dim == units::dims::seconds) return scale == 86400 ? "days" : "seconds";
  return units::describe(metric.dim);
}

double plain_number_scale(const MetricName& metric) {
  if (metric.name.ends_with("_hours") || metric.name.ends_with("_hours_billed")) return 3600;
  if (metric.name.ends_with("days")) return 86400;
  return 1;
}

}  // namespace planlint
