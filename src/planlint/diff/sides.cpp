#include "planlint/diff/sides.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>

#include <fmt/format.h>

#include "planlint/diff/git.hpp"
#include "planlint/emit/repository_path.hpp"
#include "planlint/lint/inputs.hpp"
#include "planlint/markdown/markdown.hpp"
#include "planlint/source/repository.hpp"
#include "planlint/source/source_file.hpp"

namespace planlint {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view git_prefix = "git:";

/// Where a file's config is looked for, named as `check` names a file: relative to the working
/// folder when it lies inside it (ConfigDiscovery then names the config the same way), else
/// absolute.
std::string config_lookup_path(const fs::path& file) {
  std::error_code ec;
  const fs::path absolute = fs::absolute(file, ec).lexically_normal();
  const fs::path relative = absolute.lexically_relative(fs::current_path(ec));
  if (ec || relative.empty() || *relative.begin() == "..") return absolute.string();
  return relative.string();
}

/// The error of a side: "SIDE: [FILE: ]MESSAGE".
Error side_error(const DiffSide& side, const Error& error) {
  const std::string file = error.location.file.empty() ? std::string() : error.location.file + ": ";
  return Error(fmt::format("{}: {}{}", side.label, file, error.message), Location{}, error.help);
}

/// `path` from `folder` (both from the repository root, '/'-separated): "a.toml" of
/// "plans/a.toml" in "plans"; `path` itself when it is not inside `folder`.
std::string path_from_folder(const std::string& path, const std::string& folder) {
  if (folder.empty() || folder == ".") return path;
  const std::string prefix = folder.back() == '/' ? folder : folder + "/";
  return path.starts_with(prefix) ? path.substr(prefix.size()) : path;
}

/// Whether a plan file of a revision holds a plan, as a folder search decides it.
bool holds_plan(const std::string& path, const std::string& text) {
  if (is_markdown_path(path)) return !plan_blocks(text).empty();
  return toml_holds_plan(text);
}

Result<SideFiles> read_revision(const DiffSide& side, const SideReadOptions& options) {
  std::error_code ec;
  const fs::path root = fs::path(options.repository_root);
  const fs::path cwd = fs::current_path(ec);
  // Only paths inside the repository: git reads no other, and says so in its own words too.
  std::vector<std::string> folders;  // each path from the repository root
  for (const std::string& path : side.paths.empty() ? std::vector<std::string>{"."} : side.paths) {
    const fs::path inside = (cwd / path).lexically_normal().lexically_relative(root);
    if (inside.empty() || *inside.begin() == "..")
      return Error(fmt::format("{}: '{}' is outside the repository ('{}'): a revision holds only its files",
                               side.label, path, root.string()));
    folders.push_back(inside.generic_string());
  }
  Result<std::vector<GitFile>> tree = read_git_tree(*side.revision, side.paths, options.max_file_bytes);
  if (!tree) return side_error(side, tree.error());
  SideFiles files;
  for (GitFile& file : *tree) {
    if (!holds_plan(file.path, file.text)) continue;
    const std::string config_path = config_lookup_path(root / file.path);
    std::string key = folders.size() == 1 ? path_from_folder(file.path, folders.front()) : file.path;
    files.files.push_back(SideFile{std::move(file.path), std::move(key), config_path, std::move(file.text)});
  }
  return files;
}

Result<SideFiles> read_working_tree(const DiffSide& side, const SideReadOptions& options) {
  Result<std::vector<Input>> inputs = expand_inputs(side.paths, false, options.max_file_bytes, InputReader(), options.jobs);
  if (!inputs) return side_error(side, Error(inputs.error().message, inputs.error().location));
  std::error_code ec;
  const std::string cwd = fs::current_path(ec).string();
  SideFiles files;
  std::error_code type_error;
  files.single_file = side.paths.size() == 1 && !fs::is_directory(side.paths.front(), type_error);
  // One folder: its files are matched by their paths inside it.
  std::optional<std::string> folder;
  if (side.paths.size() == 1 && !files.single_file) {
    const std::string& named = side.paths.front();
    folder = path_in_repository(named, options.repository_root, cwd)
                 .value_or(fs::path(named).lexically_normal().generic_string());
  }
  for (Input& input : *inputs) {
    if (!input.text) {
      Result<std::string> text = read_file(input.path, options.max_file_bytes);
      if (!text) return side_error(side, Error(text.error().message, Location{input.path, {}}));
      input.text = *std::move(text);
    }
    std::string path = path_in_repository(input.path, options.repository_root, cwd).value_or(input.path);
    std::string config_path = config_lookup_path(input.path);
    std::string key = folder ? path_from_folder(path, *folder) : path;
    files.files.push_back(SideFile{std::move(path), std::move(key), std::move(config_path), *std::move(input.text)});
  }
  return files;
}

}  // namespace

Result<DiffSide> parse_diff_side(const std::string& text) {
  DiffSide side;
  side.label = text;
  if (!text.starts_with(git_prefix)) {
    if (text.empty()) return Error("expected a path or git:REV[:PATH], got an empty string");
    side.paths.push_back(text);
    return side;
  }
  const std::string_view rest = std::string_view(text).substr(git_prefix.size());
  const std::size_t colon = rest.find(':');
  side.revision = std::string(rest.substr(0, colon));
  if (side.revision->empty())
    return Error(fmt::format("'{}': expected git:REV[:PATH], a revision after 'git:'", text));
  if (side.revision->front() == '-')
    return Error(fmt::format("'{}': a revision does not start with '-'", text));
  if (colon != std::string_view::npos && colon + 1 < rest.size()) side.paths.emplace_back(rest.substr(colon + 1));
  return side;
}

Result<SideFiles> read_side(const DiffSide& side, const SideReadOptions& options) {
  Result<SideFiles> files = side.revision ? read_revision(side, options) : read_working_tree(side, options);
  if (!files) return files;
  std::sort(files->files.begin(), files->files.end(),
            [](const SideFile& a, const SideFile& b) { return a.key < b.key; });
  return files;
}

std::string diff_repository_root() {
  const GitOutput top = run_git({"rev-parse", "--show-toplevel"});
  std::string root = top.out;
  while (!root.empty() && (root.back() == '\n' || root.back() == '\r')) root.pop_back();
  if (top.status == 0 && !root.empty()) return root;
  std::error_code ec;
  return repository_root(fs::current_path(ec).string());
}

}  // namespace planlint
