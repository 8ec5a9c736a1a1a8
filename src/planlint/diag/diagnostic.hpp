#pragma once
/// The diagnostics model: what every check produces and every emitter consumes.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "planlint/diag/span.hpp"

namespace planlint {

enum class Severity { note, warning, error };

std::string_view to_string(Severity severity);
std::optional<Severity> parse_severity(std::string_view text);

/// A place in a file.
struct Location {
  std::string file;  ///< display path of the file
  Span span;
};

/// A secondary location with its own message ("training.precision = \"bf16\" here").
struct RelatedLocation {
  Location location;
  std::string message;
};

/// Whether `planlint check --fix` applies a rule's fix: `safe` ones always, `unsafe` ones (the
/// edit may change what the plan means) only with --unsafe-fixes.
enum class FixSafety { none, safe, unsafe };

std::string_view to_string(FixSafety safety);

/// A text edit that fixes the finding: replace `span` of `file` with `replacement`.
struct FixEdit {
  Location location;
  std::string replacement;
};

/// Why a finding is not counted: an inline `# planlint: allow ...` comment or a baseline entry.
struct Suppression {
  enum class Kind { inline_comment, baseline };
  Kind kind = Kind::inline_comment;
  std::string justification;  ///< the reason after `--`, or the baseline's note
  Location location;          ///< where the suppression is (the comment, or the baseline file)
};

struct Diagnostic {
  std::string rule;  ///< rule id, e.g. "memory-fit"
  Severity severity = Severity::error;
  std::string message;
  Location primary;
  /// The TOML key path of the primary location, e.g. "cluster.hbm"; an element of an array of
  /// tables is named by its id, name or metric and date: "assumptions[id=mfu].updated"
  /// (plan/element_keys.hpp).
  std::string key_path;
  std::vector<RelatedLocation> related;
  std::vector<std::string> notes;
  std::optional<std::string> help;
  std::vector<FixEdit> fixes;
  /// What `fixes` write, in words, when it is more than one value (a layout: "tp = 8 (was 4),
  /// zero = 3 (was 1)"): the editor's title for the fix and SARIF's description of it. Empty:
  /// the help says it.
  std::string fix_title;
  /// Whether `fixes` are safe or unsafe: the rule's `fix_safety`, set when the run selects the
  /// finding (lint.hpp select_findings), for the outputs that show it (JSON).
  FixSafety fix_safety = FixSafety::none;
  /// Set when the finding is suppressed; emitters show it (SARIF `suppressions`) but it does
  /// not count towards the exit status or the summary.
  std::optional<Suppression> suppression;
};

/// 8 hex digits of a hash of `text` (FNV-1a, 32 bits: stable across platforms and releases),
/// e.g. a baseline entry's message digest.
std::string text_digest(std::string_view text);

/// Orders by file, line, column, then rule id (the output order of every emitter).
bool diagnostic_less(const Diagnostic& a, const Diagnostic& b);

/// A problem that stops a run (a config, rule pack or catalog that does not load: exit status
/// 2) as one line for stderr: "file:line:col: error: message (help)", or "planlint: error:
/// file: message" without a position.
std::string error_line(const Diagnostic& d);

}  // namespace planlint
