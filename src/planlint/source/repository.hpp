#pragma once
/// Repository roots: where config discovery stops, and what SARIF's %SRCROOT%, GitHub's
/// annotations and JSON's repository_file name files from.
#include <string>

namespace planlint {

/// Whether `folder` is the root of a version-controlled working tree: it holds `.git` (the
/// folder, or the file of a git worktree or submodule), `.hg`, `.svn`, `.jj`, `.bzr`, `_darcs`
/// or `.pijul`.
bool is_repository_root(const std::string& folder);

/// The nearest repository root (is_repository_root) at or above `folder`, or `folder` itself
/// when there is none. Absolute.
std::string repository_root(const std::string& folder);

}  // namespace planlint
