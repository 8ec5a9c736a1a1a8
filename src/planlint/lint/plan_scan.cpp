// The folder search's "holds a plan" scan (scan_for_plan_table, lint/inputs.hpp): the lexer's
// tokens read statement by statement, as far as needed to answer, without a parse.
#include "planlint/lint/inputs.hpp"
#include "planlint/source/toml_lexer.hpp"

namespace planlint {

namespace {

/// Every helper returns false for what it does not read (the scan is then unsure).
class PlanScanner {
 public:
  explicit PlanScanner(std::string_view text) : text_(text), lexer_(text) {}

  PlanScan run() {
    bool at_root = true;  // no table header yet: keys belong to the root table
    while (true) {
      const TomlToken token = next_solid();
      switch (token.kind) {
        case TomlTokenKind::end: return PlanScan::no;
        case TomlTokenKind::line_break: continue;
        case TomlTokenKind::header_open: {
          const bool array = token.end - token.begin == 2;
          KeyPath key;
          const TomlToken close = key_path(next_solid(), key);
          if (!key.parts || close.kind != TomlTokenKind::header_close ||
              close.end - close.begin != token.end - token.begin || !end_of_line())
            return PlanScan::unsure;
          if (key.first_is_plan) return array && key.parts == 1 ? PlanScan::no : PlanScan::yes;
          at_root = false;
          break;
        }
        default: {
          KeyPath key;
          if (key_path(token, key).kind != TomlTokenKind::equals || !key.parts) return PlanScan::unsure;
          const TomlToken value = next_solid();
          if (at_root && key.first_is_plan) {
            if (key.parts > 1) return PlanScan::yes;  // plan.x = ...: a dotted key makes a table
            return value.kind == TomlTokenKind::table_open ? PlanScan::yes : PlanScan::no;
          }
          if (!skip_value(value)) return PlanScan::unsure;
        }
      }
    }
  }

 private:
  struct KeyPath {
    bool first_is_plan = false;
    std::size_t parts = 0;
  };

  /// The next token that is not blanks or a comment.
  TomlToken next_solid() {
    TomlToken token = lexer_.next();
    while (token.kind == TomlTokenKind::whitespace || token.kind == TomlTokenKind::comment) token = lexer_.next();
    return token;
  }

  /// Whether `token` is a key part the scan reads (bare, "basic" without escapes, or
  /// 'literal'), and `is_plan` when it is `plan`.
  bool simple_key(const TomlToken& token, bool& is_plan) const {
    if (!token.key) return false;
    std::string_view name = token.text(text_);
    if (token.kind == TomlTokenKind::bare) {
      for (const char c : name)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
          return false;
    } else if (token.kind == TomlTokenKind::basic_string || token.kind == TomlTokenKind::literal_string) {
      if (!token.closed) return false;
      name = name.substr(1, name.size() - 2);
      // An escape could spell "plan" (\u0070lan): the parse decides then.
      if (token.kind == TomlTokenKind::basic_string && name.find('\\') != std::string_view::npos) return false;
    } else {
      return false;
    }
    is_plan = name == "plan";
    return true;
  }

  /// A dotted key from `token` on: key (. key)*; returns the token after it.
  TomlToken key_path(TomlToken token, KeyPath& key) {
    while (true) {
      bool is_plan = false;
      if (!simple_key(token, is_plan)) return token;
      if (key.parts++ == 0) key.first_is_plan = is_plan;
      token = next_solid();
      if (token.kind != TomlTokenKind::dot) return token;
      token = next_solid();
    }
  }

  /// Blanks, a comment, then the line's end (or the text's).
  bool end_of_line() {
    const TomlToken token = next_solid();
    return token.kind == TomlTokenKind::line_break || token.kind == TomlTokenKind::end;
  }

  /// The value from `token` on: to the end of its line, or of its last line for an array or
  /// inline table over several.
  bool skip_value(TomlToken token) {
    if (token.kind == TomlTokenKind::line_break || token.kind == TomlTokenKind::end) return false;  // no value
    int depth = 0;
    for (;; token = lexer_.next()) {
      switch (token.kind) {
        case TomlTokenKind::end: return depth == 0;
        case TomlTokenKind::line_break:
          if (depth == 0) return true;
          break;
        case TomlTokenKind::array_open:
        case TomlTokenKind::table_open: ++depth; break;
        case TomlTokenKind::array_close:
        case TomlTokenKind::table_close:
          if (--depth < 0) return false;
          break;
        default:
          if (token.is_string() && !token.closed) return false;
      }
    }
  }

  std::string_view text_;
  TomlLexer lexer_;
};

}  // namespace

PlanScan scan_for_plan_table(std::string_view text) { return PlanScanner(text).run(); }

}  // namespace planlint
