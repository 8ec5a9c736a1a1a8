#pragma once
/// The two sides of `planlint diff`: each a set of plan files read from the working tree or
/// from a git revision (git.hpp), named by their path from the repository root so that the
/// sides' files can be matched.
///
///     Result<DiffSide> base = parse_diff_side("git:origin/main:plans/");
///     auto [base_files, head_files] = read_sides(*base, *head, read_options);
///     BlobReader texts(blobs of the revisions' files, in the order they are wanted);
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "planlint/diag/result.hpp"
#include "planlint/diff/git.hpp"

namespace planlint {

/// A side as the command line gives it: `git:REV[:PATH]`, or a path of the working tree.
struct DiffSide {
  std::string label;                    ///< as given, for messages: "git:origin/main:plans/"
  std::optional<std::string> revision;  ///< set for `git:REV...`
  /// Relative to the working folder (as every path planlint takes), or absolute; at a revision,
  /// inside the repository. Empty at a revision: the working folder's tree.
  std::vector<std::string> paths;
};

/// Reads `git:REV[:PATH]` or a path. A revision that is empty or starts with '-' is an error.
Result<DiffSide> parse_diff_side(const std::string& text);

/// A plan file of a side.
struct SideFile {
  /// From the repository root ("plans/a.toml"); a file of the working tree outside it keeps
  /// the path it was named by. What the diff shows.
  std::string path;
  /// What the two sides' files are matched by: the path from the side's folder when the side
  /// names one folder ("a.toml" of `old-plans/` matches "a.toml" of `plans/`), else `path`.
  std::string key;
  /// Where its config is looked for: the file's path in the working tree (a file of a revision:
  /// where it would be), relative to the working folder when inside it, so both sides are
  /// linted with the working tree's configs, named as `check` names them.
  std::string config_path;
  /// A file of the working tree: its text. A file of a revision: empty until its blob's text
  /// arrives (BlobReader).
  std::string text;
  /// A file of a revision: its blob. Such files are listed whether they hold a plan or not,
  /// which holds_plan() tells once the text is in.
  std::optional<GitBlob> blob;
};

struct SideFiles {
  std::vector<SideFile> files;  ///< sorted by key
  /// The side named one file (not a folder, not a revision's tree): two such sides are one
  /// plan compared with another, whatever their names.
  bool single_file = false;
};

struct SideReadOptions {
  std::string repository_root;  ///< absolute: what SideFile::path is relative to
  std::size_t max_file_bytes = 0;
  unsigned jobs = 1;
};

/// The plan files of each side: a folder searched as `check` searches it, a named file whatever
/// it holds; at a revision, the `*.toml` and Markdown files a folder search would read, listed
/// with their blobs, whose texts the caller reads (BlobReader). An error names the side and,
/// when there is one, the file ("git:main: fatal: ...").
std::pair<Result<SideFiles>, Result<SideFiles>> read_sides(const DiffSide& base, const DiffSide& head,
                                                            const SideReadOptions& options);

/// Whether a side's file is one of its plan files: a file of the working tree is (read_sides
/// keeps no other); one of a revision, its text in, when it is a `*.toml` file that holds a plan
/// or a Markdown doc with a plan block, as a folder search decides it.
bool holds_plan(const SideFile& file);

/// The error of a side: "SIDE: [FILE: ]MESSAGE".
Error side_error(const DiffSide& side, const Error& error);

/// The repository root the sides are named from: git's top level when git knows the working
/// folder, else the nearest repository marker above it (source/repository.hpp).
std::string diff_repository_root();

}  // namespace planlint
