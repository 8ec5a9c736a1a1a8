#pragma once
/// The serving figures of one replica layout on plain numbers: what an inference plan fixes is
/// read once (read_serving_inputs), and evaluate() composes the formulas of serving_formulas.hpp
/// as the metrics of inference*.cpp do, for a layout the plan need not state. `planlint solve`
/// evaluates every layout of an inference plan's space with it; a test holds its figures equal
/// to the metrics of every example and rule case.
///
///     const serving::ServingInputs inputs = serving::read_serving_inputs(plan, catalog, estimates);
///     serving::ReplicaLayout l = serving::plan_replica_layout(plan);
///     l.tp = 8;
///     const serving::ServingFigures f = serving::evaluate(inputs, l);  // f.memory_total ...
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "planlint/catalog/catalog.hpp"
#include "planlint/estimate/estimates.hpp"
#include "planlint/estimate/serving_formulas.hpp"
#include "planlint/plan/plan.hpp"

namespace planlint::serving {

inline constexpr double absent = std::numeric_limits<double>::quiet_NaN();

/// The keys of a serving layout that `planlint solve` varies: a replica's tp and pp, and the
/// replicas (computed from the demand's peak, not searched).
struct ReplicaLayout {
  int tp = 1, pp = 1;
  double replicas = 1;
  friend bool operator==(const ReplicaLayout&, const ReplicaLayout&) = default;
};

/// What an inference plan fixes, in base units; NaN where the plan lacks it (the figures that
/// need it are then NaN, as the metrics are absent).
struct ServingInputs {
  double weights = absent;            ///< infer.weights
  double kv_per_token = absent;       ///< infer.kv_per_token
  double kv_tokens = absent;          ///< inference.context, or infer.kv_tokens with sliding-window layers
  double kv_cache = absent;           ///< infer.kv_cache at the stated concurrency
  double concurrency = absent;        ///< inference.concurrency as the plan states it (a replica's)
  double hbm = absent, memory_reserve = absent, hbm_bandwidth = absent, peak = absent, mfu = absent;
  double prefill_flops = absent;      ///< infer.prefill_flops
  double attention_share = absent;    ///< infer.prefill_attention_share: what TTFT's bound leaves out
  double price = absent;
  double count = absent;              ///< cluster.count as the plan books it
  /// KV heads the cache divides by (1 for MLA's latent), the model's heads and KV heads as
  /// tp-heads-indivisible reads them.
  double kv_heads = absent, heads = absent, model_kv_heads = absent, layers = absent;
  double ranks = 1;                   ///< inference.dp_attention (held)
  double ep = 1;                      ///< inference.ep (held: the figures do not model it)
  double dense_share = 1;             ///< N_d / N of an MoE model, for attention ranks
  double weights_read = absent;       ///< infer.weights_read: a sequence alone's step
  double weights_read_at_concurrency = absent;  ///< infer.weights_read_at_concurrency
  double tokens_per_step = 1;
  double peak_concurrency = absent;   ///< infer.peak_concurrency: the demand's peak, when stated
  double plan_replicas = 1;           ///< inference.replicas, stated or derived; 1 without one
  bool replicas_stated = false;
  /// A disaggregated prefill pool, held: its TTFT (infer.ttft) and GPUs.
  bool disaggregated = false;
  double disaggregated_ttft = absent, prefill_count = 0;
  /// infer.prefill_memory against inference.prefill_hbm (prefill-memory-fit), which no decode
  /// layout changes.
  double prefill_memory = absent, prefill_hbm = absent;
  double scale_up_domain = absent;
  /// The SLAs and claims the error rules hold the bounds to; NaN when not stated.
  double sla_ttft = absent, sla_itl = absent, tokens_per_s = absent;
  /// [[benchmarks]] of capacity and cost metrics (what benchmark-deviation compares), measured
  /// on the plan's layout, and tolerances.formula_vs_benchmark.
  struct Measured {
    Metric metric;
    double value;
  };
  std::vector<Measured> benchmarks;
  double benchmark_tolerance = 0.25;
  /// Plan keys the figures need that the plan lacks.
  std::vector<std::string> missing;
};

/// The figures of one layout, NaN where the metric of that name is absent.
struct ServingFigures {
  double memory_total = absent;          ///< infer.memory.total (with a stated concurrency)
  double max_concurrency = absent;       ///< infer.max_concurrency
  double memory_weights_alone = absent;  ///< infer.memory.weights_alone
  double memory_one_sequence = absent;   ///< infer.memory.one_sequence
  double decode_tokens_per_s = absent, itl = absent, itl_at_concurrency = absent;
  double ttft = absent, ttft_with_attention = absent;
  double replica_concurrency = absent;   ///< the stated concurrency, else infer.max_concurrency
  double peak_replicas = absent;         ///< infer.peak_replicas, with a demand stated
  double replicas = absent;              ///< the peak's replicas, else the plan's
  double replica_gpus = absent;          ///< tp · pp
  double service_gpus = absent, service_concurrency = absent, cost_per_month = absent;
  /// What inference-memory-fit holds to the HBM: memory.total, or without a concurrency the
  /// larger of the weights alone and one sequence.
  double memory_fit = absent;
};

/// What the plan fixes, read once: its keys (defaults included) and the layout-independent
/// metrics of `estimates` (the plan's).
ServingInputs read_serving_inputs(const Plan& plan, const Catalog& catalog, const Estimates& estimates);
/// The plan's own layout (defaults included).
ReplicaLayout plan_replica_layout(const Plan& plan);

/// The hold of a layout's replica (serving_formulas.hpp).
inline KvHold hold_of(const ServingInputs& in, const ReplicaLayout& l) {
  return kv_hold(l.tp, l.pp, in.ranks, in.kv_heads, in.dense_share);
}

/// The figures of `l`'s replica, before the replicas: memory, capacity and latency.
inline ServingFigures evaluate_replica(const ServingInputs& in, const ReplicaLayout& l) {
  ServingFigures f;
  const KvHold h = hold_of(in, l);
  f.memory_total = memory_total_bytes(in.weights, in.kv_cache, in.memory_reserve, h);
  f.max_concurrency = max_concurrency(in.hbm, in.memory_reserve, in.weights, in.kv_per_token, in.kv_tokens, h);
  f.memory_weights_alone = memory_weights_alone_bytes(in.weights, h.copies, h.gpus(), in.memory_reserve);
  const double sequence_per_gpu = kv_per_sequence_per_gpu(in.kv_per_token * in.kv_tokens, h.replication, h);
  f.memory_one_sequence = memory_one_sequence_bytes(in.weights, sequence_per_gpu, in.memory_reserve, h);
  f.memory_fit = std::isnan(in.concurrency) ? std::max(f.memory_weights_alone, f.memory_one_sequence) : f.memory_total;
  f.decode_tokens_per_s = decode_tokens_per_s(in.hbm_bandwidth, in.weights_read, in.weights, in.kv_per_token,
                                              in.kv_tokens, in.tokens_per_step, h);
  f.itl = 1 / f.decode_tokens_per_s;
  f.itl_at_concurrency =
      itl_at_concurrency(in.hbm_bandwidth, in.weights_read_at_concurrency, in.weights, in.kv_cache, in.tokens_per_step, h);
  f.ttft = in.disaggregated ? in.disaggregated_ttft : prefill_seconds(in.prefill_flops, in.peak, l.tp, l.pp, in.mfu);
  f.ttft_with_attention = f.ttft * (1 + in.attention_share);
  f.replica_concurrency = std::isnan(in.concurrency) ? f.max_concurrency : in.concurrency;
  f.peak_replicas = peak_replicas(in.peak_concurrency, f.replica_concurrency);
  return f;
}

/// The figures of `l` with `replicas` replicas: the service's GPUs, what they hold, the cost.
inline void evaluate_service(const ServingInputs& in, const ReplicaLayout& l, ServingFigures& f) {
  f.replicas = l.replicas;
  f.replica_gpus = double(l.tp) * l.pp;
  f.service_gpus = service_gpus(l.replicas, l.tp, l.pp);
  f.service_concurrency = service_concurrency(l.replicas, f.replica_concurrency);
  f.cost_per_month = cost_per_month(f.service_gpus + (in.disaggregated ? in.prefill_count : 0), in.price);
}

/// The replicas a layout's replica needs: the demand's peak over a replica's concurrency
/// (infer.peak_replicas), or the plan's replicas when it states no demand; NaN when a replica
/// holds no sequence.
inline double replicas_needed(const ServingInputs& in, const ServingFigures& replica) {
  if (std::isnan(in.peak_concurrency)) return in.plan_replicas;
  if (!(replica.replica_concurrency >= 1)) return absent;
  return std::max(1.0, replica.peak_replicas);
}

/// The figures of `l` (its replicas as given).
inline ServingFigures evaluate(const ServingInputs& in, const ReplicaLayout& l) {
  ServingFigures f = evaluate_replica(in, l);
  evaluate_service(in, l, f);
  return f;
}

}  // namespace planlint::serving
