// The pull-request side of `planlint diff`: the Markdown comment stays under GitHub's limit and
// carries no HTML or link from a plan, names from git are printed escaped, a blob over the size
// limit is an error, and the comment script posts to fakes of GitHub's and GitLab's APIs.
#include <nlohmann/json.hpp>

#include "diff_support.hpp"
#include "planlint/diff/diff.hpp"
#include "planlint/emit/diff_report.hpp"

using namespace planlint;
using namespace planlint::test;

namespace {

/// A diff of an empty base folder with `count` added plans: `name(i)` names each.
DiffRun many_added(const Scratch& dir, std::size_t count, const std::function<std::string(std::size_t)>& name) {
  fs::create_directories(dir.path / "base");
  for (std::size_t i = 0; i < count; ++i)
    dir.write(fmt::format("head/plan-{:03}.toml", i), diff_training_plan(name(i), "40%", 64 + static_cast<int>(i)));
  InDirectory here(dir.path);
  DiffOptions options;
  options.base = *parse_diff_side("base/");
  options.head = *parse_diff_side("head/");
  options.today = Date{2026, 11, 30};
  return run_diff(options);
}

}  // namespace

TEST_CASE("diff's Markdown stays under the comment limit and says how many plans it leaves out", "[diff][markdown]") {
  Scratch dir;
  const DiffRun run = many_added(dir, 20, [](std::size_t i) { return fmt::format("plan-{}", i); });
  REQUIRE(run.errors.empty());
  REQUIRE(run.report.plans.size() == 20);
  auto sections = [](const std::string& text) {
    std::size_t n = 0;
    for (auto at = text.find("</details>"); at != std::string::npos; at = text.find("</details>", at + 1)) ++n;
    return n;
  };
  std::ostringstream whole;
  render_diff(whole, run.report, DiffFormat::markdown);
  CHECK(whole.str().size() <= github_comment_limit);
  CHECK(sections(whole.str()) == 20);
  CHECK(whole.str().find("not shown here") == std::string::npos);

  for (const std::size_t limit : {std::size_t{5000}, std::size_t{12000}}) {
    INFO(limit);
    DiffStyle style;
    style.markdown_limit = limit;
    std::ostringstream cut;
    render_diff(cut, run.report, DiffFormat::markdown, style);
    const std::string text = cut.str();
    CHECK(text.size() <= limit);
    CHECK(text.starts_with(diff_comment_marker));
    CHECK(sections(text) < 20);
    CHECK(text.find(fmt::format("*{} more plans not shown here", 20 - sections(text))) != std::string::npos);
  }
}

TEST_CASE("a plan's name adds no HTML, image or link to the Markdown comment", "[diff][markdown][hostile]") {
  Scratch dir;
  const std::string hostile = "<img src=x onerror=alert(1)>[click](https://evil.example) `x` | \x1b]0;t\x07";
  std::string escaped_toml;
  for (char c : hostile) {
    if (c == '\x1b') escaped_toml += "\\u001b";
    else if (c == '\x07') escaped_toml += "\\u0007";
    else escaped_toml += c;
  }
  const DiffRun run = many_added(dir, 1, [&](std::size_t) { return escaped_toml; });
  REQUIRE(run.errors.empty());
  REQUIRE(run.report.plans.size() == 1);
  CHECK(run.report.plans[0].name == hostile);
  std::ostringstream out;
  render_diff(out, run.report, DiffFormat::markdown);
  const std::string text = out.str();
  INFO(text);
  CHECK(text.find('\x1b') == std::string::npos);
  CHECK(text.find('\x07') == std::string::npos);
  // In the table, a code span (its text shown as it is, no link, no HTML, the table's pipe
  // escaped); in the section's summary, HTML-escaped text. Nowhere else.
  const std::string row = "| ``<img src=x onerror=alert(1)>[click](https://evil.example) `x` \\| \\x1b]0;t\\x07`` |";
  CHECK(text.find(row) != std::string::npos);
  CHECK(text.find("<img") == text.find(row) + 4);
  CHECK(text.find("<img", text.find(row) + 5) == std::string::npos);
  CHECK(text.find("<summary><code>&lt;img src=x onerror=alert(1)&gt;[click](https://evil.example) `x` | "
                  "\\x1b]0;t\\x07</code>") != std::string::npos);
  std::ostringstream plain;
  render_diff(plain, run.report, DiffFormat::text);
  CHECK(plain.str().find('\x1b') == std::string::npos);
}

TEST_CASE("names from git are printed escaped, and a blob over the size limit is an error naming it", "[diff][hostile]") {
  GitRepository repo;
  repo.write("plans/a.toml", diff_training_plan("a", "40%", 64));
  repo.commit("base");
  const std::string name = "plans/evil\x1b]0;owned\x07.toml";
  repo.write(name, diff_training_plan("evil", "40%", 64));
  repo.write("plans/big.toml", diff_training_plan("big", "40%", 64) + "# " + std::string(4096, 'x') + "\n");
  repo.commit("head");
  InDirectory here(repo.dir.path);
  const CliRun run = run_cli({"diff", "--today", "2026-11-30", "git:HEAD~1", "git:HEAD"});
  INFO(run.err);
  CHECK(run.out.find('\x1b') == std::string::npos);
  CHECK(run.out.find('\x07') == std::string::npos);
  CHECK(run.out.find("plans/evil\\x1b]0;owned\\x07.toml") != std::string::npos);
  const CliRun limited = run_cli({"diff", "--max-file-size", "3KiB", "git:HEAD~1", "git:HEAD"});
  CHECK(limited.status == 2);
  CHECK(limited.err.find("git:HEAD: plans/big.toml: file of ") != std::string::npos);
  CHECK(limited.err.find("--max-file-size") != std::string::npos);
}

TEST_CASE("the Action's diff step and the docs' GitLab job post and update one comment on fakes of GitHub and GitLab",
          "[diff][integrations]") {
  const std::string python = system_tool("python3", "python3");
  std::string output;
  const int status = run_command(python + " " + quote(std::string(PLANLINT_SOURCE_DIR) +
                                                      "/tests/integrations/review_comment_test.py") +
                                     " " + quote(PLANLINT_SOURCE_DIR) + " " + quote(PLANLINT_BINARY),
                                 output);
  INFO(output);
  CHECK(status == 0);
  CHECK(output.find(" passed, 0 failed") != std::string::npos);
}
