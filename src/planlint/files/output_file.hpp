#pragma once
/// Writing a file planlint is asked to write — a report (`-o FILE`, `check --diff -o`, `report
/// -o`, `planlint new -o`), a baseline (`--write-baseline FILE`) or a fixed plan (`--fix`) — so
/// that readers never see a half-written one, without replacing what the path is, and never
/// through a symbolic link a checkout planted (docs/hardening.md, "What planlint writes"):
/// - the path is resolved once: its folder is opened and held, and everything after (reading
///   the file, making the temporary file, the rename) is relative to that folder, so a folder
///   swapped for a link meanwhile redirects nothing;
/// - below the working directory — named relative to it, or absolute under it as getcwd(3) or
///   `$PWD` names it — no folder on the way may be a symbolic link (a checkout can plant
///   `reports -> /etc`), nor the file itself (`planlint.sarif -> ~/.bashrc`); folders above it
///   (`$RUNNER_TEMP`'s parents, `/tmp` on some systems) are the machine's and are followed;
/// - a link is written through only when the user allows it (`--output-follow-symlinks`, not
///   for `--fix`) or wrote a path under /dev/ (/dev/stdout is a link): then the file it
///   resolves to is written, and the link stays;
/// - a new path or a regular file: the text goes to a temporary file in the same folder, which
///   is then renamed over the name, keeping an existing file's permission bits (and owner,
///   when allowed);
/// - a device, FIFO or socket (/dev/null, a pipe): opened and written in place, never renamed;
/// - a file the user cannot write (access(W_OK)): not written at all.
#include <sys/types.h>

#include <optional>
#include <string>
#include <string_view>

#include "planlint/diag/result.hpp"
#include "planlint/files/held_folder.hpp"
#include "planlint/source/limits.hpp"

namespace planlint {

/// How an output is named on the command line, and whether a symbolic link may be written
/// through.
struct OutputTarget {
  std::string option = "-o";     ///< "-o", "--write-baseline", "--fix": every error names it
  bool follow_symlinks = false;  ///< --output-follow-symlinks
  /// Whether --output-follow-symlinks can allow a link: not for --fix, whose files a checkout
  /// names.
  bool followable = true;
};

/// A file to write, its folder resolved once and held open.
///
///     Result<OutputFile> out = OutputFile::open("reports/planlint.sarif", OutputTarget{"-o"});
///     if (!out) return out.error();     // "-o reports/...: the folder 'reports' is a symbolic link ..."
///     return out->write(sarif_text);
class OutputFile {
 public:
  /// Resolves `path` as above: its folder opened (no link on the way below the working
  /// directory), and the name in it not a symbolic link (unless allowed). The error names the
  /// option, the path and the link; or, for a folder that cannot be opened, the reason
  /// ("cannot write 'x/out.sarif': No such file or directory").
  static Result<OutputFile> open(const std::string& path, const OutputTarget& target = {});

  /// The regular file there now, as it is (never through a link), up to `max_bytes`: what
  /// --fix compares with the text it linted.
  Result<std::string> read_regular(std::size_t max_bytes = default_max_file_bytes) const;

  /// Writes `contents` as above. The error says why not; a regular file there is then
  /// untouched.
  Result<void> write(std::string_view contents) const;

  const std::string& path() const { return path_; }

 private:
  std::string path_;     ///< as named
  OutputTarget target_;
  Descriptor folder_;    ///< the folder the file is in
  std::string name_;     ///< the file's name in it
  /// A path under /dev/ (or any, with follow_symlinks) that names a device or FIFO: opened by
  /// its path, links followed, and written in place (/dev/stdout -> /proc/self/fd/1 -> pipe).
  bool device_by_path_ = false;
};

/// OutputFile::open(path, target), then write(contents).
Result<void> write_file_atomically(const std::string& path, std::string_view contents, const OutputTarget& target = {});

/// The error for `path` when a symbolic link is on its way or at its end and `target` does not
/// allow it; nothing otherwise (a folder that does not exist is the write's error). Checked
/// before a run lints anything, and again as the file is written.
std::optional<Error> refused_symlink(const std::string& path, const OutputTarget& target);

namespace detail {

enum class OutputMethod {
  create,          ///< nothing there yet: a temporary file renamed into place
  replace,         ///< a regular file: a temporary file with its mode, renamed over it
  write_in_place,  ///< a device, FIFO or socket: opened and written into
  refuse,          ///< not writable by the user (EACCES)
};

/// How a target is written: whether it `exists` (after following symbolic links), its
/// st_mode, and whether access(W_OK) allows the user to write it.
OutputMethod output_method(bool exists, mode_t mode, bool writable);

/// Where a path is written: the folder `base`, opened with its links followed (".": the
/// working directory; "../..": a folder above it; an absolute folder elsewhere), the folders
/// `inside` it, walked with no link followed ("reports/2026"), and the file's `name`. A path
/// below the working directory — relative, or absolute under `real_cwd` (getcwd(3)) or under
/// `logical_cwd` ($PWD when it names the same folder, else "") — has its folders there in
/// `inside`; `shown_base` is what messages put before `inside` ("", "../", "/home/u/repo/").
struct OutputPath {
  std::string base, inside, name, shown_base;
  friend bool operator==(const OutputPath&, const OutputPath&) = default;
};

/// `path` split as above, after lexically_normal(); nullopt when it names a folder ("x/", ".").
std::optional<OutputPath> split_output_path(const std::string& path, const std::string& real_cwd,
                                            const std::string& logical_cwd);

}  // namespace detail

}  // namespace planlint
