#pragma once
/// planlint's command line as one CLI11 App: the global flags and the subcommands, each writing
/// into its options struct. `run()` parses with it (cli.cpp); the man page and the shell
/// completions are generated from it at build time (src/docgen/), so they list exactly the
/// options the parser accepts.
#include <array>
#include <functional>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

#include "cli/commands.hpp"
#include "cli/info_commands.hpp"

namespace planlint::cli {

/// The subcommands, in the order `planlint --help` lists them.
inline constexpr std::array<std::string_view, 9> subcommand_names = {"check", "report", "diff", "solve", "rules",
                                                                     "explain", "gpus", "new", "lsp"};
/// `planlint PATH...` means `planlint check PATH...`.
inline constexpr std::string_view default_subcommand = "check";

/// "planlint 0.2.0 (git v0.2.0-3-g1a2b3c4d5e6f)": the version and the source commit it was
/// built from (source_commit.hpp), or that the tree had no git metadata.
std::string version_line();
/// The same for `commit` (empty: unknown).
std::string version_line(std::string_view commit);

struct CommandLine {
  /// Sets up the subcommands that `wanted` accepts, every one by default. A run sets up only
  /// the one it invokes: each costs CLI11 an App, several strings an option and a comparison
  /// with every earlier name, and after a subcommand's name CLI11 does not switch to another.
  explicit CommandLine(const std::function<bool(std::string_view)>& wanted = [](std::string_view) { return true; });
  CommandLine(const CommandLine&) = delete;
  CommandLine& operator=(const CommandLine&) = delete;

  CheckOptions check_options;
  ReportOptions report_options;
  DiffCommandOptions diff_options;
  SolveCommandOptions solve_options;
  RulesOptions rules_options;
  ExplainOptions explain_options;
  GpusOptions gpus_options;
  NewOptions new_options;
  LspOptions lsp_options;

  CLI::App app;
  CLI::App* check = nullptr;  ///< nullptr: not set up (a run of another subcommand)
  CLI::App* report = nullptr;
  CLI::App* diff = nullptr;
  CLI::App* solve = nullptr;
  CLI::App* rules = nullptr;
  CLI::App* explain = nullptr;
  CLI::App* gpus = nullptr;
  CLI::App* new_command = nullptr;
  CLI::App* lsp = nullptr;
};

}  // namespace planlint::cli
