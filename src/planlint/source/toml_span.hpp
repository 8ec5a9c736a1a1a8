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
#include "planlint/diag/span.hpp"

namespace planlint::detail {

/// Converts the positions toml++ reports in `file`: the text toml++ parsed is `file`'s lines
/// from `first_line` on (a Markdown block's, parsed on its own). It keeps the last line's
/// columns, so the many positions of one long line cost one pass over it: use one converter
/// for a document, not one per position (to_span is for a position or two).
class ColumnConverter {
 public:
  explicit ColumnConverter(const SourceFile& file, std::uint32_t first_line = 1)
      : file_(file), line_offset_(first_line - 1) {}

  Position position(const toml::source_position& at);
  /// The text toml++ parsed is all ASCII: its columns are byte columns, nothing to convert.
  void assume_ascii(bool ascii) { ascii_ = ascii; }

  /// The region's span; toml++ leaves the end unset for some nodes, and a one-character span
  /// is better than none.
  Span span(const toml::source_region& region) {
    // The usual case, inline: an ASCII document and a region with both ends (a lint makes
    // two spans for every value it reads).
    if (ascii_ && region.begin && region.end && !(region.end < region.begin))
      return Span{{region.begin.line + line_offset_, region.begin.column},
                  {region.end.line + line_offset_, region.end.column}};
    return converted_span(region);
  }

 private:
  Span converted_span(const toml::source_region& region);

  const SourceFile& file_;
  std::uint32_t line_offset_;  ///< the file's line of the parsed text's line 1, less one
  bool ascii_ = false;
  std::uint32_t line_ = 0;              ///< the line ascii_prefix_ and byte_of_ describe; 0: none yet
  std::size_t ascii_prefix_ = 0;        ///< how many bytes the line starts with that are ASCII
  bool table_built_ = false;            ///< whether byte_of_ is built for line_
  std::vector<std::uint32_t> byte_of_;  ///< 0-based byte of each code point; empty: ASCII
};

inline Span to_span(const toml::source_region& region, const SourceFile& file) {
  return ColumnConverter(file).span(region);
}

inline Position to_position(const toml::source_position& at, const SourceFile& file) {
  return ColumnConverter(file).position(at);
}

}  // namespace planlint::detail
