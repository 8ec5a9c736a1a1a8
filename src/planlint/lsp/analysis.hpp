#pragma once
/// One version of an open document, linted as `planlint check` lints the file: the findings it
/// would report, and each plan of it with its estimates (what hover and completion read).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "planlint/diag/diagnostic.hpp"
#include "planlint/estimate/estimates.hpp"
#include "planlint/lint/batch.hpp"
#include "planlint/lsp/text_document.hpp"
#include "planlint/plan/plan.hpp"
#include "planlint/source/source_file.hpp"

namespace planlint {
struct Settings;
class Catalog;
}  // namespace planlint

namespace planlint::lsp {

class Workspace;

/// A plan of the document: the whole file, or one ```toml block of a Markdown doc.
struct DocumentPlan {
  std::uint32_t first_line = 1;  ///< the plan's lines in the document (1-based, inclusive)
  std::uint32_t last_line = 0;
  std::optional<Plan> plan;      ///< absent when the text is not valid TOML
  std::optional<Estimates> estimates;  ///< with provenance, as `planlint report` has them
  std::vector<Estimates> stage_estimates = {};  ///< of plan->stages, in order
  /// The estimates once the inputs the findings' fixes correct are in place (a sparse peak at
  /// the dense one), when a finding corrects one: what the hover shows, and says so.
  std::optional<CorrectedInputs> corrected = std::nullopt;
};

/// What a document's text says to the editor.
struct Analysis {
  std::int64_t version = 0;
  bool markdown = false;                     ///< a Markdown doc, whose plans are its ```toml blocks
  TextDocument text;                         ///< the editor's text that was linted
  std::shared_ptr<const SourceFile> source;  ///< the same text as planlint reads it
  /// The findings the editor shows, sorted: the suppressed ones left out, and at most
  /// --max-findings-per-file, the most severe.
  std::vector<Diagnostic> diagnostics;
  /// The findings over --max-findings-per-file, left out of `diagnostics`.
  std::size_t findings_not_shown = 0;
  std::vector<DocumentPlan> plans;
  /// The settings it was linted with (its config, rules and catalog); null when its config
  /// could not be loaded.
  std::shared_ptr<const Settings> settings;
  /// The limits it was linted within (planlint lsp's options), which "fix all" lints again with.
  BatchLimits limits;

  /// The catalog of the settings (the built-in one without them).
  const Catalog& catalog() const;
  /// The plan whose lines hold 1-based `line`, or null.
  const DocumentPlan* plan_at(std::uint32_t line) const;
};

/// A document to lint: what the store holds at one version.
struct DocumentSnapshot {
  std::string uri;
  std::optional<std::string> path;  ///< a `file:` URI's path; none for `untitled:` documents
  std::string language_id;
  std::int64_t version = 0;
  TextDocument text;
};

/// Lints `document` with the settings `workspace` finds for its path. Never throws: a problem
/// with its config, or an error of planlint's own, is a finding at the top of the document.
std::shared_ptr<const Analysis> analyse(const DocumentSnapshot& document, Workspace& workspace);

/// Whether a document is a Markdown capacity doc (by its path, else its language id).
bool is_markdown_document(const DocumentSnapshot& document);

}  // namespace planlint::lsp
