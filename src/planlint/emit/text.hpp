#pragma once
/// Compiler-style text output (cli.md "Text output"), readable by humans and by editors'
/// problem matchers (VS Code $gcc):
///
///     plans/llama.toml:21:8: error: peak 1979 TFLOPS is ... [sparse-peak]
///        21 | peak = "1979 TFLOPS"
///           |        ^^^^^^^^^^^^^
///        note: training.precision = "bf16" (plans/llama.toml:12:13)
///        help: use the dense peak: peak = "989 TFLOPS"
#include <map>
#include <ostream>

#include "planlint/emit/lint_report.hpp"
#include "planlint/emit/emitter.hpp"

namespace planlint {

struct TextStyle {
  bool color = false;       ///< ANSI colours (--color; the CLI's auto: on a terminal, without NO_COLOR)
  bool concise = false;     ///< one `file:line:col: severity: message [rule]` line per finding
  bool quiet = false;       ///< the findings only, without the summary line (-q)
  bool statistics = false;  ///< a count per rule instead of the findings (--statistics)
};

/// Writes every diagnostic of `report` and the summary line.
void emit_text(std::ostream& out, const Report& report, const TextStyle& style);

/// The same output written file by file as a run delivers them (run_lint with a sink): each
/// file's findings as soon as they come, then the summary line at finish().
class TextEmitter final : public Emitter {
 public:
  TextEmitter(std::ostream& out, const TextStyle& style) : out_(out), style_(style) {}
  void file(const std::shared_ptr<const SourceFile>& source, std::vector<Diagnostic>& diagnostics) override;
  /// The blank line after the findings (when any was shown) and the summary line.
  void finish(const std::vector<RuleDescriptor>& rules) override;

 private:
  std::ostream& out_;
  TextStyle style_;
  std::string text_;  // one finding's lines, built in place and written at once
  SeverityCounts counts_;
  /// --statistics: the findings of each rule, by id, and their highest level.
  std::map<std::string, std::pair<std::size_t, Severity>, std::less<>> per_rule_;
  std::size_t files_ = 0;
};

/// A finding's line as `--format concise` writes it, without colour or line break:
/// "plans/a.toml:3:7: error: message [rule]", its column counted in `source`'s characters when
/// the finding is in it (else null). Shown whether suppressed or not.
std::string concise_line(const Diagnostic& d, const SourceFile* source);

/// "3 errors, 1 warning in 2 files" / "no problems in 1 file" / "1 error in 1 file (2 suppressed)".
/// Suppressed findings are neither shown nor counted.
std::string summary_line(const Report& report);
std::string summary_line(const SeverityCounts& counts, std::size_t files);

}  // namespace planlint
