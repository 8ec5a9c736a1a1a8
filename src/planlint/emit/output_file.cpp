#include "planlint/emit/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

#include <fmt/format.h>

namespace planlint {

bool write_file_atomically(const std::string& path, std::string_view contents, std::string& error) {
  namespace fs = std::filesystem;
  fs::path target(path);
  fs::path folder = target.parent_path();
  std::string pattern =
      ((folder.empty() ? fs::path(".") : folder) / ("." + target.filename().string() + ".XXXXXX"))
          .string();
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  auto fail = [&](int code) {
    error = fmt::format("cannot write '{}': {}", path, std::strerror(code));
    return false;
  };
  int fd = ::mkstemp(name.data());
  if (fd < 0) return fail(errno);
  const char* data = contents.data();
  std::size_t left = contents.size();
  while (left > 0) {
    ssize_t written = ::write(fd, data, left);
    if (written < 0) {
      if (errno == EINTR) continue;
      int code = errno;
      ::close(fd);
      ::unlink(name.data());
      return fail(code);
    }
    data += written;
    left -= static_cast<std::size_t>(written);
  }
  // mkstemp creates 0600; a report is an ordinary file (0666 less the umask).
  mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    int code = errno;
    ::unlink(name.data());
    return fail(code);
  }
  if (std::rename(name.data(), path.c_str()) != 0) {
    int code = errno;
    ::unlink(name.data());
    return fail(code);
  }
  return true;
}

}  // namespace planlint
