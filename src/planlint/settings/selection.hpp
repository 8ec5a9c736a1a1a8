#pragma once
/// Which rules run, and at which level: `--select`, `--ignore` and `--severity` over a config's
/// `[lint] select`, `ignore` and `[lint.severity]` (docs/cli.md, "Configuration").
///
///     RuleSelection selection;
///     selection.ignore = {"memory"};
///     selection.level("memory-fit", "memory", Severity::error);  // nullopt: it does not run
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "planlint/diag/diagnostic.hpp"

namespace planlint {

struct RuleSelection {
  /// rule ids or groups; empty or "all": every rule. The `structure` group runs whatever it
  /// says (a broken plan must not pass a narrowed run).
  std::vector<std::string> select;
  std::vector<std::string> ignore;  ///< rule ids or groups
  /// rule id or group → "error" | "warning" | "note" | "off"; an id beats its group.
  std::map<std::string, std::string> severity;

  /// The level a finding of `rule` (in `group`) is reported at, or nullopt when the rule is
  /// not selected or its severity is "off". Everything that asks whether a rule runs, and
  /// every finding's level, goes through here.
  std::optional<Severity> level(std::string_view rule, std::string_view group, Severity default_level) const;
};

}  // namespace planlint
