// A folder search honours .gitignore (--no-ignore or `respect_gitignore = false` read none) but
// never for a file git tracks, --exclude and a config's `exclude`; a file named on the command
// line is linted whatever they say.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <optional>

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

TEST_CASE("planlint check: a folder search leaves out what .gitignore ignores, and --no-ignore lints it", "[cli][ignore]") {
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

namespace {

/// A scratch git repository: `git init` over the Scratch's bare `.git` folder.
struct GitRepository : Plans {
  bool ready = false;
  GitRepository() {
    std::string output;
    if (run_command("git --version", output) != 0) return;
    fs::remove_all(dir.path / ".git");
    ready = run_command("git init -q " + quote(dir.path.string()), output) == 0;
  }
  /// Adds files to git's index, past the .gitignore files (`git add -f`).
  void track(const std::string& path) const {
    std::string output;
    REQUIRE(run_command("git -C " + quote(dir.path.string()) + " add -f -- " + quote(path), output) == 0);
  }
};

}  // namespace

TEST_CASE("planlint check: a .gitignore never leaves out a plan git tracks", "[cli][ignore][git]") {
  GitRepository repo;
  if (!repo.ready) {
    WARN("git is not installed: tracked files cannot be told apart");
    return;
  }
  repo.plan("plans/a.toml");
  repo.plan("plans/build/tracked.toml");
  repo.plan("plans/build/deeper/tracked.toml");
  repo.plan("plans/build/untracked.toml");
  repo.plan("plans/tracked.scratch.toml");
  repo.plan("plans/untracked.scratch.toml");
  repo.plan("plans/cache/untracked.toml");
  // A pull request's .gitignore that would hide the repository's own plans.
  repo.dir.write(".gitignore", "build/\n*.scratch.toml\ncache/\n");
  repo.track("plans/a.toml");
  repo.track("plans/build/tracked.toml");
  repo.track("plans/build/deeper/tracked.toml");
  repo.track("plans/tracked.scratch.toml");
  InDirectory here(repo.dir.path);
  for (const char* folder : {"plans", "."}) {
    INFO("planlint check " << folder);
    const auto run = run_cli({"check", "--format", "concise", folder});
    const std::string prefix = std::string(folder) == "." ? "./" : "";
    CHECK(linted(run) == prefix + "plans/a.toml\n" + prefix + "plans/build/deeper/tracked.toml\n" + prefix +
                             "plans/build/tracked.toml\n" + prefix + "plans/tracked.scratch.toml\n");
    CHECK(run.err.find("git tracks") == std::string::npos);
  }
  // --exclude still leaves tracked files out: that is the CI author's choice.
  CHECK(linted(run_cli({"check", "--format", "concise", "--exclude", "build/", "plans"})) ==
        "plans/a.toml\nplans/tracked.scratch.toml\n");

  SECTION("without git, the .gitignore applies to every file, and a note says so") {
    ScopedVariable no_git("PATH", (repo.dir.path / "no-such-folder").string());
    const auto run = run_cli({"check", "--format", "concise", "plans"});
    CHECK(linted(run) == "plans/a.toml\n");
    CHECK_THAT(run.err, Catch::Contains("planlint: note: plans: cannot tell which files git tracks (git is not "
                                        "installed), so .gitignore files may leave tracked plans out of the search"));
    // Nothing is left out by a .gitignore when none is read: no git is needed.
    const auto everything = run_cli({"check", "--format", "concise", "--no-ignore", "plans"});
    CHECK(linted(everything).size() > linted(run).size());
    CHECK(everything.err.find("git tracks") == std::string::npos);
  }
}

TEST_CASE("planlint check: respect_gitignore = false in the governing config reads no .gitignore", "[cli][ignore][config]") {
  Plans repo;
  repo.plan("plans/a.toml");
  repo.plan("plans/generated/b.toml");
  repo.dir.write(".gitignore", "generated/\n");
  repo.dir.write("ci/planlint.toml", "[lint]\nrespect_gitignore = false\n");
  InDirectory here(repo.dir.path);
  const std::string both = "plans/a.toml\nplans/generated/b.toml\n";
  CHECK(linted(run_cli({"check", "--format", "concise", "plans"})) == "plans/a.toml\n");
  // Named with --config: the pull request's .gitignore and .planlint.toml files change nothing.
  repo.dir.write("plans/.planlint.toml", "[lint]\nrespect_gitignore = true\n");
  CHECK(linted(run_cli({"check", "--format", "concise", "--config", "ci/planlint.toml", "plans"})) == both);
  // Discovered: the config that governs the searched folder decides.
  CHECK(linted(run_cli({"check", "--format", "concise", "plans"})) == "plans/a.toml\n");
  repo.dir.write("plans/.planlint.toml", "[lint]\nrespect_gitignore = false\n");
  CHECK(linted(run_cli({"check", "--format", "concise", "plans"})) == both);
  // --no-ignore wins over a config's true.
  repo.dir.write("plans/.planlint.toml", "[lint]\nrespect_gitignore = true\n");
  CHECK(linted(run_cli({"check", "--format", "concise", "--no-ignore", "plans"})) == both);
  repo.dir.write("plans/.planlint.toml", "[lint]\nrespect_gitignore = \"no\"\n");
  const auto wrong = run_cli({"check", "plans"});
  CHECK(wrong.status == 2);
  CHECK_THAT(wrong.err, Catch::Contains(".planlint.toml:2:21: error: lint.respect_gitignore must be true or false"));
  // Read once for the search and for the files it governs: reported once.
  CHECK(wrong.err.find("respect_gitignore must") == wrong.err.rfind("respect_gitignore must"));
}

TEST_CASE("planlint check: a .gitignore line that makes backtracking exponential is matched quickly", "[cli][ignore][hostile]") {
  // git's wildmatch takes minutes on this line against a 200-character name (and triples per
  // `*a` added); planlint's matcher is bounded by pattern × name (test_glob.cpp counts it).
  Plans repo;
  const std::string name = "plans/" + std::string(195, 'a') + ".toml";
  repo.plan(name);
  repo.dir.write(".gitignore", "*a*a*a*a*a*a*b\n");
  std::string deep = "plans";
  for (int i = 1; i <= 30; ++i) deep += "/f" + std::to_string(i);
  repo.plan(deep + "/plan.toml");
  std::string folders;
  for (int i = 0; i < 20; ++i) folders += "**/";
  repo.dir.write("plans/.gitignore", folders + "nomatch.toml\n");
  InDirectory here(repo.dir.path);
  CHECK(linted(run_cli({"check", "--format", "concise", "plans"})) == name + "\n" + deep + "/plan.toml\n");
}
