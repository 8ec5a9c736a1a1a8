// libFuzzer target: planlint's TOML lexer (source/toml_lexer.hpp) and the limit scan built on it
// (find_toml_limit_excess), on any bytes. Besides crashes and sanitizer reports it checks that
// - the tokens tile the input: each starts where the one before ends, none is empty, the last
//   ends at the input's end, and each token's line is the line of its first byte;
// - each token holds what its kind says (a comment starts with '#' and holds no line break, a
//   closed string ends with its quote, a bare word holds none of the bytes that end one);
// - next_comment_or_string() finds exactly the comments and strings next() finds;
// - each string's decoded value maps back into the string, in order, never past its end;
// - toml++ agrees on whether a string closes: a string the lexer leaves open does not parse as
//   a value, and one that parses decodes to the value toml++ reads;
// - on a document toml++ parses, every string closes and decodes, and the limit scan counts
//   at least the keys and array values toml++ built, and half its levels (limits.hpp).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include <toml++/toml.h>

#include "planlint/source/limits.hpp"
#include "planlint/source/toml_lexer.hpp"

using namespace planlint;

namespace {

[[noreturn]] void fail(const char* what, std::size_t offset) {
  std::fprintf(stderr, "fuzz_toml_lexer: %s (at byte %zu)\n", what, offset);
  std::abort();
}

void require(bool holds, const char* what, std::size_t offset) {
  if (!holds) fail(what, offset);
}

/// A token's bytes are what its kind says.
void check_kind(std::string_view text, const TomlToken& token) {
  const std::string_view bytes = token.text(text);
  const std::size_t at = token.begin;
  switch (token.kind) {
    case TomlTokenKind::whitespace:
      require(bytes.find_first_not_of(" \t") == std::string_view::npos || (at == 0 && bytes == "\xEF\xBB\xBF"),
              "whitespace holds other bytes", at);
      break;
    case TomlTokenKind::line_break: require(bytes == "\n" || bytes == "\r\n", "a line break is not one", at); break;
    case TomlTokenKind::comment:
      require(bytes.front() == '#' && bytes.find('\n') == std::string_view::npos, "a comment is not one", at);
      require(!(bytes.size() > 1 && bytes.back() == '\r' && token.end < text.size() && text[token.end] == '\n'),
              "a comment holds its line break's '\\r'", at);
      break;
    case TomlTokenKind::bare:
      for (std::size_t i = 0; i < bytes.size(); ++i) {
        const char c = bytes[i];
        require(std::string_view(" \t\n#\"'=[]{},").find(c) == std::string_view::npos, "a bare word holds a delimiter", at + i);
        require(!(c == '\r' && at + i + 1 < text.size() && text[at + i + 1] == '\n'), "a bare word holds a line break", at + i);
        require(!(token.key && c == '.'), "a key's bare word holds a dot", at + i);
      }
      break;
    case TomlTokenKind::dot: require(bytes == ".", "a dot is not one", at); break;
    case TomlTokenKind::equals: require(bytes == "=", "an equals sign is not one", at); break;
    case TomlTokenKind::comma: require(bytes == ",", "a comma is not one", at); break;
    case TomlTokenKind::header_open: require(bytes == "[" || bytes == "[[", "a header's opening is not one", at); break;
    case TomlTokenKind::header_close: require(bytes == "]" || bytes == "]]", "a header's closing is not one", at); break;
    case TomlTokenKind::array_open: require(bytes == "[", "an array's opening is not one", at); break;
    case TomlTokenKind::array_close: require(bytes == "]", "an array's closing is not one", at); break;
    case TomlTokenKind::table_open: require(bytes == "{", "an inline table's opening is not one", at); break;
    case TomlTokenKind::table_close: require(bytes == "}", "an inline table's closing is not one", at); break;
    default: {
      require(token.is_string(), "a token of no kind", at);
      const char quote = token.kind == TomlTokenKind::basic_string || token.kind == TomlTokenKind::multi_line_basic_string ? '"' : '\'';
      const std::size_t quotes = token.is_multi_line_string() ? 3 : 1;
      require(bytes.size() >= quotes && bytes.find_first_not_of(quote) >= quotes, "a string does not open with its quotes", at);
      if (token.closed)
        require(bytes.size() >= 2 * quotes && bytes.substr(bytes.size() - quotes).find_first_not_of(quote) == std::string_view::npos,
                "a closed string does not end with its quotes", at);
      if (!token.is_multi_line_string()) require(bytes.find('\n') == std::string_view::npos, "a one-line string holds a line break", at);
    }
  }
}

/// The decoded value of a string maps back into it, in order.
void check_decoding(std::string_view text, const TomlToken& token, const TomlStringValue& value) {
  require(value.body_end >= token.begin && value.body_end <= token.end, "the body ends outside the string", token.begin);
  std::size_t previous_decoded = 0, previous_source = token.begin;
  for (const TomlStringValue::Piece& piece : value.pieces) {
    require(piece.decoded >= previous_decoded && piece.decoded <= value.text.size(), "pieces out of order", token.begin);
    require(piece.source >= previous_source && piece.source < value.body_end, "a piece outside the string", token.begin);
    previous_decoded = piece.decoded;
    previous_source = piece.source;
  }
  std::size_t previous = token.begin;
  for (std::size_t d = 0; d <= value.text.size(); ++d) {
    const std::size_t source = value.source_offset(d);
    require(source >= previous && source <= value.body_end, "the decoded-offset map is not monotone or leaves the string",
            token.begin);
    // A byte copied as it is maps onto the same byte.
    if (d < value.text.size() && source < value.body_end && text[source] != '\\' && text[source] != '\r')
      require(text[source] == value.text[d] || value.text[d] == '\n', "a byte maps onto another", source);
    previous = source;
  }
}

/// toml++ reads the string `token` as the value of a key: it fails where the lexer leaves the
/// string open, and reads the lexer's decoded value where it succeeds.
void check_with_toml(std::string_view text, const TomlToken& token, bool decoded, const TomlStringValue& value) {
  const std::string document = "k = " + std::string(token.text(text)) + "\n";
  toml::parse_result parsed = toml::parse(document);
  if (!token.closed) require(!parsed, "toml++ reads a string the lexer leaves open", token.begin);
  if (!parsed) return;
  const std::optional<std::string> read = parsed.table()["k"].value<std::string>();
  require(read.has_value(), "toml++ reads the string as another value", token.begin);
  require(decoded, "toml++ reads a string the lexer does not decode", token.begin);
  require(*read == value.text, "the decoded value is not toml++'s", token.begin);
}

/// The deepest level of `node` (one for each table and array it is in) and its keys and
/// array values, counted into `nodes`.
std::size_t tree_depth(const toml::node& node, std::size_t& nodes) {
  std::size_t deepest = 0;
  if (const toml::table* table = node.as_table()) {
    for (const auto& entry : *table) {
      ++nodes;
      deepest = std::max(deepest, 1 + tree_depth(entry.second, nodes));
    }
  } else if (const toml::array* array = node.as_array()) {
    for (const toml::node& element : *array) {
      ++nodes;
      deepest = std::max(deepest, 1 + tree_depth(element, nodes));
    }
  }
  return deepest;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  std::vector<TomlToken> strings_and_comments;
  TomlLexer lexer(text);
  std::size_t at = 0, line = 1, checked_with_toml = 0;
  bool all_strings_decode = true;
  TomlStringValue value;
  for (TomlToken token = lexer.next();; token = lexer.next()) {
    require(token.begin == at, "a token does not start where the one before ends", at);
    require(token.line == line, "a token's line is not its first byte's", at);
    if (token.kind == TomlTokenKind::end) {
      require(token.end == size && at == size, "the tokens end before the text", at);
      break;
    }
    require(token.end > token.begin && token.end <= size, "an empty token, or one past the end", at);
    check_kind(text, token);
    if (token.kind == TomlTokenKind::comment || token.is_string()) strings_and_comments.push_back(token);
    if (token.is_string()) {
      const bool decoded = decode_toml_string(text, token, value);
      all_strings_decode = all_strings_decode && decoded;
      check_decoding(text, token, value);
      if (checked_with_toml++ < 4) check_with_toml(text, token, decoded, value);
    }
    line += static_cast<std::size_t>(std::count(text.begin() + static_cast<std::ptrdiff_t>(token.begin),
                                                text.begin() + static_cast<std::ptrdiff_t>(token.end), '\n'));
    at = token.end;
  }

  TomlLexer coarse(text);
  std::size_t index = 0;
  for (TomlToken token = coarse.next_comment_or_string(); token.kind != TomlTokenKind::end;
       token = coarse.next_comment_or_string(), ++index) {
    require(index < strings_and_comments.size(), "next_comment_or_string finds one more", token.begin);
    const TomlToken& full = strings_and_comments[index];
    require(token.kind == full.kind && token.begin == full.begin && token.end == full.end &&
                token.closed == full.closed && token.line == full.line,
            "next_comment_or_string finds another token than next()", token.begin);
  }
  require(index == strings_and_comments.size(), "next_comment_or_string finds fewer", size);

  // toml++ recurses once per level: it parses only what nests within planlint's limit.
  constexpr std::size_t unlimited = std::numeric_limits<std::size_t>::max();
  if (find_toml_limit_excess(text, TomlLimits{max_toml_depth, unlimited})) return 0;
  toml::parse_result parsed = toml::parse(text);
  if (!parsed) return 0;
  for (const TomlToken& token : strings_and_comments)
    require(!token.is_string() || token.closed, "a string of a valid document is left open", token.begin);
  require(all_strings_decode, "a string of a valid document does not decode", 0);
  std::size_t nodes = 0;
  const std::size_t depth = tree_depth(parsed.table(), nodes);
  if (depth > 1) {
    // A [header] part that names an array of tables is two levels the scan counts once.
    const auto excess = find_toml_limit_excess(text, TomlLimits{(depth + 1) / 2 - 1, unlimited});
    require(excess && excess->limit == TomlLimitExcess::Limit::depth,
            "the scan counts fewer than half the levels toml++ built", 0);
  }
  if (nodes > 0) {
    const auto excess = find_toml_limit_excess(text, TomlLimits{unlimited, nodes - 1});
    require(excess && excess->limit == TomlLimitExcess::Limit::nodes, "the scan counts fewer nodes than toml++ built", 0);
  }
  return 0;
}
