// --write-baseline: a run's findings recorded as accepted.
#include <fmt/format.h>

#include "planlint/baseline/baseline.hpp"

namespace planlint {

Baseline record_baseline(const std::string& path, std::span<std::vector<Diagnostic>* const> files) {
  std::vector<Diagnostic> all;
  for (const std::vector<Diagnostic>* file : files) all.insert(all.end(), file->begin(), file->end());
  return Baseline{path, baseline_entries(all, baseline_file_key(path))};
}

std::string accept_recorded(const Baseline& recorded, std::span<std::vector<Diagnostic>* const> files) {
  std::size_t findings = 0;
  for (const BaselineEntry& entry : recorded.entries) findings += entry.count;
  BaselineMatcher matcher(recorded, baseline_file_key(recorded.path));
  for (std::vector<Diagnostic>* file : files) matcher.apply(*file);
  return fmt::format("planlint: wrote {} finding{} to the baseline {}", findings, findings == 1 ? "" : "s",
                     recorded.path);
}

}  // namespace planlint
