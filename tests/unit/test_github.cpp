// GitHub workflow commands: one annotation per finding, escaped as the runner requires.
#include <sstream>

#include <catch2/catch.hpp>

#include "integration_support.hpp"
#include "planlint/emit/github.hpp"
#include "support.hpp"

using planlint::Diagnostic;
using planlint::Location;
using planlint::Report;
using planlint::Severity;
using planlint::Span;

namespace {

Diagnostic finding(std::string rule, Severity severity, std::string message, Span span) {
  Diagnostic d;
  d.rule = std::move(rule);
  d.severity = severity;
  d.message = std::move(message);
  d.primary = Location{"plans/a,b.toml", span};
  return d;
}

std::string github(const Report& report) {
  std::ostringstream out;
  planlint::emit_github(out, report);
  return out.str();
}

}  // namespace

TEST_CASE("a finding on one line becomes ::error with columns and the rule as title", "[github]") {
  Report report;
  report.diagnostics.push_back(
      finding("unknown-key", Severity::error, "unknown key 'hmb' in [cluster]", Span{{11, 1}, {11, 4}}));
  report.diagnostics.back().help = "did you mean 'hbm'?";
  CHECK(github(report) ==
        "::error file=plans/a%2Cb.toml,line=11,col=1,endLine=11,endColumn=3,title=unknown-key::"
        "unknown key 'hmb' in [cluster]%0Ahelp: did you mean 'hbm'?\n");
}

TEST_CASE("a multi-line span has no columns, warnings and notes use their own commands, and a line break in a message "
          "is input's, shown escaped", "[github]") {
  Report report;
  report.diagnostics.push_back(finding("r1", Severity::warning, "100% of: it", Span{{3, 5}, {5, 2}}));
  report.diagnostics.push_back(finding("r2", Severity::note, "line\r\nbreak", Span{{7, 1}, {7, 2}}));
  report.diagnostics.back().notes.push_back("a note");
  report.diagnostics.push_back(finding("r3", Severity::error, "hidden", Span{{8, 1}, {8, 2}}));
  report.diagnostics.back().suppression = planlint::Suppression{};
  CHECK(github(report) ==
        "::warning file=plans/a%2Cb.toml,line=3,endLine=5,title=r1::100%25 of: it\n"
        "::notice file=plans/a%2Cb.toml,line=7,col=1,endLine=7,endColumn=1,title=r2::line\\r\\nbreak%0Anote: a note\n");
}

TEST_CASE("property values escape % : and , and a line break, and messages escape % CR LF", "[github]") {
  CHECK(planlint::github_escape_property("a:b,c%d\ne") == "a%3Ab%2Cc%25d\\ne");
  CHECK(planlint::github_escape_data("a:b,c%d\r\ne") == "a:b,c%25d%0D%0Ae");
}

TEST_CASE("the github format prints workflow commands for a real plan", "[github][cli]") {
  planlint::test::Scratch dir;
  planlint::test::InDirectory cwd(dir.path);
  dir.write("plan.toml", planlint::test::inference_plan_with("hmb = \"80 GB\"\n"));
  auto run = planlint::test::run_cli({"check", "--format", "github", "plan.toml"});
  CHECK(run.status == 1);
  CHECK(run.out.starts_with("::error file=plan.toml,line=9,col=1,endLine=9,endColumn=3,title=unknown-key::"));
}

TEST_CASE("an annotation names its file from the repository root, wherever planlint ran", "[github]") {
  // The runner attaches an annotation to the file at that path in the workspace: from a
  // subfolder, "../plans/a.toml" attached to nothing.
  const planlint::GithubPaths paths{"/repo", "/repo/tools"};
  CHECK(planlint::annotation_path("../plans/a.toml", paths) == "plans/a.toml");
  CHECK(planlint::annotation_path("b.toml", paths) == "tools/b.toml");
  CHECK(planlint::annotation_path("/repo/c.toml", paths) == "c.toml");
  CHECK(planlint::annotation_path("./d.toml", {"/repo", "/repo"}) == "d.toml");
  // Outside the repository, and without one: as the report shows it.
  CHECK(planlint::annotation_path("/elsewhere/e.toml", paths) == "/elsewhere/e.toml");
  CHECK(planlint::annotation_path("../../f.toml", paths) == "../../f.toml");
  CHECK(planlint::annotation_path("../plans/a.toml", {}) == "../plans/a.toml");
}

TEST_CASE("an annotation's related notes name their file as the annotation does", "[github]") {
  // `file=docs/q3.md` but "note: … (./docs/q3.md:58:16)", the path as typed.
  planlint::test::Scratch dir;
  planlint::test::InDirectory cwd(dir.path);
  dir.write("plans/a.toml", planlint::test::read_text(std::string(PLANLINT_SOURCE_DIR) +
                                                      "/tests/rules/tp-across-nodes/fires.toml"));
  auto run = planlint::test::run_cli({"check", "--format", "github", "--today", "2026-12-01", "./plans/a.toml"});
  INFO(run.out);
  CHECK_THAT(run.out, Catch::Contains("file=plans/a.toml,") && Catch::Contains("(plans/a.toml:") &&
                          !Catch::Contains("(./plans/a.toml:"));
}
