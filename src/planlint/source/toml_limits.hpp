#pragma once
/// Parsing TOML within planlint's input limits (source/limits.hpp):
///
///     TomlResult parsed = parse_toml(text, path);  // instead of toml::parse(text, path)
///     if (!parsed) report(parsed.error().description, parsed.error().source);
///     use(*parsed);
///
/// toml++ is built without exceptions (TOML_EXCEPTIONS=0, CMakeLists.txt): a syntax error is a
/// value, as it is here, not a throw.
#include <string>
#include <string_view>

#include <toml++/toml.h>

#include "planlint/diag/result.hpp"

namespace planlint {

/// Why a text is not valid TOML and where: toml++'s description and region of a syntax error,
/// or one of planlint's TOML limits in the same form.
struct TomlError {
  std::string description;
  toml::source_region source;
};

/// The document, or the error that stopped its parse. The error keeps toml++'s region, whose
/// columns count code points: the caller turns it into a span of its file (toml_span.hpp).
using TomlResult = Result<toml::table, TomlError>;

/// toml::parse(text, path), except that a document nesting deeper than max_toml_depth, or
/// holding more keys and array values than toml_node_limit(text.size()), is a TomlError at the
/// level or node that crosses the limit ("nested deeper than 128 levels, ...", "more than
/// 65536 keys and array values, ..."), found before toml++ builds anything, so every caller's
/// syntax-error handling reports it instead of toml++ overflowing the stack or the memory.
/// When `parsed_ascii` is given, it is set to whether the text toml++ parsed (comment bodies
/// removed) is all ASCII: then every column toml++ reports is a byte column as well
/// (ColumnConverter::assume_ascii).
TomlResult parse_toml(std::string_view text, std::string_view path = {}, bool* parsed_ascii = nullptr);

}  // namespace planlint
