#pragma once
/// SARIF 2.1.0 output (cli.md "SARIF output") for code scanning and SARIF viewers: one run with
/// tool.driver.rules[] describing the rules of its results, one result per diagnostic
/// (suppressed ones carry `suppressions`), repository-relative URIs under %SRCROOT%.
///
///     emit_sarif(out, report, run.rules, SarifOptions{"/repo/", "/repo/plans/"});
///     SarifEmitter sarif(out, options);  // or file by file, as a run delivers them
#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "planlint/emit/lint_report.hpp"
#include "planlint/diag/rule_descriptor.hpp"
#include "planlint/emit/emitter.hpp"
#include "planlint/emit/spool.hpp"

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
  /// The documentation's base URL for each built-in rule's helpUri; empty: the build's
  /// (docs_links.hpp). A rule of a pack links to its rule file.
  std::string docs_url;
  /// run.automationDetails.id, "category/instance" (SARIF 3.17.4): code scanning tells apart
  /// the analyses of one commit by its category. Empty: "planlint/".
  std::string automation_id;
};

/// The SARIF log written as the run delivers its files: each file's results are made when it
/// comes and put aside (emit/spool.hpp), and the log is written at finish(), when the rules of
/// its results are known, so its memory stays flat with the files of the run.
class SarifEmitter final : public Emitter {
 public:
  SarifEmitter(std::ostream& out, SarifOptions options) : out_(out), options_(std::move(options)) {}

  void file(const std::shared_ptr<const SourceFile>& source, std::vector<Diagnostic>& diagnostics) override {
    add(source.get(), diagnostics);
  }
  /// One file's findings; `source` (may be null) gives their columns and snippets.
  void add(const SourceFile* source, const std::vector<Diagnostic>& diagnostics);
  /// `rules` are the rules that ran (every diagnostic's rule among them): the log describes
  /// those of its results.
  void finish(const std::vector<RuleDescriptor>& rules) override;
  std::vector<std::string> warnings() const override;
  /// How many findings were left out (SarifOptions::max_results), after finish().
  std::size_t left_out() const { return left_out_; }

 private:
  struct Result {
    Spool::Piece text;       ///< the result after its ruleId and ruleIndex
    std::uint32_t rule = 0;  ///< in rule_ids_
    std::uint8_t rank = 0;   ///< suppressed after not, then errors, warnings, notes: kept first
  };
  std::ostream& out_;
  SarifOptions options_;
  Spool spool_;
  std::vector<Result> results_;
  std::vector<std::string> rule_ids_;
  std::map<std::string, std::uint32_t, std::less<>> rule_slot_;
  std::size_t left_out_ = 0;
};

/// Writes the SARIF log of a whole report (SarifEmitter, its files in the report's order).
/// `rules` are the rules that ran (every diagnostic's rule among them).
/// Returns how many findings were left out (SarifOptions::max_results).
std::size_t emit_sarif(std::ostream& out, const Report& report, const std::vector<RuleDescriptor>& rules,
                       const SarifOptions& options);

/// "memory-fit" → "MemoryFit": SARIF's reportingDescriptor.name convention.
std::string sarif_rule_name(std::string_view id);

}  // namespace planlint
