#pragma once
/// The pipeline for one file: source text → plan → (estimates → rules) → diagnostics.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "planlint/catalog/catalog.hpp"
#include "planlint/diag/diagnostic.hpp"
#include "planlint/plan/plan.hpp"

namespace planlint {

struct LintOptions {
  const Catalog* catalog = &Catalog::builtin();
};

struct FileResult {
  std::shared_ptr<const SourceFile> source;
  std::optional<Plan> plan;  ///< absent when the file is not valid TOML
  std::vector<Diagnostic> diagnostics;  ///< sorted
};

/// Lints one loaded file.
FileResult lint_source(std::shared_ptr<const SourceFile> source, const LintOptions& options);

}  // namespace planlint
