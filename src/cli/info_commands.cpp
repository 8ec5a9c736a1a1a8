#include "cli/info_commands.hpp"

#include <set>

#include <fmt/format.h>

#include "cli/shared_options.hpp"
#include "planlint/catalog/catalog_table.hpp"
#include "planlint/config/config.hpp"
#include "planlint/diag/printable.hpp"
#include "planlint/diag/suggest.hpp"
#include "planlint/emit/text.hpp"
#include "planlint/settings/rule_packs.hpp"
#include "planlint/rules/rule_docs.hpp"
#include "planlint/rules/rule_set.hpp"

namespace planlint::cli {

namespace {

/// The rules `check` would load in the working folder: the built-in ones, the packs of the
/// config (`config_option`, else the nearest .planlint.toml) and `packs`; nullopt after
/// printing why not (an invalid config or pack).
std::optional<RuleSet> load_rules(const std::string& config_option, const std::vector<std::string>& packs,
                                  std::ostream& err) {
  const std::optional<std::string> config_path =
      config_option.empty() ? discover_folder_config(".") : std::optional(config_option);
  DiagnosticSink problems;
  std::optional<Config> config;
  if (config_path) {
    Result<Config> loaded = load_config(*config_path, problems,
                                        config_option.empty() ? ConfigOrigin::discovered : ConfigOrigin::command_line);
    if (!loaded) {
      for (const Diagnostic& d : problems) err << error_line(d) << '\n';
      err << error_line(loaded.error()) << '\n';
      return std::nullopt;
    }
    config = *std::move(loaded);
  }
  Result<std::unique_ptr<RuleSet>> rules = load_rule_packs(config ? &*config : nullptr, packs, problems);
  for (const Diagnostic& d : problems) err << error_line(d) << '\n';
  if (!rules) err << error_line(rules.error()) << '\n';
  if (!rules || !problems.empty()) return std::nullopt;
  return *rules ? std::move(**rules) : RuleSet::with_builtin();
}

void add_rule_source_options(CLI::App& command, std::vector<std::string>& packs, std::string& config) {
  add_rule_packs_option(command, packs);
  add_config_option(command, config, " whose rule packs count", "here");
}

}  // namespace

CLI::App* add_rules_command(CLI::App& app, RulesOptions& options) {
  CLI::App* rules = app.add_subcommand("rules", "List every rule: id, group, default severity, summary");
  add_rule_source_options(*rules, options.rule_packs, options.config);
  add_format_option(*rules, options.format, {"text", "markdown"});
  return rules;
}

int run_rules_command(const RulesOptions& options, std::ostream& out, std::ostream& err) {
  auto rules = load_rules(options.config, options.rule_packs, err);
  if (!rules) return exit_failure;
  // A pack's ids, summaries and docs are its author's text: printable, line by line.
  out << printable_lines(options.format == "markdown" ? rule_index_markdown(*rules)
                                                      : rule_table_text(rules->descriptors()));
  return exit_clean;
}

CLI::App* add_gpus_command(CLI::App& app, GpusOptions& options) {
  CLI::App* gpus = app.add_subcommand(
      "gpus", "List the GPU catalog: peaks per precision, HBM, bandwidth, links and sources");
  add_format_option(*gpus, options.format, {"text", "json"});
  add_config_option(*gpus, options.config, " whose catalog files count", "here");
  return gpus;
}

int run_gpus_command(const GpusOptions& options, std::ostream& out, std::ostream& err) {
  const std::optional<std::string> config_path =
      options.config.empty() ? discover_folder_config(".") : std::optional(options.config);
  Catalog catalog = Catalog::builtin();
  if (config_path && !load_config_and_catalog(*config_path, ConfigOrigin::discovered, catalog, err))
    return exit_failure;
  out << (options.format == "json" ? catalog_listing_json(catalog) : catalog_listing_text(catalog));
  return exit_clean;
}

CLI::App* add_explain_command(CLI::App& app, ExplainOptions& options) {
  CLI::App* explain = app.add_subcommand("explain", "Print a rule's documentation, or list a group's rules");
  explain->add_option("rule", options.rule, "Rule id, e.g. memory-fit, or a group, e.g. memory (its rules)")
      ->type_name("RULE")
      ->required();
  add_rule_source_options(*explain, options.rule_packs, options.config);
  return explain;
}

int run_explain_command(const ExplainOptions& options, std::ostream& out, std::ostream& err) {
  auto rules = load_rules(options.config, options.rule_packs, err);
  if (!rules) return exit_failure;
  for (const auto& rule : rules->rules())
    if (rule->descriptor.id == options.rule) {
      out << printable_lines(rule_markdown(*rule));
      return exit_clean;
    }
  // A group (`memory`), as --select and --ignore take: its rules, as `planlint rules` lists them.
  std::vector<RuleDescriptor> group;
  for (const RuleDescriptor& d : rules->descriptors())
    if (d.group == options.rule) group.push_back(d);
  if (!group.empty()) {
    out << printable_lines(fmt::format("{} is a group of {} rule{}; `planlint explain RULE` prints one's "
                                       "documentation:\n\n",
                                       options.rule, group.size(), group.size() == 1 ? "" : "s") +
                           rule_table_text(group));
    return exit_clean;
  }
  std::vector<std::string> ids;
  std::set<std::string> groups;
  for (const RuleDescriptor& d : rules->descriptors()) {
    ids.push_back(d.id);
    if (groups.insert(d.group).second) ids.push_back(d.group);
  }
  std::vector<std::string_view> views(ids.begin(), ids.end());
  std::string line = fmt::format("planlint: error: no rule or group '{}'", options.rule);
  if (auto suggestion = closest_match(options.rule, views)) line += fmt::format("; did you mean '{}'?", *suggestion);
  print_line(err, line);
  err << "Run 'planlint rules' for the list.\n";
  return exit_failure;
}

}  // namespace planlint::cli
