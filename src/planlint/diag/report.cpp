#include "planlint/diag/report.hpp"

namespace planlint {

const SourceFile* Report::file(const std::string& path) const {
  for (const auto& file : files)
    if (file->path() == path) return file.get();
  return nullptr;
}

SeverityCounts count(const std::vector<Diagnostic>& diagnostics) {
  SeverityCounts counts;
  for (const Diagnostic& d : diagnostics) {
    if (d.suppression) continue;  // shown by SARIF, never counted
    switch (d.severity) {
      case Severity::error: ++counts.errors; break;
      case Severity::warning: ++counts.warnings; break;
      case Severity::note: ++counts.notes; break;
    }
  }
  return counts;
}

}  // namespace planlint
