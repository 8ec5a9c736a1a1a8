// `planlint lsp`: options → the language server of planlint/lsp over stdin and stdout.
#include <unistd.h>

#include <tuple>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "cli/shared_options.hpp"
#include "planlint/lsp/server.hpp"

namespace planlint::cli {

CLI::App* add_lsp_command(CLI::App& app, LspOptions& options) {
  CLI::App* lsp = app.add_subcommand(
      "lsp", "Run the language server (LSP over stdin and stdout) for editors: diagnostics, fixes, hover, completion");
  add_config_option(*lsp, options.config, " for every document", "each one");
  add_today_option(*lsp, options.today, "The date staleness rules compare with");
  add_max_file_size_option(*lsp, options.max_file_size, "document linted", "a larger one gets one diagnostic");
  add_max_plans_option(*lsp, options.max_plans_per_file, "more gets one diagnostic");
  add_max_findings_option(*lsp, options.max_findings_per_file);
  add_byte_size_option(*lsp, "--max-message-size", options.max_message_size,
                       fmt::format("Largest message read, e.g. 64MiB (default {}, at most {}); a larger one gets an "
                                   "error response",
                                   size_in_help(lsp::ServerOptions::default_max_message_bytes),
                                   size_in_help(lsp::ServerOptions::most_message_bytes)));
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
    const Result<std::optional<std::size_t>> bytes = byte_size_option(option, *text);
    if (!bytes) {
      err << error_line(bytes.error()) << '\n';
      return exit_failure;
    }
    if (*bytes) *limit = **bytes;
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
