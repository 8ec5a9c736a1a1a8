#include "planlint/emit/text.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>  // x86-64 always has SSE2
#endif

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "planlint/source/columns.hpp"

namespace planlint {

namespace {

constexpr std::string_view reset = "\x1b[0m";
constexpr std::string_view bold = "\x1b[1m";

std::string_view severity_colour(Severity severity) {
  switch (severity) {
    case Severity::error: return "\x1b[1;31m";
    case Severity::warning: return "\x1b[1;33m";
    case Severity::note: return "\x1b[1;36m";
  }
  return "";
}

/// Appends `n` in decimal, right-aligned in `width` columns: fmt's "{:>W}" without parsing a
/// format string for each of the several numbers every finding shows.
void append_number(std::string& out, std::size_t n, std::size_t width = 0) {
  char digits[20];
  const auto end = std::to_chars(digits, digits + sizeof digits, n).ptr;
  const auto size = static_cast<std::size_t>(end - digits);
  if (size < width) out.append(width - size, ' ');
  out.append(digits, size);
}

bool is_control(char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }

/// Whether `text` holds a C1 control character (U+0080 to U+009F, in UTF-8 0xC2 0x80-0x9F) at `i`.
bool is_c1_at(std::string_view text, std::size_t i) {
  return static_cast<unsigned char>(text[i]) == 0xC2 && i + 1 < text.size() &&
         static_cast<unsigned char>(text[i + 1]) >= 0x80 && static_cast<unsigned char>(text[i + 1]) <= 0x9F;
}

/// Whether any of the eight bytes at `p` is_control or could start a C1 character (bit tricks:
/// a byte below 0x20, a byte equal to 0x7f or 0xc2). Never misses one; a chunk it flags is
/// looked at byte by byte anyway.
bool has_control(const char* p) {
  constexpr std::uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
  std::uint64_t word;
  std::memcpy(&word, p, sizeof word);
  const std::uint64_t below_space = (word - ones * 0x20) & ~word & highs;
  const std::uint64_t del = word ^ (ones * 0x7f);
  const std::uint64_t is_del = (del - ones) & ~del & highs;
  const std::uint64_t c2 = word ^ (ones * 0xc2);
  const std::uint64_t is_c2 = (c2 - ones) & ~c2 & highs;
  return (below_space | is_del | is_c2) != 0;
}

/// Whether `line` is printable ASCII and spaces only (no tab, no control character): shown as
/// it is, one terminal cell a byte, as most plan lines are.
bool is_plain_ascii(std::string_view line) {
  if (!is_ascii(line)) return false;
  std::size_t i = 0;
  for (; line.size() - i >= 8; i += 8)
    if (has_control(line.data() + i)) return false;
  for (; i < line.size(); ++i)
    if (is_control(line[i])) return false;
  return true;
}

/// Appends control character `c` escaped: \n, \r, \t, else \xNN.
void append_escaped(std::string& out, char c) {
  if (c == '\n') out += "\\n";
  else if (c == '\r') out += "\\r";
  else if (c == '\t') out += "\\t";
  else fmt::format_to(std::back_inserter(out), "\\x{:02x}", static_cast<unsigned char>(c));
}

/// Appends the C1 character whose second UTF-8 byte is `second`, escaped: \u009b.
void append_escaped_c1(std::string& out, char second) {
  fmt::format_to(std::back_inserter(out), "\\u{:04x}", static_cast<unsigned char>(second));
}

/// Keeps one finding's header on one line, and the terminal out of a file's hands: control
/// characters (a newline inside a quoted key or a file name, a parser message that quotes the
/// end of a line, an escape sequence) are shown escaped. Appends to `out` the runs between
/// control characters whole: most texts have none.
void append_one_line(std::string& out, std::string_view text) {
  std::size_t begin = 0;
  std::size_t i = 0;
#if defined(__SSE2__)
  // Sixteen bytes a step up to the first that may need an escape (the texts are mostly clean).
  {
    const __m128i space = _mm_set1_epi8(0x20), minus_one = _mm_set1_epi8(-1);
    const __m128i del = _mm_set1_epi8(0x7f), c2 = _mm_set1_epi8(static_cast<char>(0xc2));
    for (; text.size() - i >= 16; i += 16) {
      const __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + i));
      // Signed compares: bytes of 0x80 and above are negative, and not "below 0x20".
      const __m128i below_space = _mm_and_si128(_mm_cmplt_epi8(block, space), _mm_cmpgt_epi8(block, minus_one));
      const __m128i flagged =
          _mm_or_si128(below_space, _mm_or_si128(_mm_cmpeq_epi8(block, del), _mm_cmpeq_epi8(block, c2)));
      if (_mm_movemask_epi8(flagged) != 0) break;
    }
  }
#endif
  while (i < text.size()) {
    // Skip eight bytes at a time while none is a control character (the usual case).
    if (text.size() - i >= 8 && !has_control(text.data() + i)) {
      i += 8;
      continue;
    }
    const char c = text[i];
    if (is_control(c)) {
      out.append(text, begin, i - begin);
      append_escaped(out, c);
      begin = ++i;
    } else if (is_c1_at(text, i)) {
      out.append(text, begin, i - begin);
      append_escaped_c1(out, text[i + 1]);
      begin = i += 2;
    } else {
      ++i;
    }
  }
  out.append(text, begin, text.size() - begin);
}

/// "file:line:column", as a finding's header and a related location show a place.
void append_place(std::string& out, std::string_view file, const Span& span,
                  const SourceFile* source) {
  append_one_line(out, file);
  out += ':';
  append_number(out, span.begin.line);
  out += ':';
  append_number(out, shown_column(source, file, span.begin));
}

class Painter {
 public:
  explicit Painter(bool enabled) : enabled_(enabled) {}
  /// The colour before and the reset after text appended in between (nothing when disabled).
  void open(std::string& out, std::string_view colour) const {
    if (enabled_) out += colour;
  }
  void close(std::string& out) const {
    if (enabled_) out += reset;
  }

 private:
  bool enabled_;
};

/// How many terminal cells code point `c` takes: 2 for the East Asian wide and fullwidth
/// characters (CJK, Hangul, fullwidth forms, emoji), 0 for combining marks and zero-width
/// characters, 1 for the rest. An approximation of wcwidth that needs no locale.
std::size_t cell_width(char32_t c) {
  struct Range {
    char32_t first, last;
  };
  static constexpr Range zero[] = {{0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD},
                                   {0x1AB0, 0x1AFF}, {0x1DC0, 0x1DFF}, {0x200B, 0x200F},
                                   {0x20D0, 0x20FF}, {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F}};
  static constexpr Range wide[] = {
      {0x1100, 0x115F},   {0x231A, 0x231B},   {0x2329, 0x232A},   {0x23E9, 0x23EC},
      {0x25FD, 0x25FE},   {0x2614, 0x2615},   {0x2648, 0x2653},   {0x26A1, 0x26A1},
      {0x26AA, 0x26AB},   {0x26BD, 0x26BE},   {0x26C4, 0x26C5},   {0x26CE, 0x26CE},
      {0x26D4, 0x26D4},   {0x26EA, 0x26EA},   {0x26F2, 0x26F5},   {0x26FA, 0x26FD},
      {0x2705, 0x2705},   {0x270A, 0x270B},   {0x2728, 0x2728},   {0x274C, 0x274C},
      {0x2753, 0x2755},   {0x2757, 0x2757},   {0x2795, 0x2797},   {0x27B0, 0x27B0},
      {0x2B1B, 0x2B1C},   {0x2B50, 0x2B50},   {0x2B55, 0x2B55},   {0x2E80, 0x303E},
      {0x3041, 0x33FF},   {0x3400, 0x4DBF},   {0x4E00, 0x9FFF},   {0xA000, 0xA4CF},
      {0xA960, 0xA97F},   {0xAC00, 0xD7A3},   {0xF900, 0xFAFF},   {0xFE10, 0xFE19},
      {0xFE30, 0xFE6F},   {0xFF00, 0xFF60},   {0xFFE0, 0xFFE6},   {0x16FE0, 0x16FE4},
      {0x17000, 0x18CFF}, {0x1B000, 0x1B2FF}, {0x1F004, 0x1F004}, {0x1F0CF, 0x1F0CF},
      {0x1F18E, 0x1F18E}, {0x1F191, 0x1F19A}, {0x1F200, 0x1F251}, {0x1F300, 0x1F64F},
      {0x1F680, 0x1F6FF}, {0x1F7E0, 0x1F7EB}, {0x1F90C, 0x1F9FF}, {0x1FA70, 0x1FAFF},
      {0x20000, 0x3FFFD}};
  auto in = [c](const auto& ranges) {
    for (const Range& range : ranges)
      if (c >= range.first && c <= range.last) return true;
    return false;
  };
  if (c < 0x300) return 1;
  if (in(zero)) return 0;
  return in(wide) ? 2 : 1;
}

/// The code point of the UTF-8 sequence at `line[i]` and its length in bytes; a byte that
/// starts no valid sequence is one character of its own (a terminal shows one cell for it).
std::pair<char32_t, std::size_t> decode(std::string_view line, std::size_t i) {
  const auto lead = static_cast<unsigned char>(line[i]);
  const std::size_t length = lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : lead < 0xF8 ? 4 : 1;
  if (length == 1 || i + length > line.size()) return {lead, 1};
  char32_t c = lead & (0x7F >> length);
  for (std::size_t k = 1; k < length; ++k) {
    const auto next = static_cast<unsigned char>(line[i + k]);
    if ((next & 0xC0) != 0x80) return {lead, 1};
    c = (c << 6) | (next & 0x3F);
  }
  return {c, length};
}

/// The source line as shown: tabs expanded (to stops of 4 cells) and control characters
/// escaped as in append_one_line (a file's bytes never drive the terminal), so that carets line
/// up; returns the terminal cell of each byte: the cell a character starts at for its first
/// byte, the cell after it for the rest of its bytes (so a span's end, the byte after its last
/// character, maps right).
std::string shown_line(std::string_view line, std::vector<std::size_t>& display_column) {
  std::string out;
  display_column.clear();
  std::size_t cells = 0;
  for (std::size_t i = 0; i < line.size();) {
    display_column.push_back(cells);
    const char c = line[i];
    if (c == '\t') {
      const std::size_t spaces = 4 - cells % 4;
      out.append(spaces, ' ');
      cells += spaces;
      ++i;
      continue;
    }
    if (is_control(c) || is_c1_at(line, i)) {
      const std::size_t before = out.size();
      const std::size_t length = is_control(c) ? 1 : 2;
      if (length == 1) append_escaped(out, c);
      else append_escaped_c1(out, line[i + 1]);
      cells += out.size() - before;  // an escape is ASCII: one cell a byte
      if (length == 2) display_column.push_back(cells);
      i += length;
      continue;
    }
    const auto [code_point, length] = decode(line, i);
    out.append(line, i, length);
    cells += cell_width(code_point);
    for (std::size_t k = 1; k < length; ++k) display_column.push_back(cells);
    i += length;
  }
  display_column.push_back(cells);
  return out;
}

void write_snippet(std::string& out, const SourceFile& file, const Diagnostic& d,
                   const Painter& paint) {
  const Span& span = d.primary.span;
  if (!span.known() || span.begin.line > file.line_count()) return;
  std::string_view line = file.line(span.begin.line);
  std::size_t first = std::min<std::size_t>(span.begin.column - 1, line.size());
  std::size_t last = span.end.line == span.begin.line
                         ? std::min<std::size_t>(span.end.column - 1, line.size())
                         : line.size();
  append_number(out, span.begin.line, 5);
  out += " | ";
  std::size_t begin = first, width = last > first ? last - first : 1;
  if (is_plain_ascii(line)) {
    out += line;  // one cell a byte: the line is shown as it is
  } else {
    std::vector<std::size_t> column;
    out += shown_line(line, column);
    begin = column[first];
    width = last > first ? std::max<std::size_t>(column[last] - begin, 1) : 1;
  }
  out += "\n      | ";
  out.append(begin, ' ');
  paint.open(out, severity_colour(d.severity));
  out.append(width, '^');
  paint.close(out);
  out += '\n';
}

/// A note line: "   note: <text>" (the text on one line), without the line break.
void append_note(std::string& out, const Painter& paint, std::string_view label,
                 std::string_view colour, std::string_view text) {
  out += "   ";
  paint.open(out, colour);
  out += label;
  paint.close(out);
  out += ' ';
  append_one_line(out, text);
}

std::string plural(std::size_t n, std::string_view word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

/// Appends one finding: its header line, the source line with carets under the span (when
/// `file` holds it), then its related locations, notes and help.
void append_finding(std::string& text, const Diagnostic& d, const SourceFile* file, const Painter& paint,
                    bool concise = false) {
  const Span& span = d.primary.span;
  paint.open(text, bold);
  append_place(text, d.primary.file, span, file);
  text += ':';
  paint.close(text);
  text += ' ';
  paint.open(text, severity_colour(d.severity));
  text += to_string(d.severity);
  text += ':';
  paint.close(text);
  text += ' ';
  paint.open(text, bold);
  append_one_line(text, d.message);
  paint.close(text);
  text += " [";
  text += d.rule;
  text += "]\n";
  if (concise) return;
  if (file != nullptr) write_snippet(text, *file, d, paint);
  for (const RelatedLocation& related : d.related) {
    append_note(text, paint, "note:", severity_colour(Severity::note), related.message);
    text += " (";
    append_place(text, related.location.file, related.location.span, file);
    text += ")\n";
  }
  for (const std::string& note : d.notes) {
    append_note(text, paint, "note:", severity_colour(Severity::note), note);
    text += '\n';
  }
  if (d.help) {
    append_note(text, paint, "help:", "\x1b[1;32m", *d.help);
    text += '\n';
  }
}

}  // namespace

std::string summary_line(const SeverityCounts& counts, std::size_t files) {
  std::vector<std::string> parts;
  if (counts.errors) parts.push_back(plural(counts.errors, "error"));
  if (counts.warnings) parts.push_back(plural(counts.warnings, "warning"));
  if (counts.notes) parts.push_back(plural(counts.notes, "note"));
  std::string findings = parts.empty() ? "no problems" : fmt::format("{}", fmt::join(parts, ", "));
  std::string line = fmt::format("{} in {}", findings, plural(files, "file"));
  if (counts.suppressed) line += fmt::format(" ({} suppressed)", counts.suppressed);
  return line;
}

std::string summary_line(const Report& report) {
  return summary_line(count(report.diagnostics), report.files.size());
}

void emit_text(std::ostream& out, const Report& report, const TextStyle& style) {
  const Painter paint(style.color);
  std::string text;  // one finding's lines, built in place and written at once
  for (const Diagnostic& d : report.diagnostics) {
    if (d.suppression) continue;
    text.clear();
    append_finding(text, d, report.file(d.primary.file), paint);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
  }
  const SeverityCounts counts = count(report.diagnostics);
  if (counts.shown() > 0) out << '\n';
  out << summary_line(counts, report.files.size()) << '\n';
}

void TextEmitter::file(const std::shared_ptr<const SourceFile>& source, std::vector<Diagnostic>& diagnostics) {
  const Painter paint(style_.color);
  ++files_;
  counts_ += count(diagnostics);
  for (const Diagnostic& d : diagnostics) {
    if (d.suppression) continue;
    if (style_.statistics) {
      auto [entry, added] = per_rule_.try_emplace(d.rule, 0, d.severity);
      ++entry->second.first;
      entry->second.second = std::max(entry->second.second, d.severity);
      continue;
    }
    text_.clear();
    // Every finding of a linted file points into it; one elsewhere shows no source line, as
    // in emit_text, where the report holds no file of that path.
    append_finding(text_, d, d.primary.file == source->path() ? source.get() : nullptr, paint, style_.concise);
    out_.write(text_.data(), static_cast<std::streamsize>(text_.size()));
  }
}

void TextEmitter::finish(const std::vector<RuleDescriptor>&) {
  if (style_.statistics) {
    // The rules with the most findings first, as ruff --statistics lists them.
    std::vector<std::pair<std::string_view, std::pair<std::size_t, Severity>>> rows(per_rule_.begin(), per_rule_.end());
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second.first > b.second.first; });
    std::size_t width = 1;
    for (const auto& row : rows) width = std::max(width, fmt::formatted_size("{}", row.second.first));
    for (const auto& [rule, counted] : rows)
      out_ << fmt::format("{:>{}}  {:<7}  {}\n", counted.first, width, to_string(counted.second), rule);
  }
  if (style_.quiet) return;
  if (counts_.shown() > 0 && (!style_.concise || style_.statistics)) out_ << '\n';
  out_ << summary_line(counts_, files_) << '\n';
}

}  // namespace planlint
