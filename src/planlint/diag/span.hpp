#pragma once
/// Positions in a source file: 1-based lines and columns (columns count bytes), end exclusive,
/// the convention of toml++'s source_region.
#include <compare>
#include <cstdint>

namespace planlint {

struct Position {
  std::uint32_t line = 0;    ///< 1-based; 0 means "unknown"
  std::uint32_t column = 0;  ///< 1-based byte column
  auto operator<=>(const Position&) const = default;
};

/// A region of a source file: `begin` inclusive, `end` exclusive.
struct Span {
  Position begin;
  Position end;
  bool known() const { return begin.line != 0; }
  auto operator<=>(const Span&) const = default;
};

}  // namespace planlint
