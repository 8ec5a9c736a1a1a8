#include "planlint/lsp/positions.hpp"

#include <algorithm>

namespace planlint::lsp {

Positions::Positions(const TextDocument& document, const SourceFile& source) : document_(document), source_(source) {
  mark_bytes_ = document.text().size() - std::min(document.text().size(), source.text().size());
}

std::size_t Positions::offset(Position at) const {
  if (at.line == 0) return 0;
  if (at.line > source_.line_count()) return document_.text().size();
  const std::size_t line_start = source_.offset(Position{at.line, 1});
  const std::size_t column = at.column > 0 ? at.column - 1 : 0;
  return mark_bytes_ + line_start + std::min<std::size_t>(column, source_.line(at.line).size());
}

LspRange Positions::range(Span span, ColumnCursor& starts, ColumnCursor& ends) const {
  if (!span.known()) return {};
  const LspPosition start = document_.position(offset(span.begin), starts);
  const LspPosition end = span.end.line == 0 ? start : document_.position(offset(span.end), ends);
  return {start, std::max(start, end)};
}

LspRange Positions::range(Span span) const { return range(span, starts_, ends_); }

LspRange Positions::related_range(Span span) const { return range(span, related_starts_, related_ends_); }

Position Positions::source_position(LspPosition at) const {
  const std::size_t offset = document_.offset(at);
  return source_.position(offset > mark_bytes_ ? offset - mark_bytes_ : 0);
}

}  // namespace planlint::lsp
