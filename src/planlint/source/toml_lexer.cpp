#include "planlint/source/toml_lexer.hpp"

#include <algorithm>
#include <array>
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

namespace {

/// Moves `at`, at the opening quote of a string, past the string as TOML 1.0 delimits it:
/// escapes in basic strings (an escape never takes a line break into a single-line string),
/// up to two quotes before a multi-line string's closing three belong to it. False when it
/// does not close: a single-line string that meets a line break (`at` is then on its '\n'),
/// or any string that meets the end of the text (`at` is then the text's size).
bool skip_string(std::string_view text, std::size_t& at) {
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
      // An escape: the next character is the string's, unless it ends a single-line one.
      if (!multi_line && at + 1 < size && text[at + 1] == '\n') {
        ++at;
        return false;
      }
      at += 2;
    } else {
      return false;  // a line break in a single-line string
    }
  }
  at = size;
  return false;
}

/// The bytes that end a bare word: blanks, line breaks ('\r' only before '\n'), a comment or a
/// string's start, and TOML's punctuation. A key's word ends at a '.' too; a value's does not
/// (1.5, 1979-05-27T07:32:00.5Z).
constexpr std::array<std::uint8_t, 256> bare_word_ends = [] {
  std::array<std::uint8_t, 256> ends{};
  for (const char c : std::string_view(" \t\n\r#\"'=[]{},"))
    ends[static_cast<unsigned char>(c)] = 1 | 2;
  ends['.'] = 1;  // 1: ends a key's word, 2: a value's
  return ends;
}();

}  // namespace

TomlToken TomlLexer::make(TomlTokenKind kind, std::size_t end, bool key) {
  TomlToken token{kind, key, true, line_, at_, end};
  if (kind != TomlTokenKind::whitespace && kind != TomlTokenKind::comment) statement_start_ = false;
  at_ = end;
  return token;
}

TomlToken TomlLexer::string_token(bool key) {
  std::size_t end = at_;
  const bool closed = skip_string(text_, end);
  // An unclosed single-line string ends before its line break, "\r\n" included.
  if (!closed && end < text_.size() && end > at_ + 1 && text_[end - 1] == '\r') --end;
  const char quote = text_[at_];
  const bool multi_line = at_ + 2 < text_.size() && text_[at_ + 1] == quote && text_[at_ + 2] == quote;
  TomlTokenKind kind = quote == '"' ? TomlTokenKind::basic_string : TomlTokenKind::literal_string;
  if (multi_line)
    kind = quote == '"' ? TomlTokenKind::multi_line_basic_string : TomlTokenKind::multi_line_literal_string;
  TomlToken token = make(kind, end, key);
  token.closed = closed;
  if (multi_line)
    line_ += static_cast<std::uint32_t>(std::count(text_.begin() + static_cast<std::ptrdiff_t>(token.begin),
                                                   text_.begin() + static_cast<std::ptrdiff_t>(token.end), '\n'));
  return token;
}

TomlToken TomlLexer::next() {
  const std::size_t size = text_.size();
  if (at_ >= size) return TomlToken{TomlTokenKind::end, false, true, line_, size, size};
  // toml++ skips a UTF-8 byte order mark that starts the text, as a blank.
  if (at_ == 0 && text_.starts_with("\xEF\xBB\xBF")) return make(TomlTokenKind::whitespace, 3);
  const char c = text_[at_];
  const char after = at_ + 1 < size ? text_[at_ + 1] : '\0';
  switch (c) {
    case ' ':
    case '\t': {
      std::size_t end = at_ + 1;
      while (end < size && (text_[end] == ' ' || text_[end] == '\t')) ++end;
      return make(TomlTokenKind::whitespace, end);
    }
    case '\r':
      if (after != '\n') break;  // a lone '\r' is a bare word's
      [[fallthrough]];
    case '\n': {
      TomlToken token = make(TomlTokenKind::line_break, at_ + (c == '\r' ? 2 : 1));
      ++line_;
      if (open_.empty()) {
        expect_key_ = statement_start_ = true;
        header_ = 0;
      }
      return token;
    }
    case '#': {
      const void* found = std::memchr(text_.data() + at_, '\n', size - at_);
      std::size_t end = found ? static_cast<std::size_t>(static_cast<const char*>(found) - text_.data()) : size;
      if (found && text_[end - 1] == '\r' && end - 1 > at_) --end;
      return make(TomlTokenKind::comment, end);
    }
    case '"':
    case '\'':
      return string_token(expect_key_);
    case '.':
      if (!expect_key_) break;  // a value's: 1.5
      return make(TomlTokenKind::dot, at_ + 1);
    case '=':
      if (!header_) expect_key_ = false;
      return make(TomlTokenKind::equals, at_ + 1);
    case ',':
      expect_key_ = !open_.empty() && open_.back() == '{';
      return make(TomlTokenKind::comma, at_ + 1);
    case '[':
      if (statement_start_ && open_.empty()) {
        header_ = after == '[' ? 2 : 1;
        return make(TomlTokenKind::header_open, at_ + header_);
      }
      open_.push_back('[');
      expect_key_ = false;
      return make(TomlTokenKind::array_open, at_ + 1);
    case ']':
      if (header_ && open_.empty()) {
        const std::size_t length = header_ == 2 && after == ']' ? 2 : 1;
        header_ = 0;
        return make(TomlTokenKind::header_close, at_ + length);
      }
      if (!open_.empty()) open_.pop_back();
      expect_key_ = false;
      return make(TomlTokenKind::array_close, at_ + 1);
    case '{':
      open_.push_back('{');
      expect_key_ = true;
      return make(TomlTokenKind::table_open, at_ + 1);
    case '}':
      if (!open_.empty()) open_.pop_back();
      expect_key_ = false;
      return make(TomlTokenKind::table_close, at_ + 1);
    default:
      break;
  }
  // A bare word, up to the first byte that ends one (a lone '\r' does not).
  const std::uint8_t ends_mask = expect_key_ ? 1 : 2;
  std::size_t end = at_ + 1;
  while (end < size) {
    const auto byte = static_cast<unsigned char>(text_[end]);
    if (bare_word_ends[byte] & ends_mask) {
      if (byte != '\r' || (end + 1 < size && text_[end + 1] == '\n')) break;
    }
    ++end;
  }
  return make(TomlTokenKind::bare, end, expect_key_);
}

TomlToken TomlLexer::next_comment_or_string() {
  const std::size_t size = text_.size();
  at_ = find_any_of(text_, at_, '#', '"', '\'');
  // Lines are counted over the text passed over, the blocks between the tokens.
  line_ += static_cast<std::uint32_t>(std::count(text_.begin() + static_cast<std::ptrdiff_t>(lines_counted_to_),
                                                 text_.begin() + static_cast<std::ptrdiff_t>(at_), '\n'));
  if (at_ >= size) {
    lines_counted_to_ = size;
    return TomlToken{TomlTokenKind::end, false, true, line_, size, size};
  }
  TomlToken token;
  if (text_[at_] == '#') {
    const void* found = std::memchr(text_.data() + at_, '\n', size - at_);
    std::size_t end = found ? static_cast<std::size_t>(static_cast<const char*>(found) - text_.data()) : size;
    if (found && text_[end - 1] == '\r' && end - 1 > at_) --end;
    token = make(TomlTokenKind::comment, end);
  } else {
    token = string_token(false);
  }
  lines_counted_to_ = token.end;
  return token;
}

std::size_t TomlStringValue::source_offset(std::size_t decoded) const {
  if (decoded >= text.size() || pieces.empty()) return body_end;
  // The last piece that starts at or before `decoded`.
  auto piece = std::upper_bound(pieces.begin(), pieces.end(), decoded,
                                [](std::size_t d, const Piece& p) { return d < p.decoded; });
  if (piece == pieces.begin()) return body_end;
  --piece;
  return piece->verbatim ? piece->source + (decoded - piece->decoded) : piece->source;
}

namespace {

/// Appends the UTF-8 encoding of `code` (a Unicode scalar value) to `out`.
void append_utf8(std::string& out, std::uint32_t code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

/// The length of the non-ASCII horizontal whitespace character at `at` (toml++ skips them
/// after a line-ending backslash, as it skips spaces and tabs), or 0.
std::size_t unicode_blank_length(std::string_view text, std::size_t at) {
  static constexpr std::string_view blanks[] = {
      "\u00A0", "\u1680", "\u180E", "\u2000", "\u2001", "\u2002", "\u2003", "\u2004", "\u2005", "\u2006",
      "\u2007", "\u2008", "\u2009", "\u200A", "\u200B", "\u202F", "\u205F", "\u2060", "\u3000", "\uFEFF"};
  if (static_cast<unsigned char>(text[at]) < 0x80) return 0;
  for (const std::string_view blank : blanks)
    if (text.substr(at, blank.size()) == blank) return blank.size();
  return 0;
}

/// Whether TOML forbids `byte` unescaped in a string: control characters but tab.
bool forbidden_in_string(unsigned char byte) { return (byte < 0x20 && byte != '\t') || byte == 0x7f; }

class StringDecoder {
 public:
  StringDecoder(std::string_view text, TomlStringValue& value) : text_(text), value_(value) {}

  /// Bytes [from, to) of the file, as they are.
  void verbatim(std::size_t from, std::size_t to) {
    if (from >= to) return;
    if (value_.pieces.empty() || !value_.pieces.back().verbatim ||
        value_.pieces.back().source + (value_.text.size() - value_.pieces.back().decoded) != from)
      value_.pieces.push_back({value_.text.size(), from, true});
    value_.text.append(text_.substr(from, to - from));
  }
  /// `decoded`, which the escape at `from` stands for.
  void escape(std::size_t from, std::string_view decoded) {
    value_.pieces.push_back({value_.text.size(), from, false});
    value_.text.append(decoded);
  }

 private:
  std::string_view text_;
  TomlStringValue& value_;
};

/// The escape at `at` (on its backslash) of a basic string whose body ends at `end`: its
/// decoded bytes into `out` and its length, or 0 when TOML 1.0 has no such escape.
std::size_t decode_escape(std::string_view text, std::size_t at, std::size_t end, std::string& out) {
  if (at + 1 >= end) return 0;
  const char e = text[at + 1];
  constexpr std::string_view simple = "btnfr\"\\", decoded = "\b\t\n\f\r\"\\";
  if (const std::size_t k = simple.find(e); k != std::string_view::npos) {
    out = decoded[k];
    return 2;
  }
  if (e != 'u' && e != 'U') return 0;
  const std::size_t digits = e == 'u' ? 4 : 8;
  if (at + 2 + digits > end) return 0;
  std::uint32_t code = 0;
  for (std::size_t d = 0; d < digits; ++d) {
    const char h = text[at + 2 + d];
    std::uint32_t value;
    if (h >= '0' && h <= '9') value = static_cast<std::uint32_t>(h - '0');
    else if ((h | 0x20) >= 'a' && (h | 0x20) <= 'f') value = static_cast<std::uint32_t>((h | 0x20) - 'a' + 10);
    else return 0;
    if (code > 0x10FFFF) return 0;  // already out of range: no overflow of the next digit
    code = code * 16 + value;
  }
  if (code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
  out.clear();
  append_utf8(out, code);
  return 2 + digits;
}

}  // namespace

bool decode_toml_string(std::string_view text, const TomlToken& token, TomlStringValue& value) {
  value = TomlStringValue{};
  value.body_end = token.end;
  if (!token.is_string() || token.end <= token.begin) return false;
  const bool multi_line = token.is_multi_line_string();
  const bool basic = token.kind == TomlTokenKind::basic_string || token.kind == TomlTokenKind::multi_line_basic_string;
  const std::size_t quotes = multi_line ? 3 : 1;
  std::size_t at = token.begin + quotes;
  std::size_t end = token.end;
  if (token.closed) {
    end -= quotes;
    value.body_end = end;
  }
  if (at > end) return false;
  // A multi-line string's line break right after its opening quotes is not part of it.
  if (multi_line) {
    if (text.substr(at, 1) == "\n") ++at;
    else if (text.substr(at, 2) == "\r\n") at += 2;
  }
  StringDecoder out(text, value);
  std::string escaped;
  std::size_t run = at;  // the verbatim bytes not yet appended start here
  while (at < end) {
    const auto byte = static_cast<unsigned char>(text[at]);
    if (byte == '\\' && basic) {
      out.verbatim(run, at);
      if (multi_line) {
        // A line-ending backslash: blanks, then a line break; it and every blank and line
        // break after it up to the next other character are trimmed.
        std::size_t blank = at + 1;
        while (blank < end && (text[blank] == ' ' || text[blank] == '\t')) ++blank;
        if (blank < end && (text[blank] == '\n' || (text[blank] == '\r' && blank + 1 < end && text[blank + 1] == '\n'))) {
          at = blank;
          while (at < end) {
            if (text[at] == ' ' || text[at] == '\t' || text[at] == '\n') ++at;
            else if (text[at] == '\r' && at + 1 < end && text[at + 1] == '\n') at += 2;
            else if (const std::size_t length = unicode_blank_length(text, at)) at += length;
            else break;
          }
          run = at;
          continue;
        }
      }
      const std::size_t length = decode_escape(text, at, end, escaped);
      if (length == 0) return false;
      out.escape(at, escaped);
      at += length;
      run = at;
    } else if (byte == '\r' && multi_line && at + 1 < end && text[at + 1] == '\n') {
      out.verbatim(run, at);
      out.escape(at, "\n");  // "\r\n" reads as "\n"
      at += 2;
      run = at;
    } else if (byte == '\n' && multi_line) {
      ++at;
    } else if (forbidden_in_string(byte)) {
      out.verbatim(run, at);
      return false;
    } else {
      ++at;
    }
  }
  out.verbatim(run, end);
  return token.closed;
}

}  // namespace planlint
