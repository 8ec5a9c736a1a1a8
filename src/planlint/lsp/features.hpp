#pragma once
/// The language features, each in its own file: what the server answers from an Analysis.
#include <string>

#include "planlint/lsp/analysis.hpp"
#include "planlint/lsp/jsonrpc.hpp"
#include "planlint/lsp/text_document.hpp"

namespace planlint::lsp {

/// What the client said it supports (initialize's capabilities) that changes an answer.
struct ClientSupport {
  bool related_information = false;  ///< Diagnostic.relatedInformation
  bool code_description = false;     ///< Diagnostic.codeDescription
  bool markdown_hover = false;        ///< Hover contents as MarkupKind markdown
  bool markdown_documentation = false;  ///< CompletionItem documentation as markdown
  bool document_changes = false;  ///< WorkspaceEdit.documentChanges (edits of one version)
};

class Positions;

/// One finding as an LSP Diagnostic (diagnostics.cpp).
json lsp_diagnostic(const Diagnostic& d, const std::string& uri, const Positions& positions,
                    const Analysis& analysis, const ClientSupport& client);

/// textDocument/publishDiagnostics's params for `analysis` (diagnostics.cpp): every finding
/// it shows, in the editor's positions, then one that says how many more there are over
/// `max_findings` (--max-findings-per-file).
json publish_diagnostics_params(const std::string& uri, const Analysis& analysis, const ClientSupport& client,
                                std::size_t max_findings);

/// textDocument/codeAction's result (code_actions.cpp): the fixes of the findings in `range`
/// (unsafe ones not preferred), for each a "suppress with a reason" comment, and "fix all"
/// (kind source.fixAll): every safe fix of the document, as `planlint check --fix` makes them.
json code_actions(const std::string& uri, const Analysis& analysis, LspRange range, const json& context,
                  const ClientSupport& client);

/// textDocument/hover's result (hover.cpp), or null when there is nothing to say at `at`.
json hover(const Analysis& analysis, LspPosition at, const ClientSupport& client);

/// textDocument/completion's result (completion.cpp): what may be written at `at`, from the
/// plan schema, the metric table and `analysis`'s catalog.
json completion(const Analysis& analysis, LspPosition at, const ClientSupport& client);

}  // namespace planlint::lsp
