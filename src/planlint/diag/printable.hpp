#pragma once
/// The one escaping policy for text planlint prints from its input (file names, keys, values,
/// a rule pack's messages and docs, a config's values), on either stream and in every format:
///
///     err << "planlint: error: cannot read '" << printable_path(name) << "'\n";
///     out << printable(plan_name);   // "a\x1b]0;x" prints as a\x1b]0;x, escaped
///
/// Shown escaped, never as they are:
/// - C0 controls (\t, \n, \r by name, the rest \xNN), DEL (\x7f) and C1 controls (\u0085, \u009b);
/// - bidirectional controls (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069: \u202e), which
///   reorder what a terminal or a browser shows around them;
/// - the line and paragraph separators U+2028 and U+2029 (\u2028), which some viewers break at;
/// - Unicode's noncharacters U+FDD0–U+FDEF and the last two code points of every plane (\ufffe,
///   \U0001ffff), which XML forbids (U+FFFE, U+FFFF) or discourages: an XHTML report or JUnit
///   file holding one would not be well-formed;
/// - each byte of a malformed UTF-8 sequence (\xff), so two names that differ in such bytes stay
///   distinct and nothing downstream substitutes U+FFFD for them.
/// Everything else, including every other non-ASCII character, is shown as it is.
#include <cstddef>
#include <string>
#include <string_view>

namespace planlint {

/// One character of a text as the policy sees it: `bytes` long, and whether it is shown
/// escaped.
struct PrintableStep {
  std::size_t bytes = 1;
  bool escaped = false;
  char32_t code_point = 0;  // the byte itself for a malformed sequence
};

/// The character at `text[i]` (i < text.size()).
PrintableStep printable_step(std::string_view text, std::size_t i);

/// Appends the escape of the character `step` describes at `text[i]` ("\x1b", "\u202e").
void append_escape(std::string& out, std::string_view text, std::size_t i, const PrintableStep& step);

/// Whether `text` prints as it is (no character the policy escapes).
bool is_printable(std::string_view text);

/// Appends `text` with every character the policy names escaped; runs without one are appended
/// whole.
void append_printable(std::string& out, std::string_view text);
std::string printable(std::string_view text);

/// Text of several lines (a rule's docs, a report): each line printable(), the line feeds kept.
std::string printable_lines(std::string_view text);

/// Text at the start of a printed line (a report's title): printable(), and a colon that begins
/// it shown as \x3a, so that no line starts a GitHub workflow command (`::error::`).
std::string printable_line_start(std::string_view text);

/// Input text as GitHub-flavoured Markdown shows it, in a table cell or a paragraph:
/// printable(), then HTML's `&`, `<` and `>` as entities and the characters that would start
/// Markdown syntax (`\`, backtick, `*`, `[`, `]`, `|`) backslash-escaped, so a plan's text can
/// add no link, image, HTML or code span to a pull-request comment. Line breaks show as <br>.
std::string markdown_text(std::string_view text);
/// Input text as a Markdown code span, fenced with one backtick more than the longest run of
/// backticks it holds (CommonMark 6.1), its pipes escaped for a table cell: `name`.
std::string markdown_code_span(std::string_view text);

/// `text` with each byte of a malformed UTF-8 sequence as \xNN and nothing else changed: for a
/// format that escapes characters its own way (JSON), so that two names differing in such bytes
/// stay distinct (nothing becomes U+FFFD).
std::string utf8_or_escaped(std::string_view text);
/// JSON text (valid UTF-8) with DEL, the C1 controls, bidirectional controls, line and
/// paragraph separators and noncharacters written as JSON escapes (\u007f, \u202e, \ufffe; a
/// surrogate pair above U+FFFF): the same strings to a JSON reader, and no raw control or
/// invisible character in the bytes a viewer shows. Such characters occur only inside JSON
/// strings, where \uXXXX is their escape.
std::string json_invisibles_escaped(std::string json);

/// A file name as it begins a printed line ("file:line:col: error: ..."): printable(), and a
/// colon that could end the name early (one at its start, which could begin a GitHub workflow
/// command `::error::`, or one before a digit or a blank, which a problem matcher could read as
/// the position's separator: `x:1:2: error: fake.toml`) is shown as \x3a.
void append_printable_path(std::string& out, std::string_view path);
std::string printable_path(std::string_view path);

}  // namespace planlint
