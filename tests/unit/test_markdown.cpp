// Markdown capacity docs: each ```toml block with a [plan] table is linted, and findings
// carry the doc's own line numbers. tests/data/markdown/<doc>.md → <doc>.expected (text output
// and exit status), rewritten by PLANLINT_UPDATE_GOLDEN=1.
#include <cstdlib>
#include <fstream>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "integration_support.hpp"
#include "planlint/markdown/markdown.hpp"
#include "support.hpp"

namespace fs = std::filesystem;
using planlint::test::run_cli;

TEST_CASE("the toml blocks holding a [plan] table are found, in order", "[markdown]") {
  const std::string doc =
      "# Doc\n"
      "```toml\n[defaults]\nx = 1\n```\n"         // no [plan]: skipped
      "```toml title=plan.toml\n[plan]\nname = \"a\"\n```\n"
      "  ~~~~TOML\n[ plan ]  # comment\n```\nstill inside\n~~~~\n"
      "```python\n[plan]\n```\n"
      "````toml\n[plan]\n";  // an unclosed fence runs to the end
  auto blocks = planlint::plan_blocks(doc);
  REQUIRE(blocks.size() == 3);
  CHECK(blocks[0].first_line == 7);
  CHECK(blocks[0].last_line == 8);
  CHECK(blocks[1].first_line == 11);
  CHECK(blocks[1].last_line == 13);
  CHECK(blocks[2].first_line == 19);
  CHECK(blocks[2].last_line == 19);
}

TEST_CASE("a block's text is its own lines, line breaks included, without the fences", "[markdown]") {
  const std::string doc = "intro\r\n```toml\r\n[plan]\r\nname = \"a\"\n```\ntail";
  auto blocks = planlint::plan_blocks(doc);
  REQUIRE(blocks.size() == 1);
  CHECK(planlint::block_text(doc, blocks[0]) == "[plan]\r\nname = \"a\"\n");
  const std::string open = "```toml\n[plan]\nname = \"b\"";  // never closed, no final line break
  REQUIRE(planlint::plan_blocks(open).size() == 1);
  CHECK(planlint::block_text(open, planlint::plan_blocks(open)[0]) == "[plan]\nname = \"b\"");
  CHECK(planlint::is_markdown_path("docs/Plan.MD"));
  CHECK_FALSE(planlint::is_markdown_path("plan.toml"));
}

TEST_CASE("every Markdown case prints exactly its expected output", "[markdown][golden]") {
  planlint::test::InDirectory cwd(PLANLINT_SOURCE_DIR);
  std::vector<fs::path> docs;
  for (const auto& entry : fs::directory_iterator("tests/data/markdown"))
    if (entry.path().extension() == ".md") docs.push_back(entry.path());
  std::sort(docs.begin(), docs.end());
  REQUIRE(docs.size() >= 2);
  for (const fs::path& doc : docs) {
    DYNAMIC_SECTION(doc.filename().string()) {
      auto run = run_cli({"check", "--no-color", doc.string()});
      const std::string actual = fmt::format("{}[exit status: {}]\n", run.out, run.status);
      fs::path expected = doc;
      expected.replace_extension(".expected");
      if (planlint::test::updating_golden()) {
        std::ofstream(expected, std::ios::binary) << actual;
        continue;
      }
      INFO("expected output in " << expected.string() << " (PLANLINT_UPDATE_GOLDEN=1 rewrites it)");
      CHECK(actual == planlint::test::read_text(expected));
      CHECK(run.err.empty());
    }
  }
}

TEST_CASE("findings in a Markdown doc point at the doc's own lines", "[markdown]") {
  planlint::test::InDirectory cwd(PLANLINT_SOURCE_DIR);
  auto run = run_cli({"check", "--no-color", "tests/data/markdown/capacity-review.md"});
  CHECK(run.status == 1);
  CHECK_THAT(run.out, Catch::Contains("tests/data/markdown/capacity-review.md:24:1: error: unknown key 'hmb'"));
  CHECK_THAT(run.out, Catch::Contains("   24 | hmb = \"80 GB\""));
  CHECK_THAT(run.out, Catch::Contains("capacity-review.md:40:7: error: unknown GPU"));
  CHECK_THAT(run.out, !Catch::Contains("nvlink"));  // suppressed inside the second block
  CHECK_THAT(run.out, Catch::EndsWith("in 1 file (1 suppressed)\n"));
}

TEST_CASE("a folder yields the Markdown docs that hold a plan", "[markdown][cli]") {
  planlint::test::Scratch dir;
  dir.write("docs/review.md", "# Review\n\n```toml\n[plan]\nname = \"a\"\nkind = \"inference\"\n"
                              "[model]\nparams = \"7B\"\n[cluster]\ngpu = \"h100-sxm\"\ncount = 8\nhbmm = 1\n```\n");
  dir.write("docs/README.md", "# Nothing to lint\n\n```toml\n[tool.x]\ny = 1\n```\n");
  auto run = run_cli({"--no-color", (dir.path / "docs").string()});
  CHECK(run.status == 1);
  CHECK_THAT(run.out, Catch::Contains("review.md:12:1: error: unknown key 'hbmm'"));
  CHECK_THAT(run.out, Catch::EndsWith("1 error in 1 file\n"));
}

TEST_CASE("a named doc without a plan block is passed with a note that nothing in it was linted", "[markdown][cli]") {
  planlint::test::Scratch dir;
  dir.write("notes.md", "# Notes\n\n```toml\n[model]\nparams = \"7B\"\n```\n");
  dir.write("plan.md", "```toml\n[plan]\nname = \"a\"\nkind = \"inference\"\n[model]\nparams = \"7B\"\n"
                       "[cluster]\ngpu = \"h100-sxm\"\ncount = 8\n```\n");
  const std::string notes = (dir.path / "notes.md").string();
  auto run = run_cli({"--no-color", notes});
  CHECK(run.status == 0);
  CHECK(run.err == "planlint: note: " + notes +
                       ": no plan found: the doc holds no ```toml block with a [plan] table, so nothing in it was "
                       "linted\n");
  // A doc with a plan, a folder search and --skip-non-plans say nothing of the kind.
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--no-color", (dir.path / "plan.md").string()},
        std::vector<std::string>{"--no-color", dir.path.string()},
        std::vector<std::string>{"--no-color", "--skip-non-plans", notes}}) {
    INFO(args.back());
    auto quiet = run_cli(args);
    CHECK_THAT(quiet.err, !Catch::Contains("no plan found"));
  }
}

TEST_CASE("a missing section is reported at its own block's first line, one place per block",
          "[markdown][locations]") {
  planlint::test::Scratch dir;
  const std::string block = "```toml\n[plan]\nname = \"x\"\nkind = \"training\"\n[model]\nparams = \"7B\"\n"
                            "[training]\ntokens = \"1T\"\n```\n";
  dir.write("two.md", "# Doc\n\n" + block + "\n" + block);
  planlint::test::InDirectory cwd(dir.path);
  auto run = run_cli({"check", "--no-color", "two.md"});
  CHECK(run.status == 1);
  CHECK_THAT(run.out, Catch::Contains("two.md:4:1: error: missing required section [cluster]"));
  CHECK_THAT(run.out, Catch::Contains("    4 | [plan]\n      | ^\n"));
  CHECK_THAT(run.out, Catch::Contains("two.md:14:1: error: missing required section [cluster]"));
  CHECK_THAT(run.out, !Catch::Contains("two.md:1:1:"));
}

TEST_CASE("a fence inside an HTML comment is comment text, not a plan block", "[markdown]") {
  const std::string plan = "```toml\n[plan]\nname = \"a\"\n```\n";
  // CommonMark HTML block type 2: from a line starting with <!-- to the line holding -->.
  CHECK(planlint::plan_blocks("# Doc\n\n<!--\n" + plan + "-->\n").empty());
  CHECK(planlint::plan_blocks("<!-- old plan:\n" + plan + "end of the old plan -->\n").empty());
  CHECK(planlint::plan_blocks("<!--\n" + plan).empty());  // never closed: to the end of the doc
  // A comment closed on its own line, or one that opens inside a code block, hides nothing.
  auto blocks = planlint::plan_blocks("<!-- a note -->\n" + plan + "```text\n<!--\n```\n" + plan);
  REQUIRE(blocks.size() == 2);
  CHECK(blocks[0].first_line == 3);
  CHECK(blocks[1].first_line == 10);
  // Indented by four spaces it is no HTML block (an indented code block, no fence inside).
  CHECK(planlint::plan_blocks("    <!--\n" + plan).size() == 1);
}
