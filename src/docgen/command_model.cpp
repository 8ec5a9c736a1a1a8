#include "docgen/command_model.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

#include <CLI/CLI.hpp>

#include "cli/app.hpp"
#include "planlint/diag/diagnostic.hpp"
#include "planlint/emit/formats.hpp"
#include "planlint/emit/report.hpp"
#include "planlint/rules/rule_set.hpp"

namespace planlint::docgen {

namespace {

/// CLI11's type name is the value name, then each check's description after a colon: an
/// IsMember check describes itself as its set, "FORMAT:{text,sarif,json,github}".
void read_type_name(const CLI::Option& option, OptionModel& model) {
  const std::string type_name = option.get_type_name();
  const auto colon = type_name.find(':');
  model.value_name = type_name.substr(0, colon);
  const auto open = type_name.find('{', colon == std::string::npos ? type_name.size() : colon);
  const auto close = type_name.find('}', open == std::string::npos ? type_name.size() : open);
  if (open != std::string::npos && close != std::string::npos) {
    std::string choice;
    for (char c : type_name.substr(open + 1, close - open - 1)) {
      if (c == ',') {
        model.choices.push_back(choice);
        choice.clear();
      } else {
        choice += c;
      }
    }
    if (!choice.empty()) model.choices.push_back(choice);
  }
  if (!model.choices.empty()) model.kind = ValueKind::choice;
  else if (model.value_name == "FILE") model.kind = ValueKind::file;
  else if (model.value_name == "PATH") model.kind = ValueKind::path;
  else if (model.value_name == "RULE") model.kind = ValueKind::rule;
  else if (model.value_name == "IDS") model.kind = ValueKind::rules;
  else if (model.value_name == "ID=LEVEL") model.kind = ValueKind::rule_level;
  else model.kind = ValueKind::text;
}

OptionModel describe_option(const CLI::Option& option) {
  OptionModel model;
  for (const std::string& name : option.get_snames()) model.flags.push_back("-" + name);
  for (const std::string& name : option.get_lnames()) model.flags.push_back("--" + name);
  if (model.flags.empty()) model.positional = option.get_name(true);
  model.description = option.get_description();
  model.required = option.get_required();
  if (option.get_expected_max() != 0) {  // a flag expects no value
    read_type_name(option, model);
    model.default_value = option.get_default_str();
    model.repeatable = option.get_items_expected_max() > 1;
  }
  return model;
}

CommandModel describe_command(const CLI::App& app) {
  CommandModel model;
  model.name = app.get_name();
  model.description = app.get_description();
  for (const CLI::Option* option : app.get_options()) {
    OptionModel described = describe_option(*option);
    (described.positional.empty() ? model.options : model.positionals).push_back(std::move(described));
  }
  return model;
}

}  // namespace

ProgramModel describe_command_line() {
  cli::CommandLine line;
  ProgramModel program;
  program.name = line.app.get_name();
  program.description = line.app.get_description();
  program.footer = line.app.get_footer();
  program.version = PLANLINT_VERSION;
  program.default_command = cli::default_subcommand;
  program.options = describe_command(line.app).options;
  for (const CLI::App* subcommand : line.app.get_subcommands([](const CLI::App*) { return true; }))
    program.commands.push_back(describe_command(*subcommand));
  program.long_description =
      "planlint reads capacity plans for AI training and inference (TOML files, or TOML blocks in "
      "Markdown capacity docs), recomputes what each plan implies (compute, time, cost, memory, "
      "communication, latency) and reports, like a compiler, where the plan is wrong, with the "
      "arithmetic behind every number.";
  // `--select` and `--ignore` take a rule's id, its group or `all` (settings/settings.cpp).
  std::set<std::string> selectors = {"all"};
  for (const RuleDescriptor& rule : RuleSet::builtin().descriptors()) {
    program.rule_ids.push_back(rule.id);
    selectors.insert(rule.id);
    selectors.insert(rule.group);
  }
  std::sort(program.rule_ids.begin(), program.rule_ids.end());
  program.rule_selectors.assign(selectors.begin(), selectors.end());
  // `--severity ID=LEVEL` and [lint.severity] take a severity or `off` (settings/selection.hpp).
  for (Severity severity : {Severity::error, Severity::warning, Severity::note})
    program.rule_levels.emplace_back(to_string(severity));
  program.rule_levels.emplace_back("off");
  program.check_formats = output_format_names();
  program.report_formats = report_format_names();
  return program;
}

const CommandModel& command(const ProgramModel& program, const std::string& name) {
  for (const CommandModel& command : program.commands)
    if (command.name == name) return command;
  throw std::out_of_range("no command " + name);
}

}  // namespace planlint::docgen
