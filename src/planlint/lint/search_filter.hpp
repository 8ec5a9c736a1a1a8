#pragma once
/// The filter of a folder search (expand_inputs, inputs.hpp), made for each searched folder.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "planlint/diag/result.hpp"
#include "planlint/lint/gitignore.hpp"
#include "planlint/lint/inputs.hpp"
#include "planlint/lint/tracked_files.hpp"

namespace planlint {

/// What a folder search leaves out besides hidden folders and node_modules: what --exclude
/// matches, and what the .gitignore files ignore unless git tracks it.
struct SearchFilter {
  bool gitignore = true;
  IgnoreStack ignores;     ///< paths relative to the repository root (or the searched folder)
  std::string root_from_repository;  ///< the searched folder from there: "" or ending in '/'
  IgnorePatterns exclude;  ///< --exclude, relative to the working folder
  std::string root_from_working;     ///< the searched folder from there: "", "plans/", "../x/"
  std::filesystem::path root;        ///< the searched folder, as named
  bool in_git_work_tree = false;     ///< the repository root holds `.git`
  /// What git tracks below `root`, asked the first time a .gitignore leaves a path out.
  std::optional<Result<TrackedFiles>> tracked;
  std::vector<std::string>* notes = nullptr;

  bool excluded(const std::string& relative, bool directory) const {
    return !exclude.empty() && exclude.match(root_from_working + relative, directory).value_or(false);
  }
  bool gitignored(const std::string& relative, bool directory) const {
    return gitignore && ignores.ignored(root_from_repository + relative, directory);
  }
  /// Whether git tracks `relative` (a file), or a file below it (a folder). Without git's
  /// answer, nothing is: the .gitignore files then apply to every file, and a note says so.
  bool tracked_by_git(const std::string& relative, bool directory);
};

/// The patterns of `folder`'s .gitignore file, pushed on `filter`'s stack at `prefix` (one that
/// cannot be read is passed over, as git passes it over).
void push_gitignore(const std::filesystem::path& folder, const std::string& prefix, SearchFilter& filter,
                    const InputReader& reader);

/// The filter of a search of `root`: the .gitignore files of the folders above it, up to the
/// repository root (when the search reads them), and the --exclude globs.
SearchFilter make_filter(const std::filesystem::path& root, const SearchOptions& options, const InputReader& reader);

}  // namespace planlint
