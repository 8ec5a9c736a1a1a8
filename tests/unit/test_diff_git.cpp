// `planlint diff` of two revisions, whose blobs one `git cat-file` hands over while the pairs
// already in are linted: the same report with one job and with several, plans matched across
// batches, a file told to be a plan only once its text is in, a file the same at both revisions
// counted and not linted, configs found from a folder inside the repository, and a blob git
// cannot read an error.
#include <nlohmann/json.hpp>

#include "diff_support.hpp"

using namespace planlint;
using namespace planlint::test;
using json = nlohmann::json;

namespace {

/// `plan` without its plan.name line.
std::string unnamed(std::string plan) {
  const std::size_t line = plan.find("name = ");
  plan.erase(line, plan.find('\n', line) + 1 - line);
  return plan;
}

std::vector<std::string> files_of(const json& doc) {
  std::vector<std::string> files;
  for (const json& plan : doc["plans"])
    files.push_back((plan["head"].is_null() ? plan["base"] : plan["head"])["file"].get<std::string>());
  return files;
}

}  // namespace

TEST_CASE("diff of many changed plans reports the same with one job and with several", "[diff][git]") {
  GitRepository repo;
  // 70 changed plans are three batches of pairs with one job, a dozen with three.
  const auto numbered = [](int i) { return fmt::format("plans/p{:03}.toml", i); };
  for (int i = 0; i < 70; ++i) repo.write(numbered(i), diff_training_plan(fmt::format("plan-{}", i), "40%", 64));
  for (int i = 0; i < 5; ++i)
    repo.write(fmt::format("plans/same-{}.toml", i), diff_training_plan(fmt::format("same-{}", i), "40%", 32));
  // Moved from the first batch to the last: matched by name, and by git's rename detection.
  repo.write("plans/000-moved.toml", diff_training_plan("moved", "40%", 128));
  repo.write("plans/001-unnamed.toml", unnamed(diff_training_plan("x", "40%", 16)));
  repo.commit("base");
  for (int i = 0; i < 70; ++i) repo.write(numbered(i), diff_training_plan(fmt::format("plan-{}", i), "40%", 128));
  repo.git("mv plans/000-moved.toml plans/zzz-moved.toml");
  repo.git("mv plans/001-unnamed.toml plans/zzz-unnamed.toml");
  repo.write("plans/zzz-unnamed.toml", unnamed(diff_training_plan("x", "35%", 16)));
  repo.commit("head");
  InDirectory here(repo.dir.path);

  std::vector<std::string> json_out, text_out;
  for (const char* jobs : {"1", "3"}) {
    INFO("-j " << jobs);
    const CliRun run = run_cli({"diff", "--today", "2026-11-30", "-j", jobs, "--format", "json", "git:HEAD~1", "git:HEAD"});
    INFO(run.err);
    REQUIRE(run.status != 2);
    const json doc = json::parse(run.out);
    CHECK(doc["summary"]["changed"] == 70);
    CHECK(doc["summary"]["renamed"] == 2);
    CHECK(doc["summary"]["added"] == 0);
    CHECK(doc["summary"]["removed"] == 0);
    CHECK(doc["summary"]["unchanged"] == 5);
    const std::vector<std::string> files = files_of(doc);
    CHECK(std::is_sorted(files.begin(), files.end()));
    CHECK(files.front() == "plans/p000.toml");
    CHECK(files.back() == "plans/zzz-unnamed.toml");
    for (const json& plan : doc["plans"])
      if (plan["status"] == "renamed")
        CHECK(plan["base"]["file"].get<std::string>().starts_with("plans/00"));
    json_out.push_back(run.out);
    text_out.push_back(run_cli({"diff", "--today", "2026-11-30", "-j", jobs, "git:HEAD~1", "git:HEAD"}).out);
  }
  CHECK(json_out[0] == json_out[1]);
  CHECK(text_out[0] == text_out[1]);
}

TEST_CASE("a revision's file is a plan or not by its text: one that becomes a plan is added, one the same at both "
          "revisions is counted unchanged",
          "[diff][git]") {
  GitRepository repo;
  repo.write("plans/notes.toml", "[meta]\ntitle = \"not a plan yet\"\n");
  repo.write("plans/gone.toml", diff_training_plan("gone", "40%", 8));
  repo.write("plans/kept.toml", diff_training_plan("kept", "40%", 8));
  repo.write("plans/other.toml", "[meta]\ntitle = \"never a plan\"\n");
  repo.write("docs/two.md", diff_capacity_doc("serving-a", 8) + diff_capacity_doc("serving-b", 8));
  repo.commit("base");
  repo.write("plans/notes.toml", diff_training_plan("now-a-plan", "40%", 8));
  repo.write("plans/gone.toml", "[meta]\ntitle = \"no longer a plan\"\n");
  repo.commit("head");
  InDirectory here(repo.dir.path);
  const CliRun run = run_cli({"diff", "--today", "2026-11-30", "--format", "json", "git:HEAD~1", "git:HEAD"});
  INFO(run.err);
  INFO(run.out);
  const json doc = json::parse(run.out);
  CHECK(doc["summary"]["added"] == 1);
  CHECK(doc["summary"]["removed"] == 1);
  CHECK(doc["summary"]["changed"] == 0);
  CHECK(doc["summary"]["unchanged"] == 3);  // kept.toml's plan and the doc's two
  const json* added = plan_named(doc, "now-a-plan");
  REQUIRE(added);
  CHECK((*added)["status"] == "added");
  const json* removed = plan_named(doc, "gone");
  REQUIRE(removed);
  CHECK((*removed)["status"] == "removed");
  const CliRun text = run_cli({"diff", "--today", "2026-11-30", "git:HEAD~1", "git:HEAD"});
  CHECK_THAT(text.out, Catch::StartsWith("git:HEAD~1 → git:HEAD: 2 plans changed (1 added, 1 removed), 3 unchanged\n"));
}

TEST_CASE("diff from a folder inside the repository finds each file's config and names it from there", "[diff][git]") {
  const ChangedRepository changed;
  InDirectory here(changed.repo.dir.path / "plans");
  const CliRun run = run_cli({"diff", "--today", "2026-11-30", "git:HEAD~1", "git:HEAD"});
  INFO(run.err);
  INFO(run.out);
  CHECK(run.status == 1);  // the guardrails of the root's config
  CHECK_THAT(run.out, Catch::Contains("plans/edited.toml"));  // files named from the root
  CHECK_THAT(run.out, Catch::Contains("guardrails.cost_increase = \"20%\" (../.planlint.toml)"));
  CHECK_THAT(run.out, !Catch::Contains("docs/capacity.md"));  // the revisions' trees under this folder only
}

TEST_CASE("a blob git cannot read is exit 2 with git's reason for each revision, and nothing else", "[diff][git]") {
  GitRepository repo;
  repo.write("plans/a.toml", diff_training_plan("a", "40%", 8));
  repo.write("plans/b.toml", diff_training_plan("b", "40%", 8));
  repo.commit("base");
  repo.write("plans/a.toml", diff_training_plan("a", "40%", 16));
  repo.write("plans/b.toml", "[plan]\nname = \"b\"\nkind = \n");  // a head that is not TOML: not reached
  repo.commit("head");
  // The last blob git is asked for, cut short: its size is still in its header, so git ls-tree
  // lists it, and git cat-file stops there.
  std::string object = repo.git("rev-parse HEAD:plans/b.toml");
  while (!object.empty() && object.back() == '\n') object.pop_back();
  const fs::path loose = repo.dir.path / ".git" / "objects" / object.substr(0, 2) / object.substr(2);
  REQUIRE(fs::exists(loose));
  fs::permissions(loose, fs::perms::owner_write, fs::perm_options::add);
  fs::resize_file(loose, fs::file_size(loose) / 3);
  InDirectory here(repo.dir.path);
  const CliRun run = run_cli({"diff", "--today", "2026-11-30", "git:HEAD~1", "git:HEAD"});
  CHECK(run.status == 2);
  CHECK(run.out.empty());
  INFO(run.err);
  CHECK_THAT(run.err, Catch::StartsWith("planlint: error: git:HEAD~1: "));
  CHECK_THAT(run.err, Catch::Contains("\nplanlint: error: git:HEAD: "));
  CHECK_THAT(run.err, Catch::Contains(object));
  CHECK_THAT(run.err, !Catch::Contains("not valid TOML"));
}
