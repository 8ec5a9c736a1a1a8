#pragma once
/// Machine-readable output (cli.md "JSON"), described by schemas/diagnostics.schema.json:
///
///     {"version": 1, "files": ["plans/a.toml"], "diagnostics": [{"rule": "unknown-key",
///      "level": "error", "message": "...", "file": "plans/a.toml", "line": 11, ...}],
///      "summary": {"errors": 1, "warnings": 0, "notes": 0, "suppressed": 0, "files": 1}}
#include <ostream>

#include "planlint/diag/report.hpp"

namespace planlint {

/// Writes the report as one JSON object; suppressed findings are listed with
/// `"suppressed": true` and their `suppression`, and are left out of the summary counts.
void emit_json(std::ostream& out, const Report& report);

}  // namespace planlint
