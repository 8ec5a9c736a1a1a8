#pragma once
/// Machine-readable output (cli.md "JSON output"), described by schemas/diagnostics.schema.json:
///
///     {"version": 1, "files": ["plans/a.toml"], "diagnostics": [{"rule": "memory-fit",
///      "level": "error", "message": "...", "file": "plans/a.toml",
///      "repository_file": "plans/a.toml", "line": 11, ..., "fingerprint": "..."}],
///      "summary": {"errors": 1, "warnings": 0, "notes": 0, "suppressed": 0, "files": 1}}
#include <ostream>
#include <string>

#include "planlint/diag/report.hpp"

namespace planlint {

/// Where the run was, for each finding's `repository_file` and `fingerprint` (the same
/// fingerprint as SARIF's, emit/fingerprint.hpp). Empty: files as the report names them.
struct JsonOptions {
  std::string repository_root;    ///< absolute; files inside it are named relative to it
  std::string working_directory;  ///< absolute; what the report's relative paths start from
};

/// Writes the report as one JSON object; suppressed findings are listed with
/// `"suppressed": true` and their `suppression`, and are left out of the summary counts.
void emit_json(std::ostream& out, const Report& report, const JsonOptions& options = {});

}  // namespace planlint
