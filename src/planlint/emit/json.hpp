#pragma once
/// Machine-readable output (cli.md "JSON output"), described by schemas/diagnostics.schema.json:
///
///     {"version": 1, "files": ["plans/a.toml"], "diagnostics": [{"rule": "memory-fit",
///      "level": "error", "message": "...", "file": "plans/a.toml",
///      "repository_file": "plans/a.toml", "line": 11, ..., "fingerprint": "..."}],
///      "summary": {"errors": 1, "warnings": 0, "notes": 0, "suppressed": 0, "files": 1}}
#include <cstddef>
#include <ostream>
#include <string>

#include "planlint/emit/lint_report.hpp"
#include "planlint/emit/emitter.hpp"
#include "planlint/emit/spool.hpp"

namespace planlint {

/// Where the run was, for each finding's `repository_file` and `fingerprint` (the same
/// fingerprint as SARIF's, emit/fingerprint.hpp). Empty: files as the report names them.
struct JsonOptions {
  std::string repository_root;    ///< absolute; files inside it are named relative to it
  std::string working_directory;  ///< absolute; what the report's relative paths start from
};

/// The JSON output written as the run delivers its files: each file's entries are made when it
/// comes and put aside (emit/spool.hpp) until finish() writes the object, so its memory stays
/// flat with the files of the run.
class JsonEmitter final : public Emitter {
 public:
  JsonEmitter(std::ostream& out, JsonOptions options) : out_(out), options_(std::move(options)) {}
  void file(const std::shared_ptr<const SourceFile>& source, std::vector<Diagnostic>& diagnostics) override {
    add_file(source->path());
    add_findings(diagnostics);
  }
  /// A file of the report, in the report's order.
  void add_file(const std::string& path);
  /// Findings, in the report's order: a file's all at once (their fingerprints' ordinals).
  void add_findings(const std::vector<Diagnostic>& diagnostics);
  void finish(const std::vector<RuleDescriptor>& rules) override;

 private:
  std::ostream& out_;
  JsonOptions options_;
  Spool files_, diagnostics_;  ///< the entries of `files` and `diagnostics`, each after a ",\n"
  std::size_t file_count_ = 0;
  SeverityCounts counts_;
};

/// Writes the report as one JSON object (JsonEmitter); suppressed findings are listed with
/// `"suppressed": true` and their `suppression`, and are left out of the summary counts.
void emit_json(std::ostream& out, const Report& report, const JsonOptions& options = {});

}  // namespace planlint
