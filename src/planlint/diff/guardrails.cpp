/// The `[guardrails]` of the head plan's config held against what a change did to it: each
/// breach is a guardrail-exceeded finding on the line of the changed key its figure rests on
/// (docs/review.md, "Guardrails"), suppressed by the plan's inline comments as any finding is.
#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "planlint/diag/native_rules.hpp"
#include "planlint/diff/side_plan.hpp"
#include "planlint/estimate/engine.hpp"
#include "planlint/lint/lint.hpp"
#include "planlint/suppress/suppress.hpp"

namespace planlint::detail {

namespace {

struct Breach {
  std::string message;
  std::string limit;            ///< "guardrails.cost_increase = 20%"
  std::string_view figure;      ///< the figure it is about: where to look for the key
  std::optional<Location> at = {};  ///< set when the breach has its own place (a new error)
  std::string key = {};             ///< with `at`
};

std::string shown(const FigureChange& figure, double value) {
  if (figure.spec) return show_metric_value(*figure.spec, value);
  return units::format(value, figure.dim);
}

std::string percent(double fraction) { return show_percent(fraction); }

/// The plan keys `metric` rests on, through the metrics it reads.
void keys_under(const Estimates& estimates, const MetricValue& metric, std::set<std::string>& keys, int depth = 0) {
  if (depth > 64) return;
  for (const MetricInput& input : metric.inputs) {
    if (!input.is_metric) keys.insert(input.name);
    else if (const MetricValue* used = estimates.find(input.name)) keys_under(estimates, *used, keys, depth + 1);
  }
}

/// Where a breach of `figure` is reported: the changed key of the head plan that the figure
/// rests on and that comes first in the file; else the first changed key; else the plan's
/// [plan] header (an added plan).
std::pair<Span, std::string> place_of(const PlanDiff& diff, const SidePlan& head, std::string_view figure,
                                      const std::optional<Estimates>& provenance) {
  std::set<std::string> keys;
  if (figure == "cluster.count") keys.insert("cluster.count");
  else if (provenance)
    if (const MetricValue* metric = provenance->find(figure)) keys_under(*provenance, *metric, keys);
  const InputChange* first = nullptr;
  const InputChange* related = nullptr;
  for (const InputChange& input : diff.inputs) {
    if (!input.head_span.known()) continue;
    if (!first) first = &input;
    if (!related && keys.count(input.key)) related = &input;
  }
  // An assumption's new range moves the figures its key feeds.
  for (const AssumptionChange& assumption : diff.assumptions)
    if (assumption.head_span.known() && keys.count(assumption.key) &&
        (!related || assumption.head_line < related->head_line))
      return {assumption.head_span, "assumptions[id=" + assumption.id + "]"};
  if (related) return {related->head_span, related->key};
  if (first) return {first->head_span, first->key};
  const PlanTable& plan_table = head.plan->section("plan");
  if (plan_table.header.known()) return {plan_table.header, "plan"};
  return {Span{Position{head.first_line, 1}, Position{head.first_line, 1}}, "plan"};
}

std::vector<Breach> breaches_of(const PlanDiff& diff, const Guardrails& limits) {
  std::vector<Breach> out;
  if (const FigureChange* cost = diff.figure("cost.total"); cost && cost->head) {
    const double before = cost->base.value_or(0), rise = *cost->head - before;
    if (limits.cost_increase && cost->base && before > 0 && rise / before > *limits.cost_increase)
      out.push_back({fmt::format("the change raises the plan's cost by {} ({} → {}), over the guardrail of {}",
                                 percent(rise / before), shown(*cost, before), shown(*cost, *cost->head),
                                 percent(*limits.cost_increase)),
                     fmt::format("guardrails.cost_increase = \"{}\"", percent(*limits.cost_increase)), "cost.total"});
    if (limits.cost_increase_amount && rise > *limits.cost_increase_amount)
      out.push_back({fmt::format("the change raises the plan's cost by {} ({} → {}), over the guardrail of {}",
                                 shown(*cost, rise), cost->base ? shown(*cost, before) : "no plan",
                                 shown(*cost, *cost->head), shown(*cost, *limits.cost_increase_amount)),
                     fmt::format("guardrails.cost_increase_amount = \"{}\"", shown(*cost, *limits.cost_increase_amount)),
                     "cost.total"});
  }
  if (const FigureChange* gpus = diff.figure("cluster.count"); gpus && gpus->head && limits.gpus_increase) {
    const double rise = *gpus->head - gpus->base.value_or(0);
    if (rise > *limits.gpus_increase)
      out.push_back({fmt::format("the change adds {} GPUs ({} → {}), over the guardrail of {}", show_count(rise),
                                 gpus->base ? show_count(*gpus->base) : "no plan", show_count(*gpus->head),
                                 show_count(*limits.gpus_increase)),
                     fmt::format("guardrails.gpus_increase = {}", show_count(*limits.gpus_increase)), "cluster.count"});
  }
  for (const char* name : {"train.wall_days", "train.days"}) {
    const FigureChange* days = diff.figure(name);
    if (!days || !days->head || !limits.days_increase) continue;
    const double rise = *days->head - days->base.value_or(0);
    if (rise > *limits.days_increase)
      out.push_back({fmt::format("the change adds {} of training ({} → {}), over the guardrail of {}",
                                 shown(*days, rise), days->base ? shown(*days, *days->base) : "no plan",
                                 shown(*days, *days->head), shown(*days, *limits.days_increase)),
                     fmt::format("guardrails.days_increase = \"{}\"", shown(*days, *limits.days_increase)), name});
    break;
  }
  for (const char* name : {"train.memory.total", "infer.memory.total"}) {
    const FigureChange* memory = diff.figure(name);
    if (!memory || !memory->head || !memory->head_hbm || !limits.memory_headroom || !memory->changed()) continue;
    const double free = (*memory->head_hbm - *memory->head) / *memory->head_hbm;
    // The change's doing: a plan already under the limit breaches it only by losing more.
    std::optional<double> free_before;
    if (memory->base && memory->base_hbm) free_before = (*memory->base_hbm - *memory->base) / *memory->base_hbm;
    if (free < *limits.memory_headroom && (!free_before || free < *free_before))
      out.push_back({fmt::format("memory per GPU is {} of the GPU's {} HBM, leaving {} free, under the guardrail of {}",
                                 shown(*memory, *memory->head), units::format(*memory->head_hbm, units::dims::bytes),
                                 percent(std::max(0.0, free)), percent(*limits.memory_headroom)),
                     fmt::format("guardrails.memory_headroom = \"{}\"", percent(*limits.memory_headroom)), name});
  }
  if (limits.new_errors) {
    std::vector<const DiffFinding*> errors;
    for (const DiffFinding& finding : diff.introduced)
      if (finding.diagnostic.severity == Severity::error) errors.push_back(&finding);
    if (!errors.empty()) {
      std::vector<std::string> rules;
      for (const DiffFinding* finding : errors)
        if (std::find(rules.begin(), rules.end(), finding->diagnostic.rule) == rules.end())
          rules.push_back(finding->diagnostic.rule);
      Breach breach{fmt::format("the change introduces {} ({}), and the guardrails allow none",
                                errors.size() == 1 ? std::string("an error") : fmt::format("{} errors", errors.size()),
                                fmt::join(rules, ", ")),
                    "guardrails.new_errors = true", {}};
      breach.at = errors.front()->diagnostic.primary;
      breach.key = errors.front()->diagnostic.key_path;
      out.push_back(std::move(breach));
    }
  }
  return out;
}

}  // namespace

std::vector<Diagnostic> guardrail_findings(const PlanDiff& diff, const SidePlan& head) {
  const Settings& settings = *head.settings;
  if (!settings.config || !head.plan) return {};
  const std::vector<Breach> breaches = breaches_of(diff, settings.config->guardrails);
  if (breaches.empty()) return {};
  // Which keys a figure rests on is the provenance `check` does not record: computed for the
  // plans that break a guardrail only.
  std::optional<Estimates> provenance;
  if (std::any_of(breaches.begin(), breaches.end(), [](const Breach& b) { return !b.at; }))
    provenance = estimate(*head.plan, *settings.lint.catalog, EstimateScope{true, false});
  const RuleDescriptor* rule = settings.rules().find(native_rules::guardrail_exceeded);
  std::vector<Diagnostic> found;
  for (const Breach& breach : breaches) {
    Diagnostic d;
    d.rule = std::string(native_rules::guardrail_exceeded);
    d.severity = rule ? rule->severity : Severity::error;
    d.message = breach.message;
    if (breach.at) {
      d.primary = *breach.at;
      d.key_path = breach.key;
    } else {
      auto [span, key] = place_of(diff, head, breach.figure, provenance);
      d.primary = Location{head.source->path(), span};
      d.key_path = std::move(key);
    }
    d.notes.push_back(fmt::format("{} ({})", breach.limit, settings.config->path));
    d.help = "approve the change on this line, with its reason: `# planlint: allow guardrail-exceeded -- <reason>`";
    found.push_back(std::move(d));
  }
  // The plan's own suppressions, as its other findings had them; their findings about
  // themselves (unused, without a reason) are the lint's to report.
  SuppressionRules rules;
  rules.group_of = settings.suppression_rules.group_of;
  rules.enabled = [](std::string_view, std::string_view) { return false; };
  (void)apply_suppressions(found, find_suppressions(*head.source, head.toml_text(), head.first_line), rules,
                           head.source->path());
  select_findings(found, settings.lint);
  std::stable_sort(found.begin(), found.end(), diagnostic_less);
  return found;
}

}  // namespace planlint::detail
