// Stages in batches: lint_texts runs each stage over many plans in a row, and a run lints its
// files in batches (docs/development.md, "Layout"). A plan's findings must not depend
// on the plans linted with it, and a run's output not on how its files were batched.
#include <filesystem>
#include <sstream>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "integration_support.hpp"
#include "planlint/emit/json.hpp"
#include "planlint/lint/lint.hpp"
#include "planlint/lint/run.hpp"
#include "planlint/markdown/markdown.hpp"
#include "planlint/rules/rule_set.hpp"
#include "planlint/source/source_file.hpp"
#include "support.hpp"

namespace fs = std::filesystem;
using namespace planlint;
using planlint::test::Scratch;
using planlint::test::inference_plan_with;

namespace {

/// Everything a finding says (place, rule, message, help, notes, fixes, key, severity), as the
/// JSON report writes it.
std::string as_json(const FileResult& result) {
  Report report;
  report.files.push_back(result.source);
  report.diagnostics = result.diagnostics;
  std::ostringstream out;
  emit_json(out, report);
  return out.str();
}

}  // namespace

TEST_CASE("a plan's findings do not depend on the plans linted with it", "[lint][batch]") {
  // Every TOML file of the project: the examples, the rule fixtures (each rule's firing plan),
  // the templates, and toml-test's valid and invalid documents; and the Markdown docs' blocks.
  std::vector<std::shared_ptr<const SourceFile>> sources;
  for (const std::string& path : test::project_toml_files()) {
    auto text = read_file(path);
    REQUIRE(text);
    sources.push_back(std::make_shared<const SourceFile>(path, *std::move(text)));
  }
  REQUIRE(sources.size() > 300);

  // Four option sets, taken in turn: the plans of one batch need not share them, nor their
  // rules (the rules run a rule at a time over the plans of one rule set: run_rules).
  RuleSet with_pack = RuleSet::with_builtin();
  std::vector<Diagnostic> pack_errors;
  REQUIRE(with_pack.load_path(test::data_path("data/rule-packs/org"), pack_errors));
  REQUIRE(pack_errors.empty());
  std::array<LintOptions, 4> options;
  for (LintOptions& o : options) o.today = Date{2026, 11, 30};
  options[1].selection.ignore = {"structure"};
  options[1].today = Date{2027, 6, 1};
  options[2].selection.severity = {{"all", "note"}};
  options[2].full_estimates = false;
  options[3].rules = &with_pack;
  options[3].full_estimates = false;

  std::vector<PlanText> plans;
  for (std::size_t i = 0; i < sources.size(); ++i)
    plans.push_back(PlanText{sources[i], sources[i]->text(), 1, &options[i % options.size()]});
  std::size_t markdown_blocks = 0;
  for (const char* doc : {"markdown/capacity-review.md", "markdown/clean-doc.md"}) {
    const std::string path = test::data_path(std::string("data/") + doc);
    auto text = read_file(path);
    REQUIRE(text);
    auto source = std::make_shared<const SourceFile>(path, *std::move(text));
    for (const PlanBlock& block : plan_blocks(source->text())) {
      plans.push_back(PlanText{source, block_text(source->text(), block), block.first_line,
                               &options[plans.size() % options.size()]});
      ++markdown_blocks;
    }
  }
  REQUIRE(markdown_blocks >= 2);
  // A plan the pack's rule fires on, under the pack's options.
  {
    const std::string path = test::data_path("data/rule-packs/approved-without-owner.toml");
    auto text = read_file(path);
    REQUIRE(text);
    sources.push_back(std::make_shared<const SourceFile>(path, *std::move(text)));
    plans.push_back(PlanText{sources.back(), sources.back()->text(), 1, &options[3]});
  }

  const std::vector<FileResult> batched = lint_texts(plans);
  REQUIRE(batched.size() == plans.size());
  std::size_t with_plan = 0, with_findings = 0;
  for (std::size_t i = 0; i < plans.size(); ++i) {
    const PlanText& p = plans[i];
    CAPTURE(p.source->path(), p.first_line);
    const FileResult alone = lint_text(p.source, p.toml_text, *p.options, p.first_line);
    CHECK(batched[i].source == p.source);
    CHECK(batched[i].plan.has_value() == alone.plan.has_value());
    CHECK(batched[i].estimates.has_value() == alone.estimates.has_value());
    CHECK(as_json(batched[i]) == as_json(alone));
    with_plan += alone.plan.has_value();
    with_findings += !alone.diagnostics.empty();
  }
  // The batch held both kinds: plans that load and documents that are not valid TOML.
  CHECK(with_plan > 100);
  CHECK(plans.size() - with_plan > 100);
  CHECK(with_findings > 200);
  // The pack's rule ran, on the plans of its option set only.
  std::size_t pack_findings = 0;
  for (std::size_t i = 0; i < plans.size(); ++i)
    for (const Diagnostic& d : batched[i].diagnostics)
      if (d.rule == "org-approved-plan") {
        CHECK(plans[i].options == &options[3]);
        ++pack_findings;
      }
  CHECK(pack_findings > 0);
}

TEST_CASE("a run over more files than a batch reports what linting each file alone reports", "[run][batch][jobs]") {
  Scratch dir;
  // 75 files: more than two batches at -j 1, many small ones at -j 2. Plans with findings,
  // clean plans, invalid TOML, suppressed findings and Markdown docs with two plans.
  for (int i = 0; i < 75; ++i) {
    const std::string name = fmt::format("plans/p{:02}", i);
    switch (i % 5) {
      case 0: dir.write(name + ".toml", inference_plan_with("hmb = 1\n")); break;
      case 1: dir.write(name + ".toml", inference_plan_with("")); break;
      case 2: dir.write(name + ".toml", inference_plan_with("count = = 3\n")); break;
      case 3: dir.write(name + ".toml", inference_plan_with("hmb = 1  # planlint: allow unknown-key -- on purpose\nzzz = 2\n")); break;
      default:
        dir.write(name + ".md", "# Review\n\n```toml\n" + inference_plan_with("qqq = 5\n") + "```\n\nText.\n\n```toml\n" +
                                    inference_plan_with("rrr = 6\n") + "```\n");
    }
  }
  RunOptions options;
  options.paths = {(dir.path / "plans").string()};
  options.today = Date{2026, 11, 30};

  // Each file alone, in the report's order (the paths sort as their names).
  std::vector<std::string> alone;
  for (int i = 0; i < 75; ++i) {
    RunOptions one = options;
    one.paths = {(dir.path / fmt::format("plans/p{:02}.{}", i, i % 5 == 4 ? "md" : "toml")).string()};
    const RunResult result = run_lint(one);
    REQUIRE(result.errors.empty());
    for (const Diagnostic& d : result.report.diagnostics) alone.push_back(test::render({d}));
  }
  REQUIRE(alone.size() > 75);

  for (unsigned jobs : {1u, 2u, 3u}) {
    CAPTURE(jobs);
    options.jobs = jobs;
    const RunResult result = run_lint(options);
    REQUIRE(result.errors.empty());
    CHECK(result.report.files.size() == 75);
    std::vector<std::string> together;
    for (const Diagnostic& d : result.report.diagnostics) together.push_back(test::render({d}));
    CHECK(together == alone);
  }
}
