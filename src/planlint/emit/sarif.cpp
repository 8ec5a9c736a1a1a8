#include "planlint/emit/sarif.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <numeric>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "planlint/emit/json_text.hpp"

#include "planlint/emit/fingerprint.hpp"
#include "planlint/diag/docs_links.hpp"
#include "planlint/emit/repository_path.hpp"
#include "planlint/rules/rule_set.hpp"
#include "planlint/source/column_cursor.hpp"

namespace planlint {

namespace {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

constexpr std::string_view schema_uri = "https://json.schemastore.org/sarif-2.1.0.json";
constexpr std::string_view fingerprint_name = "planlint/v1";

/// The longest snippet a location carries (its span's text, or its context region's lines).
constexpr std::size_t max_snippet_bytes = 1024;

std::string_view level_of(Severity severity) {
  switch (severity) {
    case Severity::error: return "error";
    case Severity::warning: return "warning";
    case Severity::note: return "note";
  }
  return "warning";
}

/// A file of the report as its artifactLocation names it.
ArtifactUri artifact_of(const std::string& display_path, const SarifOptions& options) {
  return planlint::artifact_uri(display_path, options.source_root, options.working_directory);
}

std::string folder_uri(std::string folder) {
  std::string path = fs::path(folder).lexically_normal().generic_string();
  if (path.empty() || path.back() != '/') path += '/';
  return "file://" + encode_uri_path(path);
}

/// A file's locations, fixes: `source` is the file whose findings are written (null: none at
/// hand), which gives their columns and snippets.
class Writer {
 public:
  Writer(const SourceFile* source, const SarifOptions& options) : source_(source), options_(options) {}

  json location(const Location& where, bool with_snippet) const {
    ArtifactUri uri = artifact_of(where.file, options_);
    json artifact = {{"uri", uri.uri}};
    if (uri.relative) artifact["uriBaseId"] = "%SRCROOT%";
    json physical = {{"artifactLocation", artifact}};
    if (auto region = this->region(where, with_snippet)) {
      physical["region"] = std::move(region->first);
      if (!region->second.is_null()) physical["contextRegion"] = std::move(region->second);
    }
    return physical;
  }

  /// The region and, with a snippet, the context region (the spanned lines in full).
  std::optional<std::pair<json, json>> region(const Location& where, bool with_snippet) const {
    Span span = where.span;
    if (!span.known()) span = Span{{1, 1}, {1, 1}};
    const SourceFile* file = source_ && source_->path() == where.file ? source_ : nullptr;
    // Columns are UTF-16 code units, SARIF's default column kind (run.columnKind is left
    // out, so the log means the default). Why not declare unicodeCodePoints: every consumer
    // must understand the default, while a declared kind helps only one that reads
    // run.columnKind, and GitHub code scanning reads a documented subset of SARIF; its web
    // viewer, like VS Code's SARIF viewer, indexes JavaScript strings, whose indices are
    // UTF-16 code units. The two kinds differ only after a character above U+FFFF (an emoji)
    // on the line.
    auto column = [&](Position p) {
      return std::max<std::uint32_t>(file ? columns_.column(file->line(p.line), p.column) : p.column, 1);
    };
    Position end = span.end.line == 0 ? span.begin : span.end;
    if (end < span.begin) end = span.begin;
    json region = {{"startLine", span.begin.line},
                   {"startColumn", column(span.begin)},
                   {"endLine", end.line},
                   {"endColumn", column(end)}};
    json context;
    if (file && with_snippet && span.begin.line <= file->line_count()) {
      std::size_t begin = file->offset(span.begin), stop = file->offset(end);
      // A snippet is optional (SARIF 2.1.0 §3.30.13): a span or lines longer than the cap go
      // without one, so that findings on one long line do not each copy it.
      if (stop - begin > max_snippet_bytes) return std::pair{std::move(region), std::move(context)};
      region["snippet"] = {{"text", file->text().substr(begin, stop - begin)}};
      // The spanned lines as the file has them (CRLF line breaks kept): a region without
      // columns ends at its last line's last character, before the line break (SARIF 2.1.0
      // §3.30.8, endColumn's default).
      std::uint32_t last = std::min(end.line, file->line_count());
      const std::size_t lines_begin = file->offset(Position{span.begin.line, 1});
      const std::string_view last_line = file->line(last);
      const std::size_t lines_end = static_cast<std::size_t>(last_line.data() - file->text().data()) + last_line.size();
      if (lines_end - lines_begin > max_snippet_bytes) return std::pair{std::move(region), std::move(context)};
      context = {{"startLine", span.begin.line},
                 {"endLine", last},
                 {"snippet", {{"text", file->text().substr(lines_begin, lines_end - lines_begin)}}}};
    }
    return std::pair{std::move(region), std::move(context)};
  }

  json fix(const Diagnostic& d) const {
    // One artifactChange per file, in the order the edits name them.
    std::vector<std::pair<std::string, json>> changes;
    for (const FixEdit& edit : d.fixes) {
      auto it = std::find_if(changes.begin(), changes.end(),
                             [&](const auto& c) { return c.first == edit.location.file; });
      if (it == changes.end()) {
        ArtifactUri uri = artifact_of(edit.location.file, options_);
        json artifact = {{"uri", uri.uri}};
        if (uri.relative) artifact["uriBaseId"] = "%SRCROOT%";
        changes.emplace_back(edit.location.file,
                             json{{"artifactLocation", artifact}, {"replacements", json::array()}});
        it = std::prev(changes.end());
      }
      auto region = this->region(edit.location, false);
      it->second["replacements"].push_back(
          {{"deletedRegion", region->first}, {"insertedContent", {{"text", edit.replacement}}}});
    }
    json artifact_changes = json::array();
    for (auto& change : changes) artifact_changes.push_back(std::move(change.second));
    std::string description = !d.fix_title.empty() ? d.fix_title : d.help ? *d.help : "apply the suggested edit";
    return {{"description", {{"text", description}}}, {"artifactChanges", artifact_changes}};
  }

 private:
  /// utf16_column() of the findings' columns, which come in line and column order: the many
  /// findings of one long line cost one pass over it.
  mutable ColumnCursor columns_{ColumnUnit::utf16};
  const SourceFile* source_;
  const SarifOptions& options_;
};

/// The paragraph under "## What it does" in a rule's docs, or the summary.
std::string what_it_does(const RuleDescriptor& rule) {
  constexpr std::string_view heading = "## What it does";
  const std::string_view docs = rule.docs.view();
  auto at = docs.find(heading);
  if (at == std::string_view::npos) return rule.summary.str();
  std::size_t begin = docs.find('\n', at);
  if (begin == std::string_view::npos) return rule.summary.str();
  std::size_t end = docs.find("\n## ", begin);
  const std::string_view text =
      docs.substr(begin + 1, end == std::string_view::npos ? end : end - begin - 1);
  std::string flat;
  for (char c : text) flat += c == '\n' ? ' ' : c;
  while (!flat.empty() && flat.back() == ' ') flat.pop_back();
  return flat.empty() ? rule.summary.str() : flat;
}

/// SARIF messages and descriptions should be sentences ending in a period (SARIF2001).
std::string sentence(std::string text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\n')) text.pop_back();
  if (text.empty()) return text;
  if (text.back() != '.' && text.back() != '!' && text.back() != '?') text += '.';
  return text;
}

/// A rule's page: a built-in rule's under the documentation's base URL, a pack's rule file.
std::string help_uri(const RuleDescriptor& rule, const SarifOptions& options) {
  if (rule.origin.empty() || RuleSet::builtin().find(rule.id))
    return rule_docs_url(options.docs_url.empty() ? build_docs_url() : std::string_view(options.docs_url), rule.id);
  std::error_code ec;
  const fs::path file = fs::absolute(fs::path(rule.origin.str()), ec).lexically_normal();
  return "file://" + encode_uri_path(file.generic_string());
}

json rule_json(const RuleDescriptor& rule, const SarifOptions& options) {
  json out = {{"id", rule.id},
              {"name", sarif_rule_name(rule.id)},
              {"shortDescription", {{"text", sentence(rule.summary.empty() ? rule.id : rule.summary.str())}}},
              {"fullDescription", {{"text", sentence(what_it_does(rule))}}},
              {"helpUri", help_uri(rule, options)}};
  std::string docs = rule.docs.empty() ? sentence(rule.summary.str()) : rule.docs.str();
  out["help"] = {{"text", docs}, {"markdown", docs}};
  out["defaultConfiguration"] = {{"level", level_of(rule.severity)}};
  json tags = json::array();
  if (!rule.group.empty()) tags.push_back(rule.group);
  out["properties"] = {{"tags", tags}};
  return out;
}

/// The JSON string of `text`, as json_text prints it.
std::string json_string(const std::string& text) {
  json value = text;
  return json_text(value, -1);
}

}  // namespace

std::string sarif_rule_name(std::string_view id) {
  std::string name;
  bool upper = true;
  for (char c : id) {
    if (c == '-' || c == '_' || c == '.') {
      upper = true;
      continue;
    }
    name += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return name;
}

void SarifEmitter::add(const SourceFile* source, const std::vector<Diagnostic>& diagnostics) {
  Writer writer(source, options_);
  const std::vector<std::string> fingerprints =
      finding_fingerprints(diagnostics, options_.source_root, options_.working_directory);
  for (std::size_t index = 0; index < diagnostics.size(); ++index) {
    const Diagnostic& d = diagnostics[index];
    // ruleId and ruleIndex come first in the log; they are written at finish(), when the
    // rules of the log's results are known.
    json result = {{"level", level_of(d.severity)}};
    std::string message = d.message;
    if (d.help) message = sentence(message) + " Help: " + *d.help;
    result["message"] = {{"text", sentence(message)}};
    result["locations"] = json::array({{{"physicalLocation", writer.location(d.primary, true)}}});
    if (!d.related.empty()) {
      json related = json::array();
      for (std::size_t i = 0; i < d.related.size(); ++i)
        related.push_back({{"id", i + 1},
                           {"physicalLocation", writer.location(d.related[i].location, true)},
                           {"message", {{"text", sentence(d.related[i].message)}}}});
      result["relatedLocations"] = std::move(related);
    }
    result["partialFingerprints"] = {{fingerprint_name, fingerprints[index]}};
    if (!d.fixes.empty()) result["fixes"] = json::array({writer.fix(d)});
    if (d.suppression) {
      const Suppression& s = *d.suppression;
      json suppression = {
          {"kind", s.kind == Suppression::Kind::inline_comment ? "inSource" : "external"},
          {"status", "accepted"}};
      if (!s.justification.empty()) suppression["justification"] = s.justification;
      if (!s.location.file.empty())
        suppression["location"] = {
            {"physicalLocation",
             writer.location(s.location, s.kind == Suppression::Kind::inline_comment)}};
      result["suppressions"] = json::array({suppression});
    }
    json properties = json::object();
    if (!d.key_path.empty()) properties["key"] = d.key_path;
    if (!d.notes.empty()) properties["notes"] = d.notes;
    if (!properties.empty()) result["properties"] = std::move(properties);
    // A result is an element of runs[0].results: 8 spaces in; its text after the opening "{\n".
    const std::string text = json_indented(json_text(result), 8);
    auto [slot, added] = rule_slot_.try_emplace(d.rule, static_cast<std::uint32_t>(rule_ids_.size()));
    if (added) rule_ids_.push_back(d.rule);
    results_.push_back(Result{spool_.append(std::string_view(text).substr(2)), slot->second,
                              static_cast<std::uint8_t>((d.suppression ? 4 : 0) + 2 - static_cast<int>(d.severity))});
  }
}

void SarifEmitter::finish(const std::vector<RuleDescriptor>& rules) {
  // Which results the log keeps: at most max_results (0: all), the findings that are not
  // suppressed before the suppressed ones, errors before warnings before notes, and in the
  // report's order among equals.
  std::vector<bool> kept(results_.size(), true);
  if (options_.max_results != 0 && results_.size() > options_.max_results) {
    std::vector<std::size_t> order(results_.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return results_[a].rank < results_[b].rank; });
    for (std::size_t i = options_.max_results; i < order.size(); ++i) kept[order[i]] = false;
  }
  left_out_ = static_cast<std::size_t>(std::count(kept.begin(), kept.end(), false));
  const std::size_t written = results_.size() - left_out_;

  // The rules of the results the log holds, in id order (the rules that ran come sorted).
  std::vector<bool> used(rule_ids_.size(), false);
  for (std::size_t i = 0; i < results_.size(); ++i)
    if (kept[i]) used[results_[i].rule] = true;
  constexpr auto unlisted = static_cast<std::size_t>(-1);
  std::vector<std::size_t> rule_index(rule_ids_.size(), unlisted);
  json rules_json = json::array();
  std::set<std::string_view> listed;
  for (const RuleDescriptor& rule : rules) {
    const auto slot = rule_slot_.find(rule.id);
    if (slot == rule_slot_.end() || !used[slot->second] || !listed.insert(rule.id).second) continue;
    rule_index[slot->second] = rules_json.size();
    rules_json.push_back(rule_json(rule, options_));
  }

  json driver = {{"name", "planlint"},
                 {"fullName", fmt::format("planlint {}: a linter for AI compute capacity plans", PLANLINT_VERSION)},
                 {"semanticVersion", PLANLINT_VERSION},
                 {"informationUri", project_url},
                 {"rules", std::move(rules_json)}};
  json run = {{"tool", {{"driver", std::move(driver)}}}};
  run["automationDetails"] = {{"id", options_.automation_id.empty() ? std::string("planlint/") : options_.automation_id}};
  if (!options_.source_root.empty())
    run["originalUriBaseIds"] = {{"%SRCROOT%", {{"uri", folder_uri(options_.source_root)}}}};
  if (left_out_ > 0) {
    // SARIF 3.20.21: a notification of the run itself, shown by viewers with the run.
    const json notification = {
        {"level", "warning"},
        {"message",
         {{"text", fmt::format("This log holds the {} most severe of {} findings: {} were left out, the "
                               "suppressed and least severe first, to keep within {} results (GitHub code "
                               "scanning rejects a run of more than {}). Fix or baseline findings, or "
                               "raise the limit with --sarif-max-results (0: none) for a viewer without one.",
                               written, results_.size(), left_out_, options_.max_results,
                               SarifOptions::github_max_results)}}}};
    run["invocations"] = json::array(
        {{{"executionSuccessful", true}, {"toolExecutionNotifications", json::array({notification})}}});
  }
  // The results take the place of a marker: a string's quotes are escaped inside any string
  // of the log, so `"results": "` occurs only as this key.
  constexpr std::string_view marker = "\"results\": \"planlint-results\"";
  run["results"] = "planlint-results";
  run["columnKind"] = "utf16CodeUnits";
  json log = {{"$schema", schema_uri}, {"version", "2.1.0"}, {"runs", json::array({run})}};
  const std::string text = json_text(log);
  const std::size_t at = text.rfind(marker);
  out_.write(text.data(), static_cast<std::streamsize>(at));
  out_ << "\"results\": [";
  bool first = true;
  for (std::size_t i = 0; i < results_.size(); ++i) {
    if (!kept[i]) continue;
    out_ << (first ? "\n" : ",\n") << "        {\n          \"ruleId\": " << json_string(rule_ids_[results_[i].rule]);
    if (const std::size_t index = rule_index[results_[i].rule]; index != unlisted)
      out_ << ",\n          \"ruleIndex\": " << index;
    out_ << ",\n";
    spool_.copy(out_, results_[i].text);
    first = false;
  }
  if (!first) out_ << "\n      ";
  out_ << ']' << std::string_view(text).substr(at + marker.size()) << '\n';
}

std::vector<std::string> SarifEmitter::warnings() const {
  if (left_out_ == 0) return {};
  const std::size_t findings = results_.size();
  return {fmt::format(
      "planlint: warning: the SARIF log holds the {} most severe of {} findings ({} left out to keep "
      "within --sarif-max-results {}; GitHub code scanning rejects more than {}; 0 keeps all)",
      findings - left_out_, findings, left_out_, options_.max_results, SarifOptions::github_max_results)};
}

std::size_t emit_sarif(std::ostream& out, const Report& report, const std::vector<RuleDescriptor>& rules,
                       const SarifOptions& options) {
  SarifEmitter emitter(out, options);
  const std::vector<Diagnostic>& all = report.diagnostics;
  for (std::size_t begin = 0; begin < all.size();) {
    std::size_t end = begin + 1;
    while (end < all.size() && all[end].primary.file == all[begin].primary.file) ++end;
    emitter.add(report.file(all[begin].primary.file), std::vector<Diagnostic>(all.begin() + begin, all.begin() + end));
    begin = end;
  }
  emitter.finish(rules);
  return emitter.left_out();
}

}  // namespace planlint
