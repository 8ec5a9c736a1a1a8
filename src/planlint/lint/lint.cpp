#include "planlint/lint/lint.hpp"

#include <algorithm>
#include <deque>

#include <fmt/format.h>

#include "planlint/estimate/run_totals.hpp"

#include "planlint/lint/corrected_findings.hpp"
#include "planlint/plan/element_keys.hpp"
#include "planlint/plan/loader.hpp"
#include "planlint/plan/stage_findings.hpp"
#include "planlint/rules/run.hpp"
#include "planlint/search/layout_fixes.hpp"
#include "planlint/suppress/suppress.hpp"

namespace planlint {

namespace {

/// Whether a check's estimates hold the cost-tier ranges (EstimateScope::ranges): for every
/// plan only when asked for in full or when a loaded rule names est.METRIC.low or .high.
bool estimates_with_ranges(const LintOptions& options, const RuleSet& rules) {
  return options.full_estimates || rules.reads_metric_ranges();
}

/// The run of the rules on one plan and its estimates, as `options` selects them.
RuleRun rule_run(const Plan& plan, const Estimates& estimates, const LintOptions& options, const PlanRanges& ranges,
                 const PlanProvenance& provenance) {
  return RuleRun{RuleInputs{plan, estimates, *options.catalog, options.today.value_or(real_today()),
                            options.tolerances, &ranges, &provenance},
                 options.rule_options,
                 [&options](const RuleDescriptor& rule) {
                   return options.selection.level(rule.id, rule.group, rule.severity).has_value();
                 },
                 &options.selection};
}

/// One run of the rules: on a plan, or on one stage of a plan of [[stages]] (whose own plan
/// holds the whole run's claims and targets, against run.*), with the ranges and provenance its
/// rules read. It holds references to its members: kept where it was made (a deque).
struct RulePass {
  PlanRanges ranges;
  PlanProvenance provenance;
  RuleRun run;
  RulePass(const Plan& plan, const Estimates& estimates, const LintOptions& options, bool with_ranges)
      // A run's totals hold no ranges and their provenance: nothing to compute again.
      : ranges(plan, *options.catalog, estimates, with_ranges || !plan.stages.empty()),
        provenance(plan, *options.catalog, estimates, with_ranges || !plan.stages.empty() || options.full_estimates),
        run(rule_run(plan, estimates, options, ranges, provenance)) {}
};

/// The plan's findings once the inputs their fixes correct are in place (corrected_findings.hpp).
/// Only a plan with a finding whose fix corrects an input is estimated and checked again: most
/// have none.
void correct_findings(FileResult& result, const PlanText& text) {
  // Claims' fixes (estimate-mismatch) are common and correct no input: nothing more is done.
  if (input_corrections(*result.plan, result.diagnostics).empty()) return;
  const auto one_fix = [](const Diagnostic& d) { return d.fixes.size() == 1; };
  const LintOptions& options = *text.options;
  const RuleSet& rules = options.rules ? *options.rules : RuleSet::builtin();
  // A finding its author suppressed inline corrects nothing: the value stands as written.
  std::vector<Diagnostic> fixing;
  for (const Diagnostic& d : result.diagnostics)
    if (one_fix(d)) fixing.push_back(d);
  if (const std::vector<InlineSuppression> inline_suppressions =
          find_suppressions(*text.source, text.toml_text, text.first_line);
      !inline_suppressions.empty()) {
    SuppressionRules suppression_rules;
    for (const RuleDescriptor& rule : rules.descriptors()) suppression_rules.group_of.emplace(rule.id, rule.group);
    suppression_rules.enabled = [](std::string_view, std::string_view) { return true; };
    (void)apply_suppressions(fixing, inline_suppressions, suppression_rules, text.source->path());
  }
  const bool with_ranges = estimates_with_ranges(options, rules);
  std::optional<CorrectedInputs> corrected = corrected_inputs(
      *result.plan, *options.catalog, fixing, EstimateScope{options.full_estimates, with_ranges});
  if (!corrected) return;
  // The corrected plan checked as the plan was: itself, then each of its stages.
  std::deque<RulePass> passes;
  passes.emplace_back(corrected->plan, corrected->estimates, options, with_ranges);
  for (std::size_t s = 0; s < corrected->stage_estimates.size(); ++s)
    passes.emplace_back(*corrected->plan.stages[s].plan, corrected->stage_estimates[s], options, with_ranges);
  std::vector<const RuleRun*> runs;
  for (const RulePass& pass : passes) runs.push_back(&pass.run);
  std::vector<std::vector<Diagnostic>> by_pass(passes.size());
  run_rules(rules, runs, by_pass);
  std::vector<Diagnostic> found;
  merge_run_findings(corrected->plan, by_pass, found);
  select_findings(found, options);
  rules.apply_supersedes(found);
  merge_corrected_findings(result.diagnostics, std::move(found), *corrected);
  result.corrected = std::move(corrected);
}

}  // namespace

std::vector<FileResult> lint_texts(std::span<const PlanText> plans, std::size_t most_findings) {
  // Each stage runs over every plan before the next begins: a stage's code and tables then
  // stay in the caches and the branch predictor across plans, where a plan-by-plan run evicts
  // each stage with the next (docs/development.md, "Layout"). But a plan is read into its Plan
  // right after its parse, and its TOML document freed: the read then walks a document still in
  // the data caches, and the next parse reuses the blocks the last document freed.
  std::vector<FileResult> results;
  results.reserve(plans.size());
  for (const PlanText& p : plans) {
    DiagnosticSink findings;
    DroppedFindings not_kept{};
    if (most_findings > 0)
      findings.reduce_at(2 * most_findings, [&](std::vector<Diagnostic>& made) {
        select_findings(made, *p.options);
        cap_findings(made, most_findings, &not_kept);
      });
    Result<Plan> plan = load_plan(p.source, *p.options->catalog, findings, p.toml_text, p.first_line);
    results.push_back(FileResult{p.source, plan ? std::optional<Plan>(*std::move(plan)) : std::nullopt, std::nullopt,
                                 findings.take(), {}, not_kept});
  }
  for (std::size_t i = 0; i < plans.size(); ++i) {
    if (!results[i].plan) continue;
    const LintOptions& options = *plans[i].options;
    const RuleSet& rules = options.rules ? *options.rules : RuleSet::builtin();
    const EstimateScope scope{options.full_estimates, estimates_with_ranges(options, rules)};
    RunEstimates estimated = estimate_run(*results[i].plan, *options.catalog, scope);
    results[i].estimates = std::move(estimated.run);
    results[i].stage_estimates = std::move(estimated.stages);
  }
  // The rules run on each plan, and on each stage of a plan of [[stages]]: a pass each.
  struct Evaluation {
    std::size_t result;
    std::size_t stage;  ///< no_stage: the plan itself
  };
  constexpr std::size_t no_stage = static_cast<std::size_t>(-1);
  std::vector<Evaluation> evaluations;
  evaluations.reserve(plans.size());
  std::deque<RulePass> passes;
  for (std::size_t i = 0; i < plans.size(); ++i) {
    const FileResult& result = results[i];
    if (!result.plan) continue;
    const LintOptions& options = *plans[i].options;
    const bool with_ranges = estimates_with_ranges(options, options.rules ? *options.rules : RuleSet::builtin());
    evaluations.push_back({i, no_stage});
    passes.emplace_back(*result.plan, *result.estimates, options, with_ranges);
    for (std::size_t s = 0; s < result.stage_estimates.size(); ++s) {
      evaluations.push_back({i, s});
      passes.emplace_back(*result.plan->stages[s].plan, result.stage_estimates[s], options, with_ranges);
    }
  }
  // The rules run a rule at a time over the plans that share a rule set (run_rules).
  auto rule_set_of = [&](const Evaluation& evaluation) {
    const PlanText& plan = plans[evaluation.result];
    return plan.options->rules ? plan.options->rules : &RuleSet::builtin();
  };
  std::vector<std::vector<Diagnostic>> found(evaluations.size());
  std::vector<bool> done(evaluations.size(), false);
  for (std::size_t first = 0; first < evaluations.size(); ++first) {
    if (done[first]) continue;
    const RuleSet* rules = rule_set_of(evaluations[first]);
    std::vector<const RuleRun*> group;
    std::vector<std::size_t> members;
    for (std::size_t e = first; e < evaluations.size(); ++e) {
      if (done[e] || rule_set_of(evaluations[e]) != rules) continue;
      done[e] = true;
      group.push_back(&passes[e].run);
      members.push_back(e);
    }
    std::vector<std::vector<Diagnostic>> group_found(members.size());
    run_rules(*rules, group, group_found);
    for (std::size_t m = 0; m < members.size(); ++m) found[members[m]] = std::move(group_found[m]);
  }
  for (std::size_t e = 0; e < evaluations.size();) {
    FileResult& result = results[evaluations[e].result];
    std::size_t end = e + 1;
    while (end < evaluations.size() && evaluations[end].result == evaluations[e].result) ++end;
    merge_run_findings(*result.plan, std::span(found).subspan(e, end - e), result.diagnostics);
    e = end;
  }
  for (std::size_t e = 0; e < evaluations.size(); ++e)
    if (evaluations[e].stage == no_stage) results[evaluations[e].result].ranges = passes[e].ranges.take_computed();
  // Selection and severity overrides apply to native findings and rule findings alike.
  for (std::size_t i = 0; i < plans.size(); ++i) {
    FileResult& result = results[i];
    select_findings(result.diagnostics, *plans[i].options);
    // A finding that a selected rule's finding at its place supersedes is left out.
    (plans[i].options->rules ? *plans[i].options->rules : RuleSet::builtin()).apply_supersedes(result.diagnostics);
    if (result.plan) correct_findings(result, plans[i]);
    // The nearest layout that clears a finding, from the inputs as its fixes correct them;
    // before the elements are named, while a target's finding names its place. (A run in
    // stages: each stage's layout is the plan's, which no one stage's search decides.)
    if (result.plan && result.plan->stages.empty()) {
      if (plans[i].options->layout_fixes && result.estimates)
        solve::add_layout_fixes(result.diagnostics, *plans[i].source,
                                result.corrected ? result.corrected->plan : *result.plan,
                                result.corrected ? result.corrected->estimates : *result.estimates, *plans[i].options);
    }
    if (result.plan)
      for (auto& [named, positional] : name_elements_in_key_paths(result.diagnostics, *result.plan))
        result.former_keys.earlier.emplace(std::move(named), std::move(positional));
    std::stable_sort(result.diagnostics.begin(), result.diagnostics.end(), diagnostic_less);
  }
  return results;
}

void select_findings(std::vector<Diagnostic>& diagnostics, const LintOptions& options) {
  const RuleSet& rules = options.rules ? *options.rules : RuleSet::builtin();
  // In place: a plan's loader calls this on its findings again and again while it reads a file
  // of many mistakes (lint_texts), where a new vector each time cost a fresh allocation.
  std::size_t kept = 0;
  for (std::size_t i = 0; i < diagnostics.size(); ++i) {
    Diagnostic& d = diagnostics[i];
    // A native rule's group is the built-in set's whatever set runs (`report` runs none).
    const RuleDescriptor* rule = rules.find(d.rule);
    if (!rule && &rules != &RuleSet::builtin()) rule = RuleSet::builtin().find(d.rule);
    const std::string_view group = rule ? std::string_view(rule->group) : std::string_view();
    if (auto level = options.selection.level(d.rule, group, d.severity)) {
      d.severity = *level;
      if (rule) d.fix_safety = rule->fix;
      if (kept != i) diagnostics[kept] = std::move(d);
      ++kept;
    }
  }
  diagnostics.erase(diagnostics.begin() + static_cast<std::ptrdiff_t>(kept), diagnostics.end());
}

FileResult lint_text(std::shared_ptr<const SourceFile> source, std::string_view toml_text,
                     const LintOptions& options, std::uint32_t first_line) {
  const PlanText plan{std::move(source), toml_text, first_line, &options};
  return std::move(lint_texts(std::span(&plan, 1)).front());
}

FileResult lint_source(std::shared_ptr<const SourceFile> source, const LintOptions& options) {
  std::string_view text = source->text();
  return lint_text(source, text, options);
}

}  // namespace planlint
