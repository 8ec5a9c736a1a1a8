#include "planlint/source/toml_comments.hpp"

#include <bit>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>  // x86-64 always has SSE2: sixteen bytes per step
#endif

#include "planlint/source/toml_lexer.hpp"

namespace planlint {

namespace {

/// Whether [begin, end) holds no control character but tabs: what toml++ (and TOML 1.0)
/// rejects in a comment besides surrogates, which well-formed UTF-8 cannot hold. Bytes of
/// 0x80 and above are the parts of multi-byte characters ("×", "—", "≈"), which comments may
/// hold. A byte is bad when it is DEL, or when its top three bits are clear (below 0x20) and
/// it is not a tab.
bool without_control_characters(const char* begin, const char* end) {
  constexpr std::uint64_t ones = 0x0101010101010101u;
  const char* p = begin;
#if defined(__SSE2__)
  // The comparisons are signed: bytes of 0x80 and above are negative, and not "below 0x20".
  const __m128i space = _mm_set1_epi8(0x20), del = _mm_set1_epi8(0x7f), tab = _mm_set1_epi8('\t');
  const __m128i minus_one = _mm_set1_epi8(-1);
  for (; end - p >= 16; p += 16) {
    const __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i below_space =
        _mm_and_si128(_mm_cmplt_epi8(block, space), _mm_cmpgt_epi8(block, minus_one));
    const __m128i bad = _mm_or_si128(_mm_andnot_si128(_mm_cmpeq_epi8(block, tab), below_space),
                                     _mm_cmpeq_epi8(block, del));
    if (_mm_movemask_epi8(bad) != 0) return false;
  }
#endif
  if constexpr (std::endian::native == std::endian::little) {
    for (; end - p >= 8; p += 8) {
      std::uint64_t word;
      std::memcpy(&word, p, sizeof word);
      const std::uint64_t bad = zero_bytes(word ^ (ones * 0x7f)) |
                                (zero_bytes(word & (ones * 0xe0)) & ~zero_bytes(word ^ (ones * '\t')));
      if (bad) return false;
    }
  }
  for (; p != end; ++p) {
    const auto b = static_cast<unsigned char>(*p);
    if ((b < 0x20 && b != '\t') || b == 0x7f) return false;
  }
  return true;
}

/// Whether `text` is well-formed UTF-8 (RFC 3629: shortest forms, no surrogates, at most
/// U+10FFFF). toml++'s reader decodes ahead of its parser in blocks, so the position of its
/// "invalid utf-8 sequence" error depends on where the blocks fall, and removing anything in
/// front of a malformed sequence would move it.
bool well_formed_utf8(std::string_view text) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const auto* const end = p + text.size();
  while (p != end) {
#if defined(__SSE2__)
    if (end - p >= 16 && _mm_movemask_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))) == 0) {
      p += 16;  // sixteen ASCII bytes
      continue;
    }
#endif
    if (end - p >= 8) {  // eight ASCII bytes at a time
      std::uint64_t word;
      std::memcpy(&word, p, sizeof word);
      if ((word & 0x8080808080808080u) == 0) {
        p += 8;
        continue;
      }
    }
    const unsigned char lead = *p;
    if (lead < 0x80) {
      ++p;
      continue;
    }
    int continuation = 0;
    std::uint32_t code_point = 0;
    if (lead >= 0xc2 && lead <= 0xdf) {
      continuation = 1;
      code_point = lead & 0x1fu;
    } else if (lead >= 0xe0 && lead <= 0xef) {
      continuation = 2;
      code_point = lead & 0x0fu;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      continuation = 3;
      code_point = lead & 0x07u;
    } else {
      return false;
    }
    if (end - p <= continuation) return false;
    for (int i = 1; i <= continuation; ++i) {
      if ((p[i] & 0xc0u) != 0x80u) return false;
      code_point = (code_point << 6) | (p[i] & 0x3fu);
    }
    if (continuation == 2 && (code_point < 0x800 || (code_point >= 0xd800 && code_point <= 0xdfff)))
      return false;
    if (continuation == 3 && (code_point < 0x10000 || code_point > 0x10ffff)) return false;
    p += continuation + 1;
  }
  return true;
}


}  // namespace

bool without_comment_bodies(std::string_view text, std::string& lean) {
  const char* const data = text.data();
  const std::size_t size = text.size();
  if (size == 0 || std::memchr(data, '#', size) == nullptr || !well_formed_utf8(text)) return false;
  lean.clear();
  std::size_t copied = 0;  // text[0, copied) is in `lean`, without the bodies removed
  TomlLexer lexer(text);
  for (TomlToken token = lexer.next_comment_or_string(); token.kind != TomlTokenKind::end;
       token = lexer.next_comment_or_string()) {
    if (token.is_string()) {
      if (!token.closed) return false;
      continue;
    }
    // The comment's line break: its '\n' (after a '\r' that is not the comment's), or the end.
    const std::size_t line_end = token.end < size && data[token.end] == '\r' ? token.end + 1 : token.end;
    // A comment on the text's last line stays, and so does one whose line break is the last
    // character: the end of the file is positioned after that line's last character, in
    // toml++'s end-of-file errors and in the root table's region.
    if (line_end + 1 >= size) break;
    if (token.end > token.begin + 1 && without_control_characters(data + token.begin + 1, data + token.end)) {
      if (copied == 0) lean.reserve(size);
      lean.append(data + copied, data + token.begin + 1);  // up to and with the '#'
      copied = token.end;
    }
  }
  if (copied == 0) return false;
  lean.append(data + copied, data + size);
  return true;
}

std::optional<std::string> without_comment_bodies(std::string_view text) {
  std::string lean;
  if (!without_comment_bodies(text, lean)) return std::nullopt;
  return lean;
}

}  // namespace planlint
