#include "planlint/source/toml_span.hpp"

#include <algorithm>

#include "planlint/source/columns.hpp"

namespace planlint::detail {

Position ColumnConverter::position(const toml::source_position& parsed) {
  if (!parsed) return {};
  const toml::source_position at{parsed.line + line_offset_, parsed.column};
  if (ascii_) return Position{at.line, at.column};
  const std::string_view line = file_.line(at.line);
  if (at.line != line_) {
    line_ = at.line;
    table_built_ = false;
    ascii_prefix_ = static_cast<std::size_t>(
        std::find_if(line.begin(), line.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; }) -
        line.begin());
  }
  // Code point c is byte c when every byte before it is ASCII (past the line's end, each column
  // is one byte either way): most positions sit in the ASCII start of their line even when a
  // comment further on holds "×" or "—". The prefix is measured once a line, not once a position.
  if (ascii_prefix_ == line.size() || at.column - 1 <= ascii_prefix_) return Position{at.line, at.column};
  if (!table_built_) {
    table_built_ = true;
    byte_of_.clear();
    for (std::size_t i = 0; i < line.size(); ++i)
      if ((static_cast<unsigned char>(line[i]) & 0xC0) != 0x80) byte_of_.push_back(static_cast<std::uint32_t>(i));
  }
  const std::size_t code_point = at.column - 1;
  if (code_point < byte_of_.size()) return Position{at.line, byte_of_[code_point] + 1};
  // Past the line's end (toml++'s end of a value at the line break): one byte per column.
  return Position{at.line, static_cast<std::uint32_t>(line.size() + 1 + (code_point - byte_of_.size()))};
}

Span ColumnConverter::converted_span(const toml::source_region& region) {
  Span span{position(region.begin), position(region.end)};
  if (span.end < span.begin || span.end.line == 0)
    span.end = Position{span.begin.line, after_character(file_.line(span.begin.line), span.begin.column)};
  return span;
}

}  // namespace planlint::detail
