#include "planlint/emit/json.hpp"

#include <nlohmann/json.hpp>

#include "planlint/emit/json_text.hpp"

#include "planlint/emit/fingerprint.hpp"
#include "planlint/emit/repository_path.hpp"

namespace planlint {

namespace {

using json = nlohmann::ordered_json;

/// A location without a span (a baseline file, which is where a finding's acceptance is) is
/// its file's start, 1:1, as in SARIF: every output counts lines and columns from 1.
json position(const Location& where) {
  const Position at = where.span.known() ? where.span.begin : Position{1, 1};
  return {{"file", where.file}, {"line", at.line}, {"column", at.column}};
}

json diagnostic_json(const Diagnostic& d, const std::string& repository_file, const std::string& fingerprint) {
  const Span& span = d.primary.span;
  json out = {{"rule", d.rule},
              {"level", to_string(d.severity)},
              {"message", d.message},
              {"file", d.primary.file},
              {"repository_file", repository_file},
              {"line", span.begin.line},
              {"column", span.begin.column},
              {"end_line", span.end.line},
              {"end_column", span.end.column},
              {"key", d.key_path},
              {"fingerprint", fingerprint},
              {"notes", d.notes},
              {"help", d.help ? json(*d.help) : json(nullptr)}};
  json related = json::array();
  for (const RelatedLocation& r : d.related) {
    json entry = position(r.location);
    entry["message"] = r.message;
    related.push_back(std::move(entry));
  }
  out["related"] = std::move(related);
  json fixes = json::array();
  for (const FixEdit& edit : d.fixes) {
    const Span& at = edit.location.span;
    fixes.push_back({{"file", edit.location.file},
                     {"line", at.begin.line},
                     {"column", at.begin.column},
                     {"end_line", at.end.line},
                     {"end_column", at.end.column},
                     {"replacement", edit.replacement}});
  }
  out["fixes"] = std::move(fixes);
  out["suppressed"] = d.suppression.has_value();
  if (d.suppression) {
    const Suppression& s = *d.suppression;
    json suppression = {{"kind", s.kind == Suppression::Kind::inline_comment ? "inline" : "baseline"},
                        {"justification", s.justification}};
    if (!s.location.file.empty()) suppression["location"] = position(s.location);
    out["suppression"] = std::move(suppression);
  } else {
    out["suppression"] = nullptr;
  }
  return out;
}

}  // namespace

void emit_json(std::ostream& out, const Report& report, const JsonOptions& options) {
  json files = json::array();
  for (const auto& file : report.files) files.push_back(file->path());
  const std::vector<std::string> fingerprints =
      finding_fingerprints(report.diagnostics, options.repository_root, options.working_directory);
  json diagnostics = json::array();
  std::string repository_file;  // of the file before, findings being sorted by file
  for (std::size_t i = 0; i < report.diagnostics.size(); ++i) {
    const Diagnostic& d = report.diagnostics[i];
    if (i == 0 || d.primary.file != report.diagnostics[i - 1].primary.file)
      repository_file = path_in_repository(d.primary.file, options.repository_root, options.working_directory)
                            .value_or(d.primary.file);
    diagnostics.push_back(diagnostic_json(d, repository_file, fingerprints[i]));
  }
  const SeverityCounts counts = count(report.diagnostics);
  json log = {{"version", 1},
              {"files", std::move(files)},
              {"diagnostics", std::move(diagnostics)},
              {"summary",
               {{"errors", counts.errors},
                {"warnings", counts.warnings},
                {"notes", counts.notes},
                {"suppressed", counts.suppressed},
                {"files", report.files.size()}}}};
  out << json_text(log) << '\n';
}

}  // namespace planlint
