#include "planlint/emit/formats.hpp"

#include <array>

#include <fmt/format.h>

#include "planlint/emit/github.hpp"
#include "planlint/emit/gitlab.hpp"
#include "planlint/emit/json.hpp"
#include "planlint/emit/junit.hpp"

namespace planlint {

namespace {

/// A format that writes one document of the whole report: held until the run ends.
class DocumentEmitter final : public Emitter {
 public:
  using Write = std::vector<std::string> (*)(std::ostream& out, const Report& report,
                                             const std::vector<RuleDescriptor>& rules,
                                             const EmitterSettings& settings);
  DocumentEmitter(std::ostream& out, const EmitterSettings& settings, Write write)
      : out_(out), settings_(settings), write_(write) {}

  void file(const std::shared_ptr<const SourceFile>& source, std::vector<Diagnostic>& diagnostics) override {
    collector_.file(source, diagnostics);
  }
  void finish(const std::vector<RuleDescriptor>& rules) override {
    collector_.finish(rules);
    warnings_ = write_(out_, collector_.report(), rules, settings_);
  }
  std::vector<std::string> warnings() const override { return warnings_; }

 private:
  std::ostream& out_;
  EmitterSettings settings_;
  Write write_;
  ReportCollector collector_;
  std::vector<std::string> warnings_;
};

std::vector<std::string> write_sarif(std::ostream& out, const Report& report, const std::vector<RuleDescriptor>& rules,
                                     const EmitterSettings& settings) {
  const std::size_t left_out = emit_sarif(
      out, report, rules, SarifOptions{settings.repository_root, settings.working_directory, settings.sarif_max_results});
  if (left_out == 0) return {};
  const std::size_t findings = report.diagnostics.size();
  return {fmt::format(
      "planlint: warning: the SARIF log holds the {} most severe of {} findings ({} left out to keep "
      "within --sarif-max-results {}; GitHub code scanning rejects more than {}; 0 keeps all)",
      findings - left_out, findings, left_out, settings.sarif_max_results, SarifOptions::github_max_results)};
}

std::vector<std::string> write_json(std::ostream& out, const Report& report, const std::vector<RuleDescriptor>&,
                                    const EmitterSettings& settings) {
  emit_json(out, report, JsonOptions{settings.repository_root, settings.working_directory});
  return {};
}

const std::array<OutputFormat, 7> formats{{
    {"text", true, false,
     [](std::ostream& out, const EmitterSettings& settings) -> std::unique_ptr<Emitter> {
       return std::make_unique<TextEmitter>(out, settings.style);
     }},
    {"concise", true, false,
     [](std::ostream& out, const EmitterSettings& settings) -> std::unique_ptr<Emitter> {
       TextStyle style = settings.style;
       style.concise = true;
       return std::make_unique<TextEmitter>(out, style);
     }},
    {"sarif", false, true,
     [](std::ostream& out, const EmitterSettings& settings) -> std::unique_ptr<Emitter> {
       return std::make_unique<DocumentEmitter>(out, settings, write_sarif);
     }},
    {"json", false, false,
     [](std::ostream& out, const EmitterSettings& settings) -> std::unique_ptr<Emitter> {
       return std::make_unique<DocumentEmitter>(out, settings, write_json);
     }},
    {"github", true, false,
     [](std::ostream& out, const EmitterSettings& settings) -> std::unique_ptr<Emitter> {
       return std::make_unique<GithubEmitter>(out,
                                              GithubPaths{settings.repository_root, settings.working_directory});
     }},
    {"gitlab", true, false,
     [](std::ostream& out, const EmitterSettings& settings) -> std::unique_ptr<Emitter> {
       return std::make_unique<GitlabEmitter>(out, RepositoryPaths{settings.repository_root, settings.working_directory});
     }},
    {"junit", true, false,
     [](std::ostream& out, const EmitterSettings& settings) -> std::unique_ptr<Emitter> {
       return std::make_unique<JunitEmitter>(out, RepositoryPaths{settings.repository_root, settings.working_directory},
                                             junit_timestamp_now());
     }},
}};

}  // namespace

std::span<const OutputFormat> output_formats() { return formats; }

const OutputFormat* find_output_format(std::string_view name) {
  for (const OutputFormat& format : formats)
    if (format.name == name) return &format;
  return nullptr;
}

std::vector<std::string> output_format_names() {
  std::vector<std::string> names;
  for (const OutputFormat& format : formats) names.emplace_back(format.name);
  return names;
}

}  // namespace planlint
