// .planlint.toml discovery: the nearest config up from a linted file, stopping after the first
// repository root (config.hpp).
#include <filesystem>

#include "planlint/config/config.hpp"
#include "planlint/source/repository.hpp"

namespace planlint {

namespace fs = std::filesystem;

std::optional<std::string> discover_config(const std::string& linted_file) {
  // One walk up, the same as a run's; a fresh discovery remembers nothing between calls.
  return ConfigDiscovery().find(linted_file);
}

std::optional<std::string> discover_folder_config(const std::string& folder) {
  // A file of the folder, which need not exist: its folder is where the walk starts.
  return ConfigDiscovery().find((fs::path(folder) / config_file_name).string());
}

const std::string& ConfigDiscovery::governing(const std::string& folder) {
  if (auto it = by_folder_.find(folder); it != by_folder_.end()) return it->second;
  std::error_code ec;
  const fs::path path(folder);
  std::string found;
  if (fs::path candidate = path / config_file_name; fs::is_regular_file(candidate, ec)) {
    found = candidate.string();
  } else if (!is_repository_root(folder) && path.has_parent_path() && path.parent_path() != path) {
    found = governing(path.parent_path().string());  // not a repository root: look further up
  }
  return by_folder_.emplace(folder, std::move(found)).first->second;
}

std::optional<std::string> ConfigDiscovery::find(const std::string& linted_file) {
  // The folder as written: "" for a file named without one, "/" kept for a file at the root
  // (which is not relative).
  const std::size_t slash = linted_file.rfind('/');
  const std::string_view written_folder =
      slash == std::string::npos ? std::string_view() : std::string_view(linted_file).substr(0, slash + 1);
  if (auto it = by_written_folder_.find(written_folder); it != by_written_folder_.end()) return it->second;
  std::optional<std::string> found = find_uncached(linted_file);
  by_written_folder_.emplace(written_folder, found);
  return found;
}

std::optional<std::string> ConfigDiscovery::find_uncached(const std::string& linted_file) {
  std::error_code ec;
  const fs::path folder = fs::absolute(linted_file, ec).lexically_normal().parent_path();
  if (ec) return std::nullopt;
  const std::string& config = governing(folder.string());
  if (config.empty()) return std::nullopt;
  // Name it as the linted file is named: relative when that was relative.
  if (!fs::path(linted_file).is_relative()) return config;
  auto it = relative_.find(config);
  if (it == relative_.end()) {
    // Lexically: fs::relative() would resolve a `.planlint.toml` that is a link into the path
    // of what it names, and the config would no longer be the one found beside the files.
    fs::path relative = fs::path(config).lexically_relative(fs::current_path(ec));
    it = relative_.emplace(config, ec || relative.empty() ? config : relative.string()).first;
  }
  return it->second;
}

}  // namespace planlint
