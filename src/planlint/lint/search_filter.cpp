#include "planlint/lint/search_filter.hpp"

#include <fmt/format.h>

#include "planlint/source/repository.hpp"
#include "planlint/source/limits.hpp"

namespace planlint {

namespace fs = std::filesystem;

namespace {

/// "" for ".", else `path` with a trailing '/'.
std::string as_prefix(const fs::path& path) {
  const std::string text = path.generic_string();
  return text.empty() || text == "." ? std::string() : text + "/";
}

}  // namespace

bool SearchFilter::tracked_by_git(const std::string& relative, bool directory) {
  if (!in_git_work_tree) return false;
  if (!tracked) {
    tracked = git_tracked_files(root.string());
    if (!*tracked && notes)
      notes->push_back(fmt::format("planlint: note: {}: cannot tell which files git tracks ({}), so .gitignore "
                                   "files may leave tracked plans out of the search (--no-ignore reads none)",
                                   root.string(), tracked->error().message));
  }
  return *tracked && (*tracked)->holds(relative, directory);
}

void push_gitignore(const fs::path& folder, const std::string& prefix, SearchFilter& filter, const InputReader& reader) {
  std::optional<FileIdentity> identity;
  // An unreadable .gitignore is passed over, as git passes it over.
  if (Result<std::string> text = reader.read((folder / ".gitignore").string(), default_max_file_bytes, identity))
    filter.ignores.push(prefix, IgnorePatterns(*text));
}

SearchFilter make_filter(const fs::path& root, const SearchOptions& options, const InputReader& reader) {
  SearchFilter filter;
  filter.gitignore = !options.gitignore || options.gitignore(root.string());
  filter.root = root;
  filter.notes = options.notes;
  std::error_code ec;
  fs::path absolute = fs::absolute(root, ec).lexically_normal();
  if (!absolute.has_filename()) absolute = absolute.parent_path();  // "plans/"
  if (!options.exclude.empty()) {
    filter.exclude = IgnorePatterns(options.exclude);
    filter.root_from_working = as_prefix(absolute.lexically_relative(fs::current_path(ec)));
  }
  if (!filter.gitignore || ec) return filter;
  const fs::path repository = repository_root(absolute.string());
  filter.in_git_work_tree = fs::exists(repository / ".git", ec);
  const fs::path from_repository = absolute.lexically_relative(repository);
  filter.root_from_repository = as_prefix(from_repository);
  // The folders above the searched one, from the repository root down; its own .gitignore
  // and those below it are read as the search enters them.
  fs::path folder = repository;
  std::string prefix;
  for (const fs::path& part : from_repository) {
    if (part.empty() || part == ".") break;
    if (fs::is_regular_file(folder / ".gitignore", ec)) push_gitignore(folder, prefix, filter, reader);
    folder /= part;
    prefix += part.string() + "/";
  }
  return filter;
}

}  // namespace planlint
