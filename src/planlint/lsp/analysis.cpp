#include "planlint/lsp/analysis.hpp"

#include <exception>

#include <fmt/format.h>

#include "planlint/catalog/catalog.hpp"
#include "planlint/diag/native_rules.hpp"
#include "planlint/lint/document.hpp"
#include "planlint/lint/findings_cap.hpp"
#include "planlint/lint/inputs.hpp"
#include "planlint/lsp/workspace.hpp"
#include "planlint/markdown/markdown.hpp"
#include "planlint/settings/settings.hpp"
#include "planlint/source/limits.hpp"
#include "planlint/source/toml_limits.hpp"

namespace planlint::lsp {

namespace {

/// A problem that kept the document from being linted, as a finding at its first line: an
/// editor has no stderr to show it on.
Diagnostic problem_at_top(const SourceFile& source, std::string rule, std::string message) {
  Diagnostic d;
  d.rule = std::move(rule);
  d.severity = Severity::error;
  d.message = std::move(message);
  d.primary = Location{source.path(), Span{{1, 1}, {1, static_cast<std::uint32_t>(source.line(1).size() + 1)}}};
  return d;
}

}  // namespace

const Catalog& Analysis::catalog() const { return settings ? *settings->lint.catalog : Catalog::builtin(); }

const DocumentPlan* Analysis::plan_at(std::uint32_t line) const {
  for (const DocumentPlan& plan : plans)
    if (plan.first_line <= line && line <= plan.last_line) return &plan;
  return nullptr;
}

bool is_markdown_document(const DocumentSnapshot& document) {
  if (document.path) return is_markdown_path(*document.path);
  return document.language_id == "markdown";
}

std::shared_ptr<const Analysis> analyse(const DocumentSnapshot& document, Workspace& workspace) {
  auto analysis = std::make_shared<Analysis>();
  analysis->version = document.version;
  analysis->markdown = is_markdown_document(document);
  analysis->text = document.text;
  // Findings name the file as `planlint check` given its absolute path would; an untitled
  // document by its URI.
  const std::string path = document.path.value_or(document.uri);
  const std::string& text = document.text.text();
  const WorkspaceOptions& options = workspace.options();
  if (text.size() > options.max_file_bytes) {
    // Not copied to be read: its one finding is about the whole document.
    analysis->source = std::make_shared<const SourceFile>(path, std::string());
    if (!analysis->markdown && !toml_holds_plan(text)) return analysis;
    Diagnostic d;
    d.rule = "file-size";
    d.message = fmt::format(
        "the document is {}, over the {} size limit: it is not linted (raise it with planlint lsp --max-file-size)",
        format_byte_size(text.size()), format_byte_size(options.max_file_bytes));
    d.primary = Location{path, Span{}};
    analysis->diagnostics.push_back(std::move(d));
    return analysis;
  }
  auto source = std::make_shared<const SourceFile>(path, text);
  analysis->source = source;
  // A TOML file without a top-level [plan] table (pyproject.toml, a config) is passed over, as
  // a folder search passes it over; one that is not valid TOML is linted, as `check` lints a
  // file it is given (its toml-syntax error); a Markdown doc lints its plan blocks, if any.
  if (!analysis->markdown && !toml_holds_plan(source->text()) && parse_toml(source->text())) return analysis;
  try {
    SettingsLookup lookup = workspace.settings_for(document.path);
    if (!lookup.settings) {
      // As `planlint check` stops with exit status 2: no finding is shown from settings that
      // are not the ones the config asks for.
      Diagnostic d = problem_at_top(*source, std::string(problem_kinds::config),
                                    lookup.config_path ? fmt::format("invalid config '{}': this document is not linted until it loads", *lookup.config_path)
                                                       : std::string("the rules or catalog do not load: this document is not linted"));
      for (const Diagnostic& problem : lookup.problems) {
        if (problem.primary.file.empty()) d.notes.push_back(problem.message);
        else d.related.push_back(RelatedLocation{problem.primary, problem.message});
      }
      analysis->diagnostics.push_back(std::move(d));
      return analysis;
    }
    analysis->settings = lookup.settings;
    analysis->limits = BatchLimits{options.max_file_bytes, options.max_plans_per_file, options.max_findings_per_file};
    FileOutput linted = lint_document(path, document.text.text(), *lookup.settings, analysis->limits);
    if (linted.error) {
      analysis->diagnostics.push_back(problem_at_top(*source, "planlint", linted.error->message));
      return analysis;
    }
    analysis->diagnostics = std::move(linted.diagnostics);
    std::erase_if(analysis->diagnostics, [](const Diagnostic& d) { return d.suppression.has_value(); });
    analysis->findings_not_shown =
        cap_findings(analysis->diagnostics, options.max_findings_per_file) + total(linted.findings_not_kept);
    analysis->diagnostics.shrink_to_fit();  // held while the document is open
    for (LintedPlan& plan : linted.plans)
      analysis->plans.push_back(DocumentPlan{plan.first_line, plan.last_line, std::move(plan.plan), std::move(plan.estimates),
                                             std::move(plan.stage_estimates), std::move(plan.corrected)});
  } catch (const std::exception& error) {
    analysis->diagnostics.push_back(problem_at_top(*source, "planlint", fmt::format("planlint could not lint this document: {}", error.what())));
  }
  return analysis;
}

}  // namespace planlint::lsp
