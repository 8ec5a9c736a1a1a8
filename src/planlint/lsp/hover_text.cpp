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

/// The length of the web address `text` starts with: up to a space or a character an autolink
/// cannot hold (CommonMark: controls, spaces, `<`, `>`), less the punctuation that ends a
/// sentence around it.
std::size_t web_address_length(std::string_view text) {
  std::size_t length = 0;
  while (length < text.size() && static_cast<unsigned char>(text[length]) > 0x20 && text[length] != 0x7f &&
         text[length] != '<' && text[length] != '>')
    ++length;
  while (length > 0 && std::string_view(".,;:!?)]'\"").find(text[length - 1]) != std::string_view::npos) --length;
  return length;
}

/// `text` with line breaks and other control characters shown as spaces: a hover line is one
/// line whatever the value holds.
std::string one_line(std::string_view text) {
  std::string out;
  for (char c : text) out += static_cast<unsigned char>(c) < 0x20 || c == 0x7f ? ' ' : c;
  return out;
}

/// Where the first web address (http:// or https://) of `text` starts, or npos.
std::size_t web_address_at(std::string_view text) {
  for (std::size_t at = text.find("http"); at != std::string_view::npos; at = text.find("http", at + 1)) {
    const std::string_view from = text.substr(at);
    if ((from.starts_with("https://") || from.starts_with("http://")) && web_address_length(from) > from.find("//") + 2)
      return at;
  }
  return std::string_view::npos;
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
  std::string_view rest = shown;
  while (!rest.empty()) {
    const std::size_t url = web_address_at(rest);
    for (char c : rest.substr(0, url)) {
      if (std::string_view("\\`*_{}[]()<>#+-.!|~&").find(c) != std::string_view::npos) out_ += '\\';
      out_ += c;
    }
    if (url == std::string_view::npos) break;
    rest.remove_prefix(url);
    const std::size_t length = web_address_length(rest);
    // A CommonMark autolink: its text is the address as it is, no escapes.
    out_ += '<';
    out_ += rest.substr(0, length);
    out_ += '>';
    rest.remove_prefix(length);
  }
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
