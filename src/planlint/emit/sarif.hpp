#pragma once
/// SARIF 2.1.0 output (cli.md "SARIF output") for code scanning and SARIF viewers: one run with
/// tool.driver.rules[] from the rule descriptors, one result per diagnostic (suppressed ones
/// carry `suppressions`), repository-relative URIs under %SRCROOT%.
///
///     emit_sarif(out, report, run.rules, SarifOptions{"/repo/", "/repo/plans/"});
#include <ostream>
#include <string>
#include <vector>

#include "planlint/diag/report.hpp"
#include "planlint/diag/rule_descriptor.hpp"

namespace planlint {

struct SarifOptions {
  /// Absolute folder that %SRCROOT% stands for (the repository root); URIs of files inside it
  /// are relative to it. Files outside it get absolute file:// URIs.
  std::string source_root;
  /// Absolute folder that relative display paths in the report are relative to (the cwd).
  std::string working_directory;
  /// Most results in the log; 0: no limit. GitHub code scanning rejects a run of more than
  /// 25,000 results (and shows the 5,000 most severe), so a larger report keeps its most
  /// severe findings (those not suppressed first) and says in the run's
  /// toolExecutionNotifications how many it left out.
  std::size_t max_results = github_max_results;
  static constexpr std::size_t github_max_results = 25000;
};

/// Writes the SARIF log. `rules` are the rules that ran (every diagnostic's rule among them).
/// Returns how many findings were left out (SarifOptions::max_results).
std::size_t emit_sarif(std::ostream& out, const Report& report, const std::vector<RuleDescriptor>& rules,
                       const SarifOptions& options);

/// "memory-fit" → "MemoryFit": SARIF's reportingDescriptor.name convention.
std::string sarif_rule_name(std::string_view id);

}  // namespace planlint
