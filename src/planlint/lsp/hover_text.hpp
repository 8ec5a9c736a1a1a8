#pragma once
/// A hover's text, written once and rendered as Markdown or as plain text (for a client
/// without Markdown). Text from the plan or a catalog is escaped, so that a value cannot turn
/// into a link, an image or HTML in the editor.
#include <string>
#include <string_view>

namespace planlint::lsp {

class HoverText {
 public:
  explicit HoverText(bool markdown) : markdown_(markdown) {}

  /// planlint's own words, as they are.
  HoverText& line(std::string_view text);
  /// **text** (plain: text).
  HoverText& bold(std::string_view text);
  /// `text` as inline code, safe whatever it holds.
  HoverText& code(std::string_view text);
  /// Text from input, escaped for Markdown; a web address in it (http://, https://) as a link
  /// that reads as the address, unescaped.
  HoverText& text(std::string_view text);
  /// Ends the paragraph (a blank line between two).
  HoverText& paragraph();
  /// Ends a line within the paragraph.
  HoverText& line_break();

  bool empty() const { return out_.empty(); }
  const std::string& str() const { return out_; }
  bool markdown() const { return markdown_; }

 private:
  bool markdown_;
  std::string out_;
};

}  // namespace planlint::lsp
