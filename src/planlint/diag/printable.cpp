#include "planlint/diag/printable.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace planlint {

namespace {

/// Whether any of the eight bytes at `p` is below 0x20, 0x7f or 0x80 and above: the bytes that
/// may start a character the policy escapes (bit tricks; never misses one).
bool may_need_escape(const char* p) {
  constexpr std::uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
  std::uint64_t word;
  std::memcpy(&word, p, sizeof word);
  const std::uint64_t below_space = (word - ones * 0x20) & ~word & highs;
  const std::uint64_t del = word ^ (ones * 0x7f);
  const std::uint64_t is_del = (del - ones) & ~del & highs;
  return ((below_space | is_del | word) & highs) != 0;
}

bool is_ascii_printable(unsigned char c) { return c >= 0x20 && c < 0x7f; }

/// Bidirectional controls and the line and paragraph separators.
bool is_invisible_control(char32_t c) {
  return c == 0x061C || c == 0x200E || c == 0x200F || (c >= 0x202A && c <= 0x202E) ||
         (c >= 0x2066 && c <= 0x2069) || c == 0x2028 || c == 0x2029;
}

/// Unicode's noncharacters (U+FDD0–U+FDEF, and the last two code points of every plane, U+FFFE,
/// U+FFFF, U+1FFFE, ...): XML 1.0 forbids U+FFFE and U+FFFF outright (an XHTML page holding one
/// is not well-formed) and discourages the rest, and no text should carry them.
bool is_noncharacter(char32_t c) { return (c >= 0xFDD0 && c <= 0xFDEF) || (c & 0xFFFE) == 0xFFFE; }

/// The index of the first character at or after `i` that may need an escape.
std::size_t skip_plain(std::string_view text, std::size_t i) {
  while (text.size() - i >= 8 && !may_need_escape(text.data() + i)) i += 8;
  while (i < text.size() && is_ascii_printable(static_cast<unsigned char>(text[i]))) ++i;
  return i;
}

constexpr char hex_digits[] = "0123456789abcdef";

void append_hex(std::string& out, std::string_view prefix, std::uint32_t value, int digits) {
  out += prefix;
  for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) out += hex_digits[(value >> shift) & 0xF];
}

}  // namespace

PrintableStep printable_step(std::string_view text, std::size_t i) {
  const auto lead = static_cast<unsigned char>(text[i]);
  if (lead < 0x80) return {1, !is_ascii_printable(lead), lead};
  // RFC 3629: the lead byte fixes the length and the range of the code point.
  std::size_t length;
  char32_t c, minimum;
  if (lead >= 0xC2 && lead <= 0xDF) length = 2, c = lead & 0x1F, minimum = 0x80;
  else if (lead >= 0xE0 && lead <= 0xEF) length = 3, c = lead & 0x0F, minimum = 0x800;
  else if (lead >= 0xF0 && lead <= 0xF4) length = 4, c = lead & 0x07, minimum = 0x10000;
  else return {1, true, lead};
  if (text.size() - i < length) return {1, true, lead};
  for (std::size_t k = 1; k < length; ++k) {
    const auto next = static_cast<unsigned char>(text[i + k]);
    if ((next & 0xC0) != 0x80) return {1, true, lead};
    c = (c << 6) | (next & 0x3F);
  }
  if (c < minimum || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return {1, true, lead};
  return {length, (c >= 0x80 && c <= 0x9F) || is_invisible_control(c) || is_noncharacter(c), c};
}

void append_escape(std::string& out, std::string_view text, std::size_t i, const PrintableStep& step) {
  if (step.bytes == 1) {
    const char c = text[i];
    if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else append_hex(out, "\\x", static_cast<unsigned char>(c), 2);
  } else if (step.code_point > 0xFFFF) {
    append_hex(out, "\\U", static_cast<std::uint32_t>(step.code_point), 8);
  } else {
    append_hex(out, "\\u", static_cast<std::uint32_t>(step.code_point), 4);
  }
}

bool is_printable(std::string_view text) {
  for (std::size_t i = skip_plain(text, 0); i < text.size(); i = skip_plain(text, i)) {
    const PrintableStep step = printable_step(text, i);
    if (step.escaped) return false;
    i += step.bytes;
  }
  return true;
}

void append_printable(std::string& out, std::string_view text) {
  std::size_t begin = 0;
  for (std::size_t i = skip_plain(text, 0); i < text.size(); i = skip_plain(text, i)) {
    const PrintableStep step = printable_step(text, i);
    if (step.escaped) {
      out.append(text, begin, i - begin);
      append_escape(out, text, i, step);
      begin = i + step.bytes;
    }
    i += step.bytes;
  }
  out.append(text, begin, text.size() - begin);
}

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  append_printable(out, text);
  return out;
}

std::string printable_lines(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t begin = 0; begin < text.size();) {
    const std::size_t end = std::min(text.find('\n', begin), text.size());
    append_printable(out, text.substr(begin, end - begin));
    if (end < text.size()) out += '\n';
    begin = end + 1;
  }
  return out;
}

std::string printable_line_start(std::string_view text) {
  std::string out;
  if (!text.empty() && text.front() == ':') {
    out += "\\x3a";
    text.remove_prefix(1);
  }
  append_printable(out, text);
  return out;
}

std::string markdown_text(std::string_view text) {
  std::string out;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t end = std::min(text.find('\n', begin), text.size());
    if (begin > 0) out += "<br>";
    for (char c : printable(text.substr(begin, end - begin))) {
      switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '\\': case '`': case '*': case '[': case ']': case '|':
          out += '\\';
          out += c;
          break;
        default: out += c;
      }
    }
    begin = end + 1;
  }
  return out;
}

std::string markdown_code_span(std::string_view text) {
  std::string content;
  std::size_t longest = 0, run = 0;
  for (char c : printable(text)) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
    if (c == '|') content += '\\';  // GFM: a pipe ends a table cell, even in a code span
    content += c;
  }
  const std::string fence(longest + 1, '`');
  // CommonMark strips one space from each end of a span that begins and ends with one.
  const bool pad = !content.empty() && (content.front() == '`' || content.back() == '`' ||
                                         (content.front() == ' ' && content.back() == ' '));
  return pad ? fence + ' ' + content + ' ' + fence : fence + content + fence;
}

std::string utf8_or_escaped(std::string_view text) {
  std::string out;
  std::size_t begin = 0;
  for (std::size_t i = 0; i < text.size();) {
    if (static_cast<unsigned char>(text[i]) < 0x80) {
      ++i;
      continue;
    }
    const PrintableStep step = printable_step(text, i);
    if (step.escaped && step.bytes == 1) {  // a malformed byte (C1 and the rest are characters)
      out.append(text, begin, i - begin);
      append_escape(out, text, i, step);
      begin = i + 1;
    }
    i += step.bytes;
  }
  if (begin == 0) return std::string(text);
  out.append(text, begin, text.size() - begin);
  return out;
}

std::string json_invisibles_escaped(std::string json) {
  auto plain = [](char c) { return static_cast<unsigned char>(c) < 0x7f; };
  std::size_t i = 0;
  while (i < json.size() && plain(json[i])) ++i;
  if (i == json.size()) return json;
  std::string out(json, 0, i);
  std::size_t begin = i;
  while (i < json.size()) {
    if (plain(json[i])) {
      ++i;
      continue;
    }
    const PrintableStep step = printable_step(json, i);
    // DEL is a character JSON strings may hold as it is; malformed bytes are not there (the
    // writer was given valid UTF-8).
    if (step.escaped && (step.bytes > 1 || json[i] == '\x7f')) {
      out.append(json, begin, i - begin);
      const auto c = static_cast<std::uint32_t>(step.code_point);
      if (c > 0xFFFF) {  // RFC 8259 §7: a UTF-16 surrogate pair
        append_hex(out, "\\u", 0xD800 + ((c - 0x10000) >> 10), 4);
        append_hex(out, "\\u", 0xDC00 + ((c - 0x10000) & 0x3FF), 4);
      } else {
        append_hex(out, "\\u", c, 4);
      }
      begin = i + step.bytes;
    }
    i += step.bytes;
  }
  out.append(json, begin, json.size() - begin);
  return out;
}

void append_printable_path(std::string& out, std::string_view path) {
  std::size_t begin = 0;
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (path[i] != ':') continue;
    const char next = i + 1 < path.size() ? path[i + 1] : '\0';
    if (i == 0 || (next >= '0' && next <= '9') || next == ' ' || next == '\t') {
      append_printable(out, path.substr(begin, i - begin));
      out += "\\x3a";
      begin = i + 1;
    }
  }
  append_printable(out, path.substr(begin));
}

std::string printable_path(std::string_view path) {
  std::string out;
  out.reserve(path.size());
  append_printable_path(out, path);
  return out;
}

}  // namespace planlint
