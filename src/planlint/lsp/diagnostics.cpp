// textDocument/publishDiagnostics: planlint's findings as the editor shows them.
#include <filesystem>

#include <fmt/format.h>

#include "planlint/diag/printable.hpp"
#include "planlint/lint/findings_cap.hpp"
#include "planlint/lsp/features.hpp"
#include "planlint/lsp/params.hpp"
#include "planlint/lsp/positions.hpp"
#include "planlint/lsp/rule_links.hpp"
#include "planlint/lsp/uri.hpp"

namespace planlint::lsp {

namespace {

/// LSP's DiagnosticSeverity: notes are information, as the VS Code problem matcher of
/// docs/integrations.md shows them.
int severity_of(Severity severity) {
  switch (severity) {
    case Severity::error: return 1;
    case Severity::warning: return 2;
    case Severity::note: return 3;
  }
  return 2;
}

/// The editor's position of a place in the document, or of one in another file on disk
/// (a config, a rule pack): nullopt for a file that is not there to open (the built-in
/// catalog and rules, compiled into planlint).
std::optional<json> location_json(const Location& where, const std::string& uri, const Positions& positions) {
  if (where.file == positions.source().path())
    return json{{"uri", uri}, {"range", to_json(positions.related_range(where.span))}};
  std::error_code ec;
  if (!std::filesystem::is_regular_file(where.file, ec)) return std::nullopt;
  // Another file is not at hand: its byte columns are taken for UTF-16 ones, which they are in
  // ASCII text (configs and rule packs nearly always are).
  const auto line = where.span.begin.line > 0 ? where.span.begin.line - 1 : 0;
  const auto column = where.span.begin.column > 0 ? where.span.begin.column - 1 : 0;
  const LspPosition at{line, column};
  return json{{"uri", path_to_uri(where.file)}, {"range", to_json(LspRange{at, at})}};
}

}  // namespace

json lsp_diagnostic(const Diagnostic& d, const std::string& uri, const Positions& positions,
                    const Analysis& analysis, const ClientSupport& client) {
  // The message as the text output tells it: the finding, its notes (the arithmetic), the
  // places it relates to when the client cannot show them apart, and the help; each text from
  // the input under the printable policy (an editor shows a bidi control or ESC as it is).
  std::string message = printable(d.message);
  for (const std::string& note : d.notes) message += "\nnote: " + printable(note);
  json related = json::array();
  for (const RelatedLocation& r : d.related) {
    const auto where = client.related_information ? location_json(r.location, uri, positions) : std::nullopt;
    if (where) {
      related.push_back({{"location", *where}, {"message", printable(r.message)}});
      continue;
    }
    const Position at = r.location.span.begin;
    message += r.location.file == positions.source().path()
                   ? fmt::format("\nnote: {} (line {})", printable(r.message), positions.line(at) + 1)
                   : fmt::format("\nnote: {} ({}:{}:{})", printable(r.message), printable_path(r.location.file),
                                 at.line, at.column);
  }
  if (d.help) message += "\nhelp: " + printable(*d.help);

  json out = {{"range", to_json(positions.range(d.primary.span))},
              {"severity", severity_of(d.severity)},
              {"code", d.rule},
              {"source", "planlint"},
              {"message", std::move(message)}};
  if (client.code_description)
    if (auto href = rule_docs_link(d.rule, analysis)) out["codeDescription"] = {{"href", *href}};
  if (!related.empty()) out["relatedInformation"] = std::move(related);
  return out;
}

json publish_diagnostics_params(const std::string& uri, const Analysis& analysis, const ClientSupport& client,
                                std::size_t max_findings) {
  json diagnostics = json::array();
  if (analysis.source) {
    const Positions positions(analysis.text, *analysis.source);
    for (const Diagnostic& d : analysis.diagnostics)
      if (!d.suppression) diagnostics.push_back(lsp_diagnostic(d, uri, positions, analysis, client));
  }
  // The findings over the cap: one diagnostic at the top of the document says how many.
  if (analysis.findings_not_shown > 0)
    diagnostics.push_back({{"range", to_json(LspRange{})},
                           {"severity", severity_of(Severity::note)},
                           {"source", "planlint"},
                           {"message", findings_cap_note(analysis.findings_not_shown, max_findings)}});
  return {{"uri", uri}, {"version", analysis.version}, {"diagnostics", std::move(diagnostics)}};
}

}  // namespace planlint::lsp
