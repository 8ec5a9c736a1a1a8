#include "planlint/emit/text.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <utility>


#include <fmt/format.h>
#include <fmt/ranges.h>

#include "planlint/diag/printable.hpp"
#include "planlint/source/column_cursor.hpp"
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

/// Whether `line` is printable ASCII and spaces only (no tab, no control character): shown as
/// it is, one terminal cell a byte, as most plan lines are.
bool is_plain_ascii(std::string_view line) {
  for (char c : line)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) return false;
  return true;
}

/// "file:line:column", as a finding's header and a related location show a place.
void append_place(std::string& out, std::string_view file, const Span& span,
                  const SourceFile* source, ColumnCursor& columns) {
  append_printable_path(out, file);
  out += ':';
  append_number(out, span.begin.line);
  out += ':';
  append_number(out, columns.shown(source, file, span.begin));
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
    const PrintableStep step = printable_step(line, i);
    if (step.escaped) {
      const std::size_t before = out.size();
      append_escape(out, line, i, step);
      cells += out.size() - before;  // an escape is ASCII: one cell a byte
    } else {
      out.append(line, i, step.bytes);
      cells += cell_width(step.code_point);
    }
    for (std::size_t k = 1; k < step.bytes; ++k) display_column.push_back(cells);
    i += step.bytes;
  }
  display_column.push_back(cells);
  return out;
}

/// A long line's excerpt: at most this many bytes of it, from this many before the span, so a
/// finding's output is bounded whatever the line (a 100 KB one-line array with a finding at
/// each element would otherwise print the whole line for each).
constexpr std::size_t snippet_max_bytes = 200;
constexpr std::size_t snippet_bytes_before = 60;

void write_snippet(std::string& out, const SourceFile& file, const Diagnostic& d,
                   const Painter& paint) {
  const Span& span = d.primary.span;
  if (!span.known() || span.begin.line > file.line_count()) return;
  std::string_view line = file.line(span.begin.line);
  std::size_t first = std::min<std::size_t>(span.begin.column - 1, line.size());
  std::size_t last = span.end.line == span.begin.line
                         ? std::min<std::size_t>(span.end.column - 1, line.size())
                         : line.size();
  // A long line is shown from a little before the span, "…" marking each cut (at a character's
  // first byte, never inside one).
  bool cut_front = false, cut_back = false;
  if (line.size() > snippet_max_bytes) {
    auto continuation = [&](std::size_t i) { return i < line.size() && (static_cast<unsigned char>(line[i]) & 0xC0) == 0x80; };
    std::size_t from = first > snippet_bytes_before ? first - snippet_bytes_before : 0;
    while (from > 0 && continuation(from)) --from;
    std::size_t to = std::min(line.size(), from + snippet_max_bytes);
    while (continuation(to)) ++to;
    cut_front = from > 0;
    cut_back = to < line.size();
    line = line.substr(from, to - from);
    first -= from;
    last = std::min(last - from, line.size());
  }
  append_number(out, span.begin.line, 5);
  out += " | ";
  if (cut_front) out += "\u2026";
  std::size_t begin = first, width = last > first ? last - first : 1;
  if (is_plain_ascii(line)) {
    out += line;  // one cell a byte: the line is shown as it is
  } else {
    std::vector<std::size_t> column;
    out += shown_line(line, column);
    begin = column[first];
    width = last > first ? std::max<std::size_t>(column[last] - begin, 1) : 1;
  }
  if (cut_back) out += "\u2026";
  if (cut_front) ++begin;  // the "…" before the excerpt takes one cell
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
  append_printable(out, text);
}

std::string plural(std::size_t n, std::string_view word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

/// Appends one finding: its header line, the source line with carets under the span (when
/// `file` holds it), then its related locations, notes and help.
void append_finding(std::string& text, const Diagnostic& d, const SourceFile* file, const Painter& paint,
                    ColumnCursor& columns, ColumnCursor& related_columns, bool concise = false) {
  const Span& span = d.primary.span;
  paint.open(text, bold);
  append_place(text, d.primary.file, span, file, columns);
  text += ':';
  paint.close(text);
  text += ' ';
  paint.open(text, severity_colour(d.severity));
  text += to_string(d.severity);
  text += ':';
  paint.close(text);
  text += ' ';
  paint.open(text, bold);
  append_printable(text, d.message);
  paint.close(text);
  text += " [";
  text += d.rule;
  text += "]\n";
  if (concise) return;
  if (file != nullptr) write_snippet(text, *file, d, paint);
  for (const RelatedLocation& related : d.related) {
    append_note(text, paint, "note:", severity_colour(Severity::note), related.message);
    text += " (";
    append_place(text, related.location.file, related.location.span, file, related_columns);
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

std::string concise_line(const Diagnostic& d, const SourceFile* source) {
  ColumnCursor columns, related_columns;
  std::string line;
  append_finding(line, d, source && d.primary.file == source->path() ? source : nullptr, Painter(false), columns,
                 related_columns, true);
  line.pop_back();  // the line break
  return line;
}

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
  ColumnCursor columns, related_columns;  // findings' places and their notes' each move forward
  std::string text;  // one finding's lines, built in place and written at once
  for (const Diagnostic& d : report.diagnostics) {
    if (d.suppression) continue;
    text.clear();
    append_finding(text, d, report.file(d.primary.file), paint, columns, related_columns);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
  }
  const SeverityCounts counts = count(report.diagnostics);
  if (counts.shown() > 0) out << '\n';
  out << summary_line(counts, report.files.size()) << '\n';
}

void TextEmitter::file(const std::shared_ptr<const SourceFile>& source, std::vector<Diagnostic>& diagnostics) {
  const Painter paint(style_.color);
  ColumnCursor columns, related_columns;
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
    // Every finding of a linted file points into it; one elsewhere (or without a file: a
    // finding of another version, in `planlint diff`) shows no source line, as in emit_text.
    append_finding(text_, d, source && d.primary.file == source->path() ? source.get() : nullptr, paint, columns,
                   related_columns, style_.concise);
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
