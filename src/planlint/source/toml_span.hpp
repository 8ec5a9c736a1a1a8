#pragma once
/// Conversion of toml++ source regions into planlint spans (both 1-based, end exclusive).
/// toml++ counts columns in code points, planlint in bytes (span.hpp): every toml++ position
/// becomes a planlint one here, through the text of its line.
///
///     ColumnConverter columns(file);
///     Span span = columns.span(node.source());
#include <cstdint>
#include <vector>

#include <toml++/toml.h>

#include "planlint/source/source_file.hpp"
#include "planlint/source/span.hpp"

namespace planlint::detail {

/// Converts the positions toml++ reports in `file` (the text toml++ parsed has `file`'s lines
/// where toml++ can point: a Markdown doc's blanked copy too). It keeps the last line's
/// columns, so the many positions of one long line cost one pass over it.
class ColumnConverter {
 public:
  explicit ColumnConverter(const SourceFile& file) : file_(file) {}

  Position position(const toml::source_position& at);

  /// The region's span; toml++ leaves the end unset for some nodes, and a one-character span
  /// is better than none.
  Span span(const toml::source_region& region);

 private:
  const SourceFile& file_;
  std::uint32_t line_ = 0;              ///< the line byte_of_ describes; 0: none yet
  std::vector<std::uint32_t> byte_of_;  ///< 0-based byte of each code point; empty: ASCII
};

inline Span to_span(const toml::source_region& region, const SourceFile& file) {
  return ColumnConverter(file).span(region);
}

inline Position to_position(const toml::source_position& at, const SourceFile& file) {
  return ColumnConverter(file).position(at);
}

}  // namespace planlint::detail
