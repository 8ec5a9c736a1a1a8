#include "planlint/source/toml_span.hpp"

#include <algorithm>

#include "planlint/source/columns.hpp"

namespace planlint::detail {

namespace {

/// Whether the first `count` bytes of `line` are ASCII, eight at a time: most positions sit in
/// the ASCII start of their line even when a comment further on holds "×" or "—".
bool ascii_prefix(std::string_view line, std::size_t count) {
  return is_ascii(line.substr(0, std::min(count, line.size())));
}

}  // namespace

Position ColumnConverter::position(const toml::source_position& at) {
  if (!at) return {};
  if (ascii_) return Position{at.line, at.column};
  const std::string_view line = file_.line(at.line);
  // Code point c is byte c when every byte before it is ASCII (past the line's end, each column
  // is one byte either way): no table of the line's code points to build.
  if (ascii_prefix(line, at.column - 1)) return Position{at.line, at.column};
  if (at.line != line_) {
    line_ = at.line;
    byte_of_.clear();
    if (std::any_of(line.begin(), line.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; }))
      for (std::size_t i = 0; i < line.size(); ++i)
        if ((static_cast<unsigned char>(line[i]) & 0xC0) != 0x80) byte_of_.push_back(static_cast<std::uint32_t>(i));
  }
  if (byte_of_.empty()) return Position{at.line, at.column};  // an ASCII line: the same column
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
