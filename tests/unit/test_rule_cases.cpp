// The built-in rules' cases, tests/rules/<id>/NAME.toml, each with its whole text output in
// NAME.expected (docs/development.md, "Rule cases and generated docs"). A case runs with its own
// rule selected, as ruff's per-rule snapshots and clang-tidy's `-checks=-*,X` do, so that one
// rule's wording is pinned by its own cases only; a case that shows how rules meet opts into the
// others by a `# planlint-case: select = [...]` line among its leading comments.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <toml++/toml.h>

#include "integration_support.hpp"

#include "planlint/diag/native_rules.hpp"
#include "planlint/diff/diff.hpp"
#include "planlint/emit/text.hpp"
#include "planlint/lint/run.hpp"
#include "planlint/rules/rule_set.hpp"
#include "planlint/settings/selection.hpp"

namespace fs = std::filesystem;
using namespace planlint;

namespace {

/// The group whose rules every case runs besides the ones it selects: a case plan with a typo
/// in a key or a unit tests nothing of its rule, and its expected output must show that.
constexpr const char* structure_group = "structure";
constexpr std::string_view directive = "# planlint-case:";

/// What a case runs with: its directive's `select` (or its rule alone), and what is wrong
/// with the directive, if anything.
struct CaseSelection {
  std::vector<std::string> select;
  std::vector<std::string> errors;  ///< "LINE: why"
};

/// Reads a case's directive: one line among the comments (and blank lines) the case opens with,
/// `# planlint-case: select = [...]`, its value written as `[lint] select` is in a
/// .planlint.toml: rule ids, groups, or "all", naming the case's own rule among them.
CaseSelection case_selection(std::string_view text, const RuleDescriptor& rule) {
  std::set<std::string> known = {"all"};
  for (const RuleDescriptor& d : RuleSet::builtin().descriptors()) {
    known.insert(d.id);
    known.insert(d.group);
  }
  CaseSelection result;
  bool stated = false;
  bool leading = true;
  int number = 0;
  std::istringstream lines{std::string(text)};
  for (std::string line; std::getline(lines, line);) {
    ++number;
    if (!line.empty() && line[0] != '#') leading = false;
    if (line.find(directive) == std::string::npos) continue;
    auto error = [&](const std::string& why) { result.errors.push_back(fmt::format("{}: {}", number, why)); };
    if (!leading) error("a directive below the opening comments would be ignored");
    if (stated) error("a second directive");
    stated = true;
    toml::parse_result parsed = toml::parse(std::string_view(line).substr(line.find(directive) + directive.size()));
    const toml::array* entries = parsed ? parsed.table()["select"].as_array() : nullptr;
    if (!entries || parsed.table().size() != 1) {
      error("not `# planlint-case: select = [\"<rule id or group>\", ...]`");
      continue;
    }
    result.select.clear();
    for (const toml::node& entry : *entries) {
      const std::optional<std::string> name = entry.value<std::string>();
      if (!name || known.count(*name) == 0)
        error(fmt::format("{} is no built-in rule, group or \"all\"", name.value_or("a non-string")));
      else
        result.select.push_back(*name);
    }
    RuleSelection selection;
    selection.select = result.select;
    if (result.select.empty() || !selection.level(rule.id, rule.group, rule.severity))
      error(fmt::format("select does not name the case's rule {}", rule.id));
  }
  if (!stated) result.select = {rule.id};
  return result;
}

/// Lints a case as `planlint check --no-color --today 2026-11-30 --select SELECT,structure`
/// would (paths relative to the repository root, suppressions applied, no config discovery).
std::string case_output(const fs::path& relative, std::vector<std::string> select) {
  RunOptions options;
  options.paths = {relative.generic_string()};
  options.discover_config = false;
  options.today = Date{2026, 11, 30};
  select.emplace_back(structure_group);
  options.select = std::move(select);
  RunResult result = run_lint(options);
  INFO(relative.string());
  REQUIRE(result.errors.empty());
  std::ostringstream out;
  emit_text(out, result.report, TextStyle{});
  return out.str();
}

/// The files beside the cases of a rule only `planlint diff` reports (native_rules::compared_only):
/// the plan each case is the new version of, and the config with the guardrails.
constexpr std::string_view diff_base = "base.toml", diff_config = "guardrails.toml";

/// A case of such a rule, as `planlint diff --config guardrails.toml base.toml CASE` finds it:
/// the text output of the new version's findings about the change.
std::string diff_case_output(const fs::path& relative, std::vector<std::string> select) {
  DiffOptions options;
  options.base = *parse_diff_side((relative.parent_path() / diff_base).generic_string());
  options.head = *parse_diff_side(relative.generic_string());
  options.config = (relative.parent_path() / diff_config).generic_string();
  options.today = Date{2026, 11, 30};
  select.emplace_back(structure_group);
  options.select = std::move(select);
  const DiffRun run = run_diff(options);
  INFO(relative.string());
  REQUIRE(run.errors.empty());
  Report report;
  report.files = run.report.head_sources;
  if (report.files.empty()) report.files.push_back(std::make_shared<const SourceFile>(relative.generic_string(), ""));
  for (const PlanDiff& plan : run.report.plans) {
    for (const DiffFinding& finding : plan.introduced) report.diagnostics.push_back(finding.diagnostic);
    for (const Diagnostic& d : plan.guardrails) report.diagnostics.push_back(d);
  }
  std::stable_sort(report.diagnostics.begin(), report.diagnostics.end(), diagnostic_less);
  std::ostringstream out;
  emit_text(out, report, TextStyle{});
  return out.str();
}

bool fires(const std::string& output, const std::string& rule) {
  return output.find("[" + rule + "]\n") != std::string::npos;
}

}  // namespace

TEST_CASE("every rule's cases in tests/rules/<id>/ give their expected output", "[rules][fixtures]") {
  // Each NAME.toml beside its rule is a case with its whole output in NAME.expected. A case
  // named clean*.toml must not draw the rule; any other must. Every rule has fires.toml and
  // clean.toml at least.
  fs::current_path(PLANLINT_SOURCE_DIR);
  for (const RuleDescriptor& rule : RuleSet::builtin().descriptors()) {
    DYNAMIC_SECTION(rule.id) {
      const fs::path folder = fs::path("tests/rules") / rule.id;
      INFO("cases of " << rule.id << " in " << folder.string());
      REQUIRE(fs::exists(folder / "fires.toml"));
      REQUIRE(fs::exists(folder / "clean.toml"));
      const bool compared = native_rules::is_compared_only(rule.id);
      std::vector<fs::path> cases;
      for (const auto& entry : fs::directory_iterator(folder))
        if (entry.path().extension() == ".toml" &&
            !(compared && (entry.path().filename() == diff_base || entry.path().filename() == diff_config)))
          cases.push_back(entry.path());
      std::sort(cases.begin(), cases.end());
      for (const fs::path& plan : cases) {
        const fs::path expected = fs::path(plan).replace_extension(".expected");
        const CaseSelection selection = case_selection(test::read_text(plan), rule);
        INFO(plan.string() << "'s planlint-case directive: " << fmt::format("{}", fmt::join(selection.errors, "; ")));
        CHECK(selection.errors.empty());
        const std::string output =
            compared ? diff_case_output(plan, selection.select) : case_output(plan, selection.select);
        INFO(plan.string() << "\n" << output);
        const bool clean = plan.filename().string().starts_with("clean");
        CHECK(fires(output, rule.id) != clean);
        if (test::updating_golden()) std::ofstream(expected, std::ios::binary) << output;
        INFO("expected output in " << expected.string() << " (PLANLINT_UPDATE_GOLDEN=1 rewrites it)");
        REQUIRE(fs::exists(expected));
        CHECK(output == test::read_text(expected));
      }
    }
  }
}

TEST_CASE("a rule case selects its own rule unless its directive selects more", "[rules][fixtures]") {
  const RuleDescriptor* rule = RuleSet::builtin().find("memory-fit");
  REQUIRE(rule);
  const std::string plan = "[plan]\nname = \"x\"\n";
  CHECK(case_selection("# A case.\n" + plan, *rule).select == std::vector<std::string>{"memory-fit"});
  const CaseSelection more =
      case_selection("# A case.\n\n# planlint-case: select = [\"memory-fit\", \"compute\"]\n" + plan, *rule);
  CHECK(more.errors.empty());
  CHECK(more.select == std::vector<std::string>{"memory-fit", "compute"});
  for (const char* line : {"# planlint-case: select = [\"memory\"]", "# planlint-case: select = [\"all\"]"}) {
    INFO(line);
    CHECK(case_selection(std::string(line) + "\n" + plan, *rule).errors.empty());
  }
  // Each mistake is refused rather than running the case with some other selection.
  for (const std::string& text : {
           plan + "# planlint-case: select = [\"memory-fit\", \"unit-slip\"]\n",   // below the plan's first line
           "# planlint-case: select = [\"memroy-fit\"]\n" + plan,                  // no such rule
           "# planlint-case: select = [\"unit-slip\"]\n" + plan,                   // not its own rule
           "# planlint-case: select = []\n" + plan,                                   // nothing
           "# planlint-case: select = \"memory-fit\"\n" + plan,                    // not a list
           "# planlint-case: selcet = [\"memory-fit\"]\n" + plan,                  // not select
           "# planlint-case: select = [\"memory-fit\"]\n# planlint-case: select = [\"all\"]\n" + plan}) {
    INFO(text);
    CHECK_FALSE(case_selection(text, *rule).errors.empty());
  }
}

TEST_CASE("every folder of tests/rules is a built-in rule's", "[rules][fixtures]") {
  std::set<std::string> ids;
  for (const RuleDescriptor& rule : RuleSet::builtin().descriptors()) ids.insert(rule.id);
  for (const auto& entry : fs::directory_iterator(fs::path(PLANLINT_SOURCE_DIR) / "tests/rules")) {
    INFO("tests/rules/" << entry.path().filename().string() << " is no rule's folder");
    CHECK(ids.count(entry.path().filename().string()) == 1);
  }
}
