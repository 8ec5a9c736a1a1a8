#pragma once
/// `planlint rules` (the rule table) and `planlint explain RULE` (a rule's docs).
#include <ostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/cli.hpp"

namespace planlint::cli {

/// Both list the rules `check` would load here: the built-in ones, the packs of the config
/// (--config FILE, else the nearest .planlint.toml up from the working folder) and --rules.
struct RulesOptions {
  std::vector<std::string> rule_packs;  ///< --rules PATH
  std::string config;                   ///< --config FILE; empty: discover from the working folder
  std::string format = "text";          ///< text | markdown
};

struct ExplainOptions {
  std::string rule;
  std::vector<std::string> rule_packs;
  std::string config;
};

/// `planlint gpus`: the GPU catalog `check` would use here (the built-in one with the config's
/// catalog files over it).
struct GpusOptions {
  std::string config;           ///< --config FILE; empty: discover from the working folder
  std::string format = "text";  ///< text | json
};

CLI::App* add_gpus_command(CLI::App& app, GpusOptions& options);
int run_gpus_command(const GpusOptions& options, std::ostream& out, std::ostream& err);

CLI::App* add_rules_command(CLI::App& app, RulesOptions& options);
int run_rules_command(const RulesOptions& options, std::ostream& out, std::ostream& err);

CLI::App* add_explain_command(CLI::App& app, ExplainOptions& options);
int run_explain_command(const ExplainOptions& options, std::ostream& out, std::ostream& err);

}  // namespace planlint::cli
