#pragma once
/// Which files a `planlint check PATH...` run lints.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "planlint/diag/result.hpp"
#include "planlint/source/limits.hpp"
#include "planlint/source/source_file.hpp"

namespace planlint {

/// A file to lint, with its text when the search already read it: a folder run reads each
/// file to see whether it holds a plan, and the lint then takes that text instead of reading
/// the file a second time.
struct Input {
  std::string path;
  std::optional<std::string> text;
  /// The file the text was read from, when the search read it: duplicates are told by it
  /// without another stat.
  std::optional<FileIdentity> identity = {};
  /// Standard input (`-`), named by `path` (--stdin-filename, else "-"): no file on disk is
  /// read, compared or written under that name.
  bool standard_input = false;
  /// Found by a folder search, not named: a config's `exclude` may leave it out.
  bool found_in_folder = false;
};

/// What expand_inputs adds to the paths' files, and leaves out of a folder's.
struct SearchOptions {
  /// What a path `-` stands for (read by the caller, its `standard_input` set), in its place
  /// among the paths; without it, `-` names a file.
  std::optional<Input> standard_input;
  /// Whether the search of a folder named among the paths honours the .gitignore files of the
  /// folders it enters and of those above it up to the repository root (gitignore.hpp), given
  /// the folder as named; unset: every search does. A file git tracks is never left out by a
  /// .gitignore (git_tracked_files), when git can tell.
  std::function<bool(const std::string& folder)> gitignore;
  /// Receives a note when a search could not learn which files git tracks, so that its
  /// .gitignore files applied to every file ("planlint: note: ...").
  std::vector<std::string>* notes = nullptr;
  /// --exclude globs, written as .gitignore lines relative to the working folder: a folder
  /// search leaves out what they match (a folder with its files).
  std::vector<std::string> exclude;
};

/// What a folder search reads of the disk. Tests replace it: as root, permission bits do not
/// make a file or folder unreadable.
class InputReader {
 public:
  virtual ~InputReader() = default;
  /// A file's text (read_file); a regular file's identity in `identity`.
  virtual Result<std::string> read(const std::string& path, std::size_t max_bytes,
                                   std::optional<FileIdentity>& identity) const;
  /// A folder's entries, or why they cannot be listed ("Permission denied").
  virtual Result<std::vector<std::filesystem::directory_entry>> list(const std::filesystem::path& folder) const;
};

/// Expands the command line's paths: a file named explicitly is always linted; a folder is
/// searched recursively (in sorted order, skipping hidden folders, node_modules, what
/// .gitignore files ignore but git does not track, and what `search.exclude` matches) for *.toml
/// files that hold a top-level [plan] table and Markdown docs (*.md, *.markdown) with a ```toml
/// block that holds one. The result keeps the order of `paths` and has no duplicates.
/// The error is the first unreadable path, with the reason ("No such file or directory"): a
/// named path, a folder or subfolder that cannot be listed, a candidate file (*.toml, *.md)
/// that cannot be read or whose symbolic link cannot be followed (a loop). A dangling symbolic
/// link in a folder is skipped. With `skip_non_plans`, a file named explicitly is kept only
/// when it holds a plan too (for pre-commit, which passes every *.toml). A file larger than
/// `max_file_bytes` is kept (without its text): its lint reports the size limit. A folder's
/// candidates are read and scanned on up to `jobs` threads, so `reader` is called from them.
/// `search` adds standard input and what a folder search leaves out (SearchOptions).
Result<std::vector<Input>> expand_inputs(const std::vector<std::string>& paths, bool skip_non_plans = false,
                                         std::size_t max_file_bytes = default_max_file_bytes,
                                         const InputReader& reader = InputReader(), unsigned jobs = 1,
                                         const SearchOptions& search = {});

/// What the text of a TOML file says about a top-level `plan` table, read without parsing it:
/// `yes` at the first header `[plan]` / `[plan.x]` / `[[plan.x]]` (spaces and quotes allowed),
/// dotted key `plan.x = ...` or inline table `plan = {` at the top level; `no` at `[[plan]]` or
/// `plan = <anything else>` there, or at the end of a text without any of them; `unsure` when
/// the scan meets what it does not read (a quoted key with escapes, a line it cannot take
/// apart, an unterminated string). Strings, multi-line strings, arrays and comments are
/// skipped as TOML reads them, so `[plan]` inside them does not count. For valid TOML, `yes`
/// and `no` are what a parse says (`root["plan"].is_table()`).
enum class PlanScan { yes, no, unsure };
PlanScan scan_for_plan_table(std::string_view text);

/// Whether a *.toml file's text holds a plan, as a folder run decides it: the scan, and a
/// parse only when the scan is unsure. A file with a top-level [plan] table and a syntax error
/// after it counts (its lint reports the error).
bool toml_holds_plan(std::string_view text);

}  // namespace planlint
