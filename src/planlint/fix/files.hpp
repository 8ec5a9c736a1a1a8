#pragma once
/// Fixing the files of a report on disk (`planlint check --fix`, `--diff`): which files change
/// and how, and writing each atomically, never through a symbolic link.
#include <string>
#include <vector>

#include "planlint/diag/report.hpp"
#include "planlint/diag/result.hpp"
#include "planlint/fix/edits.hpp"

namespace planlint::fix {

/// A linted file that its findings' fixes change.
struct FixedFile {
  std::string path;    ///< as linted
  std::string before;  ///< the text linted (without a byte order mark)
  std::vector<TextEdit> edits;
  std::size_t fixed = 0;  ///< findings fixed
};

/// The files of `report` that fixes change, in the report's order (collect_fixes per file).
std::vector<FixedFile> plan_fixes(const Report& report, const SafetyOf& safety, bool include_unsafe);

/// Writes the fixed text over the file: a temporary file in its folder renamed over it, with
/// its permissions, keeping a byte order mark it had. Not written, with the reason: a file that
/// is a symbolic link (the file it names may be another's), not a regular file, or that no
/// longer holds the text linted (changed meanwhile).
Result<void> write_fixed(const FixedFile& file);

}  // namespace planlint::fix
