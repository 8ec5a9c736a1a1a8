#include "planlint/source/limits.hpp"
#include "planlint/source/columns.hpp"
#include "planlint/source/toml_limits.hpp"
#include "planlint/source/toml_comments.hpp"
#include "planlint/source/toml_lexer.hpp"

#include <algorithm>
#include <memory>
#include <vector>

#include <fmt/format.h>

namespace planlint {

std::string format_byte_size(std::uint64_t bytes) {
  constexpr const char* units[] = {"KiB", "MiB", "GiB", "TiB"};
  if (bytes < 1024) return fmt::format("{} byte{}", bytes, bytes == 1 ? "" : "s");
  double value = static_cast<double>(bytes) / 1024;
  std::size_t unit = 0;
  while (value >= 1024 && unit + 1 < std::size(units)) {
    value /= 1024;
    ++unit;
  }
  // "16 MiB" for whole numbers, "1.5 GiB" otherwise.
  if (value == static_cast<double>(static_cast<std::uint64_t>(value)))
    return fmt::format("{} {}", static_cast<std::uint64_t>(value), units[unit]);
  return fmt::format("{:.1f} {}", value, units[unit]);
}

namespace {

/// One pass over a TOML document's tokens that tracks how deep each key and value nests and
/// how many keys and array values it holds: the segments of the current [header], of a key,
/// and the arrays and inline tables open around a value.
class LimitScanner {
 public:
  LimitScanner(std::string_view text, TomlLimits limits) : lexer_(text), limits_(limits) {}

  std::optional<std::pair<TomlLimitExcess::Limit, std::size_t>> run() {
    for (TomlToken token = lexer_.next(); token.kind != TomlTokenKind::end && !excess_; token = lexer_.next())
      step(token);
    if (!excess_) end_keys();
    return excess_;
  }

 private:
  using Limit = TomlLimitExcess::Limit;

  /// A key being read: where it starts and its dots so far.
  struct Key {
    bool open = false;
    std::size_t begin = 0, dots = 0;
  };

  void reach(std::size_t depth, std::size_t offset) {
    if (depth > limits_.max_depth && !excess_) excess_ = {Limit::depth, offset};
  }
  void count_nodes(const TomlToken& token, std::size_t count = 1) {
    nodes_ += count;
    if (nodes_ > limits_.max_nodes && !excess_) excess_ = {Limit::nodes, token.begin};
  }

  /// The header, statement key or inline key being read ends (at its ']' or '=', or where the
  /// text shows it will not get one).
  void end_keys() {
    if (header_.open) {
      header_depth_ = header_.dots + 1 + (header_array_ ? 1 : 0);  // [[a.b]]: one level more than [a.b]
      reach(header_depth_, header_.begin);
      header_ = {};
    }
    if (key_.open) {
      value_depth_ = header_depth_ + key_.dots + 1;
      reach(value_depth_, key_.begin);
      key_ = {};
    }
    if (inline_key_.open) {
      reach(value_depth_ + lexer_.open_containers() + inline_key_.dots + 1, inline_key_.begin);
      inline_key_ = {};
    }
  }

  void step(const TomlToken& token) {
    switch (token.kind) {
      case TomlTokenKind::whitespace:
      case TomlTokenKind::comment:
        return;
      case TomlTokenKind::header_open:
        end_keys();
        header_ = {true, token.begin, 0};
        header_array_ = token.end - token.begin == 2;
        return;
      case TomlTokenKind::dot:
        // Depth first: a key 100,000 levels deep is reported for its depth, at its start.
        if (header_.open) reach(++header_.dots + 1 + (header_array_ ? 1 : 0), header_.begin);
        else if (key_.open) reach(header_depth_ + ++key_.dots + 1, key_.begin);
        else if (inline_key_.open)
          reach(value_depth_ + lexer_.open_containers() + ++inline_key_.dots + 1, inline_key_.begin);
        count_nodes(token);
        return;
      case TomlTokenKind::equals:
        count_nodes(token);
        if (!header_.open && !key_.open && !inline_key_.open && lexer_.open_containers() == 0)
          key_ = {true, token.begin, 0};  // a statement without a key: "= 1"
        end_keys();
        return;
      case TomlTokenKind::header_close:
        // "]]": the table's key, and its entry in the array of tables.
        count_nodes(token, token.end - token.begin);
        end_keys();
        return;
      case TomlTokenKind::comma:
        // An array's value ends at its ','; an inline table's keys are counted at their '='.
        if (lexer_.in_array()) count_nodes(token);
        end_keys();
        return;
      case TomlTokenKind::array_close:
        count_nodes(token);
        end_keys();
        return;
      case TomlTokenKind::array_open:
      case TomlTokenKind::table_open:
        end_keys();
        reach(value_depth_ + lexer_.open_containers(), token.begin);
        return;
      case TomlTokenKind::line_break:
      case TomlTokenKind::table_close:
        end_keys();
        return;
      default:
        break;
    }
    // A bare word or a string: the first part of a key starts one.
    if (!token.key || header_.open || key_.open || inline_key_.open) return;
    if (lexer_.open_containers() == 0) key_ = {true, token.begin, 0};
    else inline_key_ = {true, token.begin, 0};
  }

  TomlLexer lexer_;
  TomlLimits limits_;
  Key header_, key_, inline_key_;
  bool header_array_ = false;
  std::size_t header_depth_ = 0;  ///< the levels of the last [header]
  std::size_t value_depth_ = 0;   ///< the levels of the statement's key, its header's included
  std::size_t nodes_ = 0;
  std::optional<std::pair<Limit, std::size_t>> excess_;
};

}  // namespace

std::optional<TomlLimitExcess> find_toml_limit_excess(std::string_view text, TomlLimits limits) {
  // Fast path: every level is opened by a '.', '[' or '{' (plus the first segment of a header
  // and of a key, and an array of tables' second '['), and every node is counted at a '.',
  // '=', ']' or ',', so a document with few of them can cross neither limit. Most plans take
  // it: the loop vectorises, the lexer does not.
  std::size_t openers = 0, node_marks = 0;
  for (const char c : text) {
    openers += static_cast<std::size_t>((c == '.') | (c == '[') | (c == '{'));
    node_marks += static_cast<std::size_t>((c == '.') | (c == '=') | (c == ']') | (c == ','));
  }
  if (openers + 2 <= limits.max_depth && node_marks <= limits.max_nodes) return std::nullopt;
  const auto excess = LimitScanner(text, limits).run();
  if (!excess) return std::nullopt;
  const std::size_t offset = excess->second;
  const std::size_t line_break = offset == 0 ? std::string_view::npos : text.rfind('\n', offset - 1);
  const std::size_t line_start = line_break == std::string_view::npos ? 0 : line_break + 1;
  const Position position{
      static_cast<std::uint32_t>(1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n')),
      static_cast<std::uint32_t>(offset - line_start + 1)};
  return TomlLimitExcess{excess->first, position, offset};
}

namespace {

/// toml++ reports a string left open where it gives up: at the end of its line, as a
/// control character in a string, or at the end of the file for a multi-line one. When the
/// first string of `text` that does not close opens before `error`'s position, the error is
/// rewritten to point at its opening quote and say so.
void unclosed_string_error(std::string_view text, TomlError& error) {
  TomlLexer lexer(text);
  for (TomlToken token = lexer.next_comment_or_string(); token.kind != TomlTokenKind::end;
       token = lexer.next_comment_or_string()) {
    if (!token.is_string() || token.closed) continue;
    const std::size_t opening = token.begin;
    const std::size_t line_break = opening == 0 ? std::string_view::npos : text.rfind('\n', opening - 1);
    const std::size_t line_start = line_break == std::string_view::npos ? 0 : line_break + 1;
    const toml::source_position open{token.line, code_point_column(text.substr(line_start, opening - line_start + 1),
                                                                    static_cast<std::uint32_t>(opening - line_start + 1))};
    if (!(open < error.source.begin)) return;  // the error comes before the string
    const char quote = text[opening];
    const bool multi_line = token.is_multi_line_string();
    const std::string_view kind = quote == '"' ? "" : "literal ";
    error.description =
        multi_line ? fmt::format("the multi-line {}string that opens here is not closed: end it with {}", kind,
                                 text.substr(opening, 3))
                   : fmt::format("the {}string that opens here is not closed: end it with {} on the same line", kind,
                                 quote);
    error.source.begin = error.source.end = open;
    return;
  }
}

/// The TomlError of a limit crossed at `excess`.
TomlError limit_error(std::string_view text, std::string_view path, const TomlLimitExcess& excess, TomlLimits limits) {
  // toml++'s positions count code points (toml_span.hpp turns them back into bytes).
  const Position at = excess.position;
  const std::string_view line_before = text.substr(excess.offset - (at.column - 1), at.column - 1);
  const toml::source_position position{at.line, code_point_column(line_before, at.column)};
  std::string description =
      excess.limit == TomlLimitExcess::Limit::depth
          ? fmt::format("nested deeper than {} levels (tables, arrays, inline tables), planlint's fixed limit for TOML "
                        "files; a plan nests 3 levels",
                        limits.max_depth)
          : fmt::format("more than {} keys and array values, planlint's fixed limit for a TOML file of {} (one for each "
                        "{} bytes, at least {} and at most {}); a plan holds a few hundred",
                        limits.max_nodes, format_byte_size(text.size()), toml_bytes_per_node, min_toml_nodes,
                        max_toml_nodes);
  return TomlError{std::move(description),
                   toml::source_region{position, position,
                                       path.empty() ? nullptr : std::make_shared<const std::string>(path)}};
}

}  // namespace

TomlResult parse_toml(std::string_view text, std::string_view path, bool* parsed_ascii) {
  // The limits first, on the text as it is: a document that crosses one is not copied.
  const TomlLimits limits{max_toml_depth, toml_node_limit(text.size())};
  if (auto excess = find_toml_limit_excess(text, limits)) return limit_error(text, path, *excess, limits);
  // Lines and columns are the same in both texts (toml_comments.hpp), so every position below
  // and in toml++'s errors and nodes is one in `text`.
  // One buffer per thread: a fresh allocation for each file cost more than the copy.
  thread_local std::string lean;
  if (without_comment_bodies(text, lean)) text = lean;
  // A big file's buffer is not kept for the rest of the run.
  struct Release {
    ~Release() {
      if (lean.capacity() > (std::size_t{1} << 20)) std::string().swap(lean);
    }
  } release;
  if (parsed_ascii) *parsed_ascii = is_ascii(text);
  toml::parse_result parsed = toml::parse(text, path);
  if (parsed) return TomlResult(std::move(parsed).table());
  TomlError error{std::string(parsed.error().description()), parsed.error().source()};
  unclosed_string_error(text, error);
  return error;
}

}  // namespace planlint
