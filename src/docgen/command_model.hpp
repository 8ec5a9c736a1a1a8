#pragma once
/// planlint's command line as plain data, read from the CLI11 App the parser uses
/// (cli/app.hpp): what the man page and the shell completions are written from.
#include <string>
#include <vector>

namespace planlint::docgen {

/// What a value of an option or a positional is, for completion.
enum class ValueKind {
  none,    ///< a flag: no value
  text,    ///< a value nothing can complete (a number, a date, a name)
  file,    ///< a file (type name FILE)
  path,    ///< a file or a folder (type name PATH)
  rule,    ///< a rule id of the built-in rules (type name RULE)
  rules,   ///< rule ids, groups or `all`, joined by commas (type name IDS)
  rule_level,  ///< a rule id, group or `all`, '=' and a level (type name ID=LEVEL)
  choice,  ///< one of `choices` (a CLI11 IsMember check)
};

struct OptionModel {
  std::vector<std::string> flags;  ///< "-o", "--output"; empty for a positional
  std::string positional;          ///< the positional's name ("paths"); empty for an option
  std::string value_name;          ///< "FILE", "N"; empty for a flag
  ValueKind kind = ValueKind::none;
  std::vector<std::string> choices;
  std::string description;
  std::string default_value;  ///< as --help shows it; empty when none is shown
  bool required = false;
  bool repeatable = false;  ///< given several times, or several values
};

struct CommandModel {
  std::string name;
  std::string description;
  std::vector<OptionModel> options;      ///< options (-h/--help first, as CLI11 adds it)
  std::vector<OptionModel> positionals;  ///< in order
};

struct ProgramModel {
  std::string name;
  std::string description;       ///< one line, as --help starts
  std::string long_description;  ///< what planlint does, a paragraph: the man page's and the package's
  std::string footer;
  std::string version;                ///< "0.2.0"
  std::vector<OptionModel> options;   ///< the global ones: --help, --version
  std::vector<CommandModel> commands; ///< in the order --help lists them
  std::vector<std::string> rule_ids;  ///< the built-in rules, sorted: what RULE completes to
  /// What IDS completes to: `all`, the built-in rules' groups and their ids, sorted.
  std::vector<std::string> rule_selectors;
  std::vector<std::string> rule_levels;     ///< what ID=LEVEL's level is: the severities and `off`
  std::vector<std::string> check_formats;   ///< `planlint check --format`'s formats (emit/formats.hpp)
  std::vector<std::string> report_formats;  ///< `planlint report --format`'s (emit/report.hpp)
  std::string default_command;        ///< `planlint PATH...` runs this one
};

/// The whole command line, every subcommand set up.
ProgramModel describe_command_line();

/// The command named `name`; throws std::out_of_range when there is none.
const CommandModel& command(const ProgramModel& program, const std::string& name);

}  // namespace planlint::docgen
