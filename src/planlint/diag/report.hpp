#pragma once
/// What emitters receive: the linted files (for snippets) and their diagnostics, as plain data.
#include <memory>
#include <vector>

#include "planlint/diag/diagnostic.hpp"
#include "planlint/source/source_file.hpp"

namespace planlint {

struct Report {
  std::vector<std::shared_ptr<const SourceFile>> files;  ///< every linted file, in order
  std::vector<Diagnostic> diagnostics;                   ///< sorted with diagnostic_less

  /// The file a diagnostic points into, or nullptr.
  const SourceFile* file(const std::string& path) const;
};

/// Counts by severity of the findings that are not suppressed.
struct SeverityCounts {
  std::size_t errors = 0, warnings = 0, notes = 0;
};
SeverityCounts count(const std::vector<Diagnostic>& diagnostics);

}  // namespace planlint
