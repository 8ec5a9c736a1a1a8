#pragma once
/// The subcommands: each declares its CLI11 options and runs through the library.
#include <ostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/cli.hpp"

namespace planlint::cli {

struct CheckOptions {
  std::vector<std::string> paths;
  std::string format = "text";
  bool no_color = false;
  std::string fail_on = "error";
};

CLI::App* add_check_command(CLI::App& app, CheckOptions& options);
int run_check(const CheckOptions& options, std::ostream& out, std::ostream& err,
              const Environment& environment);

}  // namespace planlint::cli
