#include "planlint/lsp/hover_text.hpp"

#include <algorithm>

namespace planlint::lsp {

namespace {

/// The longest run of backticks in `text`.
std::size_t longest_backtick_run(std::string_view text) {
  std::size_t longest = 0, run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return longest;
}

/// `text` with line breaks and other control characters shown as spaces: a hover line is one
/// line whatever the value holds.
std::string one_line(std::string_view text) {
  std::string out;
  for (char c : text) out += static_cast<unsigned char>(c) < 0x20 || c == 0x7f ? ' ' : c;
  return out;
}

}  // namespace

HoverText& HoverText::line(std::string_view text) {
  out_ += text;
  return *this;
}

HoverText& HoverText::bold(std::string_view text) {
  if (!markdown_) return line(text);
  out_ += "**";
  this->text(text);
  out_ += "**";
  return *this;
}

HoverText& HoverText::code(std::string_view text) {
  const std::string shown = one_line(text);
  if (!markdown_) return line(shown);
  // CommonMark: a code span is delimited by a run of backticks longer than any inside it,
  // with a space inside the delimiters when the text starts or ends with one.
  const std::string fence(longest_backtick_run(shown) + 1, '`');
  const bool pad = !shown.empty() && (shown.front() == '`' || shown.back() == '`');
  out_ += fence + (pad ? " " : "") + shown + (pad ? " " : "") + fence;
  return *this;
}

HoverText& HoverText::text(std::string_view text) {
  const std::string shown = one_line(text);
  if (!markdown_) return line(shown);
  for (char c : shown) {
    if (std::string_view("\\`*_{}[]()<>#+-.!|~&").find(c) != std::string_view::npos) out_ += '\\';
    out_ += c;
  }
  return *this;
}

HoverText& HoverText::source_line(std::string_view text) {
  const std::string shown = one_line(text);
  if (!markdown_) {
    out_ += "    " + shown + "\n\n";
    return *this;
  }
  const std::string fence(std::max<std::size_t>(3, longest_backtick_run(shown) + 1), '`');
  out_ += fence + "toml\n" + shown + "\n" + fence + "\n\n";
  return *this;
}

HoverText& HoverText::paragraph() {
  out_ += "\n\n";
  return *this;
}

HoverText& HoverText::line_break() {
  out_ += markdown_ ? "  \n" : "\n";
  return *this;
}

}  // namespace planlint::lsp
