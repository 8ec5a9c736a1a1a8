#pragma once
/// Which files a `planlint check PATH...` run lints.
#include <optional>
#include <string>
#include <vector>

namespace planlint {

struct InputError {
  std::string path;
  std::string reason;  ///< "No such file or directory"
};

/// Expands the command line's paths: a file named explicitly is always linted; a folder is
/// searched recursively (in sorted order, skipping hidden folders and node_modules) for *.toml
/// files that hold a top-level [plan] table and Markdown docs (*.md, *.markdown) with a ```toml
/// block that holds one. The result keeps the order of `paths` and has no duplicates.
/// Returns the first unreadable path as an error. With `skip_non_plans`, a file named
/// explicitly is kept only when it holds a plan too (for pre-commit, which passes every *.toml).
std::vector<std::string> expand_inputs(const std::vector<std::string>& paths,
                                       std::optional<InputError>& error, bool skip_non_plans = false);

}  // namespace planlint
