#pragma once
/// A loaded file: its text, its display path and a line index.
#include <compare>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "planlint/diag/result.hpp"
#include "planlint/source/limits.hpp"
#include "planlint/diag/span.hpp"

namespace planlint {

class SourceFile {
 public:
  /// `display_path` is how diagnostics name the file (as given on the command line). A UTF-8
  /// byte order mark that starts `text` is not part of the text: line 1's columns count from
  /// the character after it, as editors show them (docs/cli.md). (Two marks stay: TOML
  /// allows one, and toml++ reports the second.)
  SourceFile(std::string display_path, std::string text);

  const std::string& path() const { return path_; }
  /// The file's text, without a leading byte order mark.
  const std::string& text() const { return text_; }
  std::uint32_t line_count() const { return static_cast<std::uint32_t>(line_starts_.size()); }

  /// The text of 1-based `line` without its line terminator; empty past the end.
  std::string_view line(std::uint32_t line) const;

  /// Byte offset of a position; clamps to the text.
  std::size_t offset(Position position) const;

  /// The position of a byte offset.
  Position position(std::size_t offset) const;

 private:
  std::string path_;
  std::string text_;
  std::vector<std::size_t> line_starts_;
};

/// The source text of `span` as a message quotes a value ("\"80 GB\"", "[1, 2]"): up to its first
/// line break and at most `max_bytes`, cut at a character boundary. A cut text ends with "…"
/// and, when it opened with a quote, that quote: "\"Vendor quote (Nebius) for 1-year…\"".
std::string value_excerpt(const SourceFile& file, Span span, std::size_t max_bytes = 60);

/// Which file a path reached (its device and inode): two names of one file, a hard link or
/// `a.toml` and `./a.toml`, have the same identity.
struct FileIdentity {
  std::uint64_t device = 0, inode = 0;
  friend auto operator<=>(const FileIdentity&, const FileIdentity&) = default;
};

/// Reads a whole file. The error, at `path`, says why it cannot be read ("No such file or
/// directory"), or that it holds more than `max_bytes`: "file of 20 MiB is over the 16 MiB
/// size limit (raise it with --max-file-size)". Reads at most max_bytes + 1 bytes of a device
/// or pipe. When `identity` is given, a regular file's identity is stored there (from the
/// fstat the read makes anyway), and it is left unset for anything else.
Result<std::string> read_file(const std::string& path, std::size_t max_bytes = default_max_file_bytes,
                              std::optional<FileIdentity>* identity = nullptr);

/// Whether `path` names a TOML file: ".toml" in any case, as Markdown's ".md" is ("PLAN.TOML").
bool is_toml_path(std::string_view path);

}  // namespace planlint
