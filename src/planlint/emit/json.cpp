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
                     {"replacement", edit.replacement},
                     // --fix applies a safe fix, --unsafe-fixes an unsafe one too.
                     {"safety", d.fix_safety == FixSafety::safe ? "safe" : "unsafe"}});
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

void JsonEmitter::add_file(const std::string& path) {
  json file = path;
  files_.append(",\n    " + json_text(file));
  ++file_count_;
}

void JsonEmitter::add_findings(const std::vector<Diagnostic>& diagnostics) {
  const std::vector<std::string> fingerprints =
      finding_fingerprints(diagnostics, options_.repository_root, options_.working_directory);
  std::string repository_file;  // of the finding before, findings being sorted by file
  for (std::size_t i = 0; i < diagnostics.size(); ++i) {
    const Diagnostic& d = diagnostics[i];
    if (i == 0 || d.primary.file != diagnostics[i - 1].primary.file)
      repository_file = path_in_repository(d.primary.file, options_.repository_root, options_.working_directory)
                            .value_or(d.primary.file);
    json entry = diagnostic_json(d, repository_file, fingerprints[i]);
    diagnostics_.append(",\n    " + json_indented(json_text(entry), 4));
  }
  counts_ += count(diagnostics);
}

void JsonEmitter::finish(const std::vector<RuleDescriptor>&) {
  json summary = {{"errors", counts_.errors},
                  {"warnings", counts_.warnings},
                  {"notes", counts_.notes},
                  {"suppressed", counts_.suppressed},
                  {"files", file_count_}};
  // An array put aside, in the place of its "[]": each entry after a ",\n" (the first's comma
  // left out).
  auto array = [&](Spool& entries) {
    if (entries.size() == 0) {
      out_ << "[]";
      return;
    }
    out_ << "[\n";
    entries.copy(out_, Spool::Piece{2, entries.size() - 2});
    out_ << "\n  ]";
  };
  out_ << "{\n  \"version\": 1,\n  \"files\": ";
  array(files_);
  out_ << ",\n  \"diagnostics\": ";
  array(diagnostics_);
  out_ << ",\n  \"summary\": " << json_indented(json_text(summary), 2) << "\n}\n";
}

void emit_json(std::ostream& out, const Report& report, const JsonOptions& options) {
  JsonEmitter emitter(out, options);
  for (const auto& file : report.files) emitter.add_file(file->path());
  emitter.add_findings(report.diagnostics);
  emitter.finish({});
}

}  // namespace planlint
