#pragma once
/// Reading plans as they were at a git revision, through the `git` command (planlint is a static
/// binary and links no git library): one `git ls-tree` for the file list, one `git cat-file
/// --batch` for every blob, run without a shell from an argument vector.
///
///     std::vector<Result<std::vector<GitBlob>>> trees = list_git_trees({{"origin/main", {"plans/"}}}, limit);
///     if (!trees[0]) ...  // "fatal: Not a valid object name origin/main"
///     BlobReader texts(*std::move(trees[0]));
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "planlint/diag/result.hpp"

namespace planlint {

/// What a git command printed, and how it ended.
struct GitOutput {
  int status = 0;      ///< its exit status; 127: git could not be started
  std::string out;     ///< standard output
  std::string error;   ///< standard error, as git wrote it
};

/// Runs `git ARGS...` in the working folder, writing `input` to its standard input; the
/// arguments go to git as they are, never through a shell.
GitOutput run_git(const std::vector<std::string>& args, const std::string& input = {});

/// As run_git, but each piece of git's standard output goes to `out` as it arrives (GitOutput::out
/// stays empty): a reader that keeps what it needs in place of one growing copy of all of it.
GitOutput run_git(const std::vector<std::string>& args, const std::string& input,
                  const std::function<void(std::string_view)>& out);

/// A plan file of a revision's tree (git ls-tree), its text not read yet.
struct GitBlob {
  std::string path;    ///< "plans/a.toml", as git names it (--full-name)
  std::string object;  ///< the blob's object name
  std::size_t size = 0;
};

/// A revision's tree under some paths (relative to the working folder, as git takes them;
/// none: the whole tree).
struct GitTree {
  std::string revision;
  std::vector<std::string> paths;
};

/// The blobs of each tree that a folder search would lint: `*.toml` and Markdown files, not in
/// a hidden folder or node_modules, regular files only (no symbolic link, no submodule), each
/// tree listed by its own `git ls-tree`, run at once. A blob larger than `max_file_bytes` is an
/// error naming it, as a file over --max-file-size is. An error of git (a revision that does
/// not exist, a path outside the repository) is an Error with git's own reason.
std::vector<Result<std::vector<GitBlob>>> list_git_trees(const std::vector<GitTree>& trees,
                                                         std::size_t max_file_bytes);

/// The texts of blobs from one `git cat-file --batch` (the two sides of a diff read in one
/// process, which resolves the deltas between their versions once), each to be taken as soon as
/// it has arrived. No thread reads them: take() reads what git has written meanwhile, and git
/// reads ahead into its output pipe's room while planlint works. One caller at a time.
///
///     BlobReader reader(std::move(blobs));
///     std::optional<std::string> text = reader.take(0);  // waits for blob 0 only
///     if (Result<void> done = reader.finish(); !done) ...  // "git cat-file gave no blob for ..."
class BlobReader {
 public:
  /// Starts git, which answers in the order of `blobs`. No blob: no git.
  explicit BlobReader(std::vector<GitBlob> blobs);
  ~BlobReader();  ///< waits for git to end
  BlobReader(const BlobReader&) = delete;
  BlobReader& operator=(const BlobReader&) = delete;

  /// The text of blob `i`, waiting until it has arrived, moved out (each is taken once);
  /// nullopt when git gave none (finish() says why).
  std::optional<std::string> take(std::size_t i);
  /// Waits for git to end: the first blob it gave no text for, or its own error.
  Result<void> finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

/// Pairs of paths git's rename detection finds between `base` and `head` (a revision, or empty
/// for the working tree) under `paths`: (old, new). Empty when git finds none or fails.
std::vector<std::pair<std::string, std::string>> git_renames(const std::string& base, const std::string& head,
                                                             const std::vector<std::string>& paths);

/// Whether a path of a tree is one a folder search would lint (by its name): a `*.toml` or
/// Markdown file outside hidden folders and node_modules.
bool is_candidate_path(const std::string& path);

}  // namespace planlint
