// libFuzzer target: the whole pipeline of `planlint check` for one file, from its bytes to every
// output format. The input is a plan file, or a Markdown doc when it holds a ``` or ~~~ fence
// (its plan blocks are linted one by one, as run.cpp does). Then: inline suppressions, the
// `planlint report` renderings of each plan, and the text, JSON, SARIF and GitHub emitters.
// Besides crashes and sanitizer reports it checks that every finding points into the file and
// that the JSON, SARIF and JSON report outputs are valid JSON, and that toml++ reads a TOML
// input and its form without comment bodies (parse_toml's, toml_comments.hpp) alike: the same
// values at the same places, or the same error at the same place.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "planlint/embed/embedded_files.hpp"
#include "planlint/emit/github.hpp"
#include "planlint/emit/json.hpp"
#include "planlint/emit/sarif.hpp"
#include "planlint/emit/text.hpp"
#include "planlint/emit/report.hpp"
#include "planlint/lint/lint.hpp"
#include "planlint/markdown/markdown.hpp"
#include "planlint/source/limits.hpp"
#include "planlint/source/toml_comments.hpp"
#include "planlint/suppress/suppress.hpp"
#include "toml_reading.hpp"

using namespace planlint;

namespace {

void require_json(const std::string& text) {
  if (!nlohmann::json::accept(text)) std::abort();
}

void require_inside(const Location& location, const SourceFile& file) {
  if (location.file != file.path()) std::abort();
  const Span& span = location.span;
  if (!span.known()) return;
  // A span may end just past the last line (an error at the end of the file).
  if (span.begin.line > file.line_count() || span.end.line > file.line_count() + 1) std::abort();
  if (span.end.line != 0 && span.end < span.begin) std::abort();
}

/// Two readings of one document are alike: the same table, regions and errors.
void require_alike(const test::TomlReading& a, const test::TomlReading& b, const char* what) {
  if (a.error != b.error || a.regions != b.regions || a.table != b.table) {
    std::fprintf(stderr, "fuzz_lint: %s:\n%s\nvs\n%s\n", what, a.error.c_str(), b.error.c_str());
    std::abort();
  }
}

/// toml++ reads the text as parse_toml hands it over (without comment bodies) alike.
void require_same_toml_readings(std::string_view text) {
  if (find_toml_limit_excess(text, TomlLimits{})) return;  // toml++ would overflow the stack
  const test::TomlReading original = test::read_toml(text);
  if (const std::optional<std::string> lean = without_comment_bodies(text))
    require_alike(original, test::read_toml(*lean), "toml++ reads the text without comment bodies differently");
}

/// The built-in rules, loaded file by file as RuleSet::builtin() does, except that a rule file
/// that does not load (work in progress) is left out with a note instead of stopping the fuzzer.
const RuleSet& builtin_rules() {
  static const RuleSet rules = [] {
    RuleSet set;
    for (const embed::EmbeddedFile& file : embed::files()) {
      if (!file.path.starts_with("rules/") || file.path.starts_with("rules/catalog/")) continue;
      std::vector<Diagnostic> errors;
      if (!set.load(std::make_shared<const SourceFile>(std::string(file.path), std::string(file.contents)), errors))
        std::fprintf(stderr, "fuzz_lint: left out %s: %s\n", std::string(file.path).c_str(),
                     errors.empty() ? "" : errors.front().message.c_str());
    }
    return set;
  }();
  return rules;
}

const SuppressionRules& suppression_rules() {
  static const SuppressionRules rules = [] {
    SuppressionRules out;
    for (const RuleDescriptor& rule : builtin_rules().descriptors())
      out.group_of.emplace(rule.id, rule.group);
    out.enabled = [](std::string_view, std::string_view) { return true; };
    return out;
  }();
  return rules;
}

/// lint_text, suppressions and the report renderings of one plan (a file, or a Markdown block).
void lint_plan(const std::shared_ptr<const SourceFile>& source, std::string_view toml_text,
               const LintOptions& options, std::vector<Diagnostic>& out, std::uint32_t first_line = 1) {
  FileResult result = lint_text(source, toml_text, options, first_line);
  std::vector<Diagnostic> own = apply_suppressions(result.diagnostics, find_suppressions(*source, toml_text, first_line),
                                                   suppression_rules(), source->path());
  for (Diagnostic& d : own) result.diagnostics.push_back(std::move(d));
  const ReportInput input{result.plan ? &*result.plan : nullptr,
                          result.estimates ? &*result.estimates : nullptr, source->path()};
  for (ReportFormat format : {ReportFormat::text, ReportFormat::markdown, ReportFormat::json}) {
    std::ostringstream rendered;
    render_report(rendered, input, format);
    if (format == ReportFormat::json) require_json(rendered.str());
  }
  for (Diagnostic& d : result.diagnostics) out.push_back(std::move(d));
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  (void)builtin_rules();
  (void)suppression_rules();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  const bool markdown = text.find("```") != std::string::npos || text.find("~~~") != std::string::npos;
  auto source = std::make_shared<const SourceFile>(markdown ? "fuzz.md" : "fuzz.toml", std::move(text));

  LintOptions options;
  options.rules = &builtin_rules();
  options.today = Date{2026, 12, 1};
  Report report;
  report.files.push_back(source);
  const std::string& doc = source->text();
  if (markdown) {
    for (const PlanBlock& block : plan_blocks(doc))
      lint_plan(source, block_text(doc, block), options, report.diagnostics, block.first_line);
  } else {
    require_same_toml_readings(doc);
    lint_plan(source, doc, options, report.diagnostics);
  }
  std::stable_sort(report.diagnostics.begin(), report.diagnostics.end(), diagnostic_less);

  // The rules of the findings (what emit_sarif requires). Not every rule that ran: their
  // descriptors, docs included, are the same for every input and would dominate each run.
  static const std::vector<RuleDescriptor> all_rules = builtin_rules().descriptors();
  std::vector<RuleDescriptor> rules;
  std::set<std::string> listed;
  for (const Diagnostic& d : report.diagnostics) {
    require_inside(d.primary, *source);
    for (const RelatedLocation& related : d.related) require_inside(related.location, *source);
    for (const FixEdit& fix : d.fixes) require_inside(fix.location, *source);
    if (!listed.insert(d.rule).second) continue;
    auto known = std::find_if(all_rules.begin(), all_rules.end(),
                              [&](const RuleDescriptor& rule) { return rule.id == d.rule; });
    if (known != all_rules.end()) {
      rules.push_back(*known);
    } else {  // a native rule, listed as run_lint lists it
      RuleDescriptor rule;
      rule.id = d.rule;
      rule.summary = d.rule;
      rule.severity = d.severity;
      rules.push_back(std::move(rule));
    }
  }

  // planlint check writes text and GitHub output file by file (TextEmitter, GithubEmitter):
  // the same bytes as the whole report's emitters.
  std::vector<Diagnostic> delivered = report.diagnostics;
  for (bool color : {false, true}) {
    std::ostringstream out, streamed;
    emit_text(out, report, TextStyle{color});
    TextEmitter text(streamed, TextStyle{color});
    std::vector<Diagnostic> copy = delivered;
    text.file(source, copy);
    text.finish({});
    if (streamed.str() != out.str()) std::abort();
  }
  std::ostringstream json, sarif, limited, github, streamed_github;
  emit_json(json, report);
  require_json(json.str());
  emit_sarif(sarif, report, rules, SarifOptions{.source_root = "/fuzz/", .working_directory = "/fuzz/"});
  require_json(sarif.str());
  // A log over its result limit is valid SARIF too.
  emit_sarif(limited, report, rules, SarifOptions{.source_root = "/fuzz/", .working_directory = "/fuzz/", .max_results = 1});
  require_json(limited.str());
  emit_github(github, report);
  GithubEmitter github_emitter(streamed_github);
  github_emitter.file(source, delivered);
  if (streamed_github.str() != github.str()) std::abort();
  return 0;
}
