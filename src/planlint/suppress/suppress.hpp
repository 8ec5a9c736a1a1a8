#pragma once
/// Inline suppressions in a plan's TOML comments (docs/cli.md, "Suppressions"):
///
///     gpu = "h100-sxm"  # planlint: allow memory-fit -- activations offloaded, measured 71 GB
///     # planlint: allow-next-line peak-mismatch -- vendor quote for our SKU
///     # planlint: allow-file chinchilla-ratio -- deliberate over-training
///
/// find_suppressions() reads them; apply_suppressions() marks the findings they cover and makes
/// the native findings `suppression-without-reason` and `unused-suppression`.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "planlint/diag/diagnostic.hpp"
#include "planlint/source/source_file.hpp"

namespace planlint {

struct InlineSuppression {
  enum class Scope { line, next_line, file };
  Scope scope = Scope::line;
  std::string directive;  ///< as written: "allow", "allow-next-line", "allow-file" (or a typo)
  bool known_directive = true;
  struct Name {
    std::string id;  ///< a rule id or a group
    Span span;
  };
  std::vector<Name> names;
  std::string reason;     ///< the text after `--`, trimmed; empty when absent
  /// A reason written after a colon or a dash instead of `--` (`allow memory-fit: measured`,
  /// `allow memory-fit — measured`). The names end at the mark, and the last one holds it as
  /// written ("memory-fit:", "memory-fit —"), so it names no rule and suppresses nothing.
  struct MisplacedReason {
    std::string mark;  ///< ":", "—" (em dash) or "–" (en dash)
    std::string text;  ///< what follows the mark, up to a `--` if there is one, trimmed
  };
  std::optional<MisplacedReason> misplaced_reason;
  Location location;      ///< the comment, from `#` to the end of the line
  /// The line whose findings it covers: its own line (allow), the next line that is not blank
  /// or a comment (allow-next-line; 0 when there is none), 0 for allow-file.
  std::uint32_t target_line = 0;
  /// text_digest of the key text of that line (what comes before its `=`); empty for
  /// allow-file. With the directive and the names it keys the suppression's own findings, so
  /// that a baseline tells them apart without their line number.
  std::string target_digest;
};

/// The `# planlint: ...` comments of `toml_text`, `file`'s lines from `first_line` on (the
/// file's text, or a Markdown block's: block_text); locations name `file`. Only real comments
/// count: a `#` inside a string is text.
std::vector<InlineSuppression> find_suppressions(const SourceFile& file, std::string_view toml_text,
                                                 std::uint32_t first_line = 1);

/// What apply_suppressions needs to know of the rules, as plain data.
struct SuppressionRules {
  std::map<std::string, std::string, std::less<>> group_of;  ///< every known rule id → its group
  /// Whether a rule (or group) runs on this file: a suppression naming a rule that does not run
  /// is not reported as unused.
  std::function<bool(std::string_view rule, std::string_view group)> enabled;
};

/// Marks every finding in `diagnostics` that a suppression covers (Suppression kind
/// inline_comment, the reason as justification); findings stay in place. Returns the
/// suppressions' own findings for `file`, `suppression-without-reason` and
/// `unused-suppression`, at their default level (warning): the run selects them as it selects
/// the plan's (select_findings).
[[nodiscard]] std::vector<Diagnostic> apply_suppressions(std::vector<Diagnostic>& diagnostics,
                                                         const std::vector<InlineSuppression>& suppressions,
                                                         const SuppressionRules& rules, const std::string& file);

}  // namespace planlint
