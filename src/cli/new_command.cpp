// `planlint new training|inference`: prints a commented plan template (cli.md), or writes it
// to -o FILE, never over an existing file.
#include <filesystem>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/commands.hpp"
#include "cli/shared_options.hpp"
#include "planlint/diag/suggest.hpp"
#include "planlint/files/output_file.hpp"
#include "planlint/plan/date.hpp"
#include "planlint/plan/templates.hpp"

namespace planlint::cli {

CLI::App* add_new_command(CLI::App& app, NewOptions& options) {
  CLI::App* command = app.add_subcommand("new", "Print a commented plan template to start from");
  std::vector<std::string> kinds(template_kinds().begin(), template_kinds().end());
  // Described as CLI11 describes a set, "{training,inference}", which the man page and the
  // completions list; any other kind is run_new's error, which names the templates.
  const CLI::Validator template_kind([](const std::string&) { return std::string(); },
                                     fmt::format("{{{}}}", fmt::join(kinds, ",")));
  command->add_option("kind", options.kind, "The plan's kind: " + fmt::format("{}", fmt::join(kinds, " or ")))
      ->type_name("KIND")
      ->required()
      ->check(template_kind);
  add_output_option(*command, options.output, "Write the template to FILE (which must not exist) instead of stdout");
  add_today_option(*command, options.today, "The review date the template writes");
  return command;
}

int run_new(const NewOptions& options, std::ostream& out, std::ostream& err) {
  const Result<std::optional<Date>> today = today_option(options.today);
  if (!today) {
    err << error_line(today.error()) << '\n';
    return exit_failure;
  }
  const std::optional<std::string> text = plan_template(options.kind, today->value_or(real_today()));
  if (!text) {
    const std::vector<std::string_view> kinds(template_kinds().begin(), template_kinds().end());
    std::string line = fmt::format("planlint: error: no template for kind '{}': `planlint new` writes {}",
                                   options.kind, fmt::join(kinds, " or "));
    if (options.kind == "finetune")
      line += "; a finetune plan starts from `planlint new training`, with kind = \"finetune\"";
    else if (std::optional<std::string> closest = closest_match(options.kind, kinds))
      line += fmt::format("; did you mean '{}'?", *closest);
    print_line(err, line);
    return exit_failure;
  }
  if (options.output.empty()) {
    out << *text;
    return exit_clean;
  }
  // A template is a start, never a replacement: an existing plan is not overwritten.
  std::error_code ec;
  if (std::filesystem::exists(options.output, ec) || ec) {
    print_line(err, fmt::format("planlint: error: '{}' already exists; choose another name or remove it first",
                       options.output));
    return exit_failure;
  }
  if (Result<void> written = write_file_atomically(options.output, *text); !written) {
    err << error_line(written.error()) << '\n';
    return exit_failure;
  }
  print_line(err, fmt::format("planlint: wrote the {} plan template to {}; `planlint {}` says what to fill in",
                     options.kind, options.output, options.output));
  return exit_clean;
}

}  // namespace planlint::cli
