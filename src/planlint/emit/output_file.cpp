#include "planlint/emit/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

#include <fmt/format.h>

namespace planlint {

namespace fs = std::filesystem;

namespace detail {

OutputMethod output_method(bool exists, mode_t mode, bool writable) {
  if (!exists) return OutputMethod::create;
  if (!writable) return OutputMethod::refuse;
  return S_ISREG(mode) ? OutputMethod::replace : OutputMethod::write_in_place;
}

}  // namespace detail

namespace {

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

/// The first folder on the way from the working directory to `path`'s file that is a symbolic
/// link: a checkout can plant `reports -> /etc` as well as `planlint.sarif -> /etc/x`. Folders
/// above the working directory ($RUNNER_TEMP's parents, /tmp on some systems) are the machine's,
/// not the checkout's, and are not looked at; nor is a path outside it.
std::optional<fs::path> linked_folder(const fs::path& path) {
  std::error_code ec;
  fs::path walked, inside = path;
  if (path.is_absolute()) {
    const fs::path cwd = fs::current_path(ec);
    if (ec) return std::nullopt;
    auto [in_cwd, in_path] = std::mismatch(cwd.begin(), cwd.end(), path.begin(), path.end());
    if (in_cwd != cwd.end()) return std::nullopt;
    walked = cwd;
    inside.clear();
    for (; in_path != path.end(); ++in_path) inside /= *in_path;
  }
  for (const fs::path& part : inside.parent_path()) {
    walked /= part;
    if (part == "." || part == "..") continue;
    if (fs::is_symlink(fs::symlink_status(walked, ec))) return walked;
  }
  return std::nullopt;
}

}  // namespace

std::optional<Error> refused_symlink(const std::string& path, const OutputTarget& output) {
  std::error_code ec;
  // A device the user names (/dev/stdout, /dev/fd/1) is a link on Linux; no checkout plants it.
  if (output.follow_symlinks || path.rfind("/dev/", 0) == 0) return std::nullopt;
  if (const std::optional<fs::path> folder = linked_folder(path)) {
    const fs::path link = fs::read_symlink(*folder, ec);
    return Error(fmt::format("{} {}: the folder '{}' is a symbolic link (to '{}'); planlint does not write through a "
                             "link, which a checkout may have planted to put the file somewhere else",
                             output.option, path, folder->string(), link.string()),
                 Location{}, "name a file in another folder, or allow it with --output-follow-symlinks");
  }
  if (!fs::is_symlink(fs::symlink_status(path, ec))) return std::nullopt;
  const fs::path link = fs::read_symlink(path, ec);
  return Error(fmt::format("{} {}: '{}' is a symbolic link (to '{}'); planlint does not write through a link, which "
                           "a checkout may have planted to overwrite another file",
                           output.option, path, path, link.string()),
               Location{}, "name another file, or allow it with --output-follow-symlinks");
}

Result<void> write_file_atomically(const std::string& path, std::string_view contents, const OutputTarget& output) {
  auto fail = [&](int code) -> Result<void> {
    return Error(fmt::format("cannot write '{}': {}", path, std::strerror(code)));
  };
  if (std::optional<Error> refused = refused_symlink(path, output)) return *refused;
  const fs::path target = resolve_links(path);
  struct stat status {};
  const bool exists = ::stat(target.c_str(), &status) == 0;
  if (!exists && errno != ENOENT) return fail(errno);
  const bool writable = exists && ::access(target.c_str(), W_OK) == 0;
  switch (detail::output_method(exists, status.st_mode, writable)) {
    case detail::OutputMethod::refuse: return fail(EACCES);
    case detail::OutputMethod::write_in_place: {
      // /dev/null, a FIFO another process reads: a rename would put a regular file in its place.
      int fd = -1;
      do fd = ::open(target.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
      while (fd < 0 && errno == EINTR);
      if (fd < 0) return fail(errno);
      const bool written = write_all(fd, contents);
      const int code = errno;
      if (::close(fd) != 0 && written) return fail(errno);
      return written ? Result<void>() : fail(code);
    }
    case detail::OutputMethod::create:
    case detail::OutputMethod::replace: break;
  }

  const fs::path folder = target.parent_path();
  std::string pattern =
      ((folder.empty() ? fs::path(".") : folder) / ("." + target.filename().string() + ".XXXXXX")).string();
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  int fd = ::mkstemp(name.data());
  if (fd < 0) return fail(errno);
  auto discard = [&](int code) -> Result<void> {
    ::close(fd);
    ::unlink(name.data());
    return fail(code);
  };
  if (!write_all(fd, contents)) return discard(errno);
  // mkstemp creates 0600: a new report is an ordinary file (0666 less the umask); a replaced
  // one keeps its mode, and its owner when the user may give it (root).
  if (exists) {
    if (::fchown(fd, status.st_uid, status.st_gid) != 0) {
      // Not allowed to (an ordinary user writing another's file): the user owns the new one.
    }
    ::fchmod(fd, status.st_mode & 07777);
  } else {
    mode_t mask = ::umask(0);
    ::umask(mask);
    ::fchmod(fd, 0666 & ~mask);
  }
  if (::fsync(fd) != 0) return discard(errno);
  if (::close(fd) != 0) {
    int code = errno;
    ::unlink(name.data());
    return fail(code);
  }
  if (std::rename(name.data(), target.c_str()) != 0) {
    int code = errno;
    ::unlink(name.data());
    return fail(code);
  }
  return {};
}

}  // namespace planlint
