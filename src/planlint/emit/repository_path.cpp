#include "planlint/emit/repository_path.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include <fmt/format.h>

namespace planlint {

namespace fs = std::filesystem;

std::optional<std::string> path_in_repository(const std::string& display_path, const std::string& root,
                                              const std::string& working_directory) {
  if (root.empty()) return std::nullopt;
  fs::path path(display_path);
  if (path.is_relative() && !working_directory.empty()) path = fs::path(working_directory) / path;
  const fs::path relative = path.lexically_normal().lexically_relative(fs::path(root).lexically_normal());
  if (relative.empty() || *relative.begin() == "..") return std::nullopt;
  return relative.generic_string();
}

std::string encode_uri_path(std::string_view path) {
  std::string out;
  for (unsigned char c : path) {
    if (std::isalnum(c) || std::string_view("-._~/!$&'()*+,;=:@").find(static_cast<char>(c)) !=
                               std::string_view::npos)
      out += static_cast<char>(c);
    else
      out += fmt::format("%{:02X}", c);
  }
  return out;
}

namespace {

/// A relative-path reference: encode_uri_path(), and "./" before it when its first segment holds
/// a colon, which would read as a scheme ("javascript:alert(1).toml"; RFC 3986 §4.2).
std::string relative_reference(std::string_view path) {
  std::string encoded = encode_uri_path(path);
  const std::size_t first_segment = std::min(encoded.find('/'), encoded.size());
  if (encoded.find(':') < first_segment) encoded.insert(0, "./");
  return encoded;
}

}  // namespace

ArtifactUri artifact_uri(const std::string& display_path, const std::string& root,
                         const std::string& working_directory) {
  if (auto inside = path_in_repository(display_path, root, working_directory))
    return {relative_reference(*inside), true};
  fs::path path(display_path);
  if (path.is_relative() && !working_directory.empty()) path = fs::path(working_directory) / path;
  path = path.lexically_normal();
  if (path.is_relative()) return {relative_reference(path.generic_string()), false};
  return {"file://" + encode_uri_path(path.generic_string()), false};
}

}  // namespace planlint
