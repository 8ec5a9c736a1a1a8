#pragma once
/// The subcommands: each declares its CLI11 options and runs through the library.
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/cli.hpp"
#include "planlint/diag/result.hpp"
#include "planlint/emit/sarif.hpp"
#include "planlint/lint/findings_cap.hpp"
#include "planlint/plan/plan.hpp"

namespace planlint::cli {

struct CheckOptions {
  std::vector<std::string> paths;
  std::string format = "text";
  bool no_color = false;
  std::string fail_on;  ///< empty: the config's, else error
  // Integrations (check_command.cpp, docs/cli.md).
  std::string output;   ///< -o FILE; empty: stdout
  std::string config;   ///< --config FILE; empty: discover .planlint.toml
  std::vector<std::string> select, ignore, severity, rules;
  std::string baseline, write_baseline, today;
  unsigned jobs = 1;
  bool skip_non_plans = false;
  bool output_follow_symlinks = false;  ///< --output-follow-symlinks
  std::string max_file_size;           ///< --max-file-size: "64MiB", "100 MB", "20000000"
  std::size_t max_plans_per_file = 0;  ///< --max-plans-per-file; 0: the default
  std::size_t sarif_max_results = SarifOptions::github_max_results;  ///< --sarif-max-results; 0: none
  std::size_t max_findings_per_file = default_max_findings_per_file;  ///< --max-findings-per-file; 0: all
  bool fix = false;           ///< --fix: apply the safe fixes in place, then report what remains
  bool diff = false;          ///< --diff: print the fixes as a unified diff, change nothing
  bool unsafe_fixes = false;  ///< --unsafe-fixes: --fix and --diff apply unsafe fixes too
  std::string color = "auto";  ///< --color auto|always|never (--no-color: never)
  bool exit_zero = false;      ///< --exit-zero: findings do not make the exit status 1
  bool quiet = false;          ///< -q: the findings only
  bool statistics = false;     ///< --statistics: a count per rule instead of the findings
  bool allow_empty = false;    ///< --allow-empty: a run that finds no plan is not an error
  std::string stdin_filename;  ///< --stdin-filename: the name of `-` (standard input)
  bool no_ignore = false;      ///< --no-ignore: a folder search lints what .gitignore ignores
  std::vector<std::string> exclude;  ///< --exclude GLOB: what a folder search leaves out
};

/// Each add_*_command adds its subcommand with its options (those several commands take:
/// shared_options.hpp); a run adds the subcommand it invokes only (cli.cpp).
CLI::App* add_check_command(CLI::App& app, CheckOptions& options);

int run_check(const CheckOptions& options, std::ostream& out, std::ostream& err,
              const Environment& environment);

/// `planlint report PLAN [--format text|markdown|json]` (report_command.cpp).
struct ReportOptions {
  std::vector<std::string> paths;  ///< as given; one for every format but html
  std::string path;                ///< the one plan of the text, Markdown and JSON formats
  std::string output;              ///< -o FILE (html); empty: stdout
  std::string format = "text";
  bool no_color = false;
  std::string config;      ///< --config FILE; empty: the nearest .planlint.toml (its catalog)
  std::size_t block = 0;   ///< --block N: the Nth plan of a Markdown doc (1-based); 0: its only one
  std::string color = "auto";  ///< --color auto|always|never
  std::string compare_to;  ///< --compare-to BASE (html): the change since BASE, as `planlint diff` finds it
};

CLI::App* add_report_command(CLI::App& app, ReportOptions& options);
int run_report(const ReportOptions& options, std::ostream& out, std::ostream& err,
               const Environment& environment);
/// `planlint report --format html PATH...` (report_html_command.cpp, docs/report.md).
int run_html_report(const ReportOptions& options, std::ostream& out, std::ostream& err);

/// `planlint diff BASE HEAD`, `planlint diff --base-ref REV [PATH...]` (diff_command.cpp,
/// docs/review.md).
struct DiffCommandOptions {
  std::vector<std::string> sides;  ///< BASE HEAD; with --base-ref, the working tree's paths
  std::string base_ref;            ///< --base-ref REV
  std::string format = "text";
  std::string output;              ///< -o FILE; empty: stdout
  bool all = false;                ///< --all: every metric
  bool only_if_increase = false;   ///< --only-if-increase
  std::string config;              ///< --config FILE
  std::string fail_on;             ///< --fail-on; empty: the config's, else error
  std::string color = "auto";
  bool no_color = false;
  bool output_follow_symlinks = false;
  unsigned jobs = 1;
  std::string max_file_size;
  std::string today;
};

CLI::App* add_diff_command(CLI::App& app, DiffCommandOptions& options);
int run_diff_command(const DiffCommandOptions& options, std::ostream& out, std::ostream& err,
                     const Environment& environment);

/// `planlint solve PLAN`: the layouts the plan leaves free that fit and meet its hard targets,
/// best first (solve_command.cpp, docs/solve.md).
struct SolveCommandOptions {
  std::string path;
  std::string minimize = "cost";  ///< --minimize cost|days|gpus
  std::size_t top = 5;            ///< -n N
  std::vector<std::string> keep;  ///< --keep tp,pp
  std::vector<std::string> vary;  ///< --vary gpu,count
  std::vector<std::string> gpus;  ///< --gpus h100-sxm,a100-sxm
  std::string count;              ///< --count 512..4096
  std::string config;             ///< --config FILE
  std::size_t block = 0;          ///< --block N
  std::string format = "text";    ///< --format text|markdown|json
  /// --apply [N]: write layout N (1 when given alone) into the plan; empty: not given.
  std::string apply;
  bool diff = false;              ///< --diff: layout N's edits as a unified diff, nothing written
};

CLI::App* add_solve_command(CLI::App& app, SolveCommandOptions& options);
int run_solve(const SolveCommandOptions& options, std::ostream& out, std::ostream& err);

/// `planlint lsp`: the language server over stdin and stdout (lsp_command.cpp, docs/editors.md).
struct LspOptions {
  std::string config;            ///< --config FILE; empty: each document's nearest .planlint.toml
  std::string today;             ///< --today / PLANLINT_TODAY
  std::string max_file_size;     ///< --max-file-size: the largest document linted
  std::size_t max_plans_per_file = 0;  ///< --max-plans-per-file; 0: the default
  std::string max_message_size;  ///< --max-message-size: the largest message read
  std::size_t max_findings_per_file = default_max_findings_per_file;  ///< --max-findings-per-file; 0: all
  unsigned debounce_ms = 150;    ///< --debounce MS: how long edits pause before a lint
  bool log = false;              ///< --log: a line per message on stderr
};

CLI::App* add_lsp_command(CLI::App& app, LspOptions& options);
int run_lsp(const LspOptions& options, std::ostream& err);

/// `planlint new training|inference [-o FILE]`: a commented plan template (new_command.cpp).
struct NewOptions {
  std::string kind;
  std::string output;  ///< -o FILE; empty: stdout. An existing FILE is left alone (exit 2).
  std::string today;   ///< --today / PLANLINT_TODAY: the template's review dates
};

CLI::App* add_new_command(CLI::App& app, NewOptions& options);
int run_new(const NewOptions& options, std::ostream& out, std::ostream& err);

}  // namespace planlint::cli
