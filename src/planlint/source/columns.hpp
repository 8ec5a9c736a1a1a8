#pragma once
/// Columns of one line of UTF-8 text in the units the formats need. planlint's spans count
/// bytes (span.hpp); toml++ counts code points; SARIF counts UTF-16 code units; the text and
/// GitHub outputs show code points, as editors do:
///
///     Position at{region.begin.line,
///                 byte_column(file.line(region.begin.line), region.begin.column)};
///
/// `line` is the line's text without its terminator. A column past its end (a span that ends
/// at the line break, a position toml++ places after the last character) counts one per
/// column beyond, in either direction, so conversions of such columns still round-trip.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "planlint/diag/span.hpp"

namespace planlint {

class SourceFile;

/// Whether every byte of `text` is ASCII (then code points, bytes and UTF-16 units agree).
bool is_ascii(std::string_view text);

/// The column the text and GitHub outputs show for `at` in the file at `path`: code points,
/// as editors count them, when `file` is that file; the byte column otherwise (a file that is
/// not at hand, such as the target of a note that points into another file).
std::uint32_t shown_column(const SourceFile* file, std::string_view path, Position at);

/// The 1-based byte column of the 1-based code point column `code_point_column`. 0, the
/// unknown column, stays 0.
std::uint32_t byte_column(std::string_view line, std::uint32_t code_point_column);

/// The 1-based code point column of the 1-based byte column `byte_column` (a column inside a
/// UTF-8 sequence counts as the character after it). 0, the unknown column, stays 0.
std::uint32_t code_point_column(std::string_view line, std::uint32_t byte_column);

/// The 1-based UTF-16 code unit column of the 1-based byte column `byte_column`: a code point
/// above U+FFFF is two units. 0 stays 0.
std::uint32_t utf16_column(std::string_view line, std::uint32_t byte_column);

/// The UTF-16 code units of `text` (a byte that starts no UTF-8 sequence counts one).
std::uint32_t utf16_length(std::string_view text);
/// The code points of `text`, counted as code_point_column counts them.
std::uint32_t code_point_length(std::string_view text);

/// The byte length of the longest prefix of `line` that is at most `units` UTF-16 code units
/// long, never ending inside a character (inside a surrogate pair: before the pair).
std::size_t utf8_prefix_bytes(std::string_view line, std::uint32_t units);

/// The byte column after the character that starts at byte column `byte_column`: a
/// one-character span's end (past the line's end: the next column).
std::uint32_t after_character(std::string_view line, std::uint32_t byte_column);

}  // namespace planlint
