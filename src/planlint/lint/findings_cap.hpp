#pragma once
/// The findings of one file capped to a number, in the manner of clang's `-ferror-limit`:
/// `planlint check --max-findings-per-file N` and the language server keep a file's N most
/// severe findings, so that a file of a million misspelt keys costs a bounded report, a bounded
/// editor message and a bounded memory after its lint.
///
///     const std::size_t dropped = cap_findings(output.diagnostics, 1000);
///     if (dropped) notes.push_back(findings_cap_note(dropped, 1000));
#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "planlint/diag/diagnostic.hpp"

namespace planlint {

/// --max-findings-per-file's default.
inline constexpr std::size_t default_max_findings_per_file = 1000;

/// How many findings the lint of a file keeps while it reads the file, per finding it may show:
/// the others, past that, are counted and not kept (lint_texts), so that a file of a million
/// misspelt keys holds ten thousand findings at most, not 1.1 KB for each. The margin leaves
/// room for the findings that inline suppressions and the baseline accept.
inline constexpr std::size_t findings_kept_per_shown = 10;

/// The findings a cap dropped, by Severity (note, warning, error).
using DroppedFindings = std::array<std::size_t, 3>;

/// Keeps at most `max` of `findings` (0: all), the most severe: the findings that are not
/// suppressed before the suppressed ones, errors before warnings before notes, and among equals
/// the first in the report's order. The kept ones stay in their order, and the vector keeps its
/// capacity. Returns how many were dropped, and adds them to `dropped` when given.
std::size_t cap_findings(std::vector<Diagnostic>& findings, std::size_t max, DroppedFindings* dropped = nullptr);

/// How many findings `dropped` counts.
std::size_t total(const DroppedFindings& dropped);

/// What a file whose findings were capped says of the others: "357 more findings are not shown:
/// only the 1000 most severe are (--max-findings-per-file 1000; 0 shows all)".
std::string findings_cap_note(std::size_t dropped, std::size_t max);

}  // namespace planlint
