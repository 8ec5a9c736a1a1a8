#include "planlint/emit/github.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "planlint/diag/printable.hpp"
#include "planlint/emit/repository_path.hpp"
#include "planlint/source/column_cursor.hpp"

namespace planlint {

namespace {

std::string_view command_of(Severity severity) {
  switch (severity) {
    case Severity::error: return "error";
    case Severity::warning: return "warning";
    case Severity::note: return "notice";
  }
  return "warning";
}

}  // namespace

std::string github_escape_data(std::string_view text) {
  // CR and LF are the runner's own escapes (%0D, %0A: a line break inside the annotation); every
  // other character of the policy is printable()'s escape; then % is escaped, as the runner
  // decodes it.
  std::string out;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t end = std::min(text.find_first_of("\r\n", begin), text.size());
    for (char c : printable(text.substr(begin, end - begin))) {
      if (c == '%') out += "%25";
      else out += c;
    }
    if (end == text.size()) break;
    out += text[end] == '\r' ? "%0D" : "%0A";
    begin = end + 1;
  }
  return out;
}

std::string github_escape_property(std::string_view text) {
  // A property is input text whole (a file name, a pack's rule id): a line break in it is the
  // printable policy's \n, never the runner's.
  std::string out;
  for (char c : github_escape_data(printable(text))) {
    if (c == ':') out += "%3A";
    else if (c == ',') out += "%2C";
    else out += c;
  }
  return out;
}

namespace {

/// One finding's workflow command; nothing for a suppressed one.
/// Column cursors for a file's findings: their starts, their ends and their related places each
/// move forward on a line, mostly.
struct AnnotationColumns {
  ColumnCursor begin, end, related;
};

void write_annotation(std::ostream& out, const Diagnostic& d, const SourceFile* file, const GithubPaths& paths,
                      AnnotationColumns& columns) {
  if (d.suppression) return;
  const Span& span = d.primary.span;
  std::string properties = "file=" + github_escape_property(annotation_path(d.primary.file, paths));
  if (span.known()) {
    Position end = span.end.line == 0 ? span.begin : span.end;
    const std::uint32_t end_line = std::max(end.line, span.begin.line);
    // Columns only for a span on one line (the runner ignores them otherwise); endColumn is
    // the last character, inclusive.
    if (end_line == span.begin.line) {
      const std::uint32_t column = columns.begin.shown(file, d.primary.file, span.begin);
      const std::uint32_t end_column = columns.end.shown(file, d.primary.file, end);
      properties += fmt::format(",line={},col={},endLine={},endColumn={}", span.begin.line,
                                column, end_line,
                                std::max(column, end_column > 1 ? end_column - 1 : 1));
    } else {
      properties += fmt::format(",line={},endLine={}", span.begin.line, end_line);
    }
  }
  properties += ",title=" + github_escape_property(d.rule);
  // Each part under the printable policy first, so that a line break from the input (a value
  // quoted in the message) shows as \n and cannot start a line of its own ("help: ..."); then
  // joined by planlint's own line breaks, which github_escape_data makes the runner's %0A.
  std::string message = printable(d.message);
  for (const RelatedLocation& related : d.related)
    // Named as the annotation names its file: from the repository root.
    message += fmt::format("\nnote: {} ({}:{}:{})", printable(related.message),
                           printable(annotation_path(related.location.file, paths)), related.location.span.begin.line,
                           columns.related.shown(file, related.location.file, related.location.span.begin));
  for (const std::string& note : d.notes) message += "\nnote: " + printable(note);
  if (d.help) message += "\nhelp: " + printable(*d.help);
  out << "::" << command_of(d.severity) << ' ' << properties << "::" << github_escape_data(message)
      << '\n';
}

}  // namespace

std::string annotation_path(const std::string& display_path, const GithubPaths& paths) {
  return path_in_repository(display_path, paths.repository_root, paths.working_directory).value_or(display_path);
}

void emit_github(std::ostream& out, const Report& report, const GithubPaths& paths) {
  AnnotationColumns columns;
  for (const Diagnostic& d : report.diagnostics) write_annotation(out, d, report.file(d.primary.file), paths, columns);
}

void GithubEmitter::file(const std::shared_ptr<const SourceFile>& source, std::vector<Diagnostic>& diagnostics) {
  AnnotationColumns columns;
  for (const Diagnostic& d : diagnostics) write_annotation(out_, d, source.get(), paths_, columns);
}

}  // namespace planlint
