#pragma once
/// The planlint command line: CLI11 options → library calls → exit status (cli.md).
#include <istream>
#include <ostream>
#include <string_view>

namespace planlint::cli {

/// Exit statuses of cli.md.
enum ExitStatus : int { exit_clean = 0, exit_findings = 1, exit_failure = 2 };

struct Environment {
  bool stdout_is_terminal = false;
  bool no_color = false;     ///< NO_COLOR is set (https://no-color.org)
  bool force_color = false;  ///< FORCE_COLOR is set (https://force-color.org)
  std::istream* input = nullptr;  ///< what `planlint check -` reads; nullptr: std::cin
};

/// Whether output is coloured: `color` is --color's value (auto, always, never; --no-color is
/// never). auto: never with NO_COLOR, always with FORCE_COLOR, else when stdout is a terminal
/// that the output goes to (`to_stdout`: no -o).
bool use_color(std::string_view color, bool to_stdout, const Environment& environment);

/// Writes one line planlint composed around its input (a path, an option's value, a rule id)
/// to `stream`, printable() whole (planlint/diag/printable.hpp), and a line break. Every line
/// begins with planlint's own words ("planlint: error: ..."), so none starts a GitHub workflow
/// command.
void print_line(std::ostream& stream, std::string_view line);

/// Reads the real process environment.
Environment detect_environment();

/// Runs planlint with `argv` (argv[0] is the program name). Never throws. Output that cannot
/// be written to `out` (a full disk, a closed stdout) is exit 2 with the reason on `err`.
int run(int argc, const char* const argv[], std::ostream& out, std::ostream& err,
        const Environment& environment);

}  // namespace planlint::cli
