#pragma once
/// GitHub Actions workflow commands (docs/integrations.md, "Annotations without code scanning"):
/// one annotation per finding,
///
///     ::error file=plans/a.toml,line=11,col=1,endLine=11,endColumn=3,title=unknown-key::unknown key 'hmb' ...
///
/// `warning` for warnings, `notice` for note-level findings; notes and help follow the message
/// on lines of their own. Suppressed findings are not shown.
#include <ostream>
#include <string>
#include <string_view>

#include "planlint/emit/lint_report.hpp"
#include "planlint/emit/emitter.hpp"

namespace planlint {

/// Where the runner looks for an annotation's file: relative to the repository's root (the
/// workspace), whatever folder planlint ran in. Empty: paths as the report shows them.
struct GithubPaths {
  std::string repository_root;    ///< absolute; files inside it are named relative to it
  std::string working_directory;  ///< absolute; what the report's relative paths start from
};

/// `display_path` as an annotation names it: relative to the repository root when inside it
/// ("../plans/a.toml" from a subfolder is "plans/a.toml"), else unchanged.
std::string annotation_path(const std::string& display_path, const GithubPaths& paths);

void emit_github(std::ostream& out, const Report& report, const GithubPaths& paths = {});

/// The same annotations written file by file as a run delivers them (run_lint with a sink).
class GithubEmitter final : public Emitter {
 public:
  explicit GithubEmitter(std::ostream& out, GithubPaths paths = {}) : out_(out), paths_(std::move(paths)) {}
  void file(const std::shared_ptr<const SourceFile>& source, std::vector<Diagnostic>& diagnostics) override;

 private:
  std::ostream& out_;
  GithubPaths paths_;
};

/// The runner's escaping of a command's message: % CR LF, and every other character the
/// printable policy escapes (planlint/diag/printable.hpp) as it does. Its CR and LF are the
/// runner's line breaks: `text` is planlint's own lines, each part from the input already
/// printable() (write_annotation does it), so that no line of an annotation comes from input.
std::string github_escape_data(std::string_view text);
/// The runner's escaping of a property value, which is input text whole: printable() (a line
/// break shows as \n), then % : and ,.
std::string github_escape_property(std::string_view text);

}  // namespace planlint
