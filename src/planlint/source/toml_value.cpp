#include "planlint/source/toml_value.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include "planlint/source/toml_limits.hpp"

namespace planlint {

namespace {

bool is_one_value(std::string_view text) {
  if (text.empty() || text.find_first_of("\n\r") != std::string_view::npos) return false;
  // Read as the first item of an array with another after it: a trailing "# comment" then
  // comments out the rest of the line (as a fix inside an inline table would lose the rest
  // of its), and a trailing comma is a syntax error.
  const TomlResult parsed = parse_toml("v = [" + std::string(text) + ", 0]\n");
  const toml::array* items = parsed && parsed->size() == 1 ? parsed->get_as<toml::array>("v") : nullptr;
  return items && items->size() == 2;
}

}  // namespace

std::string as_toml_value(std::string_view text) {
  return is_one_value(text) ? std::string(text) : toml_basic_string(text);
}

std::string toml_basic_string(std::string_view text) {
  std::string quoted = "\"";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    switch (c) {
      case '"': quoted += "\\\""; break;
      case '\\': quoted += "\\\\"; break;
      case '\n': quoted += "\\n"; break;
      case '\t': quoted += "\\t"; break;
      case '\r': quoted += "\\r"; break;
      default:
        if (byte < 0x20 || byte == 0x7f) quoted += fmt::format("\\u{:04X}", byte);
        else quoted += c;
    }
  }
  return quoted + "\"";
}

}  // namespace planlint
