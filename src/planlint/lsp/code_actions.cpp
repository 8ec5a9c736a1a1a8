// textDocument/codeAction: each finding's fix (the edits `--fix` applies; an unsafe one, which
// `--fix --unsafe-fixes` applies, is offered but not preferred), a comment that suppresses it,
// for the author to give the reason, and "fix all": every safe fix of the document, made as
// `planlint check --fix` makes them (fix/files.hpp, pass after pass).
#include <algorithm>

#include <fmt/format.h>

#include "planlint/diag/native_rules.hpp"
#include "planlint/diag/printable.hpp"
#include "planlint/fix/files.hpp"
#include "planlint/lint/document.hpp"
#include "planlint/lsp/features.hpp"
#include "planlint/lsp/params.hpp"
#include "planlint/lsp/positions.hpp"
#include "planlint/settings/settings.hpp"
#include "planlint/source/toml_lexer.hpp"

namespace planlint::lsp {

namespace {

/// What a TOML line holds at its end, as far as a comment placed there is concerned.
struct LineShape {
  bool starts_in_string = false;  ///< the line starts inside a multi-line string
  bool ends_in_string = false;    ///< its line break is inside a multi-line string
  bool has_comment = false;
};

/// The shape of 0-based `line` of `text`, lexed from `from` (the plan's first byte).
LineShape line_shape(const TextDocument& text, std::size_t from, std::uint32_t line) {
  const std::size_t line_begin = text.offset({line, 0});
  const std::size_t line_end = line_begin + text.line(line).size();
  const std::size_t start = std::min(from, line_begin);
  const std::string_view all = std::string_view(text.text()).substr(start);
  LineShape shape;
  TomlLexer lexer(all);
  for (TomlToken token = lexer.next_comment_or_string(); token.kind != TomlTokenKind::end;
       token = lexer.next_comment_or_string()) {
    const std::size_t begin = start + token.begin, end = start + token.end;
    if (begin >= line_end) break;
    if (token.kind == TomlTokenKind::comment) {
      if (begin >= line_begin) {
        shape.has_comment = true;
        break;
      }
      continue;  // a comment on an earlier line
    }
    // An unclosed one-line string stops at its line break.
    if (begin < line_begin && end > line_begin) shape.starts_in_string = true;
    if (end > line_end) {
      shape.ends_in_string = true;
      break;
    }
  }
  return shape;
}

bool intersects(const LspRange& a, const LspRange& b) { return a.start <= b.end && b.start <= a.end; }

json workspace_edit(const std::string& uri, const Analysis& analysis, json edits, const ClientSupport& client) {
  if (client.document_changes)
    return {{"documentChanges",
             json::array({{{"textDocument", {{"uri", uri}, {"version", analysis.version}}}, {"edits", std::move(edits)}}})}};
  return {{"changes", {{uri, std::move(edits)}}}};
}

/// The fix of `d`: all its edits, which make one change together.
std::optional<json> fix_action(const Diagnostic& d, const json& diagnostic, const std::string& uri,
                               const Analysis& analysis, const Positions& positions, const ClientSupport& client) {
  if (d.fixes.empty()) return std::nullopt;
  json edits = json::array();
  for (const FixEdit& edit : d.fixes) {
    if (edit.location.file != positions.source().path()) return std::nullopt;  // not this document's
    edits.push_back({{"range", to_json(positions.range(edit.location.span))}, {"newText", edit.replacement}});
  }
  // An unsafe fix is right in the likely case only: its title says what it writes, and the
  // editor does not apply it as the finding's preferred fix.
  const bool safe = d.fix_safety != FixSafety::unsafe;
  std::string title;
  if (!d.fix_title.empty())
    title = fmt::format("{} ({} of {}: check it)", d.fix_title, safe ? "fix" : "unsafe fix", d.rule);
  else if (!safe && d.fixes.size() == 1)
    title = fmt::format("Set {} to {} (unsafe fix of {}: check it)", d.key_path.empty() ? "the value" : d.key_path,
                        d.fixes.front().replacement, d.rule);
  else
    title = d.help ? fmt::format("{} ({})", *d.help, d.rule) : fmt::format("Apply the fix of {}", d.rule);
  // The title may quote the plan (a key, a help naming a value): the printable policy, as the
  // finding's message.
  return json{{"title", printable(title)},
              {"kind", "quickfix"},
              {"diagnostics", json::array({diagnostic})},
              {"isPreferred", safe},
              {"edit", workspace_edit(uri, analysis, std::move(edits), client)}};
}

/// "Fix all": the safe fixes of every finding of the document, the findings over the editor's
/// cap included, made to a fixed point as `--fix` makes them; nullopt when there is none.
std::optional<json> fix_all_action(const std::string& uri, const Analysis& analysis, const ClientSupport& client) {
  if (!analysis.settings || !analysis.source) return std::nullopt;
  // Cheap first: a document none of whose findings has a safe fix is not linted again.
  const bool fixable = analysis.findings_not_shown > 0 ||
                       std::any_of(analysis.diagnostics.begin(), analysis.diagnostics.end(), [](const Diagnostic& d) {
                         return !d.fixes.empty() && d.fix_safety == FixSafety::safe;
                       });
  if (!fixable) return std::nullopt;
  const Settings& settings = *analysis.settings;
  std::vector<RuleDescriptor> rules;
  for (const RuleDescriptor* rule : settings.all_rules) rules.push_back(*rule);
  const fix::SafetyOf safety = fix::fix_safety_of(rules);
  BatchLimits limits = analysis.limits;
  limits.max_findings_per_file = 0;  // every fix, not only those of the findings shown
  const fix::Relint relint = [&](const std::string& path, const std::string& text) -> std::optional<std::vector<Diagnostic>> {
    FileOutput linted = lint_document(path, text, settings, limits);
    if (linted.error) return std::nullopt;
    return std::move(linted.diagnostics);
  };
  const SourceFile& source = *analysis.source;
  // The first pass reads the document's findings as they are, unless the editor's cap left
  // some out; the passes after it lint the fixed text.
  std::optional<std::vector<Diagnostic>> relinted;
  if (analysis.findings_not_shown > 0 && !(relinted = relint(source.path(), source.text()))) return std::nullopt;
  fix::FileFixes first = fix::collect_fixes(source, relinted ? *relinted : analysis.diagnostics, safety, false);
  if (first.edits.empty()) return std::nullopt;
  fix::FixedFile file{source.path(), source.text(), std::move(first.edits), first.fixed, {}};
  fix::fix_to_fixed_point(file, relint, safety, false);
  const Positions positions(analysis.text, source);
  json edits = json::array();
  for (const fix::TextEdit& edit : file.edits)
    edits.push_back({{"range", to_json(positions.range(Span{source.position(edit.begin), source.position(edit.end)}))},
                     {"newText", edit.replacement}});
  return json{{"title", fmt::format("Fix all safe planlint findings ({})", file.fixed)},
              {"kind", "source.fixAll"},
              {"edit", workspace_edit(uri, analysis, std::move(edits), client)}};
}

/// `# planlint: allow ID -- ` at the end of the finding's line, or `allow-next-line` on a line
/// of its own above it when the line has a comment already or ends inside a multi-line string.
std::optional<json> suppress_action(const Diagnostic& d, const json& diagnostic, const std::string& uri,
                                    const Analysis& analysis, const Positions& positions, const ClientSupport& client) {
  // A syntax error is silenced only by --ignore or a severity (cli.md); a suppression's own
  // findings are mended in the comment.
  if (d.rule == native_rules::toml_syntax || d.rule == native_rules::unused_suppression ||
      d.rule == native_rules::suppression_without_reason)
    return std::nullopt;
  const TextDocument& text = analysis.text;
  const std::uint32_t line = positions.position(d.primary.span.begin).line;
  const DocumentPlan* plan = analysis.plan_at(d.primary.span.begin.line);
  const std::size_t plan_start = plan ? positions.offset(Position{plan->first_line, 1}) : 0;
  const LineShape shape = line_shape(text, plan_start, line);
  json edit;
  if (!shape.has_comment && !shape.ends_in_string) {
    const LspPosition end{line, utf16_length(text.line(line))};
    edit = {{"range", to_json(LspRange{end, end})}, {"newText", fmt::format("  # planlint: allow {} -- ", d.rule)}};
  } else if (!shape.starts_in_string) {
    const std::string_view content = text.line(line);
    const std::string indent(content.substr(0, content.find_first_not_of(" \t") == std::string_view::npos
                                                   ? content.size()
                                                   : content.find_first_not_of(" \t")));
    const LspPosition start{line, 0};
    edit = {{"range", to_json(LspRange{start, start})},
            {"newText", fmt::format("{}# planlint: allow-next-line {} -- \n", indent, d.rule)}};
  } else {
    return std::nullopt;
  }
  return json{{"title", fmt::format("Suppress {} on this line, with a reason", d.rule)},
              {"kind", "quickfix"},
              {"diagnostics", json::array({diagnostic})},
              {"edit", workspace_edit(uri, analysis, json::array({edit}), client)}};
}

/// Whether the client asked for actions of `kind` (context.only absent, or listing `kind` or a
/// kind it is under: kinds are hierarchical, "source" holds "source.fixAll").
bool wants(const json& context, std::string_view kind) {
  if (!context.is_object() || !context.contains("only") || !context["only"].is_array()) return true;
  for (const json& asked : context["only"]) {
    if (!asked.is_string()) continue;
    const std::string& prefix = asked.get_ref<const std::string&>();
    if (prefix.empty() || kind == prefix || (kind.starts_with(prefix) && kind[prefix.size()] == '.')) return true;
  }
  return false;
}

/// The fixes of the findings in `range`, then their suppressions.
json quick_fixes(const std::string& uri, const Analysis& analysis, LspRange range, const ClientSupport& client) {
  json actions = json::array();
  const Positions positions(analysis.text, *analysis.source);
  std::vector<json> suppressions;
  for (const Diagnostic& d : analysis.diagnostics) {
    if (d.suppression || d.primary.file != analysis.source->path()) continue;
    if (!intersects(positions.range(d.primary.span), range)) continue;
    const json diagnostic = lsp_diagnostic(d, uri, positions, analysis, client);
    if (auto fix = fix_action(d, diagnostic, uri, analysis, positions, client)) actions.push_back(std::move(*fix));
    if (auto suppress = suppress_action(d, diagnostic, uri, analysis, positions, client))
      suppressions.push_back(std::move(*suppress));
  }
  // The fixes first: the editor offers the first action of a finding as its quick fix.
  for (json& suppress : suppressions) actions.push_back(std::move(suppress));
  return actions;
}

}  // namespace

json code_actions(const std::string& uri, const Analysis& analysis, LspRange range, const json& context,
                  const ClientSupport& client) {
  json actions = json::array();
  if (!analysis.source) return actions;
  if (wants(context, "quickfix")) actions = quick_fixes(uri, analysis, range, client);
  // Last: the editor offers the first action of a finding as its quick fix.
  if (wants(context, "source.fixAll"))
    if (std::optional<json> fix_all = fix_all_action(uri, analysis, client)) actions.push_back(std::move(*fix_all));
  return actions;
}

}  // namespace planlint::lsp
