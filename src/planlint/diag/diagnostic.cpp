#include "planlint/diag/diagnostic.hpp"

#include <cstdint>
#include <tuple>

#include <fmt/format.h>

#include "planlint/diag/result.hpp"
#include "planlint/diag/rule_descriptor.hpp"

namespace planlint {

std::string_view to_string(Severity severity) {
  switch (severity) {
    case Severity::note: return "note";
    case Severity::warning: return "warning";
    case Severity::error: return "error";
  }
  return "error";
}

std::optional<Severity> parse_severity(std::string_view text) {
  if (text == "note") return Severity::note;
  if (text == "warning") return Severity::warning;
  if (text == "error") return Severity::error;
  return std::nullopt;
}

std::string_view to_string(FixSafety safety) {
  switch (safety) {
    case FixSafety::none: return "none";
    case FixSafety::safe: return "safe";
    case FixSafety::unsafe: return "unsafe";
  }
  return "none";
}

std::string text_digest(std::string_view text) {
  std::uint32_t hash = 0x811c9dc5u;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x01000193u;
  }
  return fmt::format("{:08x}", hash);
}

std::string error_line(const Diagnostic& d) { return error_line(Error{d.message, d.primary, d.help}); }

bool diagnostic_less(const Diagnostic& a, const Diagnostic& b) {
  return std::tie(a.primary.file, a.primary.span.begin, a.rule, a.message) <
         std::tie(b.primary.file, b.primary.span.begin, b.rule, b.message);
}

}  // namespace planlint
