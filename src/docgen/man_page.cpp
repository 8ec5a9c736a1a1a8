#include "docgen/man_page.hpp"


#include <fmt/format.h>

namespace planlint::docgen {

std::string roff_text(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\\') out += "\\e";
    else if (c == '-') out += "\\-";
    else if (c == '\n') out += "\n.br\n";
    else out += c;
  }
  if (!out.empty() && (out.front() == '.' || out.front() == '\'')) out.insert(0, "\\&");
  return out;
}

namespace {

/// "\fB\-o\fR, \fB\-\-output\fR \fIFILE\fR" for a .TP tag.
std::string option_tag(const OptionModel& option) {
  std::string tag;
  for (const std::string& flag : option.flags) {
    if (!tag.empty()) tag += ", ";
    tag += "\\fB" + roff_text(flag) + "\\fR";
  }
  if (!option.value_name.empty()) tag += " \\fI" + roff_text(option.value_name) + "\\fR";
  return tag;
}

std::string option_text(const OptionModel& option) {
  std::string text = option.description;
  if (!text.empty() && text.back() != '.') text += '.';
  if (!option.choices.empty()) text += fmt::format(" One of: {}.", fmt::join(option.choices, ", "));
  if (!option.default_value.empty()) text += fmt::format(" Default: {}.", option.default_value);
  // A positional's "..." says it already; an option's description may say "(repeatable)".
  if (option.repeatable && option.positional.empty() && text.find("repeatable") == std::string::npos)
    text += " Repeatable.";
  return roff_text(text);
}

std::string positional_usage(const OptionModel& positional) {
  return fmt::format("\\fI{}\\fR{}", roff_text(positional.value_name), positional.repeatable ? "..." : "");
}

void write_options(std::string& out, const std::vector<OptionModel>& options) {
  for (const OptionModel& option : options) out += ".TP\n" + option_tag(option) + "\n" + option_text(option) + "\n";
}

}  // namespace

std::string man_page(const ProgramModel& program) {
  std::string out;
  out += ".\\\" planlint(1), generated from planlint's command line by planlint_docgen (src/docgen/).\n";
  out += fmt::format(".TH PLANLINT 1 \"\" \"planlint {}\" \"User Commands\"\n", program.version);
  out += ".nh\n.SH NAME\nplanlint \\- a linter for AI compute capacity plans\n";

  out += ".SH SYNOPSIS\n";
  out += fmt::format(".B {}\n[\\fIOPTIONS\\fR] \\fIPATH\\fR...\n.br\n", program.name);
  for (const CommandModel& command : program.commands) {
    out += fmt::format(".B {} {}\n[\\fIOPTIONS\\fR]", program.name, command.name);
    for (const OptionModel& positional : command.positionals) out += " " + positional_usage(positional);
    out += "\n.br\n";
  }
  out += fmt::format(".B {}\n\\fB\\-\\-version\\fR | \\fB\\-\\-help\\fR\n", program.name);

  out += ".SH DESCRIPTION\n";
  out += roff_text(program.long_description);
  out += "\n.PP\n";
  out += fmt::format("\\fB{0}\\fR \\fIPATH\\fR... is short for \\fB{0} {1}\\fR \\fIPATH\\fR...; "
                     "\\fB{0} explain\\fR \\fIRULE\\fR prints a rule's documentation and \\fB{0} rules\\fR "
                     "lists them.\n",
                     program.name, program.default_command);
  out += ".SH OPTIONS\n";
  write_options(out, program.options);

  out += ".SH COMMANDS\n";
  for (const CommandModel& command : program.commands) {
    std::string usage = fmt::format("{} {} [OPTIONS]", program.name, command.name);
    for (const OptionModel& positional : command.positionals)
      usage += " " + positional.value_name + (positional.repeatable ? "..." : "");
    out += ".SS \"" + roff_text(usage) + "\"\n" + roff_text(command.description) + ".\n";
    for (const OptionModel& positional : command.positionals)
      out += ".TP\n\\fI" + roff_text(positional.value_name) + "\\fR" + (positional.repeatable ? "..." : "") +
             "\n" + option_text(positional) + "\n";
    write_options(out, command.options);
  }

  out += ".SH EXIT STATUS\n";
  out += ".TP\n.B 0\nNo finding at or above the \\fB\\-\\-fail\\-on\\fR level (default: error).\n";
  out += ".TP\n.B 1\nFindings at or above that level.\n";
  out += ".TP\n.B 2\n" +
         roff_text("planlint could not run: a bad option, an unreadable file, an invalid config or rule pack, "
                   "an output that could not be written.") +
         "\n";
  out += ".SH ENVIRONMENT\n";
  out += ".TP\n.B NO_COLOR\nWhen set and not empty, the output is never coloured (unless \\fB\\-\\-color always\\fR).\n";
  out += ".TP\n.B FORCE_COLOR\n" +
         roff_text("When set and not empty (and NO_COLOR is not), the output is coloured even when it is not a "
                   "terminal (unless --color never).") +
         "\n";
  out += ".TP\n.B PLANLINT_TODAY\n" +
         roff_text("The date (YYYY-MM-DD) staleness rules compare with when --today is not given.") + "\n";
  out += ".SH FILES\n";
  out += ".TP\n.I .planlint.toml\n" +
         roff_text("The configuration of the plans in its folder and below: rules selected, ignored and "
                   "re-levelled, rule packs, the GPU catalog, the lowest failing level. The nearest one up "
                   "from a linted file applies, up to the repository root.") +
         "\n";
  out += ".SH SEE ALSO\n";
  out += roff_text("The documentation in planlint's repository: docs/cli.md (commands, output formats, "
                   "configuration), docs/plan-format.md, docs/estimates.md, docs/rules/ and "
                   "docs/integrations.md.") +
         "\n";
  return out;
}

}  // namespace planlint::docgen
