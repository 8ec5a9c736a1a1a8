#include "planlint/emit/lint_report.hpp"

#include <algorithm>
#include <iterator>

#include "planlint/emit/report_sink.hpp"

namespace planlint {

const SourceFile* ReportFileIndex::find(const std::vector<std::shared_ptr<const SourceFile>>& files,
                                        std::string_view path) const {
  std::lock_guard lock(mutex_);
  auto restart = [&] {
    position_.clear();
    indexed_.clear();
  };
  // Files are only appended in practice (run_lint); a list that shrank or whose last indexed
  // file changed starts the index over, and a hit is checked against the file it names.
  if (indexed_.size() > files.size() || (!indexed_.empty() && indexed_.back() != files[indexed_.size() - 1]))
    restart();
  for (std::size_t i = indexed_.size(); i < files.size(); ++i) {
    position_.emplace(files[i]->path(), i);  // keeps the first file of a path, as a scan would
    indexed_.push_back(files[i]);
  }
  auto it = position_.find(path);
  if (it == position_.end()) return nullptr;  // e.g. a baseline's or a config's location
  if (indexed_[it->second] == files[it->second]) return files[it->second].get();
  // That file was replaced in place since it was indexed: index the list again.
  restart();
  for (std::size_t i = 0; i < files.size(); ++i) {
    position_.emplace(files[i]->path(), i);
    indexed_.push_back(files[i]);
  }
  it = position_.find(path);
  return it == position_.end() ? nullptr : files[it->second].get();
}

SeverityCounts count(const std::vector<Diagnostic>& diagnostics) {
  SeverityCounts counts;
  for (const Diagnostic& d : diagnostics) {
    if (d.suppression) {  // shown by SARIF, never counted with the others
      ++counts.suppressed;
      continue;
    }
    switch (d.severity) {
      case Severity::error: ++counts.errors; break;
      case Severity::warning: ++counts.warnings; break;
      case Severity::note: ++counts.notes; break;
    }
  }
  return counts;
}

void ReportCollector::file(const std::shared_ptr<const SourceFile>& source, std::vector<Diagnostic>& diagnostics) {
  report_.files.push_back(source);
  std::move(diagnostics.begin(), diagnostics.end(), std::back_inserter(report_.diagnostics));
}

void ReportCollector::finish(const std::vector<RuleDescriptor>& rules) {
  // Each file's findings come sorted and files in path order, so the list is sorted unless a
  // finding names another file than its own.
  if (!std::is_sorted(report_.diagnostics.begin(), report_.diagnostics.end(), diagnostic_less))
    std::stable_sort(report_.diagnostics.begin(), report_.diagnostics.end(), diagnostic_less);
  rules_ = rules;
}

}  // namespace planlint
