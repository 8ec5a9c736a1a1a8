#pragma once
/// What a search's SearchSpec reads from the plan and the run's options, for `planlint solve`
/// and for the layouts that fix a finding (advice.hpp) alike.
#include <string>
#include <string_view>
#include <vector>

#include "planlint/estimate/estimates.hpp"
#include "planlint/plan/plan.hpp"
#include "planlint/settings/lint_options.hpp"
#include "planlint/search/search.hpp"

namespace planlint::solve {

/// A rule option as the run sets it: [lint.options], else the rule's default.
double rule_option(const LintOptions& options, std::string_view rule_id, const std::string& name, double fallback);

/// The plan's [[targets]] on a metric the search evaluates (`searched`), with a bound, split into
/// the hard ones (which exclude a layout) and the soft ones (which rank it).
void target_bounds(const Plan& plan, const Estimates& estimates, bool (*searched)(Metric),
                   std::vector<TargetBound>& hard, std::vector<TargetBound>& soft);

/// The spec of a training search as the run judges a plan: its targets (target_bounds on the
/// kernel's metrics) and the warning rules' limits (pipeline-bubble's max_bubble,
/// interconnect-bottleneck's max_comm_fraction) from `options`.
SearchSpec training_spec(const Plan& plan, const Estimates& estimates, const LintOptions& options);

}  // namespace planlint::solve
