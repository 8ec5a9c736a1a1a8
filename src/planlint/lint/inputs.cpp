#include "planlint/lint/inputs.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

#include "planlint/markdown/markdown.hpp"
#include "planlint/plan/loader.hpp"
#include "planlint/source/source_file.hpp"

namespace planlint {

namespace fs = std::filesystem;

namespace {

bool hidden(const fs::path& path) {
  const std::string name = path.filename().string();
  return name.size() > 1 && name[0] == '.' && name != "..";
}

/// Whether a file holds a plan: a top-level [plan] table, or a Markdown ```toml block with one.
bool holds_plan(const fs::path& path) {
  std::string ignored;
  auto text = read_file(path.string(), ignored);
  if (!text) return false;
  return is_markdown_path(path.string()) ? !plan_blocks(*text).empty() : looks_like_plan(*text);
}

void search_folder(const fs::path& folder, std::vector<std::string>& files,
                   std::optional<InputError>& error) {
  std::error_code ec;
  std::vector<fs::path> found;
  fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec);
  if (ec) {
    error = InputError{folder.string(), ec.message()};
    return;
  }
  for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    if (it->is_directory(ec) && (hidden(it->path()) || it->path().filename() == "node_modules")) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec) &&
        (it->path().extension() == ".toml" || is_markdown_path(it->path().string())))
      found.push_back(it->path());
  }
  std::sort(found.begin(), found.end());
  for (const fs::path& path : found)
    if (holds_plan(path)) files.push_back(path.string());
}

}  // namespace

std::vector<std::string> expand_inputs(const std::vector<std::string>& paths,
                                       std::optional<InputError>& error, bool skip_non_plans) {
  std::vector<std::string> files;
  for (const std::string& path : paths) {
    std::error_code ec;
    fs::file_status status = fs::status(path, ec);
    if (ec || !fs::exists(status)) {
      error = InputError{path, "No such file or directory"};
      return {};
    }
    if (fs::is_directory(status)) {
      search_folder(path, files, error);
      if (error) return {};
    } else if (!skip_non_plans || holds_plan(path)) {
      files.push_back(path);
    }
  }
  std::vector<std::string> unique;
  std::set<std::string> seen;
  for (std::string& file : files)
    if (seen.insert(fs::path(file).lexically_normal().string()).second) unique.push_back(std::move(file));
  return unique;
}

}  // namespace planlint
