#include "planlint/files/held_folder.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <random>
#include <vector>

#if defined(__linux__) && __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#define PLANLINT_HAS_OPENAT2 1
#endif

namespace planlint {

void Descriptor::reset() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

namespace {

std::vector<std::string_view> components(std::string_view relative) {
  std::vector<std::string_view> parts;
  for (std::size_t begin = 0; begin < relative.size();) {
    const std::size_t end = std::min(relative.find('/', begin), relative.size());
    if (end > begin) parts.push_back(relative.substr(begin, end - begin));
    begin = end + 1;
  }
  return parts;
}

int open_at(int folder, const char* name, int flags, mode_t mode) {
  int fd;
  do fd = ::openat(folder, name, flags, mode);
  while (fd < 0 && errno == EINTR);
  return fd;
}

/// The first part of `relative` beneath `folder` that is a symbolic link, and where it points,
/// for the message of an ELOOP: the walk that failed tells only that there was one.
BeneathFailure name_the_link(int folder, std::string_view relative, int code) {
  BeneathFailure failure{code, {}, {}};
  std::string prefix;
  for (std::string_view part : components(relative)) {
    if (!prefix.empty()) prefix += '/';
    prefix += part;
    struct stat status {};
    if (::fstatat(folder, prefix.c_str(), &status, AT_SYMLINK_NOFOLLOW) != 0) break;
    if (S_ISLNK(status.st_mode)) {
      std::string target(4096, '\0');
      const ssize_t length = ::readlinkat(folder, prefix.c_str(), target.data(), target.size());
      target.resize(length > 0 ? static_cast<std::size_t>(length) : 0);
      failure.code = ELOOP;
      failure.link = prefix;
      failure.link_target = std::move(target);
      break;
    }
  }
  return failure;
}

std::variant<Descriptor, BeneathFailure> walk_components(int folder, std::string_view relative, int flags, mode_t mode) {
  const std::vector<std::string_view> parts = components(relative);
  if (parts.empty()) {
    const int fd = open_at(folder, ".", flags | O_CLOEXEC, mode);
    if (fd < 0) return BeneathFailure{errno, {}, {}};
    return Descriptor(fd);
  }
  Descriptor held;  // the folder reached so far; `folder` itself at first
  int at = folder;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::string name(parts[i]);
    const bool last = i + 1 == parts.size();
    // A link where a folder is expected fails O_DIRECTORY | O_NOFOLLOW with ENOTDIR (O_PATH opens
    // the link itself otherwise) or ELOOP; either way it is named.
    const int fd = last ? open_at(at, name.c_str(), flags | O_NOFOLLOW | O_CLOEXEC, mode)
                        : open_at(at, name.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0);
    if (fd < 0) {
      const int code = errno;
      if (code == ELOOP || code == ENOTDIR) {
        BeneathFailure failure = name_the_link(folder, relative, code);
        if (!failure.link.empty()) return failure;
      }
      return BeneathFailure{code, {}, {}};
    }
    held = Descriptor(fd);
    at = held.get();
  }
  return held;
}

#ifdef PLANLINT_HAS_OPENAT2
/// Whether openat2(2) answered once with anything but ENOSYS: a kernel before 5.6, or a
/// sandbox that filters the call (EPERM), makes every later call take the component walk.
std::atomic<bool> openat2_missing{false};
#endif

}  // namespace

std::variant<Descriptor, BeneathFailure> open_beneath(int folder, std::string_view relative, int flags, mode_t mode,
                                                      BeneathWalk walk) {
#ifdef PLANLINT_HAS_OPENAT2
  if (walk == BeneathWalk::automatic && !openat2_missing.load(std::memory_order_relaxed)) {
    open_how how{};
    how.flags = static_cast<std::uint64_t>(flags | O_NOFOLLOW | O_CLOEXEC);
    // openat2 refuses a mode without O_CREAT (EINVAL), where openat ignores it.
    how.mode = (flags & O_CREAT) ? mode : 0;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
    const std::string path = relative.empty() ? std::string(".") : std::string(relative);
    long fd;
    do fd = ::syscall(SYS_openat2, folder, path.c_str(), &how, sizeof how);
    while (fd < 0 && errno == EINTR);
    if (fd >= 0) return Descriptor(static_cast<int>(fd));
    const int code = errno;
    if (code != ENOSYS && code != EPERM && code != E2BIG) {
      if (code == ELOOP || code == ENOTDIR) {
        BeneathFailure failure = name_the_link(folder, relative, code);
        if (!failure.link.empty()) return failure;
      }
      return BeneathFailure{code, {}, {}};
    }
    openat2_missing.store(true, std::memory_order_relaxed);
  }
#else
  (void)walk;
#endif
  return walk_components(folder, relative, flags, mode);
}

std::variant<Descriptor, int> open_folder(const std::string& path) {
  int fd;
  do fd = ::open(path.empty() ? "." : path.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  while (fd < 0 && errno == EINTR);
  if (fd < 0) return errno;
  return Descriptor(fd);
}

std::variant<Descriptor, int> create_temporary(int folder, std::string_view name, std::string& temporary_name) {
  static constexpr char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  thread_local std::mt19937_64 random{std::random_device{}()};
  int code = EEXIST;
  // As mkstemp(3): a name nobody has, tried again while one exists.
  for (int attempt = 0; attempt < 100 && code == EEXIST; ++attempt) {
    temporary_name = ".";
    temporary_name += name;
    temporary_name += '.';
    for (int i = 0; i < 6; ++i) temporary_name += letters[random() % (sizeof letters - 1)];
    const int fd = open_at(folder, temporary_name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd >= 0) return Descriptor(fd);
    code = errno;
  }
  return code;
}

}  // namespace planlint
