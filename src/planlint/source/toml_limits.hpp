#pragma once
/// Parsing TOML within planlint's input limits (source/limits.hpp):
///
///     toml::table root = parse_toml(text, path);  // instead of toml::parse(text, path)
#include <string_view>

#include <toml++/toml.h>

namespace planlint {

/// toml::parse(text, path), except that a document nesting deeper than max_toml_depth is a
/// toml::parse_error at the level that exceeds it ("nested deeper than 128 levels, ..."), so
/// every caller's existing syntax-error handling reports it instead of toml++ overflowing the
/// stack.
/// When `parsed_ascii` is given, it is set to whether the text toml++ parsed (comment bodies
/// removed) is all ASCII: then every column toml++ reports is a byte column as well
/// (ColumnConverter::assume_ascii).
toml::table parse_toml(std::string_view text, std::string_view path = {}, bool* parsed_ascii = nullptr);

}  // namespace planlint
