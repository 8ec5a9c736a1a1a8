#pragma once
/// GitLab's Code Quality report (`--format gitlab`), the artifact GitLab shows in merge requests
/// (docs/integrations.md, "GitLab CI"), written file by file.
#include <ostream>
#include <string>

#include "planlint/emit/emitter.hpp"

namespace planlint {

/// Where the report's paths start from: GitLab resolves an issue's path against its checkout.
struct RepositoryPaths {
  std::string repository_root;    ///< absolute; empty: none
  std::string working_directory;  ///< absolute
};

/// A JSON array with one issue per finding that is not suppressed: `description` (the message
/// and the rule), `check_name` (the rule), `fingerprint` (the JSON output's, stable while the
/// finding is there), `severity` (error major, warning minor, note info), `location.path` from the
/// repository root and `location.lines.begin`.
class GitlabEmitter final : public Emitter {
 public:
  GitlabEmitter(std::ostream& out, RepositoryPaths paths) : out_(out), paths_(std::move(paths)) {}
  void file(const std::shared_ptr<const SourceFile>& source, std::vector<Diagnostic>& diagnostics) override;
  void finish(const std::vector<RuleDescriptor>& rules) override;

 private:
  std::ostream& out_;
  RepositoryPaths paths_;
  bool first_ = true;
};

}  // namespace planlint
