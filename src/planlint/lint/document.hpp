#pragma once
/// One file's text linted as if it were on disk: what `planlint check FILE` would report if FILE
/// held `text` (its plan, or a Markdown doc's plan blocks; its inline suppressions applied),
/// with its plans and their estimates kept. An editor lints the text it holds this way.
///
///     FileOutput linted = lint_document("plans/a.toml", text, *settings, limits);
///     if (linted.error) ...        // a doc with more plans than the limit, an internal error
///     for (const Diagnostic& d : linted.diagnostics) ...
#include <string>

#include "planlint/lint/batch.hpp"

namespace planlint {

struct Settings;

/// Lints `text` as the file at `path` with `settings` (its config's, as SettingsCache or
/// make_settings makes them). FileOutput::plans holds each plan with its estimates, which hold
/// their provenance when `settings.lint.full_estimates` asks for it.
FileOutput lint_document(const std::string& path, std::string text, const Settings& settings,
                         const BatchLimits& limits);

}  // namespace planlint
