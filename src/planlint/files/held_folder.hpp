#pragma once
/// Folders held open by a descriptor, and files opened, made and renamed relative to them
/// (openat(2), renameat(2)), with no symbolic link followed on the way: a path is resolved
/// once, so a folder swapped for a link afterwards cannot redirect what planlint reads or
/// writes (docs/hardening.md, "What planlint writes").
///
///     OpenedFolder reports = open_beneath(working_folder.get(), "reports", O_PATH | O_DIRECTORY);
///     if (auto* failed = std::get_if<BeneathFailure>(&reports)) ...   // failed->link: "reports"
#include <sys/types.h>

#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace planlint {

/// An open file descriptor, closed when dropped.
class Descriptor {
 public:
  Descriptor() = default;
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() { reset(); }
  Descriptor(Descriptor&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Descriptor& operator=(Descriptor&& other) noexcept {
    if (this != &other) {
      reset();
      fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;

  int get() const { return fd_; }
  explicit operator bool() const { return fd_ >= 0; }
  void reset();
  /// The descriptor, no longer closed by this: for a close(2) whose error matters.
  int release() { return std::exchange(fd_, -1); }

 private:
  int fd_ = -1;
};

/// Why open_beneath failed: errno, and when a symbolic link was on the way (ELOOP), the part of
/// the path up to it ("reports", "reports/2026") and what the link points at.
struct BeneathFailure {
  int code = 0;
  std::string link;
  std::string link_target;
};

using OpenedFolder = std::variant<Descriptor, BeneathFailure>;

/// How open_beneath walks: one openat2(2) call with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS (Linux
/// 5.6 and later), falling back to a component at a time where the kernel lacks it; or always
/// a component at a time (each opened with O_NOFOLLOW | O_DIRECTORY from the one before).
enum class BeneathWalk { automatic, components };

/// Opens `relative` (a relative path of plain names, as lexically_normal() leaves it, with no
/// `..`; "" is `folder` itself) beneath the folder open as `folder`, with `flags` and `mode` as
/// openat(2)'s (O_NOFOLLOW and O_CLOEXEC added). No symbolic link is followed, in a folder on
/// the way or at the end: one is ELOOP, naming it.
std::variant<Descriptor, BeneathFailure> open_beneath(int folder, std::string_view relative, int flags,
                                                      mode_t mode = 0, BeneathWalk walk = BeneathWalk::automatic);

/// `path` opened as a folder (O_PATH | O_DIRECTORY), its symbolic links followed: a folder of
/// the machine's (the working directory, `/tmp`, `$RUNNER_TEMP`). errno when it cannot be.
std::variant<Descriptor, int> open_folder(const std::string& path);

/// A new file `.NAME.XXXXXX` in `folder` (O_CREAT | O_EXCL: never an existing file or a link),
/// mode 0600, open for writing: mkstemp(3) relative to a held folder. Its name goes to
/// `temporary_name`; errno when none can be made.
std::variant<Descriptor, int> create_temporary(int folder, std::string_view name, std::string& temporary_name);

}  // namespace planlint
