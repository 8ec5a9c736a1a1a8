#include "planlint/lint/lint.hpp"

#include <algorithm>

#include "planlint/plan/loader.hpp"

namespace planlint {

FileResult lint_source(std::shared_ptr<const SourceFile> source, const LintOptions& options) {
  LoadResult loaded = load_plan(source, *options.catalog);
  FileResult result{std::move(source), std::move(loaded.plan), std::move(loaded.diagnostics)};
  std::stable_sort(result.diagnostics.begin(), result.diagnostics.end(), diagnostic_less);
  return result;
}

}  // namespace planlint
