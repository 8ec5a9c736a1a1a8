#include "planlint/diff/sides.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <thread>
#include <utility>

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
std::string config_lookup_path(const fs::path& file, const fs::path& cwd) {
  const fs::path absolute = (file.is_absolute() ? file : cwd / file).lexically_normal();
  const fs::path relative = absolute.lexically_relative(cwd);
  if (cwd.empty() || relative.empty() || *relative.begin() == "..") return absolute.string();
  return relative.string();
}

/// `path` from `folder` (both from the repository root, '/'-separated): "a.toml" of
/// "plans/a.toml" in "plans"; `path` itself when it is not inside `folder`.
std::string path_from_folder(const std::string& path, const std::string& folder) {
  if (folder.empty() || folder == ".") return path;
  const std::string prefix = folder.back() == '/' ? folder : folder + "/";
  return path.starts_with(prefix) ? path.substr(prefix.size()) : path;
}

/// config_lookup_path of a revision's files, named by git from the repository root: with the
/// working folder inside the repository (the usual case), the file's path with the folder's
/// prefix taken off, where the general case makes and normalises two paths a file.
class RevisionConfigPaths {
 public:
  RevisionConfigPaths(const fs::path& root, const fs::path& cwd) : root_(root), cwd_(cwd) {
    const fs::path inside = cwd.lexically_relative(root);
    if (cwd.empty() || root.empty() || inside.empty() || *inside.begin() == "..") return;
    prefix_ = inside == "." ? std::string() : inside.generic_string() + "/";
  }

  std::string operator()(const std::string& path_from_root) const {
    if (prefix_ && path_from_root.starts_with(*prefix_)) return path_from_root.substr(prefix_->size());
    return config_lookup_path(root_ / path_from_root, cwd_);
  }

 private:
  const fs::path& root_;
  const fs::path& cwd_;
  std::optional<std::string> prefix_;  ///< the working folder's from the root ("" for the root itself, else "a/b/")
};

/// Each path of a revision's side from the repository root; the error of a path outside it.
Result<std::vector<std::string>> revision_folders(const DiffSide& side, const fs::path& root, const fs::path& cwd) {
  // Only paths inside the repository: git reads no other, and says so in its own words too.
  std::vector<std::string> folders;
  for (const std::string& path : side.paths.empty() ? std::vector<std::string>{"."} : side.paths) {
    const fs::path inside = (cwd / path).lexically_normal().lexically_relative(root);
    if (inside.empty() || *inside.begin() == "..")
      return Error(fmt::format("{}: '{}' is outside the repository ('{}'): a revision holds only its files",
                               side.label, path, root.string()));
    folders.push_back(inside.generic_string());
  }
  return folders;
}

/// The files of revision sides, listed (their blobs, not their texts) by their `git ls-tree`s
/// at once.
std::vector<Result<SideFiles>> list_revisions(const std::vector<const DiffSide*>& sides,
                                              const SideReadOptions& options) {
  std::error_code ec;
  const fs::path root = fs::path(options.repository_root);
  const fs::path cwd = fs::current_path(ec);
  std::vector<Result<SideFiles>> listed;
  std::vector<std::vector<std::string>> folders(sides.size());
  std::vector<GitTree> trees;
  std::vector<std::size_t> tree_of;  ///< the side of each tree
  for (std::size_t s = 0; s < sides.size(); ++s) {
    Result<std::vector<std::string>> named = revision_folders(*sides[s], root, cwd);
    listed.emplace_back(named ? Result<SideFiles>(SideFiles{}) : Result<SideFiles>(named.error()));
    if (!named) continue;
    folders[s] = *std::move(named);
    trees.push_back(GitTree{*sides[s]->revision, sides[s]->paths});
    tree_of.push_back(s);
  }
  std::vector<Result<std::vector<GitBlob>>> blobs = list_git_trees(trees, options.max_file_bytes);
  const RevisionConfigPaths config_path_of(root, cwd);
  for (std::size_t t = 0; t < trees.size(); ++t) {
    const std::size_t s = tree_of[t];
    if (!blobs[t]) {
      listed[s] = side_error(*sides[s], blobs[t].error());
      continue;
    }
    std::vector<SideFile>& files = listed[s]->files;
    files.reserve(blobs[t]->size());
    for (GitBlob& blob : *blobs[t]) {
      std::string config_path = config_path_of(blob.path);
      std::string key = folders[s].size() == 1 ? path_from_folder(blob.path, folders[s].front()) : blob.path;
      std::string path = blob.path;
      files.push_back(SideFile{std::move(path), std::move(key), std::move(config_path), {}, std::move(blob)});
    }
  }
  return listed;
}

Result<SideFiles> read_working_tree(const DiffSide& side, const SideReadOptions& options) {
  Result<std::vector<Input>> inputs = expand_inputs(side.paths, false, options.max_file_bytes, InputReader(), options.jobs);
  if (!inputs) return side_error(side, Error(inputs.error().message, inputs.error().location));
  std::error_code ec;
  const fs::path cwd_path = fs::current_path(ec);
  const std::string cwd = cwd_path.string();
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
    std::string config_path = config_lookup_path(input.path, cwd_path);
    std::string key = folder ? path_from_folder(path, *folder) : path;
    files.files.push_back(
        SideFile{std::move(path), std::move(key), std::move(config_path), *std::move(input.text), std::nullopt});
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

std::pair<Result<SideFiles>, Result<SideFiles>> read_sides(const DiffSide& base, const DiffSide& head,
                                                            const SideReadOptions& options) {
  auto sorted = [](Result<SideFiles> files) {
    const auto by_key = [](const SideFile& a, const SideFile& b) { return a.key < b.key; };
    // git lists a tree already in this order: checked, not sorted again.
    if (files && !std::is_sorted(files->files.begin(), files->files.end(), by_key))
      std::sort(files->files.begin(), files->files.end(), by_key);
    return files;
  };
  if (base.revision && head.revision) {
    std::vector<Result<SideFiles>> both = list_revisions({&base, &head}, options);
    return {sorted(std::move(both[0])), sorted(std::move(both[1]))};
  }
  auto read_one = [&options](const DiffSide& side) {
    return side.revision ? std::move(list_revisions({&side}, options).front()) : read_working_tree(side, options);
  };
  // One job (the WebAssembly build has no thread): one side, then the other.
  if (options.jobs <= 1) {
    Result<SideFiles> base_files = read_one(base);
    return {sorted(std::move(base_files)), sorted(read_one(head))};
  }
  // A revision and the working tree are read at once: reading a revision waits on git, which
  // works meanwhile.
  std::optional<Result<SideFiles>> base_files;
  std::thread base_reader([&] { base_files.emplace(read_one(base)); });
  Result<SideFiles> head_files = read_one(head);
  base_reader.join();
  return {sorted(*std::move(base_files)), sorted(std::move(head_files))};
}

bool holds_plan(const SideFile& file) {
  if (!file.blob) return true;
  if (is_markdown_path(file.path)) return !plan_blocks(file.text).empty();
  return toml_holds_plan(file.text);
}

Error side_error(const DiffSide& side, const Error& error) {
  const std::string file = error.location.file.empty() ? std::string() : error.location.file + ": ";
  return Error(fmt::format("{}: {}{}", side.label, file, error.message), Location{}, error.help);
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
