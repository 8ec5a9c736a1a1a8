#pragma once
/// A report delivered file by file: what `run_lint(options, sink)` hands to a streaming emitter
/// (text, GitHub) instead of holding every file's text and findings until the end. A folder of
/// 10,000 plans then takes a few MiB rather than a hundred (docs/performance.md).
#include <memory>
#include <vector>

#include "planlint/diag/diagnostic.hpp"
#include "planlint/emit/lint_report.hpp"
#include "planlint/diag/rule_descriptor.hpp"
#include "planlint/source/source_file.hpp"

namespace planlint {

class ReportSink {
 public:
  virtual ~ReportSink() = default;

  /// One linted file and its findings, sorted with diagnostic_less, with the selection, the
  /// suppressions and the baseline applied. Files come in the report's order (by path), each
  /// as soon as it and every file before it are linted, one call at a time. The sink may take
  /// the findings (they are not used after the call).
  virtual void file(const std::shared_ptr<const SourceFile>& source, std::vector<Diagnostic>& diagnostics) = 0;

  /// After the last file of a run that linted every file (not after one that ends with exit
  /// status 2): what closes the report, such as the text output's summary line, or a whole
  /// document (SARIF, JSON). `rules` are the rules that ran, sorted by id, at their effective
  /// level, when the run lists them (RunOptions::list_rules); empty otherwise.
  virtual void finish(const std::vector<RuleDescriptor>& rules) { (void)rules; }
};

/// Builds the whole Report from what a run delivers: for run_lint without a sink, and for a
/// format that writes one document (SARIF, JSON).
class ReportCollector final : public ReportSink {
 public:
  void file(const std::shared_ptr<const SourceFile>& source, std::vector<Diagnostic>& diagnostics) override;
  /// Sorts the findings with diagnostic_less and keeps `rules`.
  void finish(const std::vector<RuleDescriptor>& rules) override;

  Report& report() { return report_; }
  const std::vector<RuleDescriptor>& rules() const { return rules_; }

 private:
  Report report_;
  std::vector<RuleDescriptor> rules_;
};

}  // namespace planlint
