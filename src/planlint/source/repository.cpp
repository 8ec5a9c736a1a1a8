#include "planlint/source/repository.hpp"

#include <filesystem>
#include <string_view>

namespace planlint {

namespace fs = std::filesystem;

bool is_repository_root(const std::string& folder) {
  // Config discovery stops at a version-control root, and git's is not the only one: a
  // config above a Mercurial or Jujutsu checkout would otherwise apply to it.
  static constexpr std::string_view markers[] = {".git", ".hg", ".svn", ".jj", ".bzr", "_darcs", ".pijul"};
  std::error_code ec;
  for (std::string_view marker : markers)
    if (fs::exists(fs::path(folder) / marker, ec)) return true;
  return false;
}

std::string repository_root(const std::string& folder) {
  std::error_code ec;
  fs::path start = fs::absolute(folder, ec).lexically_normal();
  for (fs::path at = start;; at = at.parent_path()) {
    if (is_repository_root(at.string())) return at.string();
    if (!at.has_parent_path() || at.parent_path() == at) break;
  }
  return start.string();
}

}  // namespace planlint
