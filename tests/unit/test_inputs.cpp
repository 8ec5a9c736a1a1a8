// Which files a folder run lints: the scan of a TOML file's text for a top-level [plan] table
// (lint/inputs.cpp) that spares a full parse of every file before linting parses it again.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "integration_support.hpp"
#include "planlint/lint/inputs.hpp"
#include "planlint/lint/path_order.hpp"
#include "planlint/source/toml_limits.hpp"
#include "support.hpp"

namespace fs = std::filesystem;
using planlint::PlanScan;
using planlint::scan_for_plan_table;
using planlint::toml_holds_plan;

namespace {

/// What a parse says: nullopt for text that is not valid TOML, else whether root.plan is a table.
std::optional<bool> parsed_plan_table(std::string_view text) {
  const planlint::TomlResult parsed = planlint::parse_toml(text);
  if (!parsed) return std::nullopt;
  return (*parsed)["plan"].is_table();
}

/// The scan agrees with the parse: `no` only where the parse finds no plan table (or fails),
/// `yes` only where a valid document has one.
void check_agrees(const std::string& text, const std::string& what) {
  const PlanScan scan = scan_for_plan_table(text);
  const std::optional<bool> parsed = parsed_plan_table(text);
  INFO(what << "\n---\n" << text << "\n---");
  if (scan == PlanScan::no) CHECK(parsed != std::optional<bool>(true));
  if (scan == PlanScan::yes && parsed) CHECK(*parsed);
  if (parsed) CHECK(toml_holds_plan(text) == *parsed);
}

}  // namespace

TEST_CASE("the scan finds a top-level plan table in each form TOML allows", "[inputs][plan-scan]") {
  const char* yes[] = {
      "[plan]\nname = 'x'\n",
      "[ plan ]\n",
      "[\tplan\t] # comment\n",
      "[\"plan\"]\n",
      "['plan']\n",
      "[plan.cluster]\n",
      "[ plan . cluster ]\n",
      "[[plan.targets]]\n",
      "plan.name = 'x'\n",
      "plan . name = 'x'\n",
      "\"plan\".name = 'x'\n",
      "plan = { name = 'x' }\n",
      "plan={}\n",
      "\xEF\xBB\xBF[plan]\n",                            // byte order mark
      "# a comment\r\nx = 1\r\n\r\n[plan]\r\n",           // CRLF
      "[tool]\nx = 1\n[plan]\n",
      "a = [\n  'x', # [plan] in a comment\n  \"y\",\n]\n[plan]\n",
      "a = '''x''''\n[plan]\n",                             // the string ends at the last three quotes
      "a = \"\"\"x\"\"\"\"\"\n[plan]\n",
      "a = { b = [1, { c = 2 }] }\n[plan]\n",
      "[plan]\nname = \n",  // a syntax error after the header: linted, the lint reports it
  };
  for (const char* text : yes) {
    INFO(text);
    CHECK(scan_for_plan_table(text) == PlanScan::yes);
    CHECK(toml_holds_plan(text));
  }
}

TEST_CASE("the scan does not count plan where it is not the root's table", "[inputs][plan-scan]") {
  const char* no[] = {
      "",
      "[tool]\nname = 'x'\n",
      "plan = 3\n",
      "plan = [1, 2]\n",
      "plan = 'table'\n",
      "[[plan]]\nname = 'x'\n",         // an array of tables
      "[tool]\nplan.name = 'x'\n",      // tool.plan
      "[tool]\nplan = {}\n",
      "[tool.plan]\n",
      "[planning]\n",
      "plans.x = 1\n",
      "# [plan]\n",
      "a = \"[plan]\"\n",
      "a = '[plan]'\n",
      "a = \"\"\"\n[plan]\n\"\"\"\n",      // inside multi-line strings
      "a = '''\n[plan]\n'''\n",
      "a = \"\"\"\n\\\"\"\"\n[plan]\n\"\"\"\n",  // an escaped quote does not end the string
      "a = \"\"\"x\\\n[plan]\n\"\"\"\n",        // nor does a line-ending backslash
      "a = [\n[\"plan\"],\n]\n",              // inside an array over several lines
      "a = [ # [plan]\n 1 ]\n",
      "x = { plan = { } }\n",
  };
  for (const char* text : no) {
    INFO(text);
    CHECK(scan_for_plan_table(text) == PlanScan::no);
    CHECK_FALSE(toml_holds_plan(text));
  }
}

TEST_CASE("what the scan cannot read goes to the parse", "[inputs][plan-scan]") {
  // An escape could spell the key; the parse decides.
  CHECK(scan_for_plan_table("\"pl\\u0061n\" = {}\n") == PlanScan::unsure);
  CHECK(toml_holds_plan("\"pl\\u0061n\" = {}\n"));
  CHECK(scan_for_plan_table("[\"pl\\u0061n\"]\n") == PlanScan::unsure);
  CHECK(toml_holds_plan("[\"pl\\u0061n\"]\n"));
  // Broken before any plan table: the parse fails, so no plan (as before the scan).
  for (const char* text : {"[plan\n", "= 1\n[plan]\n", "a = \"open\n[plan]\n", "a = '''open\n[plan]\n",
                           "a = ]\n[plan]\n", "[a] b\n[plan]\n", "a =\n[plan]\n", "a\r[plan]\n"}) {
    INFO(text);
    CHECK(scan_for_plan_table(text) == PlanScan::unsure);
    CHECK_FALSE(toml_holds_plan(text));
  }
}

TEST_CASE("the scan agrees with the parse on every toml-test document and the project's TOML",
          "[inputs][plan-scan]") {
  const std::vector<std::string> files = planlint::test::project_toml_files();
  REQUIRE(files.size() > 500);
  std::size_t variants = 0;
  const std::regex word("[A-Za-z_][A-Za-z0-9_-]*");
  for (const std::string& path : files) {
    const std::string text = planlint::test::read_text(path);
    check_agrees(text, path);
    // The same document with one of its words renamed `plan` wherever it occurs (keys, table
    // names, string contents, comments): plan in every position the corpus has keys.
    if (!parsed_plan_table(text) || text.size() > 20000) continue;
    std::set<std::string> renamed;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), word);
         it != std::sregex_iterator() && renamed.size() < 12; ++it) {
      const std::string w = it->str();
      if (w == "plan" || !renamed.insert(w).second) continue;
      const std::string variant = std::regex_replace(text, std::regex("\\b" + w + "\\b"), "plan");
      if (!parsed_plan_table(variant)) continue;
      check_agrees(variant, path + " with '" + w + "' renamed plan");
      ++variants;
    }
  }
  CHECK(variants > 500);
}

TEST_CASE("a folder run lints the files whose text holds a top-level plan table", "[inputs][cli]") {
  planlint::test::Scratch dir;
  const std::string plan = planlint::test::inference_plan_with("hbmm = 1\n");
  dir.write("plans/a.toml", plan);
  dir.write("plans/spaced.toml", "[ plan ]\nname = \"b\"\nkind = \"inference\"\nhbmm = 2\n");
  dir.write("plans/dotted.toml", "plan.name = \"c\"\nplan.kind = \"inference\"\nplan.hbmm = 3\n");
  dir.write("plans/in-string.toml", "notes = \"\"\"\n[plan]\nhbmm = 4\n\"\"\"\n");
  dir.write("plans/in-array.toml", "[[plan]]\nhbmm = 5\n");
  dir.write("plans/tool.toml", "[tool.plan]\nhbmm = 6\n");
  dir.write("plans/broken.toml", "[plan]\nname = \n");
  auto run = planlint::test::run_cli({"--no-color", (dir.path / "plans").string()});
  INFO(run.out << run.err);
  CHECK_THAT(run.out, Catch::Contains("a.toml:9:1: error: unknown key 'hbmm'"));
  CHECK_THAT(run.out, Catch::Contains("spaced.toml:"));
  CHECK_THAT(run.out, Catch::Contains("dotted.toml:"));
  CHECK_THAT(run.out, Catch::Contains("broken.toml:2:"));
  CHECK_THAT(run.out, Catch::Contains("[toml-syntax]"));
  CHECK_THAT(run.out, !Catch::Contains("in-string.toml"));
  CHECK_THAT(run.out, !Catch::Contains("in-array.toml"));
  CHECK_THAT(run.out, !Catch::Contains("tool.toml"));
  CHECK_THAT(run.out, Catch::EndsWith("in 4 files\n"));
}

TEST_CASE("a folder run reads .toml in any case, as it reads .md", "[inputs][cli]") {
  planlint::test::Scratch dir;
  const std::string plan = "[plan]\nname = \"a\"\nkind = \"inference\"\nhbmm = 1\n";
  dir.write("plans/UPPER.TOML", plan);
  dir.write("plans/Mixed.Toml", plan);
  dir.write("plans/README.MD", "# Plan\n\n```toml\n" + plan + "```\n");
  dir.write("plans/not.tomlx", plan);
  auto run = planlint::test::run_cli({"--no-color", (dir.path / "plans").string()});
  INFO(run.out << run.err);
  CHECK_THAT(run.out, Catch::Contains("UPPER.TOML:4:1: error: unknown key 'hbmm'"));
  CHECK_THAT(run.out, Catch::Contains("Mixed.Toml:4:1: error: unknown key 'hbmm'"));
  CHECK_THAT(run.out, Catch::Contains("README.MD:"));
  CHECK_THAT(run.out, !Catch::Contains("not.tomlx"));
}

TEST_CASE("a folder run hands the text it read to the lint, so each file is read once",
          "[inputs]") {
  planlint::test::Scratch dir;
  const std::string plan = "[plan]\nname = \"a\"\nkind = \"inference\"\n";
  dir.write("plans/a.toml", plan);
  dir.write("plans/doc.md", "# Plan\n\n```toml\n" + plan + "```\n");
  dir.write("plans/other.toml", "[tool]\nx = 1\n");
  dir.write("plans/big.toml", plan + "# " + std::string(200, 'x') + "\n");

  SECTION("a folder: every kept file comes with its text; a file over the limit without it") {
    const auto found = planlint::expand_inputs({(dir.path / "plans").string()}, false, 150);
    REQUIRE(found);
    const std::vector<planlint::Input>& inputs = *found;
    REQUIRE(inputs.size() == 3);  // sorted; other.toml holds no plan
    CHECK(fs::path(inputs[0].path).filename() == "a.toml");
    CHECK(inputs[0].text == plan);
    CHECK(fs::path(inputs[1].path).filename() == "big.toml");
    CHECK_FALSE(inputs[1].text.has_value());  // kept, so that its lint reports the limit
    CHECK(fs::path(inputs[2].path).filename() == "doc.md");
    CHECK(inputs[2].text == "# Plan\n\n```toml\n" + plan + "```\n");
  }
  SECTION("a file named explicitly is read by the lint, unless --skip-non-plans read it") {
    const std::string named = (dir.path / "plans" / "a.toml").string();
    const auto kept = planlint::expand_inputs({named}, false);
    REQUIRE(kept);
    REQUIRE(kept->size() == 1);
    CHECK_FALSE((*kept)[0].text.has_value());
    const auto checked = planlint::expand_inputs({named, (dir.path / "plans" / "other.toml").string()}, true);
    REQUIRE(checked);
    REQUIRE(checked->size() == 1);
    CHECK((*checked)[0].text == plan);
  }
}

namespace {

/// The disk as root cannot see it: the files and folders named are unreadable.
class UnreadablePaths : public planlint::InputReader {
 public:
  explicit UnreadablePaths(std::set<std::string> names) : names_(std::move(names)) {}
  planlint::Result<std::string> read(const std::string& path, std::size_t max_bytes,
                                     std::optional<planlint::FileIdentity>& identity) const override {
    if (names_.count(fs::path(path).filename().string()))
      return planlint::Error("Permission denied", planlint::Location{path, {}});
    return InputReader::read(path, max_bytes, identity);
  }
  planlint::Result<std::vector<fs::directory_entry>> list(const fs::path& folder) const override {
    if (names_.count(folder.filename().string()))
      return planlint::Error("Permission denied", planlint::Location{folder.string(), {}});
    return InputReader::list(folder);
  }

 private:
  std::set<std::string> names_;
};

}  // namespace

TEST_CASE("a file or subfolder a folder search cannot read is an error naming it", "[inputs]") {
  planlint::test::Scratch dir;
  const std::string plan = "[plan]\nname = \"a\"\nkind = \"inference\"\n";
  dir.write("plans/a.toml", plan);
  dir.write("plans/b.md", "no plan here\n");
  dir.write("plans/sub/c.toml", plan);
  dir.write("plans/notes.txt", "not a candidate\n");
  const std::string plans = (dir.path / "plans").string();

  SECTION("everything readable: no error") {
    const auto found = planlint::expand_inputs({plans}, false, 1000, UnreadablePaths({}));
    REQUIRE(found);
    CHECK(found->size() == 2);
  }
  SECTION("a candidate file, with a plan or not") {
    for (const char* name : {"a.toml", "b.md"}) {
      const auto found = planlint::expand_inputs({plans}, false, 1000, UnreadablePaths({name}));
      REQUIRE_FALSE(found);
      CHECK(found.error().location.file == (dir.path / "plans" / name).string());
      CHECK(found.error().message == "Permission denied");
    }
  }
  SECTION("a file that is not a candidate is not read") {
    CHECK(planlint::expand_inputs({plans}, false, 1000, UnreadablePaths({"notes.txt"})));
  }
  SECTION("a subfolder, and the folder named itself") {
    for (const char* name : {"sub", "plans"}) {
      const auto found = planlint::expand_inputs({plans}, false, 1000, UnreadablePaths({name}));
      REQUIRE_FALSE(found);
      CHECK(fs::path(found.error().location.file).filename() == name);
      CHECK(found.error().message == "Permission denied");
    }
  }
  SECTION("a file named with --skip-non-plans") {
    const auto found =
        planlint::expand_inputs({(dir.path / "plans" / "a.toml").string()}, true, 1000, UnreadablePaths({"a.toml"}));
    REQUIRE_FALSE(found);
    CHECK(found.error().message == "Permission denied");
  }
}

TEST_CASE("a folder searched on several threads finds what one thread finds, in order", "[inputs]") {
  planlint::test::Scratch dir;
  const std::string plan = "[plan]\nname = \"a\"\nkind = \"inference\"\n";
  for (int i = 0; i < 300; ++i) {
    const std::string name = fmt::format("plans/{}/p{:03}", i % 7, i);
    const bool markdown = i % 5 == 0, holds_plan = i % 3 != 0;
    const std::string text = holds_plan ? plan : "x = 1\n";
    dir.write(name + (markdown ? ".md" : ".toml"), markdown ? "```toml\n" + text + "```\n" : text);
  }
  const std::string plans = (dir.path / "plans").string();
  const auto paths = [](const std::vector<planlint::Input>& inputs) {
    std::vector<std::string> listed;
    for (const planlint::Input& input : inputs) listed.push_back(input.path);
    return listed;
  };
  const auto one = planlint::expand_inputs({plans}, false, 1000, UnreadablePaths({}), 1);
  const auto four = planlint::expand_inputs({plans}, false, 1000, UnreadablePaths({}), 4);
  REQUIRE(one);
  REQUIRE(four);
  CHECK(one->size() == 200);
  CHECK(paths(*four) == paths(*one));
  // Of two unreadable candidates, the first in the search's order is the error, however the
  // threads took them.
  for (unsigned jobs : {1u, 2u, 4u}) {
    const auto found = planlint::expand_inputs({plans}, false, 1000, UnreadablePaths({"p101.toml", "p296.toml"}), jobs);
    REQUIRE_FALSE(found);
    CHECK(found.error().location.file == (dir.path / "plans" / "2" / "p296.toml").string());
  }
}

TEST_CASE("a folder search skips a dangling symbolic link and reports a link loop", "[inputs][cli]") {
  planlint::test::Scratch dir;
  const std::string plans = (dir.path / "plans").string();
  dir.write("plans/a.toml", "[plan]\nname = \"a\"\nkind = \"inference\"\n");
  fs::create_symlink("missing.toml", dir.path / "plans" / "dangling.toml");
  fs::create_directories(dir.path / "plans" / "folder.toml");  // a folder, searched as one
  auto run = planlint::test::run_cli({"--no-color", plans});
  CHECK(run.status != 2);
  CHECK(run.err.empty());
  CHECK_THAT(run.out, Catch::EndsWith("in 1 file\n"));

  fs::create_symlink("loop.toml", dir.path / "plans" / "loop.toml");
  auto loop = planlint::test::run_cli({"--no-color", plans});
  CHECK(loop.status == 2);
  CHECK(loop.err == "planlint: error: cannot read '" + plans + "/loop.toml': Too many levels of symbolic links\n");
  CHECK(loop.out.empty());
}

TEST_CASE("one file named twice, by a relative and an absolute path or a hard link, is linted once",
          "[inputs][cli]") {
  // `check plans/a.toml $PWD/plans/a.toml` linted it twice: its findings and
  // SARIF results doubled, with fingerprints of two names.
  planlint::test::Scratch dir;
  planlint::test::InDirectory cwd(dir.path);
  dir.write("plans/a.toml", planlint::test::inference_plan_with("hmb = 1\n"));
  fs::create_hard_link(dir.path / "plans/a.toml", dir.path / "plans/b.toml");
  const std::string absolute = (dir.path / "plans/a.toml").string();
  auto run = planlint::test::run_cli({"check", "--no-color", "plans/a.toml", absolute, "./plans/a.toml", "plans"});
  CHECK(run.status == 1);
  CHECK_THAT(run.out, Catch::EndsWith("1 error in 1 file\n"));
  CHECK_THAT(run.out, Catch::StartsWith("plans/a.toml:9:1: error: unknown key 'hmb'"));
  // Two files with the same text are two files.
  dir.write("plans/c.toml", planlint::test::inference_plan_with("hmb = 1\n"));
  CHECK_THAT(planlint::test::run_cli({"check", "--no-color", "plans"}).out, Catch::EndsWith("2 errors in 2 files\n"));
}

TEST_CASE("a file with names in two folders is linted under the first name, with that folder's config",
          "[inputs][cli][config]") {
  // The behaviour docs/cli.md "What gets linted" states: one file, one lint, so one config,
  // the first name's; the order of the names decides which.
  planlint::test::Scratch dir;
  planlint::test::InDirectory cwd(dir.path);
  dir.write("team-a/plan.toml", planlint::test::inference_plan_with("hmb = 1\n"));
  dir.write("team-b/.planlint.toml", "[lint]\nignore = [\"unknown-key\"]\n");
  fs::create_hard_link(dir.path / "team-a/plan.toml", dir.path / "team-b/plan.toml");

  auto a_first = planlint::test::run_cli({"check", "--no-color", "team-a", "team-b"});
  CHECK(a_first.status == 1);
  CHECK_THAT(a_first.out, Catch::StartsWith("team-a/plan.toml:9:1: error: unknown key 'hmb'"));
  CHECK_THAT(a_first.out, Catch::EndsWith("1 error in 1 file\n"));
  CHECK(planlint::test::run_cli({"check", "--no-color", "."}).status == 1);  // team-a sorts first

  auto b_first = planlint::test::run_cli({"check", "--no-color", "team-b", "team-a"});
  CHECK(b_first.status == 0);
  CHECK(b_first.out == "no problems in 1 file\n");
  auto json = planlint::test::run_cli({"check", "--format", "json", "team-b/plan.toml", "team-a/plan.toml"});
  CHECK_THAT(json.out, Catch::Contains("\"team-b/plan.toml\""));
  CHECK(json.out.find("team-a/plan.toml") == std::string::npos);

  // A symbolic link is a name of its own: its config is found from the link's folder.
  fs::remove(dir.path / "team-b/plan.toml");
  fs::create_symlink("../team-a/plan.toml", dir.path / "team-b/plan.toml");
  CHECK(planlint::test::run_cli({"check", "--no-color", "team-b/plan.toml", "team-a/plan.toml"}).status == 0);
  CHECK(planlint::test::run_cli({"check", "--no-color", "team-a/plan.toml", "team-b/plan.toml"}).status == 1);
}

TEST_CASE("a folder's files are ordered as std::filesystem::path orders them", "[inputs]") {
  // Names that sort differently as whole texts than element by element ('-', '.', ' ' and
  // digits come before '/' in ASCII), prefixes of names and of folders, bytes above 127.
  const std::vector<std::string> names = {
      "plans/a.toml",     "plans/a-b.toml",   "plans/a/b.toml",    "plans/a b/c.toml", "plans/a.b/c.toml",
      "plans/a/b/c.toml", "plans/ab.toml",    "plans/a0/x.toml",   "plans/a-/x.toml",  "plans/A.toml",
      "plans/a/.toml",    "plans/\xc3\xa9.toml", "plans/z/a.toml", "plans/a",          "plans/a/b",
      "plans/b.md",       "plans/a/b-c.toml", "plans/a/b/c-d.toml", "plans/a/b.c/d.toml", "plans/a.toml.md"};
  std::vector<std::filesystem::path> paths(names.begin(), names.end());
  for (const auto& a : paths)
    for (const auto& b : paths) {
      INFO(a.native() << " vs " << b.native());
      CHECK(planlint::path_order_less(a, b) == (a < b));
    }
  std::vector<std::filesystem::path> by_path = paths, by_text = paths;
  std::sort(by_path.begin(), by_path.end());
  std::sort(by_text.begin(), by_text.end(), planlint::path_order_less);
  CHECK(by_text == by_path);
}
