// A folder search honours .gitignore (--no-ignore lints everything), --exclude and a config's
// `exclude`; a file named on the command line is linted whatever they say.
#include <catch2/catch.hpp>

#include "integration_support.hpp"

using namespace planlint::test;

namespace {

/// The files a run lints, one per line of its concise output (each plan has one finding).
std::string linted(const CliRun& run) {
  std::string files;
  for (std::size_t begin = 0, end; (end = run.out.find('\n', begin)) != std::string::npos; begin = end + 1) {
    const std::string line = run.out.substr(begin, end - begin);
    if (const std::size_t colon = line.find(':'); colon != std::string::npos && line.find("[unknown-key]") != std::string::npos)
      files += line.substr(0, colon) + "\n";
  }
  return files;
}

/// A scratch repository whose plans each have one unknown-key finding.
struct Plans {
  Scratch dir;
  void plan(const std::string& name) const { dir.write(name, inference_plan_with("hmb = 1\n")); }
};

}  // namespace

TEST_CASE("planlint check: a folder search leaves out what .gitignore ignores; --no-ignore lints it", "[cli][ignore]") {
  Plans repo;
  repo.plan("plans/a.toml");
  repo.plan("plans/generated/b.toml");
  repo.plan("plans/scratch.toml");
  repo.plan("plans/keep/scratch.toml");
  repo.dir.write(".gitignore", "generated/\nscratch.toml\n");
  repo.dir.write("plans/keep/.gitignore", "!scratch.toml\n");
  // The repository root's .gitignore applies to a search of a folder below it.
  InDirectory here(repo.dir.path);
  const auto run = run_cli({"check", "--format", "concise", "plans"});
  CHECK(run.status == 1);
  CHECK(linted(run) == "plans/a.toml\nplans/keep/scratch.toml\n");
  const auto everything = run_cli({"check", "--format", "concise", "--no-ignore", "plans"});
  CHECK(linted(everything) ==
        "plans/a.toml\nplans/generated/b.toml\nplans/keep/scratch.toml\nplans/scratch.toml\n");
  // Named, an ignored file is linted.
  CHECK(linted(run_cli({"check", "--format", "concise", "plans/scratch.toml"})) == "plans/scratch.toml\n");
  // Every plan ignored: nothing to lint is exit 2.
  repo.dir.write("only/.gitignore", "*.toml\n");
  repo.plan("only/x.toml");
  const auto none = run_cli({"check", "only"});
  CHECK(none.status == 2);
  CHECK_THAT(none.err, Catch::StartsWith("planlint: error: no plans found in only:"));
}

TEST_CASE("planlint check --exclude GLOB leaves files and folders out of a folder search", "[cli][ignore]") {
  Plans repo;
  repo.plan("plans/a.toml");
  repo.plan("plans/drafts/b.toml");
  repo.plan("plans/c.old.toml");
  repo.plan("plans/sub/drafts/d.toml");
  InDirectory here(repo.dir.path);
  CHECK(linted(run_cli({"check", "--format", "concise", "--exclude", "drafts/", "--exclude", "*.old.toml", "plans"})) ==
        "plans/a.toml\n");
  // Anchored to the working folder: only plans/drafts.
  CHECK(linted(run_cli({"check", "--format", "concise", "--exclude", "/plans/drafts", "plans"})) ==
        "plans/a.toml\nplans/c.old.toml\nplans/sub/drafts/d.toml\n");
  // --no-ignore does not turn --exclude off; a named file is linted all the same.
  CHECK(linted(run_cli({"check", "--format", "concise", "--no-ignore", "--exclude", "drafts", "plans",
                        "plans/drafts/b.toml"})) == "plans/a.toml\nplans/c.old.toml\nplans/drafts/b.toml\n");
  CHECK(run_cli({"check", "--exclude", "", "plans"}).status == 2);
}

TEST_CASE("planlint check: a config's exclude is relative to its folder", "[cli][ignore][config]") {
  Plans repo;
  repo.plan("team/a.toml");
  repo.plan("team/drafts/b.toml");
  repo.plan("team/old.toml");
  repo.plan("other/old.toml");
  repo.dir.write("team/.planlint.toml", "[lint]\nexclude = [\"drafts/\", \"/old.toml\"]\n");
  InDirectory here(repo.dir.path);
  CHECK(linted(run_cli({"check", "--format", "concise", "."})) == "./other/old.toml\n./team/a.toml\n");
  CHECK(linted(run_cli({"check", "--format", "concise", "team/old.toml"})) == "team/old.toml\n");
  repo.dir.write("team/.planlint.toml", "[lint]\nexclude = \"drafts/\"\n");
  const auto wrong = run_cli({"check", "team"});
  CHECK(wrong.status == 2);
  CHECK_THAT(wrong.err, Catch::Contains(".planlint.toml:2:11: error: lint.exclude must be an array of strings"));
}
