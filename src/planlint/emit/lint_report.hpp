#pragma once
/// What emitters receive: the linted files (for snippets) and their diagnostics, as plain data.
#include <cstddef>
#include <memory>
#include <mutex>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "planlint/diag/diagnostic.hpp"
#include "planlint/source/source_file.hpp"

namespace planlint {

/// Report::file()'s index of the files by path. Built on first use and extended as files are
/// added, so that looking up each finding's file is O(1) rather than a scan of every file
/// (quadratic in a folder run: a third of a 10,000-plan run). A copy starts empty; it is not
/// part of the report's value.
class ReportFileIndex {
 public:
  ReportFileIndex() = default;
  ReportFileIndex(const ReportFileIndex&) {}
  ReportFileIndex& operator=(const ReportFileIndex&) { return *this; }

  const SourceFile* find(const std::vector<std::shared_ptr<const SourceFile>>& files,
                         std::string_view path) const;

 private:
  mutable std::mutex mutex_;  // emitters may share a report between threads
  /// Path → position in `files` of its first file. Views into the indexed files' paths.
  mutable std::unordered_map<std::string_view, std::size_t> position_;
  /// The files indexed so far (files[0, indexed_.size())): held so that the keys stay valid
  /// and compared with `files` to notice a file replaced or removed (then the index starts over).
  mutable std::vector<std::shared_ptr<const SourceFile>> indexed_;
};

struct Report {
  std::vector<std::shared_ptr<const SourceFile>> files;  ///< every linted file, in order
  std::vector<Diagnostic> diagnostics;                   ///< sorted with diagnostic_less

  /// The file a diagnostic points into (the first with that path), or nullptr.
  const SourceFile* file(std::string_view path) const { return index_.find(files, path); }

 private:
  ReportFileIndex index_;
};

/// Counts by severity of the findings that are not suppressed, and of the suppressed ones.
struct SeverityCounts {
  std::size_t errors = 0, warnings = 0, notes = 0, suppressed = 0;

  std::size_t shown() const { return errors + warnings + notes; }
  SeverityCounts& operator+=(const SeverityCounts& other) {
    errors += other.errors;
    warnings += other.warnings;
    notes += other.notes;
    suppressed += other.suppressed;
    return *this;
  }
};
SeverityCounts count(const std::vector<Diagnostic>& diagnostics);

}  // namespace planlint
