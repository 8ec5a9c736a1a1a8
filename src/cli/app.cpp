#include "cli/app.hpp"

#include <fmt/format.h>

#include "cli/source_commit.hpp"

namespace planlint::cli {

std::string version_line() { return version_line(source_commit()); }

std::string version_line(std::string_view commit) {
  if (commit.empty()) return fmt::format("planlint {} (source commit unknown: built without git metadata)", PLANLINT_VERSION);
  return fmt::format("planlint {} (git {})", PLANLINT_VERSION, commit);
}

CommandLine::CommandLine(const std::function<bool(std::string_view)>& wanted)
    : app("planlint: a linter for AI compute capacity plans", "planlint") {
  app.set_version_flag("--version", std::function<std::string()>([] { return version_line(); }),
                       "Print the version and the source commit, then exit");
  app.require_subcommand(0, 1);
  // Each command's help is its own: CLI11 gives a subcommand its parent's footer when it is
  // added, so the program's footer is set after them, and each sets its own.
  if (wanted("check")) {
    check = add_check_command(app, check_options);
    check->footer("Exit status: 0 no findings at --fail-on or above, 1 findings, 2 planlint could not run.");
  }
  if (wanted("report")) {
    report = add_report_command(app, report_options);
    report->footer("Exit status: 0, 1 when a plan has errors (html: findings at or above the config's fail_on), "
                   "2 planlint could not run.");
  }
  if (wanted("diff")) {
    diff = add_diff_command(app, diff_options);
    diff->footer("Exit status: 0, 1 when the change introduces a finding (or exceeds a guardrail) at or above "
                 "--fail-on, 2 planlint could not run.");
  }
  if (wanted("solve")) {
    solve = add_solve_command(app, solve_options);
    solve->footer("Exit status: 0 a layout fits and meets the hard targets, 1 none does, 2 planlint could not run.");
  }
  if (wanted("rules")) rules = add_rules_command(app, rules_options);
  if (wanted("explain")) explain = add_explain_command(app, explain_options);
  if (wanted("gpus")) gpus = add_gpus_command(app, gpus_options);
  if (wanted("new")) new_command = add_new_command(app, new_options);
  if (wanted("lsp")) lsp = add_lsp_command(app, lsp_options);
  app.footer("Run `planlint PATH...` to lint plan files, folders or Markdown docs (check is the default command);\n"
             "`planlint COMMAND --help` shows a command's options.\n"
             "Exit status: 0 no findings at --fail-on or above, 1 findings, 2 planlint could not run.");
}

}  // namespace planlint::cli
