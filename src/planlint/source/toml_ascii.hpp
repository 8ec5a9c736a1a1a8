#pragma once
/// toml++'s parser over text that is all ASCII (bytes below 0x80), read without toml++'s UTF-8
/// decoding (toml_implementation.cpp says how and why). The result, and the parse_error thrown
/// for invalid TOML, are toml::parse's for the same text; for text that is not ASCII, the
/// result is undefined: call toml::parse.
#include <string_view>

#include <toml++/toml.h>

namespace planlint {

toml::table parse_ascii_toml(std::string_view text, std::string_view path = {});

}  // namespace planlint
