// `planlint diff` over a git repository with two commits: a plan edited (its cost up, a finding
// introduced and one resolved, a target flipped, a guardrail exceeded), one added, one renamed,
// one removed and a Markdown doc's plan changed; every part of the output in every format.
#include <set>

#include <nlohmann/json.hpp>

#include "diff_support.hpp"

using namespace planlint;
using namespace planlint::test;
using json = nlohmann::json;

TEST_CASE("diff of two commits lists each plan edited, added, renamed and removed with its figures", "[diff]") {
  const ChangedRepository changed;
  const CliRun run = changed.diff({"git:HEAD~1", "git:HEAD", "--format", "json"});
  INFO(run.err);
  INFO(run.out);
  REQUIRE(run.status == 1);  // an error introduced, a guardrail exceeded
  const json doc = json::parse(run.out);
  // schemas/diff.schema.json describes it, as ajv reads the schema.
  const fs::path written = changed.repo.dir.write("diff.json", run.out);
  std::string validation;
  if (const auto validator = ajv()) {
    CHECK(run_command(quote(*validator) + " validate --spec=draft7 --strict=false -s " +
                          quote(std::string(PLANLINT_SOURCE_DIR) + "/schemas/diff.schema.json") + " -d " +
                          quote(written.string()),
                      validation) == 0);
    INFO(validation);
  }
  CHECK(doc["version"] == 1);
  CHECK(doc["base"] == "git:HEAD~1");
  CHECK(doc["summary"]["changed"] == 2);  // edited.toml, the doc's plan
  CHECK(doc["summary"]["added"] == 1);
  CHECK(doc["summary"]["renamed"] == 1);
  CHECK(doc["summary"]["removed"] == 1);
  CHECK(doc["summary"]["unchanged"] == 1);
  CHECK(doc["summary"]["cost_rose"] == true);

  const json* edited = plan_named(doc, "edited-plan");
  REQUIRE(edited);
  CHECK((*edited)["status"] == "changed");
  CHECK((*edited)["head"]["file"] == "plans/edited.toml");
  const json* cost = figure_named(*edited, "cost.total");
  REQUIRE(cost);
  // GPU time ∝ 1 / MFU: 40% → 25% is 1.6× the cost, its range from the assumptions' ends.
  CHECK((*cost)["unit"] == "USD");
  CHECK((*cost)["change_fraction"].get<double>() == Approx(0.6));
  CHECK((*cost)["head"]["value"].get<double>() == Approx((*cost)["base"]["value"].get<double>() * 1.6));
  CHECK((*cost)["head"]["low"].get<double>() < (*cost)["head"]["value"].get<double>());
  CHECK((*cost)["head"]["high"].get<double>() > (*cost)["head"]["value"].get<double>());
  const json* days = figure_named(*edited, "train.wall_days");
  REQUIRE(days);
  CHECK((*days)["unit"] == "d");
  CHECK(figure_named(*edited, "cluster.count") == nullptr);  // unchanged: only moved figures by default

  // The inputs that changed, with their lines; the assumption's new source is an edit.
  bool mfu = false, hmb = false;
  for (const json& input : (*edited)["inputs"]) {
    if (input["key"] == "training.mfu") {
      mfu = true;
      CHECK(input["base"]["text"] == "\"40%\"");
      CHECK(input["head"]["text"] == "\"25%\"");
      CHECK(input["head"]["line"] == 21);
    }
    hmb = hmb || input["key"] == "cluster.hmb";
  }
  CHECK(mfu);
  CHECK_FALSE(hmb);  // not a plan key: the finding says so
  bool sourced = false;
  for (const json& assumption : (*edited)["assumptions"])
    if (assumption["id"] == "mfu") {
      sourced = true;
      CHECK(assumption["change"] == "edited");  // value and source, not the range
      CHECK(assumption["fields"] == json::array({"value", "source"}));
    }
  CHECK(sourced);

  // Findings matched by fingerprint: the misspelt key is new, the unsourced MFU fixed.
  const json& findings = (*edited)["findings"];
  std::vector<std::string> introduced, resolved;
  for (const json& f : findings["introduced"]) introduced.push_back(f["rule"]);
  for (const json& f : findings["resolved"]) resolved.push_back(f["rule"]);
  CHECK(std::count(introduced.begin(), introduced.end(), "unknown-key") == 1);
  CHECK(std::count(resolved.begin(), resolved.end(), "assumption-missing-source") == 1);
  for (const json& f : findings["introduced"]) CHECK(f["fingerprint"].get<std::string>().size() == 16);

  // The target of 30 days, met at 40% MFU (19 d), is missed at 25% (31 d).
  REQUIRE((*edited)["targets"].size() == 1);
  CHECK((*edited)["targets"][0]["name"] == "training time");
  CHECK((*edited)["targets"][0]["base_met"] == true);
  CHECK((*edited)["targets"][0]["head_met"] == false);

  // Guardrails: the cost rose 60% (on the MFU's line, the key it rests on) and an error came in.
  std::vector<std::string> guardrail_keys;
  for (const json& g : (*edited)["guardrails"]) {
    CHECK(g["rule"] == "guardrail-exceeded");
    CHECK(g["suppressed"] == false);
    guardrail_keys.push_back(g["key"]);
  }
  CHECK(std::count(guardrail_keys.begin(), guardrail_keys.end(), "training.mfu") == 1);
  CHECK(std::count(guardrail_keys.begin(), guardrail_keys.end(), "cluster.hmb") == 1);

  const json* renamed = plan_named(doc, "renamed-plan");
  REQUIRE(renamed);
  CHECK((*renamed)["status"] == "renamed");
  CHECK((*renamed)["base"]["file"] == "plans/old-name.toml");
  CHECK((*renamed)["head"]["file"] == "plans/new-name.toml");
  CHECK((*renamed)["findings"]["introduced"].empty());  // its findings followed it
  CHECK((*renamed)["findings"]["resolved"].empty());

  const json* added = plan_named(doc, "added-plan");
  REQUIRE(added);
  CHECK((*added)["status"] == "added");
  CHECK((*added)["base"].is_null());
  CHECK(figure_named(*added, "cluster.count") != nullptr);
  const json* removed = plan_named(doc, "removed-plan");
  REQUIRE(removed);
  CHECK((*removed)["status"] == "removed");
  CHECK((*removed)["head"].is_null());

  // The doc's inference plan: twice the GPUs, twice the serving cost of a month.
  const json* serving = plan_named(doc, "chat-serving");
  REQUIRE(serving);
  CHECK((*serving)["head"]["file"] == "docs/capacity.md");
  const json* month = figure_named(*serving, "infer.cost_per_month");
  REQUIRE(month);
  CHECK((*month)["change_fraction"].get<double>() == Approx(1.0));
  CHECK((*month)["head"]["value"].get<double>() == Approx(16 * 3 * 730.5));

  // Totals over the plans of the change: removed 32 and added 512 GPUs, the rest as they were.
  const json& all = doc["totals"]["all"];
  CHECK(all["head"]["gpus"].get<double>() - all["base"]["gpus"].get<double>() == Approx(512 - 32 + 8));
  REQUIRE(doc["totals"]["by_gpu"].size() == 1);
  CHECK(doc["totals"]["by_gpu"][0]["gpu"] == "h100-sxm");
}

TEST_CASE("diff's text output shows each part of the change", "[diff]") {
  const ChangedRepository changed;
  const CliRun run = changed.diff({"git:HEAD~1", "git:HEAD"});
  INFO(run.err);
  INFO(run.out);
  REQUIRE(run.status == 1);
  const std::string& out = run.out;
  CHECK(out.starts_with("git:HEAD~1 → git:HEAD: 5 plans changed (2 changed, 1 added, 1 renamed, 1 removed), 1 unchanged\n"));
  CHECK(out.find("\nedited-plan (training): changed, plans/edited.toml:1\n") != std::string::npos);
  CHECK(out.find("cost +") != std::string::npos);
  CHECK(out.find("training.mfu: \"40%\" → \"25%\"  (line 21)") != std::string::npos);
  CHECK(out.find("mfu (training.mfu): edited (value, source), \"20%\"–\"50%\" → \"20%\"–\"50%\"") != std::string::npos);
  // The misspelt key and the target now missed are new; the unsourced MFU is fixed.
  CHECK(out.find("findings: 2 introduced, 1 resolved, 0 unchanged") != std::string::npos);
  CHECK(out.find("    + plans/edited.toml:") != std::string::npos);
  CHECK(out.find("[unknown-key]") != std::string::npos);
  CHECK(out.find("[assumption-missing-source]  (before)") != std::string::npos);
  CHECK(out.find("'training time' (train.days at most 30 d): met → not met") != std::string::npos);
  CHECK(out.find("guardrails\n") != std::string::npos);
  CHECK(out.find("raises the plan's cost by 60%") != std::string::npos);
  CHECK(out.find("renamed-plan (training): renamed, plans/old-name.toml → plans/new-name.toml:1") != std::string::npos);
  CHECK(out.find("added-plan (training): added, plans/added.toml:1\n  new: cost $") != std::string::npos);
  CHECK(out.find("no headline figure moved") == std::string::npos);
  CHECK(out.find("removed-plan (training): removed, plans/removed.toml:1\n  was: cost $") != std::string::npos);
  CHECK(out.find("chat-serving (inference): changed, docs/capacity.md:") != std::string::npos);
  CHECK(out.find("serving cost per month") != std::string::npos);
  CHECK(out.find("\ntotals of the 5 plans of the change\n  h100-sxm: cost ") != std::string::npos);
  CHECK(out.find("\n  all: cost ") != std::string::npos);
}

TEST_CASE("a change of serving plans only totals their GPUs, not a cost or GPU-hours they do not have", "[diff]") {
  // An inference plan's cost is a month's serving cost (shown per plan); the totals add the
  // training cost and GPU-hours of the plans, which it has none of: not "$0.00 → $0.00".
  GitRepository repo;
  repo.write("docs/capacity.md", diff_capacity_doc("chat-serving", 8));
  repo.commit("base");
  repo.write("docs/capacity.md", diff_capacity_doc("chat-serving", 16));
  repo.commit("head");
  InDirectory here(repo.dir.path);
  const CliRun text = run_cli({"diff", "--today", "2026-11-30", "git:HEAD~1", "git:HEAD"});
  INFO(text.err);
  INFO(text.out);
  REQUIRE(text.status == 0);
  CHECK(text.out.find("\n  h100-sxm: cost —; GPU-hours —; GPUs 8 → 16 +8 (+100%)\n") != std::string::npos);
  CHECK(text.out.find("$0.00") == std::string::npos);
  const CliRun markdown = run_cli({"diff", "--today", "2026-11-30", "--format", "markdown", "git:HEAD~1", "git:HEAD"});
  INFO(markdown.out);
  CHECK(markdown.out.find("| **all** | — | — | 8 → 16 +8 (+100%) |") != std::string::npos);
}

TEST_CASE("diff's Markdown is a comment: the marker, a summary table, a section per plan", "[diff]") {
  const ChangedRepository changed;
  const CliRun run = changed.diff({"git:HEAD~1", "git:HEAD", "--format", "markdown"});
  INFO(run.err);
  INFO(run.out);
  REQUIRE(run.status == 1);
  const std::string& out = run.out;
  CHECK(out.starts_with("<!-- planlint-diff -->\n### planlint diff: 5 plans changed"));
  const std::size_t table = out.find("| plan | | cost |");
  const std::size_t first_section = out.find("<details>");
  REQUIRE(table != std::string::npos);
  REQUIRE(first_section != std::string::npos);
  CHECK(table < first_section);  // the summary first
  for (const char* name : {"edited-plan", "added-plan", "renamed-plan", "removed-plan", "chat-serving"}) {
    INFO(name);
    CHECK(out.find(fmt::format("| `{}` |", name)) < first_section);
    CHECK(out.find(fmt::format("<summary><code>{}</code>", name)) != std::string::npos);
  }
  CHECK(out.find("**1 guardrail exceeded**") == std::string::npos);
  CHECK(out.find("> **2 guardrails exceeded**") != std::string::npos);
  CHECK(out.find("| `training.mfu` | `\"40%\"` | `\"25%\"` | 21 |") != std::string::npos);
  CHECK(out.find("- **new** error, line ") != std::string::npos);
  CHECK(out.find("- fixed warning, line ") != std::string::npos);
  CHECK(out.find("met → **not met**") != std::string::npos);
  CHECK(out.find("| totals | cost | GPU-hours | GPUs |") != std::string::npos);
  CHECK(out.find("| **all** |") != std::string::npos);
  std::size_t open = 0, close = 0;
  for (std::size_t at = out.find("<details>"); at != std::string::npos; at = out.find("<details>", at + 1)) ++open;
  for (std::size_t at = out.find("</details>"); at != std::string::npos; at = out.find("</details>", at + 1)) ++close;
  CHECK(open == 5);
  CHECK(close == 5);
}

TEST_CASE("diff --format github annotates only what the change introduces", "[diff]") {
  const ChangedRepository changed;
  const CliRun run = changed.diff({"git:HEAD~1", "git:HEAD", "--format", "github"});
  INFO(run.err);
  INFO(run.out);
  REQUIRE(run.status == 1);
  std::vector<std::string> lines;
  std::istringstream text(run.out);
  for (std::string line; std::getline(text, line);)
    if (line.starts_with("::")) lines.push_back(line);
  // The edited plan's misspelt key, missed target and two guardrails, and the added plan's
  // finding; none of the findings the base had already (the renamed plan's, the fixed one).
  std::multiset<std::string> annotations;
  for (const std::string& line : lines) {
    const std::size_t file = line.find("file="), title = line.find(",title=");
    REQUIRE(file != std::string::npos);
    REQUIRE(title != std::string::npos);
    annotations.insert(line.substr(0, line.find(' ')) + " " + line.substr(file + 5, line.find(',', file) - file - 5) +
                       " " + line.substr(title + 7, line.find("::", title) - title - 7));
  }
  CHECK(annotations == std::multiset<std::string>{"::error plans/edited.toml unknown-key",
                                                  "::error plans/edited.toml hard-target-violated",
                                                  "::error plans/edited.toml guardrail-exceeded",
                                                  "::error plans/edited.toml guardrail-exceeded",
                                                  "::warning plans/added.toml interconnect-bottleneck"});
}

TEST_CASE("diff --base-ref compares the working tree with a revision, and a moved plan keeps its name", "[diff]") {
  const ChangedRepository changed;
  // The working tree is the head commit, then: a plan moved and edited, another moved under a
  // new plan.name (two plans, whatever git's rename detection says of the files).
  changed.repo.git("mv plans/new-name.toml plans/newer-name.toml");
  changed.repo.write("plans/newer-name.toml", diff_training_plan("renamed-plan", "41%", 128));
  changed.repo.git("mv plans/added.toml plans/moved.toml");
  changed.repo.write("plans/moved.toml", diff_training_plan("another-name", "40%", 512));
  changed.repo.git("add -A");
  const CliRun run = changed.diff({"--base-ref", "HEAD", "--format", "json", "plans/"});
  INFO(run.err);
  INFO(run.out);
  REQUIRE(run.status == 0);
  const json doc = json::parse(run.out);
  CHECK(doc["base"] == "git:HEAD:plans/");
  CHECK(doc["head"] == "plans/");
  CHECK(doc["summary"]["renamed"] == 1);
  CHECK(doc["summary"]["added"] == 1);
  CHECK(doc["summary"]["removed"] == 1);
  CHECK(doc["summary"]["unchanged"] == 2);  // edited.toml and unchanged.toml, as HEAD has them
  const json* moved = plan_named(doc, "renamed-plan");
  REQUIRE(moved);
  CHECK((*moved)["status"] == "renamed");
  CHECK((*moved)["base"]["file"] == "plans/new-name.toml");
  CHECK((*moved)["head"]["file"] == "plans/newer-name.toml");
  CHECK(figure_named(*moved, "cost.total") != nullptr);  // the MFU's edit moved the cost
  const json* added = plan_named(doc, "another-name");
  REQUIRE(added);
  CHECK((*added)["status"] == "added");
  const json* removed = plan_named(doc, "added-plan");
  REQUIRE(removed);
  CHECK((*removed)["status"] == "removed");
}

TEST_CASE("git's rename detection matches a moved plan that has no plan.name", "[diff]") {
  GitRepository repo;
  auto unnamed = [](const std::string& mfu) {
    std::string plan = diff_training_plan("x", mfu, 64);
    plan.erase(plan.find("name = \"x\"\n"), std::string("name = \"x\"\n").size());
    return plan;
  };
  repo.write("plans/a.toml", unnamed("40%"));
  repo.write("plans/other.toml", diff_training_plan("other", "40%", 32));
  repo.commit("base");
  repo.git("mv plans/a.toml plans/b.toml");
  repo.write("plans/b.toml", unnamed("35%"));
  repo.commit("head");
  InDirectory here(repo.dir.path);
  const CliRun run = run_cli({"diff", "--today", "2026-11-30", "--format", "json", "git:HEAD~1", "git:HEAD"});
  INFO(run.err);
  INFO(run.out);
  const json doc = json::parse(run.out);
  REQUIRE(doc["plans"].size() == 1);
  CHECK(doc["plans"][0]["status"] == "renamed");
  CHECK(doc["plans"][0]["base"]["file"] == "plans/a.toml");
  CHECK(doc["plans"][0]["head"]["file"] == "plans/b.toml");
  // Its findings (plan.name missing) followed it: none introduced, none resolved.
  CHECK(doc["plans"][0]["findings"]["introduced"].empty());
  CHECK(doc["plans"][0]["findings"]["resolved"].empty());
  CHECK_FALSE(doc["plans"][0]["findings"]["unchanged"].empty());
}

TEST_CASE("diff of a plan against itself prints no change and exits 0", "[diff]") {
  const ChangedRepository changed;
  for (const std::vector<std::string>& sides :
       {std::vector<std::string>{"plans/edited.toml", "plans/edited.toml"},
        std::vector<std::string>{"git:HEAD:plans/edited.toml", "plans/edited.toml"},
        std::vector<std::string>{"plans/", "plans/"}, std::vector<std::string>{"--base-ref", "HEAD"}}) {
    INFO(fmt::format("{}", fmt::join(sides, " ")));
    const CliRun run = changed.diff(sides);
    INFO(run.err);
    CHECK(run.status == 0);
    CHECK(run.out.find(": no change (") != std::string::npos);
  }
  // Two files of one plan under different names: one plan compared with the other.
  changed.repo.write("copy.toml", test::read_text(changed.repo.dir.path / "plans/edited.toml"));
  const CliRun copy = changed.diff({"plans/edited.toml", "copy.toml"});
  CHECK(copy.status == 0);
  CHECK(copy.out == "plans/edited.toml → copy.toml: no change (1 plan unchanged)\n");
  const CliRun markdown = changed.diff({"plans/edited.toml", "copy.toml", "--format", "markdown"});
  CHECK(markdown.out.find("no change") != std::string::npos);
}

TEST_CASE("diff says which side and file is not TOML, and a revision git does not know is exit 2", "[diff]") {
  const ChangedRepository changed;
  changed.repo.write("broken.toml", "[plan]\nname = \"broken\"\nkind = \n");
  const CliRun head = changed.diff({"plans/edited.toml", "broken.toml"});
  CHECK(head.status == 2);
  CHECK(head.err.find("planlint: error: broken.toml: broken.toml:3:") != std::string::npos);
  CHECK(head.err.find("not valid TOML") != std::string::npos);
  // A base that does not parse is a plan whose figures before are unknown: a note, not an error.
  const CliRun base = changed.diff({"broken.toml", "plans/edited.toml"});
  CHECK(base.status != 2);
  CHECK(base.err.find("planlint: note: broken.toml: broken.toml:3:") != std::string::npos);

  const CliRun missing = changed.diff({"git:no-such-branch", "plans/"});
  CHECK(missing.status == 2);
  CHECK(missing.out.empty());
  CHECK(missing.err.find("planlint: error: git:no-such-branch: ") != std::string::npos);
  CHECK(missing.err.find("no-such-branch") != std::string::npos);
  CHECK(missing.err.find("fatal: ") != std::string::npos);  // git's own reason

  const CliRun outside = changed.diff({"git:HEAD:../elsewhere", "plans/"});
  CHECK(outside.status == 2);
  CHECK(outside.err.find("outside the repository") != std::string::npos);

  const CliRun option = changed.diff({"git:--output=x", "plans/"});
  CHECK(option.status == 2);
  CHECK(option.err.find("a revision does not start with '-'") != std::string::npos);
}

TEST_CASE("diff's figures are computed once the fixes a side's findings carry are applied", "[diff]") {
  // The head states H100's sparse BF16 peak: with it as written the plan would take half the
  // GPU-hours and cost half as much; sparse-peak's fix (the dense 989 TFLOPS) leaves them as they were.
  GitRepository repo;
  repo.write("plans/peak.toml", diff_training_plan("peak", "40%", 64));
  repo.commit("base");
  repo.write("plans/peak.toml", diff_training_plan("peak", "40%", 64, "peak = \"1979 TFLOPS\"\n"));
  repo.commit("head");
  InDirectory here(repo.dir.path);
  const CliRun run = run_cli({"diff", "--today", "2026-11-30", "--all", "--format", "json", "git:HEAD~1", "git:HEAD"});
  INFO(run.err);
  INFO(run.out);
  const json doc = json::parse(run.out);
  const json* plan = plan_named(doc, "peak");
  REQUIRE(plan);
  CHECK((*plan)["base"]["corrected_inputs"].empty());
  REQUIRE((*plan)["head"]["corrected_inputs"].size() == 1);
  CHECK((*plan)["head"]["corrected_inputs"][0]["key"] == "cluster.peak");
  CHECK((*plan)["head"]["corrected_inputs"][0]["value"] == "989 TFLOPS");
  CHECK((*plan)["head"]["corrected_inputs"][0]["rule"] == "sparse-peak");
  for (const char* name : {"cost.total", "train.gpu_hours", "train.days"}) {
    INFO(name);
    const json* figure = figure_named(*plan, name);
    REQUIRE(figure);
    CHECK((*figure)["head"] == (*figure)["base"]);
  }
  // The finding itself is what the change introduces.
  bool sparse_peak = false;
  for (const json& finding : (*plan)["findings"]["introduced"]) sparse_peak = sparse_peak || finding["rule"] == "sparse-peak";
  CHECK(sparse_peak);
  const CliRun text = run_cli({"diff", "--today", "2026-11-30", "git:HEAD~1", "git:HEAD"});
  CHECK_THAT(text.out, Catch::Contains("the after figures are computed once cluster.peak is 989 TFLOPS (sparse-peak's fix)"));
  const CliRun markdown = run_cli({"diff", "--today", "2026-11-30", "--format", "markdown", "git:HEAD~1", "git:HEAD"});
  CHECK_THAT(markdown.out, Catch::Contains("once cluster.peak is 989 TFLOPS"));
}
