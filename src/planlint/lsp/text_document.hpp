#pragma once
/// An open document's text as the editor holds it, with LSP positions: 0-based lines and
/// 0-based columns in UTF-16 code units (LSP's default position encoding), where planlint's
/// spans count 1-based lines and byte columns. A line ends at LF, CR LF or a lone CR, as LSP
/// counts lines.
///
/// Copies share one text (the store's version, a lint's snapshot and its analysis): an edit
/// makes a new one, so a copy costs no more than a pointer.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "planlint/source/column_cursor.hpp"
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
  TextDocument() : TextDocument(std::string()) {}
  /// A text of at most 4 GiB (the language server's message limit is far below).
  explicit TextDocument(std::string text);

  const std::string& text() const { return content_->text; }
  std::uint32_t line_count() const { return static_cast<std::uint32_t>(content_->line_starts.size()); }
  /// The text of 0-based `line` without its terminator; empty past the end.
  std::string_view line(std::uint32_t line) const;

  /// The byte offset of `position`. A character past the line's end is its end, a line past
  /// the last is the text's end (LSP: "defaults back to the line length"); a character inside
  /// a surrogate pair is the pair's start.
  std::size_t offset(LspPosition position) const;
  /// The position of byte `offset` (clamped to the text; inside a UTF-8 sequence: the
  /// character's start).
  LspPosition position(std::size_t offset) const;
  /// The same, its character counted on from the last position `columns` (a UTF-16 cursor)
  /// counted on the same line: positions asked in order cost one pass over their line.
  LspPosition position(std::size_t offset, ColumnCursor& columns) const;
  /// The 0-based line of byte `offset` (clamped to the text).
  std::uint32_t line_at(std::size_t offset) const;

  /// Applies one change of a didChange notification, in order.
  void apply(const TextChange& change);

 private:
  struct Content {
    std::string text;
    std::vector<std::uint32_t> line_starts;  ///< byte offsets
  };
  static std::shared_ptr<const Content> indexed(std::string text);

  std::shared_ptr<const Content> content_;
};

/// The limits of one didChange's edits: the text may grow to `max_bytes` (what one message may
/// carry, --max-message-size), and the edits may rewrite `max_rewritten_bytes` of text between
/// them (each edit rewrites the whole text).
struct EditLimits {
  std::size_t max_bytes;
  std::size_t max_rewritten_bytes;
};

/// Applies a didChange's edits in order, within `limits`: nullopt when all were applied, else
/// why the edits stopped (the text is then partly edited, and no longer the editor's).
std::optional<std::string> apply_edits(TextDocument& text, std::span<const TextChange> edits, const EditLimits& limits);

}  // namespace planlint::lsp
