#include "planlint/lint/lint.hpp"

#include <algorithm>

#include "planlint/plan/loader.hpp"

namespace planlint {

namespace {

bool names(const std::vector<std::string>& list, std::string_view rule, std::string_view group) {
  return std::any_of(list.begin(), list.end(), [&](const std::string& entry) {
    return entry == "all" || entry == rule || entry == group;
  });
}

}  // namespace

std::optional<Severity> effective_severity(const RuleSelection& selection, std::string_view rule,
                                           std::string_view group, Severity default_severity) {
  if (!selection.select.empty() && !names(selection.select, rule, group)) return std::nullopt;
  if (names(selection.ignore, rule, group)) return std::nullopt;
  auto level = selection.severity.find(std::string(rule));
  if (level == selection.severity.end()) level = selection.severity.find(std::string(group));
  if (level == selection.severity.end()) return default_severity;
  if (level->second == "off") return std::nullopt;
  return parse_severity(level->second).value_or(default_severity);
}

FileResult lint_text(std::shared_ptr<const SourceFile> source, std::string_view toml_text,
                     const LintOptions& options) {
  LoadResult loaded = load_plan(source, *options.catalog, toml_text);
  FileResult result{std::move(source), std::move(loaded.plan), std::nullopt,
                    std::move(loaded.diagnostics)};
  if (result.plan) result.estimates = estimate(*result.plan, *options.catalog);
  std::stable_sort(result.diagnostics.begin(), result.diagnostics.end(), diagnostic_less);
  return result;
}

FileResult lint_source(std::shared_ptr<const SourceFile> source, const LintOptions& options) {
  std::string_view text = source->text();
  return lint_text(source, text, options);
}

}  // namespace planlint
