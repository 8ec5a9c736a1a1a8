#pragma once
/// Positions inside a TOML string value: a quantity or an expression that does not parse is
/// reported at the character where it goes wrong, not at the whole value.
///
///     Span at = span_in_string(file, value_span, node.as_string()->get(), error.offset);
#include <cstddef>
#include <string_view>

#include "planlint/source/source_file.hpp"
#include "planlint/diag/span.hpp"

namespace planlint {

/// The span of the character that byte `offset` of the string value `value` comes from, the
/// value's source being at `value_span` of `file`: through escapes ("\u00E9" for "é"), the
/// line breaks and line-ending backslashes of multi-line strings, as the lexer decodes it
/// (toml_lexer.hpp). From the value's size on, the closing quote. The whole `value_span` when
/// the text there is not a string that reads as `value`.
Span span_in_string(const SourceFile& file, Span value_span, std::string_view value, std::size_t offset);

}  // namespace planlint
