#include "planlint/search/layout_fixes.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <optional>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "planlint/diag/native_rules.hpp"
#include "planlint/estimate/engine.hpp"
#include "planlint/estimate/layout_kernel.hpp"
#include "planlint/estimate/targets.hpp"
#include "planlint/search/layout_edits.hpp"
#include "planlint/search/search.hpp"
#include "planlint/search/spec_inputs.hpp"

namespace planlint::solve {

namespace {

/// What clears a rule's finding, and the keys the rule is about: those its fix may change.
enum class Clears : std::uint8_t { memory, bubble, comm, target };

struct LayoutFix {
  std::string_view rule;
  Clears clears;
  /// The layout keys the search frees; the others stay as the plan writes them.
  std::array<bool, layout_key_count> free;
};

constexpr std::array<bool, layout_key_count> keys(std::initializer_list<LayoutKey> named) {
  std::array<bool, layout_key_count> set{};
  for (const LayoutKey key : named) set[static_cast<std::size_t>(key)] = true;
  return set;
}

constexpr std::array<bool, layout_key_count> every_key = keys(
    {LayoutKey::tp, LayoutKey::pp, LayoutKey::virtual_stages, LayoutKey::cp, LayoutKey::ep, LayoutKey::micro_batch,
     LayoutKey::zero, LayoutKey::recompute, LayoutKey::sequence_parallel, LayoutKey::offload});

/// Memory follows every key (offload too: host memory in place of HBM); the bubble follows the stages, their chunks and the micro-batches
/// ((p − 1) / (v · m), m = B / (dp · b)); the all-reduce the gradient bytes a GPU holds, which
/// tp · pp (and ep, for the experts) divide, and the data-parallel ranks dp · cp sum over.
constexpr std::array<LayoutFix, 4> layout_fixes = {{
    {"memory-fit", Clears::memory, every_key},
    {"pipeline-bubble", Clears::bubble, keys({LayoutKey::pp, LayoutKey::virtual_stages, LayoutKey::micro_batch})},
    {"interconnect-bottleneck", Clears::comm, keys({LayoutKey::tp, LayoutKey::pp, LayoutKey::cp, LayoutKey::ep})},
    {"hard-target-violated", Clears::target, every_key},
}};

const LayoutFix* layout_fix_of(std::string_view rule) {
  for (const LayoutFix& fix : layout_fixes)
    if (fix.rule == rule) return &fix;
  return nullptr;
}

bool met(const TargetBound& target, double value) {
  return std::isnan(value) || (target.is_max ? value <= target.bound : value >= target.bound);
}

std::string shown(Metric metric, double value) { return detail::show_metric_value(metric_spec(metric), value); }

/// The index of the [[targets]] element a finding's key path names while elements are still
/// named by place ("targets[2].max"); nullopt for another key.
std::optional<std::size_t> target_index(std::string_view key_path) {
  constexpr std::string_view prefix = "targets[";
  if (!key_path.starts_with(prefix)) return std::nullopt;
  key_path.remove_prefix(prefix.size());
  std::size_t index = 0;
  const auto [end, error] = std::from_chars(key_path.data(), key_path.data() + key_path.size(), index);
  if (error != std::errc() || end == key_path.data() || end == key_path.data() + key_path.size() || *end != ']')
    return std::nullopt;
  return index;
}

/// "71.2 GB per GPU of 80 GB": the figure of `layout` that shows the finding cleared.
std::string cleared_figure(Clears clears, const layout::TrainingInputs& in, const layout::TrainingFigures& f,
                           const TargetBound* target) {
  switch (clears) {
    case Clears::memory:
      return fmt::format("{} per GPU of {}", shown(Metric::train_memory_lower_bound, f.lower_bound),
                         shown(Metric::train_memory_lower_bound, in.hbm));
    case Clears::bubble:
      return fmt::format("a bubble of {}", shown(Metric::train_pipeline_bubble, f.bubble));
    case Clears::comm:
      return fmt::format("the all-reduce {} of the step",
                         shown(Metric::train_comm_fraction_lower_bound, f.comm_fraction_lower_bound));
    case Clears::target:
      return fmt::format("{} {}", metric_spec(target->metric).name,
                         shown(target->metric, figure_of(f, target->metric)));
  }
  return {};
}

std::string_view cleared_words(Clears clears) {
  switch (clears) {
    case Clears::memory: return "fits";
    case Clears::bubble: return "keeps the bubble under the limit";
    case Clears::comm: return "keeps the all-reduce under the limit";
    case Clears::target: return "meets it";
  }
  return "clears it";
}

}  // namespace

void add_layout_fixes(std::vector<Diagnostic>& findings, const SourceFile& source, const Plan& plan,
                      const Estimates& estimates, const LintOptions& options) {
  if (!plan.is_training() || !plan.stages.empty()) return;
  if (std::none_of(findings.begin(), findings.end(), [](const Diagnostic& d) {
        return native_rules::is_layout_fixed(d.rule) && !d.suppression;
      }))
    return;
  const layout::TrainingInputs in = layout::read_training_inputs(plan, *options.catalog, estimates);
  // Memory needs neither the step's time nor its batch: without them the days do not rank the
  // layouts, and the micro-batch stays as written.
  const bool timed = std::isfinite(in.mfu) && std::isfinite(in.peak);
  const bool batched = std::isfinite(in.sequences_per_step);
  for (const std::string& key : in.missing)
    if (key != "training.mfu" && key != "cluster.peak" && key != "training.global_batch") return;
  if (!(in.count >= 1) || std::floor(in.count) != in.count || in.count > 1e7) return;
  const layout::TrainingLayout current = layout::plan_layout(plan);
  const layout::TrainingFigures now = layout::evaluate(in, current);

  SearchSpec base = training_spec(plan, estimates, options);
  base.objective = !timed ? Objective::gpus : std::isnan(in.price) ? Objective::days : Objective::cost;
  base.top = 1;
  base.families = 0;
  base.max_layouts = max_fix_layouts;
  base.nearest_to = &current;
  // A fix must not break a hard target the plan meets; one it already misses is its own
  // finding, whose fix searches for it.
  const std::vector<TargetBound> all_hard = std::move(base.hard_targets);
  for (const TargetBound& target : all_hard)
    if (met(target, figure_of(now, target.metric))) base.hard_targets.push_back(target);
  std::vector<TargetResult> targets;

  for (Diagnostic& d : findings) {
    const LayoutFix* fix = d.suppression ? nullptr : layout_fix_of(d.rule);
    if (!fix) continue;
    SearchSpec spec = base;
    spec.clear_bubble = fix->clears == Clears::bubble;
    spec.clear_comm = fix->clears == Clears::comm;
    const TargetBound* target = nullptr;
    if (fix->clears == Clears::target) {
      // The finding's target, when the layout changes its metric.
      if (targets.empty()) targets = target_results(plan, estimates);
      const std::optional<std::size_t> index = target_index(d.key_path);
      if (!index || *index >= targets.size()) continue;
      const TargetResult& named = targets[*index];
      if (!named.spec || !named.bound || !named.hard || !kernel_metric(named.spec->id)) continue;
      spec.hard_targets.push_back(TargetBound{named.name, named.spec->id, named.is_max, *named.bound});
      target = &spec.hard_targets.back();
    }
    std::vector<std::string> held, unknown;
    for (std::size_t k = 0; k < layout_key_count; ++k)
      if (!fix->free[k] || (!batched && (static_cast<LayoutKey>(k) == LayoutKey::micro_batch ||
                                         static_cast<LayoutKey>(k) == LayoutKey::virtual_stages)))
        held.emplace_back(short_name(static_cast<LayoutKey>(k)));
    spec.held = held_keys(in, held, unknown);
    // The plan's own layout clears it once its inputs are corrected: the finding follows from
    // an input another finding's fix corrects, and says so.
    if (!failure_of(in, spec, now)) continue;
    const SearchResult result = search_training(in, current, spec);
    if (result.too_large) continue;
    std::vector<std::string> free_names;
    for (std::size_t k = 0; k < layout_key_count; ++k) {
      const auto key = static_cast<LayoutKey>(k);
      // Offload without a known host link takes no mode but the plan's (offload_values).
      if (key == LayoutKey::offload && offload_values(in, current.offload, spec.held[k]).size() < 2) continue;
      if (!spec.held[k]) free_names.emplace_back(short_name(key));
    }
    std::string advice;
    if (result.best.empty()) {
      advice = fmt::format("no layout of the {:g} GPU{} {} with {} free (planlint solve --vary gpu,count searches "
                           "other GPUs and counts)",
                           in.count, in.count == 1 ? "" : "s", cleared_words(fix->clears), fmt::join(free_names, ", "));
    } else {
      const Ranked& best = result.best.front();
      std::vector<std::string> changes;
      std::vector<fix::TextEdit> edits = layout_edits(source, plan, current, best.layout, changes);
      if (edits.empty()) continue;
      // The plan's claims of what the layout changes come along, as solve --apply brings them.
      std::vector<std::string> claims_changed;
      for (fix::TextEdit& edit :
           claim_edits(source, plan, [&](Metric metric) { return figure_of(now, metric); },
                       [&](Metric metric) { return figure_of(best.figures, metric); }, claims_changed, kernel_metric))
        edits.push_back(std::move(edit));
      sort_edits(edits);
      const std::string figure = cleared_figure(fix->clears, in, best.figures, target);
      advice = fmt::format("the nearest layout that {}: {}, {}", cleared_words(fix->clears), fmt::join(changes, ", "),
                           figure);
      d.fixes.clear();
      for (const fix::TextEdit& edit : edits)
        d.fixes.push_back(FixEdit{Location{source.path(), Span{source.position(edit.begin), source.position(edit.end)}},
                                  edit.replacement});
      d.fix_safety = FixSafety::unsafe;
      d.fix_title = fmt::format("Set {} ({})", fmt::join(changes, ", "), figure);
    }
    d.help = d.help ? fmt::format("{}; or {}", *d.help, advice) : advice;
  }
}

}  // namespace planlint::solve
