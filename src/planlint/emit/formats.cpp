#include "planlint/emit/formats.hpp"

#include "planlint/emit/format_rows.hpp"
#include "planlint/emit/github.hpp"
#include "planlint/emit/gitlab.hpp"
#include "planlint/emit/json.hpp"
#include "planlint/emit/junit.hpp"

namespace planlint {

namespace {

const OutputFormat formats[] = {
    {"text", "full", true, false,
     [](std::ostream& out, const EmitterSettings& settings) -> std::unique_ptr<Emitter> {
       return std::make_unique<TextEmitter>(out, settings.style);
     }},
    {"concise", {}, true, false,
     [](std::ostream& out, const EmitterSettings& settings) -> std::unique_ptr<Emitter> {
       TextStyle style = settings.style;
       style.concise = true;
       return std::make_unique<TextEmitter>(out, style);
     }},
    {"sarif", {}, false, true,
     [](std::ostream& out, const EmitterSettings& settings) -> std::unique_ptr<Emitter> {
       return std::make_unique<SarifEmitter>(
           out, SarifOptions{settings.repository_root, settings.working_directory, settings.sarif_max_results,
                             settings.docs_url, settings.automation_id});
     }},
    {"json", {}, false, false,
     [](std::ostream& out, const EmitterSettings& settings) -> std::unique_ptr<Emitter> {
       return std::make_unique<JsonEmitter>(out, JsonOptions{settings.repository_root, settings.working_directory});
     }},
    {"github", {}, true, false,
     [](std::ostream& out, const EmitterSettings& settings) -> std::unique_ptr<Emitter> {
       return std::make_unique<GithubEmitter>(out,
                                              GithubPaths{settings.repository_root, settings.working_directory});
     }},
    {"gitlab", {}, true, false,
     [](std::ostream& out, const EmitterSettings& settings) -> std::unique_ptr<Emitter> {
       return std::make_unique<GitlabEmitter>(out, RepositoryPaths{settings.repository_root, settings.working_directory});
     }},
    {"junit", {}, true, false,
     [](std::ostream& out, const EmitterSettings& settings) -> std::unique_ptr<Emitter> {
       return std::make_unique<JunitEmitter>(out, RepositoryPaths{settings.repository_root, settings.working_directory},
                                             junit_timestamp_now());
     }},
};

}  // namespace

std::span<const OutputFormat> output_formats() { return formats; }

const OutputFormat* find_output_format(std::string_view name) {
  for (const OutputFormat& format : formats)
    if (format.name == name || (!format.alias.empty() && format.alias == name)) return &format;
  return nullptr;
}

std::vector<std::string> output_format_names() { return row_names<OutputFormat>(formats); }

std::vector<std::string> output_format_choices() {
  std::vector<std::string> choices = output_format_names();
  for (const OutputFormat& format : formats)
    if (!format.alias.empty()) choices.emplace_back(format.alias);
  return choices;
}

}  // namespace planlint
