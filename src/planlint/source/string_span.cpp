#include "planlint/source/string_span.hpp"

#include "planlint/source/columns.hpp"
#include "planlint/source/toml_lexer.hpp"

namespace planlint {

Span span_in_string(const SourceFile& file, Span value_span, std::string_view value, std::size_t offset) {
  if (!value_span.known()) return value_span;
  const std::size_t begin = file.offset(value_span.begin);
  const std::string_view text = std::string_view(file.text()).substr(begin);
  TomlLexer lexer(text);
  const TomlToken token = lexer.next_comment_or_string();
  if (!token.is_string() || token.begin != 0) return value_span;
  TomlStringValue decoded;
  if (!decode_toml_string(text, token, decoded) || decoded.text != value) return value_span;
  const Position at = file.position(begin + decoded.source_offset(offset));
  return Span{at, Position{at.line, after_character(file.line(at.line), at.column)}};
}

}  // namespace planlint
