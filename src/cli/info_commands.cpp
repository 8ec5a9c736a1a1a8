#include "cli/info_commands.hpp"

#include <fmt/format.h>

#include "planlint/diag/suggest.hpp"
#include "planlint/emit/text.hpp"
#include "planlint/rules/rule_docs.hpp"
#include "planlint/rules/rule_set.hpp"

namespace planlint::cli {

namespace {

/// The built-in rules plus any --rules packs; nullopt after printing the pack's errors.
std::optional<RuleSet> load_rules(const std::vector<std::string>& packs, std::ostream& err) {
  RuleSet rules = RuleSet::with_builtin();
  std::vector<Diagnostic> errors;
  for (const std::string& pack : packs) rules.load_path(pack, errors);
  if (errors.empty()) return rules;
  for (const Diagnostic& d : errors) err << error_line(d) << '\n';
  return std::nullopt;
}

}  // namespace

CLI::App* add_rules_command(CLI::App& app, RulesOptions& options, bool with_options) {
  CLI::App* rules = app.add_subcommand("rules", "List every rule: id, group, default severity, summary");
  if (!with_options) return rules;
  rules->add_option("--rules", options.rule_packs, "Add a rule pack (file or folder)");
  rules->add_option("--format", options.format, "Output format")
      ->check(CLI::IsMember({"text", "markdown"}))
      ->capture_default_str();
  return rules;
}

int run_rules_command(const RulesOptions& options, std::ostream& out, std::ostream& err) {
  auto rules = load_rules(options.rule_packs, err);
  if (!rules) return exit_failure;
  out << (options.format == "markdown" ? rule_index_markdown(rules->descriptors())
                                       : rule_table_text(rules->descriptors()));
  return exit_clean;
}

CLI::App* add_explain_command(CLI::App& app, ExplainOptions& options, bool with_options) {
  CLI::App* explain = app.add_subcommand("explain", "Print a rule's documentation");
  if (!with_options) return explain;
  explain->add_option("rule", options.rule, "Rule id, e.g. memory-fit")->required();
  explain->add_option("--rules", options.rule_packs, "Add a rule pack (file or folder)");
  return explain;
}

int run_explain_command(const ExplainOptions& options, std::ostream& out, std::ostream& err) {
  auto rules = load_rules(options.rule_packs, err);
  if (!rules) return exit_failure;
  if (const RuleDescriptor* rule = rules->find(options.rule)) {
    out << rule_markdown(*rule);
    return exit_clean;
  }
  std::vector<std::string> ids;
  for (const RuleDescriptor& d : rules->descriptors()) ids.push_back(d.id);
  std::vector<std::string_view> views(ids.begin(), ids.end());
  err << fmt::format("planlint: error: no rule '{}'", options.rule);
  if (auto suggestion = closest_match(options.rule, views)) err << fmt::format("; did you mean '{}'?", *suggestion);
  err << "\nRun 'planlint rules' for the list.\n";
  return exit_failure;
}

}  // namespace planlint::cli
