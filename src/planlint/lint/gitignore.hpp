#pragma once
/// git's ignore rules (gitignore(5)) for a folder search: the patterns of a `.gitignore` file
/// (and of `--exclude` and a config's `exclude`, which are written the same way), and the
/// stack of the `.gitignore` files that apply to a folder.
///
///     IgnoreStack stack;
///     stack.push("", IgnorePatterns(read(".gitignore")));
///     stack.push("plans/", IgnorePatterns(read("plans/.gitignore")));
///     stack.ignored("plans/draft.toml", false);   // the deeper file's last match decides
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "planlint/lint/glob.hpp"

namespace planlint {

/// The patterns of one `.gitignore` file, or a list of `exclude` globs, read as git reads them:
/// blank lines and `#` comments are skipped, trailing spaces dropped unless escaped (`\ `),
/// `!` negates and `\!`, `\#` are literal; a trailing `/` matches folders only; a pattern with
/// a `/` at its start or in its middle is anchored to the file's folder, one without matches a
/// name at any depth below it.
class IgnorePatterns {
 public:
  IgnorePatterns() = default;
  /// The lines of a .gitignore file (a final "\r" of a line is dropped, as git does).
  explicit IgnorePatterns(std::string_view text);
  /// One pattern per entry (`exclude = ["drafts/", "*.old.toml"]`).
  explicit IgnorePatterns(const std::vector<std::string>& lines);

  /// The verdict of the last pattern that matches `path` ('/'-separated, relative to the
  /// patterns' folder; `directory` when it names a folder): true when it ignores it, false
  /// when a `!` pattern takes it back; nullopt when none matches.
  std::optional<bool> match(std::string_view path, bool directory) const;
  bool empty() const { return patterns_.empty(); }

 private:
  /// A line's verdict and what it is matched against; its glob (without `!`, the leading and
  /// the trailing `/`) is `globs_`'s of the same index.
  struct Pattern {
    bool negated : 1 = false;
    bool directory_only : 1 = false;
    bool anchored : 1 = false;  ///< matched against the whole relative path, else its last name
  };
  void add(std::string_view line);

  std::vector<Pattern> patterns_;
  GlobSet globs_;
};

/// The `.gitignore` files that apply to a folder, each at its folder (a prefix of the paths
/// asked about, "" or ending in '/'), pushed from the top folder down: the deepest file whose
/// patterns match a path decides, as in git. A path in an ignored folder is not asked about: a
/// search does not enter the folder, and git does not let a pattern take back a file in it.
class IgnoreStack {
 public:
  void push(std::string folder, IgnorePatterns patterns);
  void pop();
  std::size_t size() const { return levels_.size(); }
  /// Whether `path` (relative to the top folder, below every pushed folder) is ignored.
  bool ignored(std::string_view path, bool directory) const;

 private:
  struct Level {
    std::string folder;
    IgnorePatterns patterns;
  };
  std::vector<Level> levels_;
};

/// Whether `patterns` (relative to their folder) ignore `path` (relative to the same folder)
/// or one of the folders on the way to it: `exclude = ["drafts/"]` leaves out drafts/a/b.toml.
bool ignored_with_folders(const IgnorePatterns& patterns, std::string_view path, bool directory);

}  // namespace planlint
