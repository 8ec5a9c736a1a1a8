#pragma once
/// `.planlint.toml` (cli.md "Configuration"): its keys are declared in config_keys.hpp, which
/// schemas/config.schema.json is generated from.
///
///     [lint]
///     select = ["all"]
///     ignore = ["chinchilla-ratio"]
///     rules = ["policies/"]          # rule packs, relative to this file
///     fail_on = "warning"
///     catalog = "hardware.toml"      # a catalog file of your own GPUs, relative to this file
///     exclude = ["drafts/"]          # left out of a folder search, relative to this file
///     respect_gitignore = false      # a search of a folder it governs reads no .gitignore
///     [lint.severity]
///     missing-range = "error"
///     [lint.options]
///     assumption_max_age = "90 d"
///     [tolerances]
///     capacity = "10%"
///     [guardrails]                   # what `planlint diff` lets a change move (docs/review.md)
///     cost_increase = "20%"
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "planlint/config/guardrails.hpp"
#include "planlint/diag/diagnostic.hpp"
#include "planlint/diag/diagnostic_sink.hpp"
#include "planlint/diag/result.hpp"
#include "planlint/source/source_file.hpp"
#include "planlint/units/quantity.hpp"

namespace planlint {

/// A rule id, group or option name written in a config file, and where: the run checks each
/// against the rules it loads (a misspelt one would otherwise turn a check off in silence).
struct ConfigName {
  std::string key;   ///< "lint.select", "lint.ignore", "lint.severity" or "lint.options"
  std::string name;  ///< "memory-fit", "memory", "all", "plan_max_age"
  Span span;
};

/// A file or folder named in a config file: as written, resolved against the config's folder,
/// and where it is written (a pack that does not exist is reported there).
struct ConfigPath {
  std::string written;   ///< "policies/"
  std::string resolved;  ///< "cfg/policies/": the config's folder joined with `written`, normal
  Span span;
};

/// [solve]: what `planlint solve` may change beyond the layout keys, in its options' words
/// (`vary = "gpu,count"`, `gpus = "h100-sxm,a100-sxm"`, `count = "512..4096"`).
struct SolveDefaults {
  std::optional<std::string> vary, gpus, count, keep;
};

struct Config {
  std::string path;  ///< the file it was read from; empty: no config file
  std::optional<std::vector<std::string>> select;
  std::optional<std::vector<std::string>> ignore;
  std::map<std::string, std::string> severity;  ///< id or group → error|warning|note|off
  std::vector<ConfigPath> rules;                ///< rule packs, resolved against the config's folder
  std::optional<Severity> fail_on;
  /// GPU catalog files (`catalog = "a.toml"` or `["a.toml", "b.toml"]`), resolved against the
  /// config's folder, loaded in order over the built-in catalog: a later entry of an id wins.
  std::vector<std::string> catalogs;
  /// Files and folders a folder search leaves out: .gitignore lines relative to the config's
  /// folder (`exclude = ["drafts/", "*.old.toml"]`).
  std::vector<std::string> exclude;
  /// Whether the search of a folder this config governs (named on the command line, or with
  /// `--config`) leaves out what .gitignore files ignore; false: it reads none of them, so a
  /// pull request's .gitignore cannot change what is linted.
  bool respect_gitignore = true;
  /// `docs_url`: the base URL of planlint's documentation for links to a rule's page (SARIF's
  /// helpUri, the language server), replacing the build's (docs_links.hpp).
  std::optional<std::string> docs_url;
  std::map<std::string, units::Quantity> options;
  std::map<std::string, double> tolerances;     ///< capacity, cost, formula_vs_benchmark
  Guardrails guardrails;                         ///< [guardrails], for `planlint diff`
  SolveDefaults solve;                           ///< [solve], for `planlint solve`
  std::vector<ConfigName> names;                ///< the rule, group and option names above, where written
};

/// The name of the file discover_config looks for.
inline constexpr std::string_view config_file_name = ".planlint.toml";

/// Where a config comes from. One found beside the linted files (discover_config) is part of
/// what a pull request can change: the files it names (`rules`, `catalog`) must lie inside its
/// repository (the folder tree from the config up to the repository root), else an error at the
/// key. One named on the command line (`--config`) may name any file.
enum class ConfigOrigin { discovered, command_line };

/// Parses a config file. Problems (bad TOML, an unknown key, a value of the wrong type) are
/// reported to `errors` at the file's line and column (problem_kinds::config); then the result
/// is the error "invalid config 'PATH'", and `partial`, when given, receives what could be
/// read of valid TOML (each key in error left out), so that a caller can report the mistakes
/// found only later (a misspelt rule name, a pack that does not load) in the same run.
Result<Config> parse_config(const SourceFile& file, DiagnosticSink& errors,
                            ConfigOrigin origin = ConfigOrigin::discovered, Config* partial = nullptr);

/// Reads and parses a config file. A file that cannot be read is the error itself ("cannot read
/// config file: No such file or directory", at the file), with no problem in `errors`.
Result<Config> load_config(const std::string& path, DiagnosticSink& errors,
                           ConfigOrigin origin = ConfigOrigin::discovered, Config* partial = nullptr);

/// The nearest `.planlint.toml` in the folder of `linted_file` or above, stopping after the
/// first repository root (is_repository_root, source/repository.hpp); nullopt when there is none.
std::optional<std::string> discover_config(const std::string& linted_file);

/// The config that governs `folder` (`planlint rules` and `explain` ask for the working folder's):
/// the nearest `.planlint.toml` in it or above, as discover_config finds it for a file there.
std::optional<std::string> discover_folder_config(const std::string& folder);

/// discover_config() for the many files of one run: each folder's answer is looked up once
/// (a `stat` for the config and one for each repository marker per folder level) and shared by the files in it and below it. The answers are
/// those of the moment each folder was first asked about: use one per run.
///
///     ConfigDiscovery discovery;
///     for (const std::string& path : paths) config_of[path] = discovery.find(path);
class ConfigDiscovery {
 public:
  /// What discover_config(linted_file) returns.
  std::optional<std::string> find(const std::string& linted_file);

 private:
  std::optional<std::string> find_uncached(const std::string& linted_file);
  /// The absolute path of the config that governs `folder` (absolute, normal), or "".
  const std::string& governing(const std::string& folder);

  std::map<std::string, std::string, std::less<>> by_folder_;
  std::map<std::string, std::string, std::less<>> relative_;  ///< config → as named relative to the working folder
  /// find()'s answer by the linted file's name up to its last '/' (as written): the files of
  /// one folder share it, and a folder of 10,000 plans made as many absolute paths (a getcwd
  /// system call each) and normalisations.
  std::map<std::string, std::optional<std::string>, std::less<>> by_written_folder_;
};

}  // namespace planlint
