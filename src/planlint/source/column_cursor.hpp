#pragma once
/// shown_column() (columns.hpp) for the many findings of one run of an emitter, counted on from
/// the last column asked of the same line: findings come in line and column order, so the many
/// findings of one long line cost one pass over it, not one each.
///
///     ColumnCursor columns;  // one per emitted file or report: the lines it saw stay alive
///     append_number(out, columns.shown(source, d.primary.file, d.primary.span.begin));
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "planlint/source/source_file.hpp"

namespace planlint {

class ColumnCursor {
 public:
  /// What shown_column(source, path, at) returns.
  std::uint32_t shown(const SourceFile* source, std::string_view path, Position at) {
    if (source == nullptr || source->path() != path || at.column == 0) return at.column;
    const std::string_view line = source->line(at.line);
    const std::size_t bytes = at.column - 1, inside = std::min<std::size_t>(bytes, line.size());
    std::size_t from = 0;
    std::uint32_t characters = 0;
    if (line_ == line.data() && size_ == line.size() && byte_ <= inside) {
      from = byte_;
      characters = characters_;
    }
    for (std::size_t i = from; i < inside; ++i)
      if ((static_cast<unsigned char>(line[i]) & 0xC0) != 0x80) ++characters;
    line_ = line.data();
    size_ = line.size();
    byte_ = inside;
    characters_ = characters;
    return 1 + characters + static_cast<std::uint32_t>(bytes - inside);
  }

 private:
  const char* line_ = nullptr;  ///< the line counted, by its text's address
  std::size_t size_ = 0;
  std::size_t byte_ = 0;           ///< bytes of it counted
  std::uint32_t characters_ = 0;  ///< the characters that start in them
};

}  // namespace planlint
