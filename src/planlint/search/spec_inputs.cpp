#include "planlint/search/spec_inputs.hpp"

#include "planlint/estimate/targets.hpp"
#include "planlint/rules/compiled_rule.hpp"
#include "planlint/rules/rule_set.hpp"

namespace planlint::solve {

double rule_option(const LintOptions& options, std::string_view rule_id, const std::string& name, double fallback) {
  if (auto it = options.rule_options.find(name); it != options.rule_options.end()) return it->second.value;
  const RuleSet& rules = options.rules ? *options.rules : RuleSet::builtin();
  for (const auto& rule : rules.rules())
    if (rule->descriptor.id == rule_id)
      if (auto it = rule->options.find(name); it != rule->options.end())
        if (const units::Quantity* quantity = it->second.quantity()) return quantity->value;
  return fallback;
}

void target_bounds(const Plan& plan, const Estimates& estimates, bool (*searched)(Metric),
                   std::vector<TargetBound>& hard, std::vector<TargetBound>& soft) {
  for (const TargetResult& target : target_results(plan, estimates)) {
    if (!target.spec || !target.bound || !searched(target.spec->id)) continue;
    (target.hard ? hard : soft).push_back(TargetBound{target.name, target.spec->id, target.is_max, *target.bound});
  }
}

SearchSpec training_spec(const Plan& plan, const Estimates& estimates, const LintOptions& options) {
  SearchSpec spec;
  target_bounds(plan, estimates, kernel_metric, spec.hard_targets, spec.soft_targets);
  spec.max_bubble = rule_option(options, "pipeline-bubble", "max_bubble", spec.max_bubble);
  spec.max_comm_fraction = rule_option(options, "interconnect-bottleneck", "max_comm_fraction", spec.max_comm_fraction);
  spec.max_offload_fraction =
      rule_option(options, "offload-bandwidth", "max_offload_fraction", spec.max_offload_fraction);
  return spec;
}

}  // namespace planlint::solve
