#pragma once
/// The files git tracks in a folder, so that a folder search never leaves one out because of
/// a .gitignore pattern: git itself never ignores a tracked file, and a pull request's
/// .gitignore must not hide a plan the repository holds.
///
///     Result<TrackedFiles> tracked = git_tracked_files("plans");
///     if (tracked && tracked->holds("drafts/a.toml")) ...   // "plans/drafts/a.toml" is tracked
#include <string>
#include <string_view>
#include <unordered_set>

#include "planlint/diag/result.hpp"

namespace planlint {

/// The files of git's index below a folder, '/'-separated and relative to it, and the folders
/// on the way to them.
struct TrackedFiles {
  std::unordered_set<std::string> files;
  std::unordered_set<std::string> folders;  ///< "a" and "a/b" for the file "a/b/c.toml"

  /// Whether `path` is a tracked file, or (`directory`) a folder that holds one.
  bool holds(const std::string& path, bool directory) const {
    return directory ? folders.count(path) != 0 : files.count(path) != 0;
  }
};

/// Asks git which files it tracks below `folder`: runs `git ls-files -z` in it (found on PATH,
/// started with posix_spawn: no shell reads any of it; standard input and error are /dev/null).
/// The error says why git could not tell: not installed, or its exit status (not a work tree,
/// a repository git will not read).
Result<TrackedFiles> git_tracked_files(const std::string& folder);

}  // namespace planlint
