// `planlint new training|inference`: prints a commented plan template (cli.md), or writes it
// to -o FILE, never over an existing file.
#include <filesystem>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/commands.hpp"
#include "cli/shared_options.hpp"
#include "planlint/files/output_file.hpp"
#include "planlint/plan/date.hpp"
#include "planlint/plan/templates.hpp"

namespace planlint::cli {

CLI::App* add_new_command(CLI::App& app, NewOptions& options) {
  CLI::App* command = app.add_subcommand("new", "Print a commented plan template to start from");
  std::vector<std::string> kinds(template_kinds().begin(), template_kinds().end());
  command->add_option("kind", options.kind, "The plan's kind: " + fmt::format("{}", fmt::join(kinds, " or ")))
      ->type_name("KIND")
      ->required()
      ->check(CLI::IsMember(kinds));
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
    print_line(err, fmt::format("planlint: error: no template for kind '{}'", options.kind));
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
