#pragma once
/// An open document's text as the editor holds it, with LSP positions: 0-based lines and
/// 0-based columns in UTF-16 code units (LSP's default position encoding), where planlint's
/// spans count 1-based lines and byte columns. A line ends at LF, CR LF or a lone CR, as LSP
/// counts lines.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "planlint/source/columns.hpp"  // utf16_length, utf8_prefix_bytes

namespace planlint::lsp {

/// A place in a document as LSP names it.
struct LspPosition {
  std::uint32_t line = 0;
  std::uint32_t character = 0;  ///< UTF-16 code units from the line's start
  auto operator<=>(const LspPosition&) const = default;
};

struct LspRange {
  LspPosition start, end;
  auto operator<=>(const LspRange&) const = default;
};

/// An edit of textDocument/didChange: `range` replaced by `text`, or the whole text when
/// `range` is absent.
struct TextChange {
  std::optional<LspRange> range;
  std::string text;
};

class TextDocument {
 public:
  TextDocument() { index(); }
  explicit TextDocument(std::string text) : text_(std::move(text)) { index(); }

  const std::string& text() const { return text_; }
  std::uint32_t line_count() const { return static_cast<std::uint32_t>(line_starts_.size()); }
  /// The text of 0-based `line` without its terminator; empty past the end.
  std::string_view line(std::uint32_t line) const;

  /// The byte offset of `position`. A character past the line's end is its end, a line past
  /// the last is the text's end (LSP: "defaults back to the line length"); a character inside
  /// a surrogate pair is the pair's start.
  std::size_t offset(LspPosition position) const;
  /// The position of byte `offset` (clamped to the text; inside a UTF-8 sequence: the
  /// character's start).
  LspPosition position(std::size_t offset) const;

  /// Applies one change of a didChange notification, in order.
  void apply(const TextChange& change);

 private:
  void index();

  std::string text_;
  std::vector<std::size_t> line_starts_;
};

}  // namespace planlint::lsp
