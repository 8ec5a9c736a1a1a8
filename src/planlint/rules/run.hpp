#pragma once
/// Runs the expression rules of a RuleSet on one plan and its estimates.
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <vector>

#include "planlint/diag/diagnostic.hpp"
#include "planlint/rules/compiled_rule.hpp"
#include "planlint/rules/plan_environment.hpp"
#include "planlint/rules/rule_set.hpp"

namespace planlint {

struct RuleRun {
  RuleInputs inputs;
  /// Rule options from config ([lint.options]); they override the rules' own defaults.
  const std::map<std::string, units::Quantity>& option_overrides;
  /// Whether a rule runs at all (selection); native rules are never run here.
  std::function<bool(const RuleDescriptor&)> selected;
  /// Runs whose `selected` answer alike may share a key (their options' selection): run_rules
  /// over several runs then asks once per rule for a row of them. nullptr: asked for each run.
  const void* selection_key = nullptr;
};

/// The findings of every selected rule, at the rules' default severities.
std::vector<Diagnostic> run_rules(const RuleSet& rules, const RuleRun& run);

/// run_rules on several plans, a rule at a time: each rule runs on every plan before the next
/// begins, so that its expression trees stay in the data cache across the plans, where a plan
/// at a time reads all the rules' trees again for each (docs/development.md, "Layout"). The findings of `runs[i]` are appended to `out[i]` in run_rules' order.
void run_rules(const RuleSet& rules, std::span<const RuleRun* const> runs, std::span<std::vector<Diagnostic>> out);

/// The message of a compiled template, with placeholders evaluated ("?" when absent).
std::string render(const MessageTemplate& message, const expr::Environment& environment);
/// The text of a fix: nullopt when a placeholder is absent, since "?" in an edit would corrupt
/// the file it is applied to.
std::optional<std::string> render_fix(const MessageTemplate& fix, const expr::Environment& environment);

}  // namespace planlint
