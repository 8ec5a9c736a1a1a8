#pragma once
/// Input limits: how much of a file planlint reads and how deep a TOML document may nest, so
/// that hostile or accidental input (a 2 GB log named *.toml, /dev/zero, a generated file whose
/// keys nest 100,000 levels deep) is an error that names the limit, never a crash or a hang.
/// docs/hardening.md lists every limit and how to raise it.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "planlint/source/span.hpp"

namespace planlint {

/// read_file() refuses larger files (`--max-file-size` raises it).
inline constexpr std::size_t default_max_file_bytes = std::size_t{16} << 20;  // 16 MiB

/// The plans planlint lints in one Markdown doc (`--max-plans-per-file` raises it). Each plan
/// block is linted on its own; a generated doc of thousands of blocks would otherwise take
/// time quadratic in its size. Real capacity docs hold one to a few plans.
inline constexpr std::size_t default_max_markdown_plans = 100;

/// The deepest nesting planlint parses in a TOML file: tables of dotted keys and [headers],
/// arrays and inline tables. A plan nests 3 levels. toml++ recurses once per level while it
/// parses and frees a document, and overflows an 8 MiB stack near 50,000 levels of dotted keys
/// (TOML_MAX_NESTED_VALUES bounds only arrays and inline tables). Fixed: not an option.
inline constexpr std::size_t max_toml_depth = 128;

/// "16 MiB", "1.5 GiB", "900 KiB", "12 bytes".
std::string format_byte_size(std::uint64_t bytes);

/// Where a TOML document first nests deeper than `max_depth`, or nullopt. A lexical scan that
/// skips strings and comments and never counts less than the depth toml++ builds (on malformed
/// text it may count more, where toml++ stops with a syntax error anyway).
struct NestingExcess {
  Position position;    ///< the character that opens level max_depth + 1
  std::size_t offset = 0;
};
std::optional<NestingExcess> find_toml_nesting_excess(std::string_view text, std::size_t max_depth);

}  // namespace planlint
