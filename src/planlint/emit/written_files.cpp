#include "planlint/emit/written_files.hpp"

#include <algorithm>
#include <filesystem>

#include <sys/stat.h>

#include <fmt/format.h>

namespace planlint {

namespace {

namespace fs = std::filesystem;

/// A file an option writes.
struct WrittenFile {
  const char* option = nullptr;
  std::string path;
  bool regular = false;  ///< an existing regular file: `file` is its device and inode
  struct stat file {};
  fs::path resolved;  ///< the path with its symbolic links resolved, for a file not there yet
};

std::optional<WrittenFile> written_file(const char* option, const std::optional<std::string>& path) {
  if (!path) return std::nullopt;
  WrittenFile written;
  written.option = option;
  written.path = *path;
  written.regular = ::stat(path->c_str(), &written.file) == 0 && S_ISREG(written.file.st_mode);
  std::error_code ec;
  written.resolved = fs::weakly_canonical(*path, ec);
  if (ec) written.resolved = fs::absolute(*path, ec).lexically_normal();
  return written;
}

/// Whether two written files are one: the same inode, or the same resolved path when not there
/// yet. A device or FIFO (/dev/null) is written into, not replaced, so two options may share one.
bool same_file(const WrittenFile& a, const WrittenFile& b) {
  if (a.regular && b.regular) return a.file.st_dev == b.file.st_dev && a.file.st_ino == b.file.st_ino;
  struct stat status {};
  return !a.regular && !b.regular && ::stat(a.path.c_str(), &status) != 0 && a.resolved == b.resolved;
}

}  // namespace

std::vector<Error> check_written_files(const WrittenFiles& files, const std::vector<std::string>& linted) {
  std::vector<Error> errors;
  std::vector<WrittenFile> written;
  for (auto file : {written_file("-o", files.output), written_file("--write-baseline", files.write_baseline)})
    if (file) written.push_back(std::move(*file));
  if (written.empty()) return errors;
  if (written.size() == 2 && same_file(written[0], written[1]))
    errors.emplace_back(fmt::format("-o '{}' and --write-baseline '{}' are the same file: give each its own",
                                    written[0].path, written[1].path));
  if (auto baseline = written_file("--baseline", files.baseline);
      baseline && files.output && same_file(written[0], *baseline))
    errors.emplace_back(fmt::format("-o '{}' and --baseline '{}' are the same file: the report would overwrite the "
                                    "baseline",
                                    written[0].path, baseline->path));
  // A linted file exists, so only a regular file already there can be one of them.
  if (std::none_of(written.begin(), written.end(), [](const WrittenFile& w) { return w.regular; })) return errors;
  for (const std::string& path : linted) {
    struct stat status {};
    if (::stat(path.c_str(), &status) != 0) continue;
    for (const WrittenFile& w : written)
      if (w.regular && w.file.st_dev == status.st_dev && w.file.st_ino == status.st_ino)
        errors.emplace_back(fmt::format("{} '{}' and the linted file '{}' are the same file: writing it would "
                                        "overwrite the plan",
                                        w.option, w.path, path));
    if (!errors.empty()) return errors;
  }
  return errors;
}

}  // namespace planlint
