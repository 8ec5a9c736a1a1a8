#pragma once
/// The columns of columns.hpp for the many positions of one run of a writer, counted on from
/// the last column asked of the same line, forward or back: a writer asks for its positions in
/// line and column order, so the many findings of one long line cost one pass over it, not one
/// each. Every writer that converts columns (text, GitHub, JUnit, SARIF, the language server)
/// counts with it.
///
///     ColumnCursor columns;  // one per emitted file or report: the lines it saw stay alive
///     append_number(out, columns.shown(source, d.primary.file, d.primary.span.begin));
///     ColumnCursor units(ColumnUnit::utf16);  // SARIF's and LSP's columns
///     const std::uint32_t column = units.column(file.line(at.line), at.column);
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "planlint/source/columns.hpp"
#include "planlint/source/source_file.hpp"

namespace planlint {

/// What a column counts: characters (code points, as the text and GitHub outputs show them)
/// or UTF-16 code units (SARIF's columnKind utf16CodeUnits, LSP's default position encoding).
enum class ColumnUnit { code_point, utf16 };

class ColumnCursor {
 public:
  explicit ColumnCursor(ColumnUnit unit = ColumnUnit::code_point) : unit_(unit) {}

  /// code_point_column(line, byte_column) or utf16_column(line, byte_column) (columns.hpp), by
  /// the cursor's unit. `line` must stay alive while the cursor is used: it is known again by
  /// its address.
  std::uint32_t column(std::string_view line, std::uint32_t byte_column) {
    if (byte_column == 0) return 0;
    const std::size_t bytes = byte_column - 1, inside = std::min<std::size_t>(bytes, line.size());
    if (line_ != line.data() || size_ != line.size() || (inside < byte_ && byte_ - inside > inside)) {
      // Another line, or a column nearer the line's start than the last one: count from the start.
      line_ = line.data();
      size_ = line.size();
      byte_ = 0;
      units_ = 0;
    }
    if (inside >= byte_) units_ += units_of(line.substr(byte_, inside - byte_));
    else units_ -= units_of(line.substr(inside, byte_ - inside));
    byte_ = inside;
    return 1 + units_ + static_cast<std::uint32_t>(bytes - inside);
  }

  /// What shown_column(source, path, at) returns: the code point column of `at` when `source`
  /// is the file at `path`, else its byte column.
  std::uint32_t shown(const SourceFile* source, std::string_view path, Position at) {
    if (source == nullptr || source->path() != path || at.column == 0) return at.column;
    return column(source->line(at.line), at.column);
  }

 private:
  /// The units of the characters that start in `text`, counted by columns.hpp.
  std::uint32_t units_of(std::string_view text) const {
    return unit_ == ColumnUnit::utf16 ? utf16_length(text) : code_point_length(text);
  }

  ColumnUnit unit_;
  const char* line_ = nullptr;  ///< the line counted, by its text's address
  std::size_t size_ = 0;
  std::size_t byte_ = 0;        ///< bytes of it counted
  std::uint32_t units_ = 0;     ///< the units of the characters that start in them
};

}  // namespace planlint
