/// Two versions of a plan compared: figures, findings and targets (the inputs and assumptions:
/// inputs.cpp). Every number comes from the estimates `check` computed for the plan, its ranges
/// from metric_ranges(), its targets from target_results(): nothing is recomputed here.
#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <tuple>

#include "planlint/diff/inputs.hpp"
#include "planlint/diff/side_plan.hpp"
#include "planlint/emit/fingerprint.hpp"
#include "planlint/estimate/targets.hpp"

namespace planlint::detail {

namespace {

/// A figure shown without --all: the first of `metrics` either side computes, or a plan value.
struct HeadlineFigure {
  std::string_view label;
  std::array<Metric, 2> metrics;
  std::size_t metric_count = 0;
  std::string_view plan_key = {};  ///< instead of a metric: cluster.count
  bool against_hbm = false;        ///< memory per GPU, held against the GPU's HBM
};

// The order a reviewer reads them in: money, then time and hardware, memory, serving.
constexpr HeadlineFigure headline_figures[] = {
    {"cost", {Metric::cost_total}, 1},
    {"GPU-hours", {Metric::cost_gpu_hours_billed, Metric::train_gpu_hours}, 2},
    {"days", {Metric::train_wall_days, Metric::train_days}, 2},
    {"GPUs", {}, 0, "cluster.count"},
    {"memory per GPU", {Metric::train_memory_total, Metric::infer_memory_total}, 2, {}, true},
    {"serving cost per month", {Metric::infer_cost_per_month}, 1},
    {"TTFT", {Metric::infer_ttft}, 1},
    {"ITL", {Metric::infer_itl}, 1},
};

using Ranges = std::map<std::string, MetricRange, std::less<>>;

/// The cost-tier ranges of a side's plan (empty without one).
const Ranges& ranges_of(const SidePlan* side) {
  static const Ranges none;
  return side ? side->ranges() : none;
}

const MetricValue* metric_of(const SidePlan* side, Metric metric) {
  return side && side->estimates ? side->estimates->find(metric) : nullptr;
}

/// A metric's figure, its name and label left for add_names (most figures are not shown).
FigureChange metric_figure(const MetricSpec& spec, const SidePlan* base, const SidePlan* head) {
  FigureChange figure;
  figure.spec = &spec;
  figure.dim = spec.dim;
  if (const MetricValue* found = metric_of(base, spec.id)) figure.base = found->value;
  if (const MetricValue* found = metric_of(head, spec.id)) figure.head = found->value;
  return figure;
}

void add_names(FigureChange& figure, std::string_view name, std::string_view label) {
  figure.name = std::string(name);
  figure.label = std::string(label);
}

/// The range of each side's value from its assumptions (metric_ranges), for a figure shown:
/// without --all, a money figure's only (cost, serving cost per month); the ranges take two more
/// evaluations of each side's plan, which a change that moves no cost then does not pay.
void add_ranges(FigureChange& figure, const SidePlan* base, const SidePlan* head, bool all_metrics) {
  if (!figure.spec || figure.spec->tier != Tier::cost || (!all_metrics && figure.dim != units::dims::usd)) return;
  for (const auto& [side, low, high] : {std::tuple{base, &figure.base_low, &figure.base_high},
                                        std::tuple{head, &figure.head_low, &figure.head_high}}) {
    const Ranges& ranges = ranges_of(side);
    if (auto it = ranges.find(figure.name); it != ranges.end()) {
      *low = it->second.low;
      *high = it->second.high;
    }
  }
}

std::vector<FigureChange> figures(const SidePlan* base, const SidePlan* head, bool all_metrics) {
  std::vector<FigureChange> out;
  std::set<Metric> shown;
  for (const HeadlineFigure& headline : headline_figures) {
    FigureChange figure;
    std::string_view name = headline.plan_key;
    if (!headline.plan_key.empty()) {
      figure.dim = units::dims::gpus;
      if (base && base->figures_plan) figure.base = base->figures_plan->number(headline.plan_key);
      if (head && head->figures_plan) figure.head = head->figures_plan->number(headline.plan_key);
    } else {
      const MetricSpec* chosen = nullptr;
      for (std::size_t i = 0; i < headline.metric_count && !chosen; ++i)
        if (metric_of(base, headline.metrics[i]) || metric_of(head, headline.metrics[i]))
          chosen = &metric_spec(headline.metrics[i]);
      if (!chosen) continue;
      shown.insert(chosen->id);
      figure = metric_figure(*chosen, base, head);
      name = chosen->name;
      if (headline.against_hbm) {
        if (base && base->figures_plan) figure.base_hbm = base->figures_plan->number("cluster.hbm");
        if (head && head->figures_plan) figure.head_hbm = head->figures_plan->number("cluster.hbm");
      }
    }
    figure.headline = true;
    if (!figure.base && !figure.head) continue;
    if (!all_metrics && !figure.changed()) continue;
    add_names(figure, name, headline.label);
    add_ranges(figure, base, head, all_metrics);
    out.push_back(std::move(figure));
  }
  if (!all_metrics) return out;
  for (const MetricSpec& spec : metric_table()) {
    if (spec.section == ReportSection::json_only || shown.count(spec.id)) continue;
    if (!metric_of(base, spec.id) && !metric_of(head, spec.id)) continue;
    out.push_back(metric_figure(spec, base, head));
    add_names(out.back(), spec.name, spec.name);
    add_ranges(out.back(), base, head, all_metrics);
  }
  return out;
}

/// The fingerprint of each finding of a side (empty for one suppressed there: not compared).
std::vector<std::string> fingerprints(const SidePlan* side, const std::string& identity) {
  std::vector<std::string> out;
  if (!side) return out;
  out.reserve(side->findings.size());
  std::map<std::pair<std::string_view, std::string_view>, std::size_t> ordinals;
  for (const Diagnostic& d : side->findings) {
    const std::size_t ordinal = ordinals[{d.rule, d.key_path}]++;
    out.push_back(d.suppression ? std::string() : finding_fingerprint(identity, d.rule, d.key_path, ordinal));
  }
  return out;
}

/// The findings move from the sides into `diff`.
void compare_findings(SidePlan* base, SidePlan* head, PlanDiff& diff) {
  const std::string& identity = head ? head->path : base->path;
  std::vector<std::string> before = fingerprints(base, identity), after = fingerprints(head, identity);
  // Views of the strings of `before` and `after`, which stay in place: `after` is copied from.
  const std::set<std::string_view> in_base(before.begin(), before.end()), in_head(after.begin(), after.end());
  for (std::size_t i = 0; i < after.size(); ++i)
    if (!after[i].empty())
      (in_base.count(after[i]) ? diff.unchanged : diff.introduced)
          .push_back(DiffFinding{std::move(head->findings[i]), after[i]});
  for (std::size_t i = 0; i < before.size(); ++i)
    if (!before[i].empty() && !in_head.count(before[i]))
      diff.resolved.push_back(DiffFinding{std::move(base->findings[i]), std::move(before[i])});
}

/// A target's identity across the sides: its name, else its metric.
std::string target_key(const TargetResult& target) { return target.name.empty() ? target.metric : target.name; }

void compare_targets(const SidePlan* base, const SidePlan* head, PlanDiff& diff) {
  if (!base || !head || !base->plan || !head->plan) return;
  const std::vector<TargetResult> before = target_results(*base->figures_plan, *base->estimates);
  const std::vector<TargetResult> after = target_results(*head->figures_plan, *head->estimates);
  for (const TargetResult& target : after) {
    const auto was = std::find_if(before.begin(), before.end(),
                                  [&](const TargetResult& t) { return target_key(t) == target_key(target); });
    if (was == before.end() || was->met == target.met || (!was->met && !target.met)) continue;
    diff.targets.push_back(TargetFlip{target.name, target.metric, target.spec, target.hard, target.is_max,
                                      target.bound, was->met, target.met, was->value, target.value});
  }
}

std::string kind_name(const Plan& plan) {
  switch (plan.kind) {
    case PlanKind::training: return "training";
    case PlanKind::finetune: return "finetune";
    case PlanKind::inference: return "inference";
  }
  return "training";
}

}  // namespace

std::string_view SidePlan::toml_text() const {
  const std::string& text = source->text();
  if (first_line <= 1 && last_line >= source->line_count()) return text;
  const std::size_t begin = source->offset(Position{first_line, 1});
  const std::size_t end = last_line >= source->line_count() ? text.size() : source->offset(Position{last_line + 1, 1});
  return std::string_view(text).substr(begin, end - begin);
}

const std::map<std::string, MetricRange, std::less<>>& SidePlan::ranges() const {
  if (!cost_ranges) {
    cost_ranges.emplace();
    if (figures_plan && estimates) *cost_ranges = metric_ranges(*figures_plan, *settings->lint.catalog, *estimates);
  }
  return *cost_ranges;
}

PlanDiff compare_plans(SidePlan* base, SidePlan* head, PlanStatus status, bool all_metrics) {
  PlanDiff diff;
  diff.status = status;
  const SidePlan* named = head ? head : base;
  diff.name = !named->name.empty() ? named->name : (base && !base->name.empty() ? base->name : named->path);
  diff.kind = named->plan ? kind_name(*named->plan) : (base && base->plan ? kind_name(*base->plan) : "unknown");
  if (base) {
    diff.base_file = base->path;
    diff.base_line = base->first_line;
    if (base->plan) diff.base_gpu = base->plan->text("cluster.gpu").value_or("");
  }
  if (head) {
    diff.head_file = head->path;
    diff.head_line = head->first_line;
    if (head->plan) diff.head_gpu = head->plan->text("cluster.gpu").value_or("");
  }
  diff.figures = figures(base, head, all_metrics);
  if (base) diff.base_corrections = base->corrections;
  if (head) diff.head_corrections = head->corrections;
  if (base && head && base->plan && head->plan) {
    diff.inputs = changed_inputs(*base->plan, *head->plan);
    diff.assumptions = changed_assumptions(*base->plan, *head->plan);
  }
  compare_findings(base, head, diff);
  compare_targets(base, head, diff);
  return diff;
}

bool nothing_differs(const PlanDiff& diff) {
  return std::none_of(diff.figures.begin(), diff.figures.end(), [](const FigureChange& f) { return f.changed(); }) &&
         diff.inputs.empty() && diff.assumptions.empty() && diff.introduced.empty() && diff.resolved.empty() &&
         diff.targets.empty();
}

PortfolioPlan total_row(const SidePlan& plan) {
  std::size_t errors = 0, warnings = 0;
  for (const Diagnostic& d : plan.findings) {
    if (d.suppression) continue;
    if (d.severity == Severity::error) ++errors;
    else if (d.severity == Severity::warning) ++warnings;
  }
  static const Estimates none;
  return portfolio_plan(plan.figures_plan, plan.estimates ? *plan.estimates : none, plan.path, "", errors, warnings);
}

}  // namespace planlint::detail
