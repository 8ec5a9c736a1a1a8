// `planlint lsp`: options → the language server of planlint/lsp over stdin and stdout.
#include <unistd.h>

#include <tuple>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "planlint/lsp/server.hpp"

namespace planlint::cli {

CLI::App* add_lsp_command(CLI::App& app, LspOptions& options) {
  CLI::App* lsp = app.add_subcommand(
      "lsp", "Run the language server (LSP over stdin and stdout) for editors: diagnostics, fixes, hover, completion");
  lsp->add_option("--config", options.config,
                  "Config file for every document (default: the nearest .planlint.toml up from each one)")
      ->type_name("FILE")
      ->check(non_empty("a file path"));
  lsp->add_option("--today", options.today, "The date staleness rules compare with, YYYY-MM-DD (also: PLANLINT_TODAY)")
      ->type_name("DATE")
      ->check(non_empty("a date, YYYY-MM-DD"));
  lsp->add_option("--max-file-size", options.max_file_size,
                  "Largest document linted, e.g. 64MiB (default 16MiB); a larger one gets one diagnostic")
      ->type_name("SIZE")
      ->check(non_empty("a size, such as 64MiB"));
  lsp->add_option("--max-plans-per-file", options.max_plans_per_file,
                  "Most plan blocks in one Markdown doc (default 100)")
      ->type_name("N")
      ->check(whole_number<std::size_t>(1, "a whole number, 1 or more"));
  add_max_findings_option(*lsp, options.max_findings_per_file);
  lsp->add_option("--max-message-size", options.max_message_size,
                  "Largest message read, e.g. 64MiB (default 16MiB, at most 1GiB); a larger one gets an error response")
      ->type_name("SIZE")
      ->check(non_empty("a size, such as 64MiB"));
  lsp->add_option("--debounce", options.debounce_ms,
                  "Milliseconds edits must pause before a document is linted again (default 150)")
      ->type_name("MS")
      ->check(whole_number(0, 60000, "a whole number of milliseconds, 0 to 60000"));
  lsp->add_flag("--log", options.log, "Log each message and its time on stderr");
  return lsp;
}

int run_lsp(const LspOptions& options, std::ostream& err) {
  lsp::ServerOptions server;
  if (!options.config.empty()) server.config = options.config;
  Result<std::optional<Date>> today = today_option(options.today);
  if (!today) {
    err << error_line(today.error()) << '\n';
    return exit_failure;
  }
  server.today = *today;
  for (const auto& [option, text, limit] :
       {std::tuple{"--max-file-size", &options.max_file_size, &server.max_file_bytes},
        std::tuple{"--max-message-size", &options.max_message_size, &server.max_message_bytes}}) {
    if (text->empty()) continue;
    const auto bytes = parse_byte_size(*text);
    if (!bytes) {
      print_line(err, fmt::format("planlint: error: {} {}: expected a size in bytes, such as 64MiB or 100MB", option, *text));
      return exit_failure;
    }
    *limit = *bytes;
  }
  if (server.max_message_bytes > lsp::ServerOptions::most_message_bytes) {
    print_line(err, fmt::format("planlint: error: --max-message-size {}: at most {}", options.max_message_size,
                                format_byte_size(lsp::ServerOptions::most_message_bytes)));
    return exit_failure;
  }
  if (options.max_plans_per_file > 0) server.max_plans_per_file = options.max_plans_per_file;
  server.max_findings_per_file = options.max_findings_per_file;
  server.debounce = std::chrono::milliseconds(options.debounce_ms);
  return lsp::serve(server, STDIN_FILENO, STDOUT_FILENO, options.log ? &err : nullptr);
}

}  // namespace planlint::cli
