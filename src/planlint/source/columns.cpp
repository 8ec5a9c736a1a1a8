#include "planlint/source/columns.hpp"

#include <algorithm>
#include <cstring>

#include "planlint/source/source_file.hpp"

namespace planlint {

namespace {

bool is_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

/// The UTF-16 code units of the character that starts with `lead`: a four-byte sequence (lead
/// byte 0xF0 and above) is a code point above U+FFFF, a surrogate pair; any other is one.
std::uint32_t utf16_units(unsigned char lead) { return lead >= 0xF0 ? 2 : 1; }

/// Counts the characters that start in the first `bytes` bytes of `line` (bytes past its end
/// count one each), `units(lead)` each.
template <typename Units>
std::uint32_t count_before(std::string_view line, std::uint32_t byte_column, Units units) {
  const std::size_t bytes = byte_column > 0 ? byte_column - 1 : 0;
  const std::size_t inside = std::min(bytes, line.size());
  std::uint32_t count = 0;
  for (std::size_t i = 0; i < inside; ++i)
    if (!is_continuation(line[i])) count += units(static_cast<unsigned char>(line[i]));
  return count + static_cast<std::uint32_t>(bytes - inside);
}

}  // namespace

std::uint32_t byte_column(std::string_view line, std::uint32_t code_point_column) {
  if (code_point_column == 0) return 0;
  std::size_t byte = 0;
  std::uint32_t column = 1;
  while (column < code_point_column && byte < line.size()) {
    ++byte;
    while (byte < line.size() && is_continuation(line[byte])) ++byte;
    ++column;
  }
  return static_cast<std::uint32_t>(byte + 1 + (code_point_column - column));
}

std::uint32_t code_point_column(std::string_view line, std::uint32_t byte_column) {
  if (byte_column == 0) return 0;
  return 1 + count_before(line, byte_column, [](unsigned char) { return 1u; });
}

std::uint32_t utf16_column(std::string_view line, std::uint32_t byte_column) {
  if (byte_column == 0) return 0;
  return 1 + count_before(line, byte_column, utf16_units);
}

std::uint32_t utf16_length(std::string_view text) {
  return count_before(text, static_cast<std::uint32_t>(text.size() + 1), utf16_units);
}

std::uint32_t code_point_length(std::string_view text) {
  return count_before(text, static_cast<std::uint32_t>(text.size() + 1), [](unsigned char) { return 1u; });
}

std::size_t utf8_prefix_bytes(std::string_view line, std::uint32_t units) {
  std::size_t at = 0;
  std::uint32_t counted = 0;
  while (at < line.size()) {
    const std::uint32_t width = utf16_units(static_cast<unsigned char>(line[at]));
    if (counted + width > units) break;
    counted += width;
    ++at;
    while (at < line.size() && is_continuation(line[at])) ++at;
  }
  return at;
}

std::uint32_t after_character(std::string_view line, std::uint32_t byte_column) {
  std::size_t byte = byte_column > 0 ? byte_column : 1;  // the 0-based index of the next byte
  while (byte < line.size() && is_continuation(line[byte])) ++byte;
  return static_cast<std::uint32_t>(byte + 1);
}

bool is_ascii(std::string_view text) {
  std::size_t i = 0;
  std::uint64_t high = 0;
  for (; i + 8 <= text.size(); i += 8) {  // eight bytes at a time
    std::uint64_t word;
    std::memcpy(&word, text.data() + i, sizeof word);
    high |= word;
  }
  for (; i < text.size(); ++i) high |= static_cast<unsigned char>(text[i]);
  return (high & 0x8080808080808080ull) == 0;
}

std::uint32_t shown_column(const SourceFile* file, std::string_view path, Position at) {
  if (file == nullptr || file->path() != path) return at.column;
  return code_point_column(file->line(at.line), at.column);
}

}  // namespace planlint
