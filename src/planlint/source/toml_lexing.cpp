#include "planlint/source/toml_lexing.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>  // x86-64 always has SSE2
#endif

namespace planlint {

std::size_t find_any_of(std::string_view text, std::size_t at, char a, char b, char c) {
  constexpr std::uint64_t ones = 0x0101010101010101u;
  const char* const data = text.data();
  const std::size_t size = text.size();
#if defined(__SSE2__)
  const __m128i a16 = _mm_set1_epi8(a), b16 = _mm_set1_epi8(b), c16 = _mm_set1_epi8(c);
  for (; at + 16 <= size; at += 16) {
    const __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + at));
    const __m128i found = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(block, a16), _mm_cmpeq_epi8(block, b16)),
                                       _mm_cmpeq_epi8(block, c16));
    if (const int mask = _mm_movemask_epi8(found))
      return at + static_cast<std::size_t>(std::countr_zero(static_cast<unsigned>(mask)));
  }
#endif
  if constexpr (std::endian::native == std::endian::little) {
    const std::uint64_t a8 = ones * static_cast<unsigned char>(a);
    const std::uint64_t b8 = ones * static_cast<unsigned char>(b);
    const std::uint64_t c8 = ones * static_cast<unsigned char>(c);
    for (; at + 8 <= size; at += 8) {
      std::uint64_t word;
      std::memcpy(&word, data + at, sizeof word);
      const std::uint64_t found = zero_bytes(word ^ a8) | zero_bytes(word ^ b8) | zero_bytes(word ^ c8);
      if (found) return at + static_cast<std::size_t>(std::countr_zero(found)) / 8;
    }
  }
  for (; at < size; ++at)
    if (data[at] == a || data[at] == b || data[at] == c) return at;
  return size;
}

bool skip_toml_string(std::string_view text, std::size_t& at) {
  const char quote = text[at];
  const bool basic = quote == '"';
  const std::size_t size = text.size();
  const bool multi_line = at + 2 < size && text[at + 1] == quote && text[at + 2] == quote;
  at += multi_line ? 3 : 1;
  // What ends the string or escapes what would: a backslash in a basic string, a line break in
  // a single-line one (the quote stands in for what a kind does not stop at).
  const char escape = basic ? '\\' : quote, line_break = multi_line ? quote : '\n';
  while ((at = find_any_of(text, std::min(at, size), quote, escape, line_break)) < size) {
    const char c = text[at];
    if (c == quote) {
      if (!multi_line) {
        ++at;
        return true;
      }
      if (at + 2 < size && text[at + 1] == quote && text[at + 2] == quote) {
        at += 3;
        // '''a''''' : up to two quotes before the closing three belong to the string.
        for (int extra = 0; extra < 2 && at < size && text[at] == quote; ++extra) ++at;
        return true;
      }
      ++at;
    } else if (c == '\\') {
      at += 2;  // an escape: the next character is the string's, whatever it is
    } else {
      return false;  // a line break in a single-line string
    }
  }
  return false;
}

}  // namespace planlint
