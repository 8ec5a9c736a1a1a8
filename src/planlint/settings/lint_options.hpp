#pragma once
/// What one lint of a file is run with: the catalog, the rules and their selection, the rule
/// options and tolerances of the config, and the date staleness rules compare with.
#include <map>
#include <optional>
#include <string>

#include "planlint/catalog/catalog.hpp"
#include "planlint/plan/date.hpp"
#include "planlint/rules/rule_set.hpp"
#include "planlint/settings/selection.hpp"
#include "planlint/units/quantity.hpp"

namespace planlint {

struct LintOptions {
  const Catalog* catalog = &Catalog::builtin();
  const RuleSet* rules = nullptr;  ///< nullptr: the built-in rules
  RuleSelection selection;
  /// Rule options ([lint.options]): name → value, overriding the rules' own defaults.
  std::map<std::string, units::Quantity> rule_options;
  /// Tolerance tiers from config ([tolerances] capacity / cost / formula_vs_benchmark); the
  /// plan's own [tolerances] win over these.
  std::map<std::string, double> tolerances;
  /// The date staleness rules compare with (--today, PLANLINT_TODAY); nullopt: the real today.
  std::optional<Date> today;
  /// Whether FileResult::estimates must hold everything estimate() can record, the metrics'
  /// provenance and ranges (`planlint report` shows them). A check turns it off: its findings
  /// read values and arithmetic only, and the ranges when a rule reads one (EstimateScope).
  bool full_estimates = true;
  /// Whether the findings native_rules::layout_fixed lists get the nearest layout that clears
  /// them (search/layout_fixes.hpp). `planlint solve` turns it off for the layouts it confirms.
  bool layout_fixes = true;
};

}  // namespace planlint
