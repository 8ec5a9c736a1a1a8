#include "planlint/search/search.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <tuple>
#include <utility>

namespace planlint::solve {

namespace {

struct KeyNames {
  LayoutKey key;
  std::string_view plan, short_name;
};

constexpr std::array<KeyNames, layout_key_count> key_names = {{
    {LayoutKey::tp, "training.tp", "tp"},
    {LayoutKey::pp, "training.pp", "pp"},
    {LayoutKey::virtual_stages, "training.virtual_stages", "virtual_stages"},
    {LayoutKey::cp, "training.cp", "cp"},
    {LayoutKey::ep, "training.ep", "ep"},
    {LayoutKey::micro_batch, "training.micro_batch", "micro_batch"},
    {LayoutKey::zero, "training.zero", "zero"},
    {LayoutKey::recompute, "training.recompute", "recompute"},
    {LayoutKey::sequence_parallel, "training.sequence_parallel", "sequence_parallel"},
    {LayoutKey::offload, "training.offload", "offload"},
}};

bool whole(double x) { return std::isfinite(x) && std::floor(x) == x; }

/// The divisors of `n` (a whole number ≥ 1) that pass `keep`, ascending.
template <typename Keep>
std::vector<int> divisors(double n, Keep keep) {
  std::vector<int> found;
  if (!whole(n) || n < 1 || n > 1e9) return found;
  const auto value = static_cast<long long>(n);
  std::vector<int> high;
  for (long long i = 1; i * i <= value; ++i) {
    if (value % i != 0) continue;
    if (keep(static_cast<int>(i))) found.push_back(static_cast<int>(i));
    const long long pair = value / i;
    if (pair != i && keep(static_cast<int>(pair))) high.push_back(static_cast<int>(pair));
  }
  found.insert(found.end(), high.rbegin(), high.rend());
  return found;
}

bool divides(double d, double n) { return whole(n) && whole(d) && d >= 1 && std::fmod(n, d) == 0; }

/// The micro-batch sizes of `dp` replicas: those whole numbers of micro-batches divide a batch in
/// sequences into (global-batch-split); for a batch in tokens, which seldom divides by seq_len,
/// the powers of two up to the sequences a replica gets.
std::vector<int> micro_batch_values(const layout::TrainingInputs& in, int dp) {
  const double per_replica = in.sequences_per_step / dp;
  if (in.batch_in_sequences) return divisors(per_replica, [](int) { return true; });
  std::vector<int> values;
  for (double b = 1; b <= per_replica && b <= 1 << 20; b *= 2) values.push_back(static_cast<int>(b));
  return values;
}

bool exceeds(double value, double limit) { return value > limit; }  // NaN: not known, no finding

bool violated(const TargetBound& target, double value) {
  if (std::isnan(value)) return false;
  return target.is_max ? value > target.bound : value < target.bound;
}

}  // namespace

std::string_view plan_key(LayoutKey key) { return key_names[static_cast<std::size_t>(key)].plan; }
std::string_view short_name(LayoutKey key) { return key_names[static_cast<std::size_t>(key)].short_name; }

const LayoutKey* find_layout_key(std::string_view name) {
  for (const KeyNames& names : key_names)
    if (names.plan == name || names.short_name == name) return &names.key;
  return nullptr;
}

std::string layout_key_list() {
  std::string list;
  for (const KeyNames& names : key_names) {
    if (!list.empty()) list += ", ";
    list += names.short_name;
  }
  return list;
}

namespace {

/// The metric each figure of the kernel is.
constexpr std::pair<Metric, double layout::TrainingFigures::*> figure_members[] = {
    {Metric::train_memory_states, &layout::TrainingFigures::states},
    {Metric::train_memory_activations, &layout::TrainingFigures::activations},
    {Metric::train_memory_reserve, &layout::TrainingFigures::reserve},
    {Metric::train_memory_total, &layout::TrainingFigures::total},
    {Metric::train_memory_lower_bound, &layout::TrainingFigures::lower_bound},
    {Metric::train_step_seconds, &layout::TrainingFigures::step_seconds},
    {Metric::train_gpu_seconds, &layout::TrainingFigures::gpu_seconds},
    {Metric::train_gpu_hours, &layout::TrainingFigures::gpu_seconds},
    {Metric::train_days, &layout::TrainingFigures::days},
    {Metric::train_wall_days, &layout::TrainingFigures::wall_days},
    {Metric::train_schedule_days, &layout::TrainingFigures::schedule_days},
    {Metric::cost_gpu_hours_billed, &layout::TrainingFigures::billed},
    {Metric::cost_total, &layout::TrainingFigures::cost},
    {Metric::train_comm_allreduce_bytes, &layout::TrainingFigures::allreduce_bytes},
    {Metric::train_comm_dp_group_domains, &layout::TrainingFigures::dp_group_domains},
    {Metric::train_comm_seconds, &layout::TrainingFigures::comm_seconds},
    {Metric::train_comm_fraction, &layout::TrainingFigures::comm_fraction},
    {Metric::train_comm_fraction_lower_bound, &layout::TrainingFigures::comm_fraction_lower_bound},
    {Metric::train_micro_batches, &layout::TrainingFigures::micro_batches},
    {Metric::train_pipeline_bubble, &layout::TrainingFigures::bubble},
    {Metric::train_comm_ep_group_domains, &layout::TrainingFigures::ep_group_domains},
    {Metric::train_comm_alltoall_bytes, &layout::TrainingFigures::alltoall_bytes},
    {Metric::train_comm_alltoall_seconds, &layout::TrainingFigures::alltoall_seconds},
    {Metric::train_comm_alltoall_fraction, &layout::TrainingFigures::alltoall_fraction},
    {Metric::train_offload_state_bytes, &layout::TrainingFigures::offload_state_bytes},
    {Metric::train_offload_activation_bytes, &layout::TrainingFigures::offload_activation_bytes},
    {Metric::train_offload_bytes, &layout::TrainingFigures::offload_bytes},
    {Metric::train_offload_seconds, &layout::TrainingFigures::offload_seconds},
    {Metric::train_offload_fraction, &layout::TrainingFigures::offload_fraction},
};

/// The figures compose_memory() and evaluate_offload() set: what offload changes.
constexpr Metric offload_metrics[] = {
    Metric::train_memory_states,       Metric::train_memory_activations,       Metric::train_memory_reserve,
    Metric::train_memory_total,        Metric::train_memory_lower_bound,       Metric::train_offload_state_bytes,
    Metric::train_offload_activation_bytes, Metric::train_offload_bytes,   Metric::train_offload_seconds,
    Metric::train_offload_fraction,
};

}  // namespace

bool kernel_metric(Metric metric) {
  for (const auto& [known, member] : figure_members)
    if (known == metric) return true;
  return false;
}

bool offload_metric(Metric metric) {
  return std::find(std::begin(offload_metrics), std::end(offload_metrics), metric) != std::end(offload_metrics);
}

double figure_of(const layout::TrainingFigures& f, Metric metric) {
  for (const auto& [known, member] : figure_members)
    if (known == metric) return f.*member;
  return layout::absent;
}

bool ranks_before(const Ranked& a, const Ranked& b) {
  const auto key = [](const Ranked& r) {
    const layout::TrainingLayout& l = r.layout;
    return std::make_tuple(r.rank.objective, r.rank.days, r.rank.warnings, r.rank.changed, r.rank.soft_missed,
                           r.rank.offload, r.rank.model_gpus, r.rank.overhead, r.rank.recompute, r.rank.zero,
                           r.rank.memory, l.tp, l.pp, l.virtual_stages, l.cp, l.ep, l.micro_batch, l.zero,
                           static_cast<int>(l.recompute), l.sequence_parallel, static_cast<int>(l.offload), r.gpu,
                           r.batch_scale);
  };
  return key(a) < key(b);
}

int changed_keys(const layout::TrainingLayout& a, const layout::TrainingLayout& b) {
  return (a.tp != b.tp) + (a.pp != b.pp) + (a.virtual_stages != b.virtual_stages) + (a.cp != b.cp) + (a.ep != b.ep) +
         (a.micro_batch != b.micro_batch) + (a.zero != b.zero) + (a.recompute != b.recompute) +
         (a.sequence_parallel != b.sequence_parallel) + (a.offload != b.offload);
}

std::array<bool, layout_key_count> held_keys(const layout::TrainingInputs& inputs, const std::vector<std::string>& kept,
                                             std::vector<std::string>& unknown) {
  std::array<bool, layout_key_count> held{};
  for (const std::string& name : kept) {
    if (const LayoutKey* key = find_layout_key(name)) held[static_cast<std::size_t>(*key)] = true;
    else unknown.push_back(name);
  }
  const auto hold = [&](LayoutKey key) { held[static_cast<std::size_t>(key)] = true; };
  // A stated first_stage_layers is a split of the plan's own pp.
  if (inputs.first_stage_layers > 0) hold(LayoutKey::pp);
  // Measured activations are those of the plan's layout: the keys that change them stay.
  if (!std::isnan(inputs.measured_activations))
    for (LayoutKey key : {LayoutKey::tp, LayoutKey::pp, LayoutKey::virtual_stages, LayoutKey::cp,
                          LayoutKey::micro_batch, LayoutKey::recompute, LayoutKey::sequence_parallel})
      hold(key);
  return held;
}

std::optional<Failure> failure_of(const layout::TrainingInputs& in, const SearchSpec& spec,
                                  const layout::TrainingFigures& f) {
  std::optional<Failure> worst;
  // memory-fit: est.train.memory.lower_bound <= cluster.hbm.
  if (!(f.lower_bound <= in.hbm)) worst = Failure{Failure::Kind::memory, 0, f.lower_bound / in.hbm};
  const auto over = [&](Failure::Kind kind, double ratio) {
    if (!worst || ratio > worst->ratio) worst = Failure{kind, 0, ratio};
  };
  // offload-host-memory: node_bytes <= cluster.host_memory, where the plan states the latter.
  if (exceeds(f.offload_node_bytes, in.host_memory))
    over(Failure::Kind::host_memory, f.offload_node_bytes / in.host_memory);
  // pipeline-bubble and interconnect-bottleneck, as their checks hold them, when a fix of
  // theirs is searched.
  if (spec.clear_bubble && f.micro_batches >= 1 && exceeds(f.bubble, spec.max_bubble))
    over(Failure::Kind::bubble, f.bubble / spec.max_bubble);
  if (spec.clear_comm && exceeds(f.comm_fraction_lower_bound, spec.max_comm_fraction))
    over(Failure::Kind::comm, f.comm_fraction_lower_bound / spec.max_comm_fraction);
  for (std::size_t i = 0; i < spec.hard_targets.size(); ++i) {
    const TargetBound& target = spec.hard_targets[i];
    const double value = figure_of(f, target.metric);
    if (!violated(target, value)) continue;
    const double ratio = target.is_max ? value / target.bound : target.bound / value;
    if (!worst || ratio > worst->ratio) worst = Failure{Failure::Kind::hard_target, i, ratio};
  }
  return worst;
}

Rank rank_of(const layout::TrainingInputs& in, const SearchSpec& spec, const layout::TrainingLayout& l,
             const layout::TrainingFigures& f) {
  // A figure the plan cannot give (days without an MFU) ranks no layout before another: NaN
  // would make every layout unordered against every other.
  const auto known = [](double x) { return std::isnan(x) ? 0.0 : x; };
  Rank rank;
  rank.objective =
      known(spec.objective == Objective::cost ? f.cost : spec.objective == Objective::days ? f.days : in.count);
  rank.days = known(f.days);
  rank.warnings = (f.micro_batches >= 1 && exceeds(f.bubble, spec.max_bubble)) +
                  exceeds(f.comm_fraction_lower_bound, spec.max_comm_fraction) +
                  exceeds(f.offload_fraction, spec.max_offload_fraction) + exceeds(l.tp, in.scale_up_domain);
  if (spec.nearest_to) rank.changed = changed_keys(l, *spec.nearest_to);
  for (const TargetBound& target : spec.soft_targets) rank.soft_missed += violated(target, figure_of(f, target.metric));
  rank.model_gpus = double(l.tp) * l.pp * l.cp;
  rank.overhead = known(f.bubble) + known(f.comm_fraction) + known(f.alltoall_fraction) + known(f.offload_fraction);
  rank.recompute = static_cast<int>(l.recompute);
  rank.zero = l.zero;
  rank.offload = static_cast<int>(l.offload);
  rank.memory = f.lower_bound;
  return rank;
}

std::vector<layout::Offload> offload_values(const layout::TrainingInputs& in, layout::Offload plan_offload,
                                            bool held) {
  if (held) return {plan_offload};
  std::vector<layout::Offload> values;
  for (const layout::Offload mode : {layout::Offload::none, layout::Offload::optimizer, layout::Offload::activations,
                                     layout::Offload::optimizer_activations}) {
    // Without a known host link the transfers have no time, and offload-bandwidth no figure to
    // check: only what the plan writes is searched.
    if (std::isnan(in.host_bandwidth) && mode != layout::Offload::none && mode != plan_offload) continue;
    // Measured activations are the plan's: they do not say what offloading them would leave.
    if (!std::isnan(in.measured_activations) &&
        layout::offloads_activations(mode) != layout::offloads_activations(plan_offload))
      continue;
    values.push_back(mode);
  }
  return values;
}

SearchResult search_training(const layout::TrainingInputs& in, const layout::TrainingLayout& plan_layout,
                             const SearchSpec& spec) {
  SearchResult result;
  const auto is_held = [&](LayoutKey key) { return spec.held[static_cast<std::size_t>(key)]; };
  const auto values = [&](LayoutKey key, int plan_value, auto all) {
    return is_held(key) ? std::vector<int>{plan_value} : all();
  };
  const double count = in.count;
  // Tensor parallelism gives each GPU whole heads, and whole KV heads or copies of them
  // (tp-heads-indivisible); context parallelism whole slices of the sequence.
  const std::vector<int> tps = values(LayoutKey::tp, plan_layout.tp, [&] {
    return divisors(count, [&](int tp) {
      const double kv = std::isnan(in.kv_heads) ? in.heads : in.kv_heads;
      return divides(tp, in.heads) && (divides(tp, kv) || divides(kv, tp));
    });
  });
  // A stage holds one layer at the least; stages of unequal layers are Megatron-LM's
  // first- and last-stage layer counts (DeepSeek-V3's 61 layers over pp = 16).
  // DualPipe pairs stage i with stage pp − 1 − i: pp is 1 or even.
  const bool even_pp = in.schedule == layout::PipelineSchedule::dualpipe;
  const std::vector<int> pps = values(LayoutKey::pp, plan_layout.pp, [&] {
    return divisors(count, [&](int pp) { return pp <= in.layers && (!even_pp || pp == 1 || pp % 2 == 0); });
  });
  const std::vector<int> cps =
      values(LayoutKey::cp, plan_layout.cp, [&] { return divisors(count, [&](int cp) { return divides(cp, in.seq_len); }); });
  const std::vector<int> zeros = values(LayoutKey::zero, plan_layout.zero, [] { return std::vector<int>{0, 1, 2, 3}; });
  std::vector<layout::Recompute> recomputes = {layout::Recompute::none, layout::Recompute::selective,
                                               layout::Recompute::full};
  if (is_held(LayoutKey::recompute)) recomputes = {plan_layout.recompute};
  const std::vector<layout::Offload> offloads = offload_values(in, plan_layout.offload, is_held(LayoutKey::offload));
  // When a layout without offload passes but ranks after the last of a full top list, its twins
  // that offload (the same other keys) are counted without being evaluated, where that is proven:
  //  - they pass: offload changes only the memory figures and the offload ones
  //    (evaluate_offload_twin). Their states are no more (hbm_state_bytes drops bytes per
  //    parameter, and every states formula is a sum of them with positive weights), nor their
  //    activations where the first stage holds at least offloaded_held_layers (checked below),
  //    so they fit the HBM too; no host memory is stated, so offload-host-memory holds; and no
  //    hard target reads a figure offload changes, so each target holds as it does without.
  //  - they rank after it: the objective and days are the same; warnings are the same plus
  //    offload-bandwidth, which only adds; without a nearest_to that offloads, changed keys are
  //    one more or the same; no soft target reads a figure offload changes; and then the offload
  //    rank (0 for none) puts them after. A layout after the top list's last stays out of it.
  const auto offload_free = [](const std::vector<TargetBound>& targets) {
    return std::none_of(targets.begin(), targets.end(), [](const TargetBound& t) { return offload_metric(t.metric); });
  };
  const bool twins_countable = offloads.size() > 1 && offloads.front() == layout::Offload::none &&
                               std::isnan(in.host_memory) && offload_free(spec.hard_targets) &&
                               offload_free(spec.soft_targets) &&
                               (!spec.nearest_to || spec.nearest_to->offload == layout::Offload::none);
  const std::uint64_t twins = offloads.size() - 1;
  const bool first_offloads_optimizer = layout::offloads_optimizer(offloads.front());
  Ranked candidate;
  layout::MemoryTerms terms;
  for (const int tp : tps)
    for (const int pp : pps)
      for (const int cp : cps) {
        const double model_gpus = double(tp) * pp * cp;
        if (!divides(model_gpus, count)) continue;
        const int dp = static_cast<int>(count / model_gpus);
        const std::vector<int> eps = values(LayoutKey::ep, plan_layout.ep, [&] {
          if (!in.moe) return std::vector<int>{1};
          // Each ep rank holds E / ep experts, and the ranks that hold the same ones are dp · cp / ep.
          return divisors(in.experts, [&](int ep) { return divides(ep, double(dp) * cp); });
        });
        const std::vector<int> vs = values(LayoutKey::virtual_stages, plan_layout.virtual_stages, [&] {
          // A model chunk holds one layer at the least: pp · v ≤ L (chunks of unequal layers, as
          // stages are; the published GB200 run interleaves 126 layers over pp = 8, v = 8).
          std::vector<int> chunks = {1};
          // The zero-bubble schedules and DualPipe place their own chunks: only 1F1B interleaves.
          if (in.schedule != layout::PipelineSchedule::one_f_one_b) return chunks;
          for (int v = 2; pp > 1 && double(pp) * v <= in.layers; ++v) chunks.push_back(v);
          return chunks;
        });
        const std::vector<int> bs =
            values(LayoutKey::micro_batch, plan_layout.micro_batch, [&] { return micro_batch_values(in, dp); });
        std::vector<bool> sps = {false};
        if (is_held(LayoutKey::sequence_parallel)) sps = {plan_layout.sequence_parallel};
        else if (tp > 1) sps = {false, true};

        bool family_passes = false;
        std::optional<FamilyMiss> nearest;
        for (const int ep : eps)
          for (const int v : vs) {
            // Whether offloading the activations leaves no more of them in HBM (see twins_countable).
            const bool activations_shrink =
                !std::isnan(in.measured_activations) ||
                layout::first_stage_held_layers(in.layers, in.first_stage_layers, pp,
                                                in.schedule == layout::PipelineSchedule::one_f_one_b ? v : 1) *
                        layout::schedule_activation_factor(pp, in.schedule) >=
                    layout::offloaded_held_layers;
            for (const int b : bs) {
              // The interleaved schedule runs the micro-batches in groups of pp (Narayanan et al.
              // 2021 §2.2.2; Megatron-LM asserts it).
              const double m = in.sequences_per_step / (double(dp) * b);
              if (v > 1 && !is_held(LayoutKey::virtual_stages) && !divides(pp, m)) continue;
              for (const int zero : zeros)
                for (const layout::Recompute recompute : recomputes)
                  for (const bool sp : sps)
                    for (std::size_t o = 0; o < offloads.size(); ++o) {
                      candidate.layout = {tp, pp, v, dp, cp, ep, b, zero, recompute, sp, offloads[o]};
                      // The first mode evaluated whole; the others from it, with what offload
                      // changes composed again from the memory's terms (evaluate_offload_twin).
                      if (o == 0) {
                        layout::evaluate(in, candidate.layout, terms, candidate.figures);
                      } else {
                        if (o == 1 && !first_offloads_optimizer) {
                          // The states with the optimizer offloaded, the twins' own terms.
                          const layout::MemoryTerms offloaded =
                              layout::memory_terms(in, candidate.layout, false, true, false);
                          terms.weights_only_states = offloaded.weights_only_states;
                          terms.host_states = offloaded.host_states;
                        }
                        layout::evaluate_offload_twin(in, candidate.layout, terms, candidate.figures);
                      }
                      if (++result.layouts > spec.max_layouts) {
                        result.too_large = true;
                        return result;
                      }
                      if (const std::optional<Failure> failure = failure_of(in, spec, candidate.figures)) {
                        if (!family_passes && (!nearest || failure->ratio < nearest->failure.ratio)) {
                          candidate.rank = rank_of(in, spec, candidate.layout, candidate.figures);
                          nearest = FamilyMiss{candidate, *failure};
                        }
                        continue;
                      }
                      ++result.passing;
                      family_passes = true;
                      candidate.rank = rank_of(in, spec, candidate.layout, candidate.figures);
                      if (result.best.size() >= spec.top &&
                          (spec.top == 0 || !ranks_before(candidate, result.best.back()))) {
                        if (o == 0 && twins_countable && activations_shrink) {
                          // Its offloading twins pass and rank after it (twins_countable).
                          result.layouts += twins;
                          result.passing += twins;
                          if (result.layouts > spec.max_layouts) {
                            result.too_large = true;
                            return result;
                          }
                          break;
                        }
                        continue;
                      }
                      result.best.insert(
                          std::upper_bound(result.best.begin(), result.best.end(), candidate, ranks_before), candidate);
                      if (result.best.size() > spec.top) result.best.pop_back();
                    }
            }
          }
        if (!family_passes && nearest) result.misses.push_back(*nearest);
      }
  std::stable_sort(result.misses.begin(), result.misses.end(), [](const FamilyMiss& a, const FamilyMiss& b) {
    return a.failure.ratio < b.failure.ratio;
  });
  if (result.misses.size() > spec.families) result.misses.resize(spec.families);
  return result;
}

}  // namespace planlint::solve
