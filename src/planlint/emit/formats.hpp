#pragma once
/// The output formats of `planlint check --format`: one table, which the command line reads
/// for its choices and builds its emitter from (docs/cli.md, "Output formats").
///
///     const OutputFormat* format = find_output_format("sarif");
///     options.list_rules = format->lists_rules;
///     std::unique_ptr<Emitter> emitter = format->make(out, settings);
///     run_lint(options, *emitter);               // the files as they come; the log at finish()
///     for (const std::string& line : emitter->warnings()) err << line << '\n';
///
/// A format is added with a row here and an Emitter; nothing else chooses between formats.
#include <cstddef>
#include <memory>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "planlint/emit/emitter.hpp"
#include "planlint/emit/sarif.hpp"
#include "planlint/emit/text.hpp"

namespace planlint {

/// What an emitter may need to know of the run besides its findings, as plain data.
struct EmitterSettings {
  TextStyle style;                ///< text: colours
  /// Absolute; SARIF's %SRCROOT%, what GitHub annotations and JSON's repository_file are
  /// relative to (repository_root()).
  std::string repository_root;
  std::string working_directory;  ///< absolute; what the report's relative paths start from
  std::size_t sarif_max_results = SarifOptions::github_max_results;  ///< 0: no limit
  std::string docs_url;       ///< SARIF's rule helpUri base; empty: the build's
  std::string automation_id;  ///< SARIF's run.automationDetails.id; empty: "planlint/"
};

struct OutputFormat {
  std::string_view name;  ///< --format NAME
  /// Another name --format takes for it (ruff's `full` for text), or empty.
  std::string_view alias;
  /// Writes each file's findings as the run delivers it (text, GitHub); otherwise the output
  /// is written at the end, each file's entries put aside until then (SARIF, JSON:
  /// emit/spool.hpp). Every format holds one file at a time.
  bool streaming = false;
  /// Lists the rules that ran (RunOptions::list_rules): SARIF's tool.driver.rules.
  bool lists_rules = false;
  std::unique_ptr<Emitter> (*make)(std::ostream& out, const EmitterSettings& settings) = nullptr;
};

/// Every format, in the order `--help` lists them; the first is the default.
std::span<const OutputFormat> output_formats();

/// The format named or aliased `name`, or nullptr.
const OutputFormat* find_output_format(std::string_view name);

/// The formats' names, in the table's order.
std::vector<std::string> output_format_names();

/// What --format takes: the formats' names in the table's order, then their aliases.
std::vector<std::string> output_format_choices();

}  // namespace planlint
