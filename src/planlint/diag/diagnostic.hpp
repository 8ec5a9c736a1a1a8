#pragma once
/// The diagnostics model: what every check produces and every emitter consumes.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "planlint/source/span.hpp"

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

/// A text edit that fixes the finding: replace `span` of `file` with `replacement`.
struct FixEdit {
  Location location;
  std::string replacement;
};

struct Diagnostic {
  std::string rule;  ///< rule id, e.g. "memory-fit"
  Severity severity = Severity::error;
  std::string message;
  Location primary;
  std::string key_path;  ///< the TOML key path of the primary location, e.g. "cluster.hbm"
  std::vector<RelatedLocation> related;
  std::vector<std::string> notes;
  std::optional<std::string> help;
  std::vector<FixEdit> fixes;
};

/// Orders by file, line, column, then rule id (the output order of every emitter).
bool diagnostic_less(const Diagnostic& a, const Diagnostic& b);

}  // namespace planlint
