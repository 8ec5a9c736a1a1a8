#include "planlint/diag/diagnostic.hpp"

#include <tuple>

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

bool diagnostic_less(const Diagnostic& a, const Diagnostic& b) {
  return std::tie(a.primary.file, a.primary.span.begin, a.rule, a.message) <
         std::tie(b.primary.file, b.primary.span.begin, b.rule, b.message);
}

}  // namespace planlint
