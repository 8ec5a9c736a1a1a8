#include "docgen/completions.hpp"

#include <fmt/format.h>

namespace planlint::docgen {

namespace {

constexpr std::string_view header =
    "completion for planlint, generated from its command line by planlint_docgen (src/docgen/).";

std::string join(const std::vector<std::string>& words, std::string_view separator = " ") {
  return fmt::format("{}", fmt::join(words, separator));
}

/// What a value of `option` completes to, as words; empty when it completes to files or nothing.
std::vector<std::string> value_words(const ProgramModel& program, const OptionModel& option) {
  if (option.kind == ValueKind::choice) return option.choices;
  if (option.kind == ValueKind::rule) return program.rule_ids;
  if (option.kind == ValueKind::rules) return program.rule_selectors;
  return {};
}

/// A value of several words joined by commas (`--select memory,peak`): each completes.
bool completes_list(const OptionModel& option) { return option.kind == ValueKind::rules; }

/// A value of two words joined by '=' (`--severity memory-fit=warning`): a rule, then a level.
bool completes_pair(const OptionModel& option) { return option.kind == ValueKind::rule_level; }

bool completes_files(const OptionModel& option) {
  return option.kind == ValueKind::file || option.kind == ValueKind::path;
}

std::vector<std::string> command_names(const ProgramModel& program) {
  std::vector<std::string> names;
  for (const CommandModel& command : program.commands) names.push_back(command.name);
  return names;
}

// bash ------------------------------------------------------------------------------------

/// What completes the level of `--severity ID=LEVEL` once bash has split the word at its '='
/// ($pair_option is the option), or nothing when the command has no such option.
std::string bash_pair_levels(const ProgramModel& program, const CommandModel& command) {
  std::vector<std::string> flags;
  for (const OptionModel& option : command.options)
    if (completes_pair(option)) flags.insert(flags.end(), option.flags.begin(), option.flags.end());
  if (flags.empty()) return "";
  return fmt::format("      case $pair_option in {}) _planlint_words {}; return ;; esac\n", join(flags, "|"),
                     join(program.rule_levels));
}

/// The `case $prev in` arms of a command: what follows an option that takes a value.
std::string bash_value_arms(const ProgramModel& program, const CommandModel& command) {
  std::string arms;
  for (const OptionModel& option : command.options) {
    if (option.kind == ValueKind::none) continue;
    arms += fmt::format("        {})", join(option.flags, "|"));
    if (completes_files(option)) arms += " _planlint_files; return ;;\n";
    else if (completes_pair(option))
      arms += fmt::format(" _planlint_pair {} -- {}; return ;;\n", join(program.rule_levels), join(program.rule_selectors));
    else if (completes_list(option))
      arms += fmt::format(" _planlint_list {}; return ;;\n", join(value_words(program, option)));
    else if (!value_words(program, option).empty())
      arms += fmt::format(" _planlint_words {}; return ;;\n", join(value_words(program, option)));
    else arms += " return ;;\n";
  }
  return arms;
}

std::string bash_positional(const ProgramModel& program, const CommandModel& command) {
  if (command.positionals.empty()) return ":";
  const OptionModel& positional = command.positionals.front();
  if (completes_files(positional)) return "_planlint_files";
  if (!value_words(program, positional).empty())
    return fmt::format("_planlint_words {}", join(value_words(program, positional)));
  return ":";
}

}  // namespace

std::string bash_completion(const ProgramModel& program) {
  std::string commands = join(command_names(program), "|");
  std::string global_flags;
  for (const OptionModel& option : program.options)
    for (const std::string& flag : option.flags)
      if (flag != "-h" && flag != "--help") global_flags += " " + flag;

  std::string out = fmt::format("# bash {}\n\n", header);
  out += R"(# Files and folders that start with $cur.
_planlint_files() {
  local IFS=$'\n'
  compopt -o filenames 2>/dev/null
  COMPREPLY+=($(compgen -f -- "$cur"))
}

# The words given that start with $cur.
_planlint_words() {
  local IFS=$'\n'
  COMPREPLY+=($(compgen -W "$*" -- "$cur"))
}

# The words given that start with what follows the last comma of $cur, after the words before it.
_planlint_list() {
  local IFS=$'\n' before=
  [[ $cur == *,* ]] && before=${cur%,*},
  compopt -o nospace 2>/dev/null
  COMPREPLY+=($(compgen -W "$*" -P "$before" -- "${cur##*,}"))
}

# ID=LEVEL: the levels (the words before --) after the '=' of $cur, else the ids after it
# (then an '=' follows).
_planlint_pair() {
  local IFS=$'\n' levels=()
  while (( $# )) && [[ $1 != -- ]]; do levels+=("$1"); shift; done
  shift
  if [[ $cur == *=* ]]; then
    COMPREPLY+=($(compgen -W "${levels[*]}" -P "${cur%%=*}=" -- "${cur#*=}"))
  else
    compopt -o nospace 2>/dev/null
    COMPREPLY+=($(compgen -W "$*" -S = -- "$cur"))
  fi
}

_planlint() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev= pair_option=
  (( COMP_CWORD > 0 )) && prev=${COMP_WORDS[COMP_CWORD-1]}
  # bash splits --option=value at the '=', and --severity ID=LEVEL too: after "--severity", "ID"
  # and "=", $pair_option is --severity.
  [[ $cur == = ]] && cur=
  [[ $prev == = ]] && (( COMP_CWORD > 2 )) && pair_option=${COMP_WORDS[COMP_CWORD-3]}
  [[ $prev == = ]] && (( COMP_CWORD > 1 )) && prev=${COMP_WORDS[COMP_CWORD-2]}
  COMPREPLY=()

  # The subcommand; `planlint PATH...` runs )" + program.default_command + R"(.
  local command= i
  for (( i = 1; i < COMP_CWORD; i++ )); do
    case ${COMP_WORDS[i]} in
      )" + commands + R"() command=${COMP_WORDS[i]}; break ;;
      -*) ;;
      *) command=)" + program.default_command + R"(; break ;;
    esac
  done

  local options= positional=
  case ${command:-)" + program.default_command + R"(} in
)";
  for (const CommandModel& command : program.commands) {
    std::vector<std::string> flags;
    for (const OptionModel& option : command.options) flags.insert(flags.end(), option.flags.begin(), option.flags.end());
    out += fmt::format("    {})\n{}      case $prev in\n{}      esac\n      options='{}'\n      positional='{}' ;;\n",
                       command.name, bash_pair_levels(program, command), bash_value_arms(program, command), join(flags),
                       bash_positional(program, command));
  }
  out += R"(  esac

  if [[ $cur == -* ]]; then
    [[ -z $command ]] && options+=')" + global_flags + R"('
    _planlint_words $options
    return
  fi
  [[ -z $command ]] && _planlint_words )" + join(command_names(program)) + R"(
  $positional
}

complete -F _planlint planlint
)";
  return out;
}

// zsh -------------------------------------------------------------------------------------

namespace {

/// `text` inside a single-quoted zsh word.
std::string zsh_single_quoted(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out;
}

/// Text for inside a single-quoted zsh word, in an _arguments description ([...]) when
/// `in_brackets`, or a message (between colons) otherwise.
std::string zsh_quote(const std::string& text, bool in_brackets) {
  std::string out;
  for (char c : text) {
    if (c == '\'') out += "'\\''";
    else if (c == '\\' || (in_brackets && (c == '[' || c == ']')) || (!in_brackets && c == ':')) out += std::string("\\") + c;
    else out += c;
  }
  return out;
}

std::string zsh_action(const ProgramModel& program, const OptionModel& option) {
  if (completes_files(option)) return "_files";
  if (completes_list(option)) return "_sequence compadd - " + join(value_words(program, option));
  if (completes_pair(option))
    return "_sep_parts '(" + join(program.rule_selectors) + ")' = '(" + join(program.rule_levels) + ")'";
  if (!value_words(program, option).empty()) return "(" + join(value_words(program, option)) + ")";
  return " ";  // a message, no completion
}

std::string zsh_option_spec(const ProgramModel& program, const OptionModel& option) {
  std::string spec = "    ";
  const bool aliased = option.flags.size() > 1;
  const bool takes_value = option.kind != ValueKind::none;
  if (option.flags.front() == "-h" || option.flags.front() == "--help" || option.flags.front() == "--version")
    spec += "'(- *)'";
  else if (aliased) spec += "'(" + join(option.flags) + ")'";
  if (option.repeatable) spec += "'*'";
  std::vector<std::string> names;
  for (const std::string& flag : option.flags)
    names.push_back(flag + (takes_value ? (flag.size() == 2 ? "+" : "=") : ""));
  spec += aliased ? "{" + join(names, ",") + "}" : names.front();
  spec += "'[" + zsh_quote(option.description, true) + "]";
  if (takes_value)
    spec += ":" + zsh_quote(option.value_name, false) + ":" + zsh_quote(zsh_action(program, option), false);
  spec += "'";
  return spec;
}

}  // namespace

std::string zsh_completion(const ProgramModel& program) {
  std::string out = fmt::format("#compdef {}\n# zsh {}\n\n", program.name, header);
  for (const CommandModel& command : program.commands) {
    std::vector<std::string> specs = {"    \"$@\""};
    for (const OptionModel& option : command.options) specs.push_back(zsh_option_spec(program, option));
    for (const OptionModel& positional : command.positionals)
      specs.push_back(fmt::format("    '{}:{}:{}'", positional.repeatable ? "*" : "",
                                  zsh_quote(positional.value_name, false),
                                  zsh_quote(zsh_action(program, positional), false)));
    out += fmt::format("_planlint_{}() {{\n  _arguments -s -S \\\n{}\n}}\n\n", command.name, join(specs, " \\\n"));
  }
  out += "_planlint() {\n  local -a commands=(\n";
  for (const CommandModel& command : program.commands)
    out += fmt::format("    '{}:{}'\n", command.name, zsh_single_quoted(command.description));
  std::string global_specs;
  for (const OptionModel& option : program.options)
    if (option.flags.front() != "-h" && option.flags.front() != "--help")
      global_specs += " \\\n" + zsh_option_spec(program, option);
  out += fmt::format(R"(  )
  # `planlint PATH...` runs {0}: the first word is a subcommand, a file or an option of {0}.
  if (( CURRENT == 2 )) && [[ $PREFIX != -* ]]; then
    _describe -t commands 'planlint command' commands
    _files
    return
  fi
  case ${{words[2]}} in
    ({1})
      shift words
      (( CURRENT-- ))
      _planlint_${{words[1]}} ;;
    (*)
      words[1]={0}
      _planlint_{0}{2} ;;
  esac
}}

_planlint "$@"
)",
                     program.default_command, join(command_names(program), "|"), global_specs);
  return out;
}

// fish ------------------------------------------------------------------------------------

namespace {

std::string fish_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'' || c == '\\') out += '\\';
    out += c;
  }
  return out + "'";
}

std::string fish_option(const ProgramModel& program, const std::string& condition, const OptionModel& option) {
  std::string line = "complete -c " + program.name + " -n " + fish_quote(condition);
  for (const std::string& flag : option.flags)
    line += (flag.size() == 2 ? " -s " + flag.substr(1) : " -l " + flag.substr(2));
  if (completes_files(option)) line += " -r -F";
  else if (completes_list(option)) line += " -x -a " + fish_quote("(__fish_complete_list , __planlint_rule_selectors)");
  else if (completes_pair(option)) line += " -x -a " + fish_quote("(__planlint_rule_levels)");
  else if (!value_words(program, option).empty()) line += " -x -a " + fish_quote(join(value_words(program, option)));
  else if (option.kind != ValueKind::none) line += " -x";
  return line + " -d " + fish_quote(option.description) + "\n";
}

}  // namespace

std::string fish_completion(const ProgramModel& program) {
  const std::string commands = join(command_names(program));
  std::string out = fmt::format("# fish {}\n\ncomplete -c {} -f\n", header, program.name);
  out += fmt::format("\n# What --select and --ignore take, joined by commas.\nfunction __planlint_rule_selectors\n"
                     "    printf '%s\\n' {}\nend\n",
                     join(program.rule_selectors));
  out += fmt::format(R"(
# What --severity takes: a rule, '=' and a level.
function __planlint_rule_levels
    set -l token (commandline -ct)
    if string match -q -- '*=*' $token
        set -l rule (string split -m 1 = -- $token)[1]
        for level in {}
            echo -- "$rule=$level"
        end
    else
        printf '%s=\n' (__planlint_rule_selectors)
    end
end
)",
                     join(program.rule_levels));
  const std::string no_command = "not __fish_seen_subcommand_from " + commands;
  out += "\n# The subcommands, and the global options.\n";
  for (const CommandModel& command : program.commands)
    out += fmt::format("complete -c {} -n {} -a {} -d {}\n", program.name, fish_quote(no_command), command.name,
                       fish_quote(command.description));
  for (const OptionModel& option : program.options)
    if (option.flags.front() != "-h" && option.flags.front() != "--help")
      out += fish_option(program, no_command, option);
  for (const CommandModel& command : program.commands) {
    std::string condition = "__fish_seen_subcommand_from " + command.name;
    if (command.name == program.default_command) {
      // `planlint PATH...` runs it: its options and files before any subcommand too.
      std::vector<std::string> others;
      for (const CommandModel& other : program.commands)
        if (other.name != command.name) others.push_back(other.name);
      condition = "not __fish_seen_subcommand_from " + join(others);
    }
    out += fmt::format("\n# {}\n", command.name);
    for (const OptionModel& option : command.options) out += fish_option(program, condition, option);
    for (const OptionModel& positional : command.positionals) {
      out += fmt::format("complete -c {} -n {}", program.name, fish_quote(condition));
      if (completes_files(positional)) out += " -F";
      else if (!value_words(program, positional).empty()) out += " -a " + fish_quote(join(value_words(program, positional)));
      out += " -d " + fish_quote(positional.description) + "\n";
    }
  }
  return out;
}

}  // namespace planlint::docgen
