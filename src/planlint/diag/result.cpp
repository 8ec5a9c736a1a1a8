#include "planlint/diag/result.hpp"

#include <fmt/format.h>

#include "planlint/diag/printable.hpp"

namespace planlint {

// A message may quote its input (a file name, a config value, a rule pack's id): the line is
// printable() whole, and a file name that begins it printable_path(), so no line planlint prints
// on stderr carries a control character or starts a GitHub workflow command.
std::string error_line(const Error& error) {
  const Location& at = error.location;
  std::string line;
  if (at.file.empty()) {
    line = "planlint: error: ";
  } else if (!at.span.known()) {
    line = "planlint: error: ";
    append_printable(line, at.file);
    line += ": ";
  } else {
    append_printable_path(line, at.file);
    line += fmt::format(":{}:{}: error: ", at.span.begin.line, at.span.begin.column);
  }
  append_printable(line, error.message);
  if (error.help) {
    line += " (";
    append_printable(line, *error.help);
    line += ')';
  }
  return line;
}

}  // namespace planlint
