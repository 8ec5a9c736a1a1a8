#pragma once
/// The settings open documents are linted with: each document's config found as `planlint
/// check` finds it (its nearest .planlint.toml, or --config), its rule packs and catalog, made
/// once and kept until a config, rule pack or catalog file changes.
#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "planlint/diag/diagnostic.hpp"
#include "planlint/plan/plan.hpp"

namespace planlint {
struct Settings;
}

namespace planlint::lsp {

struct WorkspaceOptions {
  std::optional<std::string> config;  ///< --config
  std::optional<Date> today;
  std::size_t max_file_bytes = 0;
  std::size_t max_plans_per_file = 0;
  /// The most findings a document shows, its most severe (lint/findings_cap.hpp); 0: all.
  std::size_t max_findings_per_file = 0;
};

/// The settings of one document, or why there are none.
struct SettingsLookup {
  std::shared_ptr<const Settings> settings;  ///< null when the config does not load
  std::optional<std::string> config_path;    ///< the config file, when there is one
  /// Why the config (or a rule pack or catalog it names) does not load, at their places.
  std::vector<Diagnostic> problems;
};

class Workspace {
 public:
  explicit Workspace(WorkspaceOptions options) : options_(std::move(options)) {}

  const WorkspaceOptions& options() const { return options_; }
  /// The folder an `untitled:` document is linted from (its config): the first workspace
  /// folder, or the working folder.
  void set_root(std::optional<std::string> folder);

  /// The settings of the document at `path` (none: an untitled document). Thread-safe.
  SettingsLookup settings_for(const std::optional<std::string>& path);

  /// A file changed on disk (workspace/didChangeWatchedFiles, or a document saved): true, and
  /// the settings made are dropped, when it may change some document's settings: a config
  /// file, or a file some settings read (a rule pack, a catalog).
  bool file_changed(const std::string& path);

 private:
  struct Entry {
    SettingsLookup lookup;
    std::vector<std::string> read_files;  ///< absolute: the config, its packs and catalogs
    /// The config file's modification time when it was read: an edit is seen at the next
    /// lint even when the editor does not report changed files.
    std::optional<std::filesystem::file_time_type> config_time;
  };
  Entry make_entry(const std::optional<std::string>& config_path);

  WorkspaceOptions options_;
  std::mutex mutex_;
  std::optional<std::string> root_;
  std::map<std::string, Entry> by_config_;  ///< "" for no config
};

}  // namespace planlint::lsp
