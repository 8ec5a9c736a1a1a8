#include "planlint/solve/serving_search.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

namespace planlint::solve {

namespace {

bool divides(double d, double n) { return d >= 1 && std::floor(n / d) * d == n; }

/// How far a known figure is past its bound (> 1 fails); 0 for an unknown one, which no rule
/// judges.
double over(double figure, double bound) {
  if (std::isnan(figure) || std::isnan(bound)) return 0;
  return figure / bound;
}

double target_ratio(const TargetBound& target, double value) {
  if (std::isnan(value)) return 0;
  return target.is_max ? value / target.bound : target.bound / value;
}

bool target_met(const TargetBound& target, double value) {
  if (std::isnan(value)) return true;
  return target.is_max ? value <= target.bound : value >= target.bound;
}

/// A benchmark's ratio to the figure, the larger way (benchmark-deviation's); 0 where the rule
/// does not judge it: an unknown figure, or a decode speed measured below its upper bound.
double benchmark_ratio(const serving::ServingInputs::Measured& measured, const serving::ServingFigures& f) {
  const double figure = serving_figure_of(f, measured.metric);
  if (std::isnan(figure) || figure == 0 || measured.value == 0) return 0;
  if (measured.metric == Metric::infer_decode_tokens_per_s && measured.value <= figure) return 0;
  return std::max(measured.value / figure, figure / measured.value);
}

}  // namespace

double serving_figure_of(const serving::ServingFigures& f, Metric metric) {
  switch (metric) {
    case Metric::infer_memory_total: return f.memory_total;
    case Metric::infer_max_concurrency: return f.max_concurrency;
    case Metric::infer_memory_weights_alone: return f.memory_weights_alone;
    case Metric::infer_memory_one_sequence: return f.memory_one_sequence;
    case Metric::infer_decode_tokens_per_s: return f.decode_tokens_per_s;
    case Metric::infer_itl: return f.itl;
    case Metric::infer_itl_at_concurrency: return f.itl_at_concurrency;
    case Metric::infer_ttft: return f.ttft;
    case Metric::infer_ttft_with_attention: return f.ttft_with_attention;
    case Metric::infer_service_gpus: return f.service_gpus;
    case Metric::infer_service_concurrency: return f.service_concurrency;
    case Metric::infer_cost_per_month: return f.cost_per_month;
    case Metric::infer_replica_gpus: return f.replica_gpus;
    // The replicas the peak needs: a layout's replicas, where the plan states a demand.
    case Metric::infer_peak_replicas: return f.peak_replicas;
    default: return std::nan("");
  }
}

bool serving_kernel_metric(Metric metric) {
  switch (metric) {
    case Metric::infer_memory_total:
    case Metric::infer_max_concurrency:
    case Metric::infer_memory_weights_alone:
    case Metric::infer_memory_one_sequence:
    case Metric::infer_decode_tokens_per_s:
    case Metric::infer_itl:
    case Metric::infer_itl_at_concurrency:
    case Metric::infer_ttft:
    case Metric::infer_ttft_with_attention:
    case Metric::infer_service_gpus:
    case Metric::infer_service_concurrency:
    case Metric::infer_cost_per_month:
    case Metric::infer_replica_gpus:
    case Metric::infer_peak_replicas: return true;
    default: return false;
  }
}

bool serve_ranks_before(const ServeRanked& a, const ServeRanked& b) {
  const auto key = [](const ServeRanked& r) {
    return std::tuple(r.rank.objective, r.rank.warnings, r.rank.soft_missed, r.rank.replica_gpus,
                      r.rank.itl_at_concurrency, r.rank.itl, r.rank.ttft, r.rank.memory, r.layout.tp, r.layout.pp, r.gpu);
  };
  return key(a) < key(b);
}

bool serving_tp_allowed(const serving::ServingInputs& in, long long tp) {
  const double t = double(tp);
  if (!divides(in.ranks, t) || !divides(in.ep, t)) return false;
  const double rank_gpus = t / in.ranks;
  if (rank_gpus <= 1) return true;
  if (!std::isnan(in.heads) && !divides(rank_gpus, in.heads)) return false;
  if (!std::isnan(in.model_kv_heads) && !divides(rank_gpus, in.model_kv_heads) &&
      !divides(in.model_kv_heads, rank_gpus))
    return false;
  return true;
}

std::optional<ServeFailure> serve_failure_of(const serving::ServingInputs& in, const ServeSpec& spec,
                                             const serving::ServingFigures& f) {
  std::optional<ServeFailure> worst;
  const auto consider = [&](ServeFailure::Kind kind, double ratio, std::size_t target = 0) {
    if (!(ratio > 1)) return;
    if (!worst || ratio > worst->ratio) worst = ServeFailure{kind, target, ratio};
  };
  consider(ServeFailure::Kind::memory, over(f.memory_fit, in.hbm));
  if (std::isnan(f.replicas)) consider(ServeFailure::Kind::no_sequence, std::max(2.0, over(f.memory_fit, in.hbm)));
  consider(ServeFailure::Kind::ttft, over(f.ttft, in.sla_ttft));
  consider(ServeFailure::Kind::itl, over(f.itl, in.sla_itl));
  consider(ServeFailure::Kind::decode_claim, over(in.tokens_per_s, f.decode_tokens_per_s));
  consider(ServeFailure::Kind::prefill_memory, over(in.prefill_memory, in.prefill_hbm));
  for (std::size_t i = 0; i < spec.hard_targets.size(); ++i) {
    const TargetBound& target = spec.hard_targets[i];
    const double value = serving_figure_of(f, target.metric);
    if (!target_met(target, value)) consider(ServeFailure::Kind::hard_target, std::max(target_ratio(target, value), 1.0 + 1e-12), i);
  }
  for (std::size_t i = 0; i < in.benchmarks.size(); ++i) {
    const double ratio = benchmark_ratio(in.benchmarks[i], f);
    if (ratio >= spec.benchmark_error_factor)
      consider(ServeFailure::Kind::benchmark, std::max(ratio / spec.benchmark_error_factor, 1.0 + 1e-12), i);
  }
  return worst;
}

ServeRank serve_rank_of(const serving::ServingInputs& in, const ServeSpec& spec, const serving::ReplicaLayout& l,
                        const serving::ServingFigures& f) {
  ServeRank rank;
  rank.objective = spec.objective == Objective::gpus ? f.service_gpus : f.cost_per_month;
  // tp-across-nodes: the serving group, tp / dp_attention or tp / ep, wider than a scale-up domain.
  const double group = std::max(l.tp / in.ranks, l.tp / in.ep);
  if (group > in.scale_up_domain) ++rank.warnings;
  // batch-decode-bound, where the sequence alone meets the claim and the SLA.
  if (!std::isnan(f.itl_at_concurrency) && (!std::isnan(in.tokens_per_s) || !std::isnan(in.sla_itl))) {
    const bool slow = (!std::isnan(in.tokens_per_s) && in.tokens_per_s * f.itl_at_concurrency > 1) ||
                      (!std::isnan(in.sla_itl) && f.itl_at_concurrency > in.sla_itl);
    if (slow) ++rank.warnings;
  }
  // prefill-attention-flops: the prompt's attention puts the TTFT bound over its SLA.
  if (!std::isnan(in.sla_ttft) && !std::isnan(f.ttft_with_attention) && f.ttft_with_attention > in.sla_ttft) ++rank.warnings;
  // benchmark-deviation's warning: a benchmark beyond the tolerance of the figure.
  for (const serving::ServingInputs::Measured& measured : in.benchmarks) {
    const double figure = serving_figure_of(f, measured.metric);
    if (benchmark_ratio(measured, f) > 0 &&
        !(std::abs(measured.value - figure) <= in.benchmark_tolerance * std::abs(figure)))
      ++rank.warnings;
  }
  for (const TargetBound& target : spec.soft_targets)
    if (!target_met(target, serving_figure_of(f, target.metric))) ++rank.soft_missed;
  rank.replica_gpus = double(l.tp) * l.pp;
  rank.itl_at_concurrency = std::isnan(f.itl_at_concurrency) ? 0 : f.itl_at_concurrency;
  rank.itl = std::isnan(f.itl) ? 0 : f.itl;
  rank.ttft = std::isnan(f.ttft) ? 0 : f.ttft;
  rank.memory = f.memory_fit;
  return rank;
}

ServeRanked evaluate_serving(const serving::ServingInputs& in, const ServeSpec& spec, serving::ReplicaLayout l) {
  ServeRanked r;
  r.figures = serving::evaluate_replica(in, l);
  l.replicas = serving::replicas_needed(in, r.figures);
  r.layout = l;
  serving::evaluate_service(in, l, r.figures);
  r.rank = serve_rank_of(in, spec, l, r.figures);
  return r;
}

std::vector<int> serving_tps(const serving::ServingInputs& in) {
  // tp / dp_attention divides the heads: the divisors of the heads, times dp_attention (both at
  // most a million: solve_serving_plan refuses more).
  std::vector<int> tps;
  const double heads = in.heads;
  for (double d = 1; d * d <= heads; ++d) {
    if (!divides(d, heads)) continue;
    for (const double t : {d, heads / d}) {
      const double tp = t * in.ranks;
      // A replica of more GPUs than a cluster.count solve accepts is no layout.
      if (tp > 1e7) continue;
      if (serving_tp_allowed(in, static_cast<long long>(tp))) tps.push_back(static_cast<int>(tp));
    }
  }
  std::sort(tps.begin(), tps.end());
  tps.erase(std::unique(tps.begin(), tps.end()), tps.end());
  return tps;
}

ServeResult search_serving(const serving::ServingInputs& in, const serving::ReplicaLayout& plan_layout,
                           const ServeSpec& spec) {
  ServeResult result;
  const std::vector<int> tps = spec.hold_tp ? std::vector<int>{plan_layout.tp} : serving_tps(in);
  const long long max_pp = static_cast<long long>(std::min(in.layers, 1e6));
  std::map<int, ServeMiss> misses;  // by tp: its nearest miss
  std::set<int> passing_tps;
  for (const int tp : tps) {
    for (long long pp = 1; pp <= max_pp; ++pp) {
      if (spec.hold_pp && pp != plan_layout.pp) continue;
      serving::ReplicaLayout l;
      l.tp = int(tp);
      l.pp = int(pp);
      ServeRanked r = evaluate_serving(in, spec, l);
      ++result.layouts;
      if (const std::optional<ServeFailure> failure = serve_failure_of(in, spec, r.figures)) {
        auto [it, fresh] = misses.try_emplace(l.tp, ServeMiss{r, *failure});
        if (!fresh && failure->ratio < it->second.failure.ratio) it->second = ServeMiss{r, *failure};
        continue;
      }
      passing_tps.insert(l.tp);
      ++result.passing;
      result.best.push_back(r);
      std::stable_sort(result.best.begin(), result.best.end(), serve_ranks_before);
      if (result.best.size() > spec.top) result.best.resize(spec.top);
    }
  }
  for (const auto& [tp, miss] : misses) {
    if (passing_tps.count(tp)) continue;
    result.misses.push_back(miss);
  }
  std::stable_sort(result.misses.begin(), result.misses.end(),
                   [](const ServeMiss& a, const ServeMiss& b) { return a.failure.ratio < b.failure.ratio; });
  if (result.misses.size() > spec.families) result.misses.resize(spec.families);
  return result;
}

}  // namespace planlint::solve
