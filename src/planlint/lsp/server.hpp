#pragma once
/// `planlint lsp`: a Language Server Protocol 3.17 server over a pair of file descriptors
/// (docs/editors.md). Diagnostics on open, change (debounced) and save, quick fixes, hover with
/// the arithmetic, completion from the plan schema and the catalog, and a re-lint of the open
/// documents when a config or rule pack changes.
///
///     ServerOptions options;
///     return serve(options, STDIN_FILENO, STDOUT_FILENO, nullptr);  // the exit status
#include <chrono>
#include <cstddef>
#include <optional>
#include <ostream>
#include <string>

#include "planlint/lint/findings_cap.hpp"
#include "planlint/plan/plan.hpp"
#include "planlint/source/limits.hpp"

namespace planlint::lsp {

struct ServerOptions {
  /// The largest message content read; a larger one is answered with an error and dropped.
  /// Reading one takes at most 16 times its size (JsonLimits): 256 MiB at the default.
  std::size_t max_message_bytes = default_max_message_bytes;
  /// What --max-message-size may raise it to: a document's offsets are 32-bit.
  static constexpr std::size_t most_message_bytes = std::size_t{1} << 30;
  static constexpr std::size_t default_max_message_bytes = std::size_t{16} << 20;
  /// The largest document linted (as --max-file-size for check).
  std::size_t max_file_bytes = default_max_file_bytes;
  std::size_t max_plans_per_file = default_max_markdown_plans;
  /// --max-findings-per-file: the most diagnostics a document shows, its most severe, then one
  /// that says how many more it has; 0: all.
  std::size_t max_findings_per_file = default_max_findings_per_file;
  /// How long edits must pause before a document is linted again.
  std::chrono::milliseconds debounce{150};
  /// --config: this file configures every document; otherwise each one's nearest
  /// .planlint.toml does, as for `planlint check`.
  std::optional<std::string> config;
  std::optional<Date> today;  ///< --today / PLANLINT_TODAY
};

/// Serves one client until `exit` (or the end of the input); the process's exit status: 0
/// after `shutdown` then `exit`, 1 when the input ended or `exit` came without `shutdown`.
/// `log`, when not null, gets a line per message (method, time), with text from the client
/// escaped.
int serve(const ServerOptions& options, int in_fd, int out_fd, std::ostream* log);

}  // namespace planlint::lsp
