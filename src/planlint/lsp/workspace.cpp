#include "planlint/lsp/workspace.hpp"

#include <fmt/format.h>

#include "planlint/config/config.hpp"
#include "planlint/diag/native_rules.hpp"
#include "planlint/settings/settings.hpp"

namespace planlint::lsp {

namespace {

namespace fs = std::filesystem;

/// `path` absolute and normal, without a trailing separator (a pack folder is named
/// "policies/" in a config): what file_changed compares.
std::string absolute(const std::string& path) {
  std::error_code ec;
  const fs::path made = fs::absolute(path, ec);
  std::string normal = (ec ? fs::path(path) : made).lexically_normal().string();
  while (normal.size() > 1 && normal.back() == '/') normal.pop_back();
  return normal;
}

std::optional<fs::file_time_type> modified(const std::string& path) {
  std::error_code ec;
  const auto time = fs::last_write_time(path, ec);
  if (ec) return std::nullopt;
  return time;
}

}  // namespace

void Workspace::set_root(std::optional<std::string> folder) {
  std::lock_guard lock(mutex_);
  root_ = std::move(folder);
}

Workspace::Entry Workspace::make_entry(const std::optional<std::string>& config_path) {
  Entry entry;
  entry.lookup.config_path = config_path;
  DiagnosticSink problems;
  std::optional<Config> config;
  if (config_path) {
    entry.read_files.push_back(absolute(*config_path));
    entry.config_time = modified(*config_path);
    Result<Config> loaded = load_config(*config_path, problems);
    if (!loaded) {
      problems.report(loaded.error(), problem_kinds::config);
      entry.lookup.problems = problems.take();
      return entry;
    }
    for (const ConfigPath& pack : loaded->rules) entry.read_files.push_back(absolute(pack.resolved));
    for (const std::string& catalog : loaded->catalogs) entry.read_files.push_back(absolute(catalog));
    config = *std::move(loaded);
  }
  SettingsOverrides overrides;
  overrides.today = options_.today;
  std::unique_ptr<Settings> settings = make_settings(std::move(config), overrides, problems);
  if (!problems.empty()) {
    entry.lookup.problems = problems.take();
    return entry;
  }
  // An editor shows each metric's formula and inputs on hover, as `planlint report` does.
  settings->lint.full_estimates = true;
  entry.lookup.settings = std::move(settings);
  return entry;
}

SettingsLookup Workspace::settings_for(const std::optional<std::string>& path) {
  std::optional<std::string> config_path = options_.config;
  if (!config_path) {
    if (path) {
      config_path = discover_config(*path);
    } else {
      std::lock_guard lock(mutex_);
      if (root_) config_path = discover_folder_config(*root_);
    }
  }
  const std::string key = config_path ? absolute(*config_path) : std::string();
  std::lock_guard lock(mutex_);
  auto it = by_config_.find(key);
  if (it != by_config_.end() && config_path && it->second.config_time != modified(*config_path)) {
    by_config_.erase(it);
    it = by_config_.end();
  }
  if (it == by_config_.end()) it = by_config_.emplace(key, make_entry(config_path)).first;
  return it->second.lookup;
}

bool Workspace::file_changed(const std::string& path) {
  const std::string changed = absolute(path);
  const bool config = fs::path(changed).filename() == config_file_name;
  std::lock_guard lock(mutex_);
  bool read = config;
  for (const auto& [key, entry] : by_config_)
    for (const std::string& file : entry.read_files)
      if (changed == file || changed.starts_with(file + "/")) read = true;
  if (read) by_config_.clear();
  return read;
}

}  // namespace planlint::lsp
