#pragma once
/// The settings a file is linted with: its config (--config, else its nearest .planlint.toml)
/// with the command line's over it, the rules, catalog and selection they make. Built once per
/// config file of a run, before any file is linted (rule packs compile once).
///
///     SettingsCache settings(overrides);
///     DiagnosticSink problems;
///     const Settings* of_file = settings.find(discovered_config, problems);  // null: exit 2
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "planlint/catalog/catalog.hpp"
#include "planlint/config/config.hpp"
#include "planlint/diag/diagnostic_sink.hpp"
#include "planlint/diag/rule_descriptor.hpp"
#include "planlint/plan/date.hpp"
#include "planlint/rules/rule_set.hpp"
#include "planlint/settings/lint_options.hpp"
#include "planlint/suppress/suppress.hpp"

namespace planlint {

/// What the command line sets over every config: each wins over the config's. select and
/// ignore replace the config's lists, severity entries replace the config's for the same id,
/// rule packs are added.
struct SettingsOverrides {
  std::optional<std::vector<std::string>> select;
  std::optional<std::vector<std::string>> ignore;
  std::map<std::string, std::string> severity;
  std::vector<std::string> rules;
  std::optional<Severity> fail_on;
  std::optional<Date> today;  ///< --today / PLANLINT_TODAY
};

/// Everything that configures the lint of the files that share one config file.
struct Settings {
  std::optional<Config> config;
  std::unique_ptr<Catalog> catalog;   ///< the built-in one with the config's files; null: the built-in
  std::unique_ptr<RuleSet> rule_set;  ///< with the packs; null: the built-in rules
  LintOptions lint;
  Severity fail_on = Severity::error;
  /// The descriptors of rules(), which outlives them: views, not copies (a one-plan run has
  /// no use for 61 copies of every summary).
  std::vector<const RuleDescriptor*> all_rules;
  SuppressionRules suppression_rules;

  const RuleSet& rules() const { return rule_set ? *rule_set : RuleSet::builtin(); }
};

/// The selection of `config` (none: every rule at its level) with `overrides` over it.
RuleSelection make_selection(const Config* config, const SettingsOverrides& overrides);

/// The settings of `config` (none: the built-in rules at their levels) with `overrides` over
/// it. Problems (a rule pack or catalog that does not load, a rule, group or option name of
/// the config that no rule has, an option of another dimension than its rule's) are reported
/// to `problems`; the caller stops when it holds any.
std::unique_ptr<Settings> make_settings(std::optional<Config> config, const SettingsOverrides& overrides,
                                        DiagnosticSink& problems);

/// The settings of each config file of a run, made once each.
class SettingsCache {
 public:
  explicit SettingsCache(const SettingsOverrides& overrides) : overrides_(overrides) {}

  /// The settings of the config at `config_path` (nullopt: no config), loading it the first
  /// time; null after reporting to `problems` why it cannot be used.
  /// `origin`: command_line for --config, which may name files outside the repository.
  const Settings* find(const std::optional<std::string>& config_path, DiagnosticSink& problems,
                       ConfigOrigin origin = ConfigOrigin::discovered);

  /// The rule ids and groups of --select, --ignore and --severity that no rule of any config
  /// of the run has (the built-in rules when there was none), each reported to `problems`.
  void check_command_line_names(DiagnosticSink& problems) const;

  /// The rules that run on some file, sorted by id, at their level there (the first config's,
  /// by path, when they differ).
  std::vector<RuleDescriptor> rules_that_run() const;

 private:
  const SettingsOverrides& overrides_;
  std::map<std::string, std::unique_ptr<Settings>> by_config_;  ///< "" for no config
};

}  // namespace planlint
