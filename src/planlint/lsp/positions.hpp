#pragma once
/// planlint's spans (1-based lines, 1-based byte columns, lines split at LF) as LSP ranges of
/// the editor's text (0-based, UTF-16 columns, lines split at LF, CR LF or CR), and back.
///
/// The columns are counted on from the last position asked (source/column_cursor.hpp): the
/// findings of a document, asked in order, cost one pass over each of their lines, however
/// many share one. A Positions is for one thread.
#include <cstddef>
#include <optional>

#include "planlint/lsp/text_document.hpp"
#include "planlint/source/column_cursor.hpp"
#include "planlint/source/source_file.hpp"
#include "planlint/diag/span.hpp"

namespace planlint::lsp {

class Positions {
 public:
  /// `source` is `document`'s text as planlint read it: the same text, less a leading byte
  /// order mark.
  Positions(const TextDocument& document, const SourceFile& source);

  /// The byte offset in the editor's text of a position in the source (a column past its
  /// line's end: the line's end).
  std::size_t offset(Position at) const;
  LspPosition position(Position at) const { return document_.position(offset(at), starts_); }
  /// The 0-based line of a position in the source.
  std::uint32_t line(Position at) const { return document_.line_at(offset(at)); }
  /// An unknown span (a finding about the whole file) is the start of the text.
  LspRange range(Span span) const;
  /// range() for the places a finding relates to, which lie elsewhere: counted apart from the
  /// findings' own, so that neither pass starts its line again.
  LspRange related_range(Span span) const;

  /// The source position of an editor position (inside the byte order mark: line 1, column 1).
  Position source_position(LspPosition at) const;

  const TextDocument& document() const { return document_; }
  const SourceFile& source() const { return source_; }

 private:
  LspRange range(Span span, ColumnCursor& starts, ColumnCursor& ends) const;

  const TextDocument& document_;
  const SourceFile& source_;
  std::size_t mark_bytes_ = 0;  ///< a byte order mark that planlint's text leaves out
  /// Where the last ranges asked began and ended, and those of the related places.
  mutable ColumnCursor starts_{ColumnUnit::utf16}, ends_{ColumnUnit::utf16};
  mutable ColumnCursor related_starts_{ColumnUnit::utf16}, related_ends_{ColumnUnit::utf16};
};

}  // namespace planlint::lsp
