#pragma once
/// Lexing TOML text without parsing it: the scans that run before (or instead of) toml++ —
/// the nesting check (limits.cpp), the comment-body pass (toml_comments.cpp) and the "holds a
/// plan" scan of a folder run (lint/inputs.cpp) — delimit strings the same way, here.
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace planlint {

/// Moves `at`, at the opening quote of a string (basic or literal, single- or multi-line),
/// past the string, the way TOML 1.0 delimits it: escapes in basic strings, up to two quotes
/// before a multi-line string's closing three belong to it. False when it does not close: a
/// single-line string that meets a line break (`at` is then on it), or any string that meets
/// the end of the text (`at` is then the text's size).
bool skip_toml_string(std::string_view text, std::size_t& at);

/// The offset of the first of the bytes `a`, `b`, `c` at or after `at`, or the text's size.
/// Sixteen bytes per step (SSE2), else eight: most of a plan is none of the bytes a lexer
/// stops at.
std::size_t find_any_of(std::string_view text, std::size_t at, char a, char b, char c);

/// 0x80 in each byte of `word` that is zero, and 0 elsewhere (exact, unlike the shorter
/// `(v - 0x01..) & ~v & 0x80..`, which may also mark a 0x01 byte above a zero one).
constexpr std::uint64_t zero_bytes(std::uint64_t word) {
  constexpr std::uint64_t low7 = 0x7f7f7f7f7f7f7f7fu;
  return ~(((word & low7) + low7) | word | low7);
}

}  // namespace planlint
