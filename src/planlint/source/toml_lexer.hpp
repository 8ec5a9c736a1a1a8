#pragma once
/// planlint's one TOML lexer: every scan of TOML text that toml++ does not make — comment bodies
/// removed before a parse, the input limits checked before one, the folder search's "holds a
/// plan" scan, suppression comments, the language server's completion and code actions, and the
/// positions inside strings — reads the text through it. It is lossless: the tokens tile the
/// text, comments and blanks included, and a string token decodes to the value toml++ reads
/// with a map from each decoded byte back to the file.
///
///     TomlLexer lexer(text);
///     for (TomlToken token = lexer.next(); token.kind != TomlTokenKind::end; token = lexer.next())
///       if (token.kind == TomlTokenKind::comment) use(token.text(text), token.line);
///
/// It never fails: any byte sequence lexes, in time linear in its length; what TOML forbids
/// (a control character, a key where a value belongs) still forms a token, and toml++ reports
/// it. Keys and values are told apart as TOML's grammar does, from the tokens before: after
/// `=` a value, after `{` or an inline table's `,` a key, at a statement's start a key or a
/// `[header]`.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace planlint {

enum class TomlTokenKind : std::uint8_t {
  end,            ///< after the last token: begin == end == the text's size
  whitespace,     ///< spaces and tabs, or the UTF-8 byte order mark that starts the text
  line_break,     ///< "\n" or "\r\n"
  comment,        ///< '#' up to its line break, which is not part of it
  bare,           ///< a bare key (`gpu`), or a value without quotes (`8`, `1.5e3`, `true`, `1979-05-27T07:32:00Z`)
  basic_string,   ///< "…"
  literal_string, ///< '…'
  multi_line_basic_string,    ///< """…"""
  multi_line_literal_string,  ///< '''…'''
  dot,            ///< the '.' between the parts of a dotted key
  equals,         ///< '='
  comma,          ///< ','
  header_open,    ///< the '[' or "[[" of a table header, at a statement's start
  header_close,   ///< its ']' or "]]"
  array_open,     ///< '[' of an array
  array_close,    ///< ']' of an array
  table_open,     ///< '{' of an inline table
  table_close,    ///< '}' of an inline table
};

struct TomlToken {
  TomlTokenKind kind = TomlTokenKind::end;
  bool key = false;     ///< a part of a key: a bare key, or a string in a key's place
  bool closed = true;   ///< a string that ends with its closing quotes (false: the line's or the text's end)
  std::uint32_t line = 0;  ///< 1-based line of `begin` (the lexer's first line is given)
  std::size_t begin = 0, end = 0;  ///< byte offsets in the text, end exclusive

  bool is_string() const {
    return kind >= TomlTokenKind::basic_string && kind <= TomlTokenKind::multi_line_literal_string;
  }
  bool is_multi_line_string() const {
    return kind == TomlTokenKind::multi_line_basic_string || kind == TomlTokenKind::multi_line_literal_string;
  }
  std::string_view text(std::string_view source) const { return source.substr(begin, end - begin); }
};

class TomlLexer {
 public:
  /// Lexes `text` from its start, whose line is `first_line` (a Markdown block's first line).
  explicit TomlLexer(std::string_view text, std::uint32_t first_line = 1) : text_(text), line_(first_line) {}

  /// The next token, or one of kind `end` when none is left.
  TomlToken next();

  /// The next comment or string token, or `end`: the same comments and strings next() finds
  /// (a '#' or a quote outside them starts one in every context), with what lies between them
  /// passed over without being split into tokens. For the scans that need only those: a lexer
  /// used this way is not used with next().
  TomlToken next_comment_or_string();

  /// The arrays and inline tables open at the lexer's position.
  std::size_t open_containers() const { return open_.size(); }
  /// Whether the innermost open container is an array (false: an inline table, or none).
  bool in_array() const { return !open_.empty() && open_.back() == '['; }

 private:
  TomlToken make(TomlTokenKind kind, std::size_t end, bool key = false);
  TomlToken string_token(bool key);

  std::string_view text_;
  std::size_t at_ = 0;
  std::uint32_t line_;
  std::size_t lines_counted_to_ = 0;  ///< next_comment_or_string: line_ is the line of this offset
  bool expect_key_ = true;            ///< a bare word here is a key, not a value
  bool statement_start_ = true;       ///< a '[' here opens a table header
  std::uint8_t header_ = 0;           ///< inside a header: 1 for '[', 2 for "[["
  std::vector<char> open_;            ///< '[' and '{' of the arrays and inline tables open
};

/// The value a string token stands for, as TOML reads it, and where each of its bytes comes
/// from in the file.
struct TomlStringValue {
  std::string text;
  /// A piece of the value: from byte `decoded` of `text` on, either copied from the file at
  /// `source` on (`verbatim`), or the bytes of the escape at `source` ("\t", "\u00E9").
  struct Piece {
    std::size_t decoded = 0, source = 0;
    bool verbatim = true;
  };
  std::vector<Piece> pieces;  ///< in order of `decoded` and of `source`
  std::size_t body_end = 0;   ///< the file offset of the closing quotes (the token's end when unclosed)

  /// The file offset of byte `decoded` of the value: its own place, or its escape's first
  /// byte; `body_end` from the value's size on.
  std::size_t source_offset(std::size_t decoded) const;
};

/// Decodes the string token `token` of `text` into `value`: escapes replaced, a multi-line
/// string's first line break and line-ending backslashes trimmed, "\r\n" read as "\n" in
/// multi-line strings, as toml++ does. False when TOML rejects the string (not closed, an
/// unknown escape, a control character): `value` then holds what was decoded up to there.
bool decode_toml_string(std::string_view text, const TomlToken& token, TomlStringValue& value);

/// The offset of the first of the bytes `a`, `b`, `c` at or after `at`, or the text's size.
/// Sixteen bytes per step (SSE2), else eight: most of a plan is none of the bytes a lexer
/// stops at.
std::size_t find_any_of(std::string_view text, std::size_t at, char a, char b, char c);

/// 0x80 in each byte of `word` that is zero, and 0 elsewhere (exact, unlike the shorter
/// `(v - 0x01..) & ~v & 0x80..`, which may also mark a 0x01 byte above a zero one).
constexpr std::uint64_t zero_bytes(std::uint64_t word) {
  constexpr std::uint64_t low7 = 0x7f7f7f7f7f7f7f7fu;
  return ~(((word & low7) + low7) | word | low7);
}

}  // namespace planlint
