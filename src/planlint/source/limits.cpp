#include "planlint/source/limits.hpp"
#include "planlint/source/columns.hpp"
#include "planlint/source/toml_limits.hpp"
#include "planlint/source/toml_comments.hpp"
#include "planlint/source/toml_lexing.hpp"

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

/// One pass over a TOML document that tracks how deep each key and value nests: the segments
/// of the current [header], of a key, and the arrays and inline tables open around a value.
class NestingScanner {
 public:
  NestingScanner(std::string_view text, std::size_t max_depth) : text_(text), max_(max_depth) {}

  std::optional<std::size_t> run() {
    while (at_ < text_.size() && !excess_) statement();
    return excess_;
  }

 private:
  bool more() const { return at_ < text_.size() && !excess_; }
  char peek(std::size_t ahead = 0) const {
    return at_ + ahead < text_.size() ? text_[at_ + ahead] : '\0';
  }

  void reach(std::size_t depth, std::size_t offset) {
    if (depth > max_ && !excess_) excess_ = offset;
  }

  void skip_line() {
    const std::size_t end = text_.find('\n', at_);
    at_ = end == std::string_view::npos ? text_.size() : end;
  }

  /// A quoted string at `at_`, up to its end. A single-line string also ends at a line break,
  /// where toml++ reports it.
  void skip_string() { skip_toml_string(text_, at_); }

  /// A (dotted) key up to one of `stops`, a comment or the end of the line; returns its
  /// segments.
  std::size_t key(std::string_view stops) {
    std::size_t segments = 1;
    while (more()) {
      const char c = text_[at_];
      if (c == '\n' || c == '#' || stops.find(c) != std::string_view::npos) break;
      if (c == '"' || c == '\'') {
        skip_string();
      } else {
        if (c == '.') ++segments;
        ++at_;
      }
    }
    return segments;
  }

  void statement() {
    const char c = text_[at_];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      ++at_;
    } else if (c == '#') {
      skip_line();
    } else if (c == '[') {
      const std::size_t begin = at_;
      const bool array = peek(1) == '[';
      at_ += array ? 2 : 1;
      // [[a.b]] is an array of tables under a: one level more than [a.b].
      header_depth_ = key("]") + (array ? 1 : 0);
      reach(header_depth_, begin);
      skip_line();  // the closing brackets and a comment
    } else {
      const std::size_t begin = at_;
      const std::size_t depth = header_depth_ + key("=");
      reach(depth, begin);
      if (peek() == '=') {
        ++at_;
        value(depth);
      }
    }
  }

  /// The value of a key at `depth`, up to the end of its line outside brackets.
  void value(std::size_t depth) {
    std::vector<char> open;  // '[' and '{' around the current position
    bool expect_key = false;
    while (more()) {
      const char c = text_[at_];
      if (c == '\n' && open.empty()) return;
      if (c == '#') {
        skip_line();
      } else if (c == '"' || c == '\'') {
        skip_string();
      } else if (c == '[' || c == '{') {
        open.push_back(c);
        reach(depth + open.size(), at_);
        ++at_;
        expect_key = c == '{';
      } else if (c == ']' || c == '}') {
        if (!open.empty()) open.pop_back();
        ++at_;
      } else if (c == ',') {
        ++at_;
        expect_key = !open.empty() && open.back() == '{';
      } else if (expect_key && c != ' ' && c != '\t' && c != '\r' && c != '\n') {
        const std::size_t begin = at_;
        reach(depth + open.size() + key("=}"), begin);
        if (peek() == '=') ++at_;
        expect_key = false;
      } else {
        ++at_;
      }
    }
  }

  std::string_view text_;
  std::size_t max_;
  std::size_t at_ = 0;
  std::size_t header_depth_ = 0;
  std::optional<std::size_t> excess_;
};

}  // namespace

std::optional<NestingExcess> find_toml_nesting_excess(std::string_view text, std::size_t max_depth) {
  // Fast path: every level is opened by a '.', '[' or '{' (plus the first segment of a header
  // and of a key, and an array of tables' second '['), so a document with few of them cannot
  // nest deeply. Most plans take it: the loop vectorises, the scanner below does not.
  std::size_t openers = 0;
  for (const char c : text) openers += static_cast<std::size_t>((c == '.') | (c == '[') | (c == '{'));
  if (openers + 2 <= max_depth) return std::nullopt;
  auto offset = NestingScanner(text, max_depth).run();
  if (!offset) return std::nullopt;
  Position position{1, 1};
  for (std::size_t i = 0; i < *offset; ++i) {
    if (text[i] == '\n') {
      ++position.line;
      position.column = 1;
    } else {
      ++position.column;
    }
  }
  return NestingExcess{position, *offset};
}

namespace {

/// toml++ reports a string left open where it gives up: at the end of its line, as a
/// control character in a string, or at the end of the file for a multi-line one. When the
/// first string of `text` that does not close opens before `error`'s position, the error is
/// rewritten to point at its opening quote and say so.
void unclosed_string_error(std::string_view text, TomlError& error) {
  std::size_t at = 0;
  while ((at = find_any_of(text, at, '"', '\'', '#')) < text.size()) {
    if (text[at] == '#') {  // a comment, to its line's end
      at = text.find('\n', at);
      if (at == std::string_view::npos) return;
      continue;
    }
    const std::size_t opening = at;
    if (skip_toml_string(text, at)) continue;
    const std::size_t line_break = opening == 0 ? std::string_view::npos : text.rfind('\n', opening - 1);
    const std::size_t line_start = line_break == std::string_view::npos ? 0 : line_break + 1;
    const auto line = static_cast<std::uint32_t>(1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(opening), '\n'));
    const toml::source_position open{line, code_point_column(text.substr(line_start, opening - line_start + 1),
                                                              static_cast<std::uint32_t>(opening - line_start + 1))};
    if (!(open < error.source.begin)) return;  // the error comes before the string
    const char quote = text[opening];
    const std::string_view delimiter = text.substr(opening, 3);
    const bool multi_line = delimiter == (quote == '"' ? std::string_view("\"\"\"") : std::string_view("'''"));
    const std::string_view kind = quote == '"' ? "" : "literal ";
    error.description =
        multi_line ? fmt::format("the multi-line {}string that opens here is not closed: end it with {}", kind, delimiter)
                   : fmt::format("the {}string that opens here is not closed: end it with {} on the same line", kind,
                                 quote);
    error.source.begin = error.source.end = open;
    return;
  }
}

}  // namespace

TomlResult parse_toml(std::string_view text, std::string_view path, bool* parsed_ascii) {
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
  if (auto excess = find_toml_nesting_excess(text, max_toml_depth)) {
    // toml++'s positions count code points (toml_span.hpp turns them back into bytes).
    const Position at = excess->position;
    const std::string_view line_before = text.substr(excess->offset - (at.column - 1), at.column - 1);
    const toml::source_position position{at.line, code_point_column(line_before, at.column)};
    return TomlError{fmt::format("nested deeper than {} levels (tables, arrays, inline tables), planlint's fixed "
                                 "limit for TOML files; a plan nests 3 levels",
                                 max_toml_depth),
                     toml::source_region{position, position,
                                         path.empty() ? nullptr : std::make_shared<const std::string>(path)}};
  }
  if (parsed_ascii) *parsed_ascii = is_ascii(text);
  toml::parse_result parsed = toml::parse(text, path);
  if (parsed) return TomlResult(std::move(parsed).table());
  TomlError error{std::string(parsed.error().description()), parsed.error().source()};
  unclosed_string_error(text, error);
  return error;
}

}  // namespace planlint
