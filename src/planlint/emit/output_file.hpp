#pragma once
/// Writing a report to a file (`-o FILE`, `--write-baseline FILE`) so that readers never see a
/// half-written one, without replacing what FILE is (docs/hardening.md, "Security model"):
/// - a new path or a regular file: the text goes to a temporary file in the same folder, which
///   is then renamed over FILE, keeping an existing file's permission bits (and owner, when
///   allowed);
/// - a symbolic link, or a path through a folder below the working directory that is one:
///   refused (a checkout can plant `planlint.sarif -> /any/path` or `reports -> /etc`), unless
///   the user allows it (`--output-follow-symlinks`) or wrote a path under /dev/ (/dev/stdout is
///   a link); then the same, for the file it resolves to, and the link stays;
/// - a device, FIFO or socket (/dev/null, a pipe): opened and written in place, never renamed;
/// - a file the user cannot write (access(W_OK)): not written at all.
#include <sys/types.h>

#include <optional>
#include <string>
#include <string_view>

#include "planlint/diag/result.hpp"

namespace planlint {

/// How an output is named on the command line and whether a symbolic link may be written through.
struct OutputTarget {
  std::string option = "-o";     ///< "-o", "--write-baseline": the error names it
  bool follow_symlinks = false;  ///< --output-follow-symlinks
};

/// Writes `contents` to `path` as above. The error says why not ("cannot write 'x/out.sarif':
/// No such file or directory"); a regular file at `path` is then untouched.
Result<void> write_file_atomically(const std::string& path, std::string_view contents,
                                   const OutputTarget& target = {});

/// The error for `path` when it is a symbolic link `target` does not allow writing through;
/// nothing otherwise. Checked before a run lints anything, and again as the file is written.
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

}  // namespace detail

}  // namespace planlint
