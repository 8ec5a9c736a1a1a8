#include "planlint/files/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "planlint/source/regular_file.hpp"

namespace planlint {

namespace fs = std::filesystem;

namespace detail {

OutputMethod output_method(bool exists, mode_t mode, bool writable) {
  if (!exists) return OutputMethod::create;
  if (!writable) return OutputMethod::refuse;
  return S_ISREG(mode) ? OutputMethod::replace : OutputMethod::write_in_place;
}

namespace {

/// `path` below `folder` (both absolute and lexically normal): the rest of it, or nullopt.
std::optional<fs::path> below(const fs::path& path, fs::path folder) {
  if (folder.empty() || !folder.is_absolute()) return std::nullopt;
  if (folder.filename().empty()) folder = folder.parent_path();  // "/home/u/" → "/home/u"
  auto [in_folder, in_path] = std::mismatch(folder.begin(), folder.end(), path.begin(), path.end());
  if (in_folder != folder.end()) return std::nullopt;
  fs::path rest;
  for (; in_path != path.end(); ++in_path) rest /= *in_path;
  return rest;
}

std::string with_slash(std::string folder) {
  if (!folder.empty() && folder.back() != '/') folder += '/';
  return folder;
}

}  // namespace

std::optional<OutputPath> split_output_path(const std::string& path, const std::string& real_cwd,
                                            const std::string& logical_cwd) {
  const fs::path normal = fs::path(path).lexically_normal();
  const fs::path name = normal.filename();
  if (name.empty() || name == "." || name == "..") return std::nullopt;
  const fs::path folder = normal.parent_path();
  OutputPath split;
  split.name = name.string();
  if (normal.is_absolute()) {
    // The logical name first: it is the one a script writes ("$PWD/reports/x.sarif").
    for (const std::string& cwd : {logical_cwd, real_cwd}) {
      if (std::optional<fs::path> inside = below(folder, fs::path(cwd).lexically_normal())) {
        split.base = ".";
        split.inside = inside->string();
        split.shown_base = with_slash(cwd);
        return split;
      }
    }
    split.base = folder.string();
    return split;
  }
  // A relative path: its leading `..` lead to the machine's folders above the working directory.
  fs::path base, inside;
  bool leading = true;
  for (const fs::path& part : folder) {
    if (leading && part == "..") base /= part;
    else leading = false, inside /= part;
  }
  split.base = base.empty() ? "." : base.string();
  split.inside = inside.string();
  split.shown_base = base.empty() ? "" : with_slash(base.string());
  return split;
}

}  // namespace detail

namespace {

/// $PWD when it names the working directory (a shell keeps it as the user reached the folder,
/// links and all); "" otherwise.
std::string logical_working_directory() {
  const char* pwd = std::getenv("PWD");
  if (pwd == nullptr || pwd[0] != '/') return {};
  struct stat logical {}, real {};
  if (::stat(pwd, &logical) != 0 || ::stat(".", &real) != 0) return {};
  return logical.st_dev == real.st_dev && logical.st_ino == real.st_ino ? std::string(pwd) : std::string();
}

/// The path `path` names once its symbolic links are followed (as open() would, up to the
/// kernel's 40): the file to write. A dangling link resolves to the missing file it names.
fs::path resolve_links(const fs::path& path) {
  fs::path target = path;
  std::error_code ec;
  for (int hops = 0; hops < 40 && fs::is_symlink(fs::symlink_status(target, ec)); ++hops) {
    fs::path link = fs::read_symlink(target, ec);
    if (ec) break;
    target = link.is_absolute() ? link : target.parent_path() / link;
  }
  return target;
}

bool write_all(int fd, std::string_view contents) {
  const char* data = contents.data();
  std::size_t left = contents.size();
  while (left > 0) {
    ssize_t written = ::write(fd, data, left);
    if (written < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += written;
    left -= static_cast<std::size_t>(written);
  }
  return true;
}

Error cannot_write(const std::string& path, int code) {
  return Error(fmt::format("cannot write '{}': {}", path, std::strerror(code)));
}

/// What OutputFile::open says when it cannot resolve a path: a link refused, or another reason.
struct Refusal {
  Error error;
  bool link = false;
};

std::string follow_help(const OutputTarget& target, bool folder) {
  if (!target.followable)
    return folder ? "fix the files where they are, naming their folder's real path"
                  : "run --fix on the file the link names";
  return folder ? "name a file in another folder, or allow it with --output-follow-symlinks"
                : "name another file, or allow it with --output-follow-symlinks";
}

Refusal linked_folder(const std::string& path, const OutputTarget& target, const std::string& folder,
                      const std::string& link_target) {
  return {Error(fmt::format("{} {}: the folder '{}' is a symbolic link (to '{}'); planlint does not write through a "
                            "link, which a checkout may have planted to put the file somewhere else",
                            target.option, path, folder, link_target),
                Location{}, follow_help(target, true)),
          true};
}

Refusal linked_file(const std::string& path, const OutputTarget& target, const std::string& link_target) {
  return {Error(fmt::format("{} {}: '{}' is a symbolic link (to '{}'); planlint does not write through a link, "
                            "which a checkout may have planted to overwrite another file",
                            target.option, path, path, link_target),
                Location{}, follow_help(target, false)),
          true};
}

std::string link_target_at(int folder, const std::string& name) {
  std::string target(4096, '\0');
  const ssize_t length = ::readlinkat(folder, name.c_str(), target.data(), target.size());
  target.resize(length > 0 ? static_cast<std::size_t>(length) : 0);
  return target;
}

/// Resolves `path`: its folder into `folder`, the file's name in it into `name`; the refusal
/// otherwise.
std::optional<Refusal> resolve_output(const std::string& path, const OutputTarget& target, std::string& name,
                                      Descriptor& folder, bool& device_by_path) {
  const bool follow = (target.follow_symlinks && target.followable) || path.rfind("/dev/", 0) == 0;
  if (follow) {
    // A device the user names (/dev/stdout, /dev/fd/1) is a chain of links on Linux that may end
    // in a pipe no path names: opened by its path and written in place.
    struct stat status {};
    if (::stat(path.c_str(), &status) == 0 && !S_ISREG(status.st_mode) && !S_ISDIR(status.st_mode)) {
      device_by_path = true;
      return std::nullopt;
    }
    const fs::path resolved = resolve_links(path);
    if (resolved.filename().empty()) return Refusal{cannot_write(path, EISDIR)};
    std::variant<Descriptor, int> opened = open_folder(resolved.parent_path().string());
    if (int* code = std::get_if<int>(&opened)) return Refusal{cannot_write(path, *code)};
    folder = std::get<Descriptor>(std::move(opened));
    name = resolved.filename().string();
    return std::nullopt;
  }
  std::error_code ec;
  const fs::path real_cwd = fs::current_path(ec);
  const std::optional<detail::OutputPath> split =
      detail::split_output_path(path, ec ? std::string() : real_cwd.string(), logical_working_directory());
  if (!split) return Refusal{cannot_write(path, EISDIR)};
  std::variant<Descriptor, int> base = open_folder(split->base);
  if (int* code = std::get_if<int>(&base)) return Refusal{cannot_write(path, *code)};
  std::variant<Descriptor, BeneathFailure> opened =
      open_beneath(std::get<Descriptor>(base).get(), split->inside, O_PATH | O_DIRECTORY);
  if (BeneathFailure* failed = std::get_if<BeneathFailure>(&opened)) {
    if (!failed->link.empty()) return linked_folder(path, target, split->shown_base + failed->link, failed->link_target);
    return Refusal{cannot_write(path, failed->code)};
  }
  folder = std::get<Descriptor>(std::move(opened));
  name = split->name;
  struct stat status {};
  if (::fstatat(folder.get(), name.c_str(), &status, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(status.st_mode))
    return linked_file(path, target, link_target_at(folder.get(), name));
  return std::nullopt;
}

}  // namespace

Result<OutputFile> OutputFile::open(const std::string& path, const OutputTarget& target) {
  OutputFile file;
  file.path_ = path;
  file.target_ = target;
  if (std::optional<Refusal> refused = resolve_output(path, target, file.name_, file.folder_, file.device_by_path_))
    return refused->error;
  return file;
}

std::optional<Error> refused_symlink(const std::string& path, const OutputTarget& target) {
  std::string name;
  Descriptor folder;
  bool device = false;
  std::optional<Refusal> refused = resolve_output(path, target, name, folder, device);
  if (refused && refused->link) return refused->error;
  return std::nullopt;
}

Result<std::string> OutputFile::read_regular(std::size_t max_bytes) const {
  int fd;
  do fd = ::openat(folder_.get(), name_.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  while (fd < 0 && errno == EINTR);
  if (fd < 0) {
    if (errno == ELOOP) return linked_file(path_, target_, link_target_at(folder_.get(), name_)).error;
    return Error(std::strerror(errno));
  }
  const Descriptor held(fd);
  struct stat status {};
  if (::fstat(fd, &status) != 0) return Error(std::strerror(errno));
  if (!S_ISREG(status.st_mode)) return Error("it is not a regular file");
  Result<std::string> text = read_regular_descriptor(fd, path_, max_bytes);
  if (!text) return Error(text.error().message);
  return text;
}

Result<void> OutputFile::write(std::string_view contents) const {
  auto fail = [&](int code) -> Result<void> { return cannot_write(path_, code); };
  auto write_into = [&](int fd) -> Result<void> {
    const Descriptor held(fd);
    if (!write_all(fd, contents)) return fail(errno);
    return {};
  };
  if (device_by_path_) {
    int fd;
    do fd = ::open(path_.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    while (fd < 0 && errno == EINTR);
    if (fd < 0) return fail(errno);
    return write_into(fd);
  }
  const int folder = folder_.get();
  struct stat status {};
  const bool exists = ::fstatat(folder, name_.c_str(), &status, AT_SYMLINK_NOFOLLOW) == 0;
  if (!exists && errno != ENOENT) return fail(errno);
  // Planted since the path was resolved: a link is replaced by the rename, never followed, but
  // the user asked for the file, not for the link to be replaced.
  if (exists && S_ISLNK(status.st_mode)) return linked_file(path_, target_, link_target_at(folder, name_)).error;
  const bool writable = exists && ::faccessat(folder, name_.c_str(), W_OK, 0) == 0;
  switch (detail::output_method(exists, status.st_mode, writable)) {
    case detail::OutputMethod::refuse: return fail(EACCES);
    case detail::OutputMethod::write_in_place: {
      // /dev/null, a FIFO another process reads: a rename would put a regular file in its place.
      int fd;
      do fd = ::openat(folder, name_.c_str(), O_WRONLY | O_NOCTTY | O_NOFOLLOW | O_CLOEXEC);
      while (fd < 0 && errno == EINTR);
      if (fd < 0) return fail(errno);
      struct stat opened {};
      // A regular file put there meanwhile would be written over without O_TRUNC: not ours to.
      if (::fstat(fd, &opened) != 0 || S_ISREG(opened.st_mode)) {
        ::close(fd);
        return fail(EAGAIN);
      }
      return write_into(fd);
    }
    case detail::OutputMethod::create:
    case detail::OutputMethod::replace: break;
  }

  std::string temporary;
  std::variant<Descriptor, int> made = create_temporary(folder, name_, temporary);
  if (int* code = std::get_if<int>(&made)) return fail(*code);
  Descriptor fd = std::get<Descriptor>(std::move(made));
  auto discard = [&](int code) -> Result<void> {
    fd.reset();
    ::unlinkat(folder, temporary.c_str(), 0);
    return fail(code);
  };
  if (!write_all(fd.get(), contents)) return discard(errno);
  // The temporary file is 0600: a new report is an ordinary file (0666 less the umask); a
  // replaced one keeps its mode, and its owner when the user may give it (root).
  if (exists) {
    if (::fchown(fd.get(), status.st_uid, status.st_gid) != 0) {
      // Not allowed to (an ordinary user writing another's file): the user owns the new one.
    }
    ::fchmod(fd.get(), status.st_mode & 07777);
  } else {
    mode_t mask = ::umask(0);
    ::umask(mask);
    ::fchmod(fd.get(), 0666 & ~mask);
  }
  if (::fsync(fd.get()) != 0) return discard(errno);
  // Closed once, whatever close() says: the descriptor is released first.
  if (::close(fd.release()) != 0) {
    const int code = errno;
    ::unlinkat(folder, temporary.c_str(), 0);
    return fail(code);
  }
  if (::renameat(folder, temporary.c_str(), folder, name_.c_str()) != 0) {
    const int code = errno;
    ::unlinkat(folder, temporary.c_str(), 0);
    return fail(code);
  }
  return {};
}

Result<void> write_file_atomically(const std::string& path, std::string_view contents, const OutputTarget& target) {
  Result<OutputFile> file = OutputFile::open(path, target);
  if (!file) return file.error();
  return file->write(contents);
}

}  // namespace planlint
