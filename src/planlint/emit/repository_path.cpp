#include "planlint/emit/repository_path.hpp"

#include <filesystem>

namespace planlint {

std::optional<std::string> path_in_repository(const std::string& display_path, const std::string& root,
                                              const std::string& working_directory) {
  namespace fs = std::filesystem;
  if (root.empty()) return std::nullopt;
  fs::path path(display_path);
  if (path.is_relative() && !working_directory.empty()) path = fs::path(working_directory) / path;
  const fs::path relative = path.lexically_normal().lexically_relative(fs::path(root).lexically_normal());
  if (relative.empty() || *relative.begin() == "..") return std::nullopt;
  return relative.generic_string();
}

}  // namespace planlint
