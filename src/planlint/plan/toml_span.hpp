#pragma once
/// Conversion of toml++ source regions into planlint spans (both 1-based, end exclusive).
#include <toml++/toml.h>

#include "planlint/source/span.hpp"

namespace planlint::detail {

inline Span to_span(const toml::source_region& region) {
  Span span{{region.begin.line, region.begin.column}, {region.end.line, region.end.column}};
  // toml++ leaves the end unset for some nodes; a one-character span is better than none.
  if (span.end < span.begin || span.end.line == 0)
    span.end = Position{span.begin.line, span.begin.column + 1};
  return span;
}

}  // namespace planlint::detail
