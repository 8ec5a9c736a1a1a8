#include "planlint/emit/gitlab.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "planlint/emit/fingerprint.hpp"
#include "planlint/emit/json_text.hpp"
#include "planlint/emit/repository_path.hpp"

namespace planlint {

namespace {

std::string_view gitlab_severity(Severity severity) {
  switch (severity) {
    case Severity::error: return "major";
    case Severity::warning: return "minor";
    case Severity::note: return "info";
  }
  return "minor";
}

}  // namespace

void GitlabEmitter::file(const std::shared_ptr<const SourceFile>&, std::vector<Diagnostic>& diagnostics) {
  // A fingerprint's ordinal counts the findings sharing its file, rule and key: all of them
  // are in this file's findings.
  const std::vector<std::string> fingerprints =
      finding_fingerprints(diagnostics, paths_.repository_root, paths_.working_directory);
  std::string text;
  for (std::size_t i = 0; i < diagnostics.size(); ++i) {
    const Diagnostic& d = diagnostics[i];
    if (d.suppression) continue;
    const std::string path =
        path_in_repository(d.primary.file, paths_.repository_root, paths_.working_directory).value_or(d.primary.file);
    nlohmann::ordered_json issue = {
        {"description", fmt::format("{} [{}]", d.message, d.rule)},
        {"check_name", d.rule},
        {"fingerprint", fingerprints[i]},
        {"severity", gitlab_severity(d.severity)},
        {"location", {{"path", path}, {"lines", {{"begin", std::max<std::uint32_t>(d.primary.span.begin.line, 1)}}}}}};
    text += first_ ? "[\n  " : ",\n  ";
    // As the JSON output writes strings: malformed bytes as \xff, invisible characters escaped.
    text += json_text(issue, -1);
    first_ = false;
  }
  out_ << text;
}

void GitlabEmitter::finish(const std::vector<RuleDescriptor>&) { out_ << (first_ ? "[]\n" : "\n]\n"); }

}  // namespace planlint
