#include "planlint/lint/tracked_files.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <vector>

#include <fmt/format.h>

extern char** environ;

namespace planlint {

namespace {

/// Closes a descriptor when it goes out of scope.
struct Descriptor {
  int fd = -1;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

/// posix_spawn's file actions, destroyed with the object.
struct FileActions {
  posix_spawn_file_actions_t actions;
  FileActions() { posix_spawn_file_actions_init(&actions); }
  ~FileActions() { posix_spawn_file_actions_destroy(&actions); }
};

}  // namespace

Result<TrackedFiles> git_tracked_files(const std::string& folder) {
  std::array<int, 2> pipe_fds{};
  if (::pipe2(pipe_fds.data(), O_CLOEXEC) != 0) return Error(fmt::format("cannot make a pipe: {}", std::strerror(errno)));
  Descriptor read_end{pipe_fds[0]}, write_end{pipe_fds[1]};
  FileActions files;
  posix_spawn_file_actions_addopen(&files.actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&files.actions, write_end.fd, STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&files.actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  // The index as it is: no file system monitor hook is started for a listing.
  std::vector<std::string> arguments = {"git", "-C", folder, "-c", "core.fsmonitor=false", "ls-files", "-z", "--cached"};
  std::vector<char*> argv;
  for (std::string& argument : arguments) argv.push_back(argument.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (const int failed = ::posix_spawnp(&pid, "git", &files.actions, nullptr, argv.data(), environ); failed != 0)
    return Error(failed == ENOENT ? std::string("git is not installed") : fmt::format("cannot run git: {}", std::strerror(failed)));
  ::close(write_end.fd);
  write_end.fd = -1;

  std::string output;
  std::array<char, 65536> buffer;
  while (true) {
    const ssize_t n = ::read(read_end.fd, buffer.data(), buffer.size());
    if (n > 0) {
      output.append(buffer.data(), static_cast<std::size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      break;
    }
  }
  // Closed before the wait: after a read error, git ends on a broken pipe rather than waiting.
  ::close(read_end.fd);
  read_end.fd = -1;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return Error(fmt::format("cannot wait for git: {}", std::strerror(errno)));
  if (!WIFEXITED(status)) return Error("git ls-files did not finish");
  if (WEXITSTATUS(status) != 0)
    return Error(fmt::format("git ls-files exited with status {} (not a git work tree?)", WEXITSTATUS(status)));

  TrackedFiles tracked;
  for (std::size_t begin = 0, end; (end = output.find('\0', begin)) != std::string::npos; begin = end + 1) {
    std::string file = output.substr(begin, end - begin);
    // From the deepest folder up, to the first one another file brought: the rest are in.
    for (std::size_t slash = file.rfind('/'); slash != std::string::npos && slash > 0; slash = file.rfind('/', slash - 1))
      if (!tracked.folders.insert(file.substr(0, slash)).second) break;
    tracked.files.insert(std::move(file));
  }
  return tracked;
}

}  // namespace planlint
