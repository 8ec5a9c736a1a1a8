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

#include "planlint/diag/span.hpp"

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

/// The keys and array values a TOML file may hold: one per 32 bytes of the file, at least
/// 65,536 (a file under 2 MiB) and at most 524,288 (16 MiB). toml++ takes 75 to 225 bytes for
/// each (a key's table entry is the largest), so a file's tree stays within 7 times the file's
/// size (14 MiB for a file under 2 MiB) and 112 MiB: with the text and the rest of the run, the
/// budget of docs/hardening.md (16 times the input, 256 MiB a file) holds at the limit. A plan
/// holds a few hundred, one per 18 to 110 bytes. Fixed: not an option.
inline constexpr std::size_t min_toml_nodes = std::size_t{1} << 16;
inline constexpr std::size_t max_toml_nodes = std::size_t{1} << 19;
inline constexpr std::size_t toml_bytes_per_node = 32;
constexpr std::size_t toml_node_limit(std::size_t text_bytes) {
  const std::size_t nodes = text_bytes / toml_bytes_per_node;
  return nodes < min_toml_nodes ? min_toml_nodes : nodes > max_toml_nodes ? max_toml_nodes : nodes;
}

/// "16 MiB", "1.5 GiB", "900 KiB", "12 bytes".
std::string format_byte_size(std::uint64_t bytes);

/// What a TOML document may build before toml++ parses it.
struct TomlLimits {
  std::size_t max_depth = max_toml_depth;
  std::size_t max_nodes = max_toml_nodes;  ///< keys and array values (toml_node_limit)
};

/// Where a TOML document first crosses one of its limits.
struct TomlLimitExcess {
  enum class Limit { depth, nodes } limit = Limit::depth;
  Position position;    ///< the token that opens level max_depth + 1, or ends node max_nodes + 1
  std::size_t offset = 0;
};

/// Where a TOML document first nests deeper than `limits.max_depth` or holds more than
/// `limits.max_nodes` keys and array values, or nullopt. A scan of the lexer's tokens
/// (toml_lexer.hpp): a level for each part of a key or header, array and inline table (and for
/// an array of tables' entry); a node at each '.' and '=' of a key, each header's ']', and each
/// ',' and ']' of an array. It never counts fewer nodes than toml++ builds, nor fewer than half
/// its levels (a [header] part that names an array of tables is that array and its last entry:
/// two levels). On malformed text it may count more, where toml++ stops with a syntax error.
std::optional<TomlLimitExcess> find_toml_limit_excess(std::string_view text, TomlLimits limits);

}  // namespace planlint
