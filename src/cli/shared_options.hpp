#pragma once
/// The options several commands take, each defined once here: its names, value name, help and
/// the check of its value (CLI11's at parse time; for a value CLI11 cannot check, the function
/// that reads it, with its error). A command adds the ones it takes; where an option means
/// something particular to the command, the command's words are arguments ("for every plan").
///
///     add_config_option(*diff, options.config, " for every plan", "each file in the working tree");
///     Result<std::optional<Date>> today = today_option(options.today);
#include <cstddef>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "planlint/catalog/catalog.hpp"
#include "planlint/config/config.hpp"
#include "planlint/diag/result.hpp"
#include "planlint/plan/date.hpp"
#include "planlint/source/source_file.hpp"

namespace planlint::cli {

/// The one plan of a file for a one-plan command (report, solve): the file's text, or the
/// `block`th (1-based; 0: the only) ```toml plan block of a Markdown doc, with its first line.
struct PlanText {
  std::string_view toml_text;
  std::uint32_t first_line = 1;
};
Result<PlanText> one_plan_text(const SourceFile& source, std::size_t block);

/// --config FILE: "Config file{applies} (default: the nearest .planlint.toml up from
/// {searched_from})", e.g. applies " whose rule packs count", searched_from "here".
void add_config_option(CLI::App& command, std::string& config, std::string_view applies,
                       std::string_view searched_from);

/// The config `--config` names (or the one discovered) with the catalog files it lists loaded
/// over `catalog`; when either has a problem, each is printed to `err`, then "invalid config
/// '...'" (or why the file cannot be read), and the result is nullopt.
std::optional<Config> load_config_and_catalog(const std::string& config_path, ConfigOrigin origin, Catalog& catalog,
                                              std::ostream& err);

/// --rules PATH (repeatable): a rule pack added to the built-in rules and the config's.
void add_rule_packs_option(CLI::App& command, std::vector<std::string>& packs);

/// --today DATE: "{what}, YYYY-MM-DD (default: today; also: PLANLINT_TODAY)". Read it with
/// today_option().
void add_today_option(CLI::App& command, std::string& today, std::string_view what);
/// The date of `--today` (`option`), else of PLANLINT_TODAY: nullopt when neither is set; the
/// error names which one when it is not a date (YYYY-MM-DD).
Result<std::optional<Date>> today_option(const std::string& option);

/// --format FORMAT, one of `choices`, its default shown. `names`: "--format", or with
/// other names ("--format,--output-format").
void add_format_option(CLI::App& command, std::string& format, const std::vector<std::string>& choices,
                       const std::string& help = "Output format", const std::string& names = "--format");

/// -o, --output FILE: `help` says what is written there ("Write the diff to FILE (atomically)
/// instead of stdout").
void add_output_option(CLI::App& command, std::string& output, const std::string& help);
/// --output-follow-symlinks: `writers` are the options it lets write through a link ("-o").
void add_output_follow_symlinks_option(CLI::App& command, bool& follow, std::string_view writers);

/// --color WHEN and --no-color: `color` is what they choose (use_color, cli.hpp).
void add_color_options(CLI::App& command, std::string& color, bool& no_color);

/// --fail-on LEVEL: "Lowest level{what} that makes the exit status 1 (default: the config's,
/// else error)"; `what` is "" or " of a finding the change introduces".
void add_fail_on_option(CLI::App& command, std::string& fail_on, std::string_view what);

/// -j, --jobs N: files linted in parallel, 0 one per core.
void add_jobs_option(CLI::App& command, unsigned& jobs);

/// An option of a size in bytes (SIZE: "64MiB", "100 MB", "20000000"); read it with
/// byte_size_option().
void add_byte_size_option(CLI::App& command, const std::string& name, std::string& size, const std::string& help);
/// --max-file-size SIZE: "Largest {what}, e.g. 64MiB (default 16MiB); {beyond}".
void add_max_file_size_option(CLI::App& command, std::string& size, std::string_view what,
                              std::string_view beyond);
/// The bytes of a size option `name` given as `text`: nullopt when it is empty (not given);
/// the error "--max-file-size 12 parsecs: expected a size in bytes, such as 64MiB or 100MB".
Result<std::optional<std::size_t>> byte_size_option(std::string_view name, const std::string& text);
/// A size as the options' help writes it, in its largest whole binary unit: "16MiB", "1GiB".
std::string size_in_help(std::size_t bytes);

/// --max-plans-per-file N: "Most plan blocks in one Markdown doc (default 100); {beyond}".
void add_max_plans_option(CLI::App& command, std::size_t& max, std::string_view beyond);
/// --max-findings-per-file N (0: all).
void add_max_findings_option(CLI::App& command, std::size_t& max);

}  // namespace planlint::cli
