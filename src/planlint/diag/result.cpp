#include "planlint/diag/result.hpp"

#include <fmt/format.h>

namespace planlint {

std::string error_line(const Error& error) {
  const Location& at = error.location;
  std::string line;
  if (at.file.empty()) line = fmt::format("planlint: error: {}", error.message);
  else if (!at.span.known()) line = fmt::format("planlint: error: {}: {}", at.file, error.message);
  else line = fmt::format("{}:{}:{}: error: {}", at.file, at.span.begin.line, at.span.begin.column, error.message);
  if (error.help) line += fmt::format(" ({})", *error.help);
  return line;
}

}  // namespace planlint
