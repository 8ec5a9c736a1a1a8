// The integrations docs/integrations.md gives, run with the real tools: the VS Code problem
// matcher (its regexp, read from the docs, applied with node's RegExp as VS Code applies it), the
// GitLab job's Code Quality report (checked against what GitLab requires) and the JUnit XML
// output (validated with xmllint against the Ant JUnit schema), the editors' .taplo.toml (read from the docs, run with taplo), and the pre-commit
// hooks (the shipped .pre-commit-hooks.yaml through `pre-commit try-repo`, and the docs' `repo:
// local` snippet installed as a git hook and run by `git commit`). Each runs the built binary,
// as a user's tools do.
#include <algorithm>
#include <filesystem>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "integration_support.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace planlint::test;

namespace {

const fs::path source_dir = PLANLINT_SOURCE_DIR;

/// The body of the first fenced block of docs/integrations.md whose text contains `marker`.
std::string docs_block(const std::string& marker) {
  const std::string docs = read_text(source_dir / "docs/integrations.md");
  std::size_t at = 0;
  while ((at = docs.find("\n```", at)) != std::string::npos) {
    const std::size_t body = docs.find('\n', at + 1) + 1;
    const std::size_t end = docs.find("\n```", body);
    REQUIRE(end != std::string::npos);
    const std::string block = docs.substr(body, end + 1 - body);
    if (block.find(marker) != std::string::npos) return block;
    at = end + 4;
  }
  FAIL("docs/integrations.md has no fenced block with " << marker);
  return {};
}

const std::string non_ascii_plan =
    "model = { params = \"7B\", \"\xE6\x95\xB0\xE6\x8D\xAE\xC3\x97\" = 1, layrs = 32 }\n"
    "[plan]\nname = \"x\"\nkind = \"training\"\nupdated = 2026-11-27\n[training]\ntokens = \"1T\"\n"
    "[cluster]\ngpu = \"h100-sxm\"\ncount = 64\n";

/// A repository of plans with findings of every level: the golden cases (errors, warnings,
/// suppressed findings, syntax errors), each rule's fixture that fires, the Markdown fixtures, a plan whose file name has
/// a space, a finding after non-ASCII text on its line, and TOML and Markdown files that hold
/// no plan.
struct PlanRepository {
  Scratch dir;
  PlanRepository() {
    for (const auto& entry : fs::directory_iterator(source_dir / "tests/golden"))
      if (entry.path().extension() == ".toml")
        dir.write("plans/" + entry.path().filename().string(), read_text(entry.path()));
    for (const auto& entry : fs::directory_iterator(source_dir / "tests/data/markdown"))
      if (entry.path().extension() == ".md")
        dir.write("docs/" + entry.path().filename().string(), read_text(entry.path()));
    // Every built-in rule's findings, each message as its rule writes it.
    for (const auto& entry : fs::directory_iterator(source_dir / "tests/rules"))
      if (fs::exists(entry.path() / "fires.toml"))
        dir.write("plans/rules/" + entry.path().filename().string() + ".toml",
                  read_text(entry.path() / "fires.toml"));
    dir.write("plans/llama 7b serving.toml", planlint::test::inference_plan_with("hmb = 1\n"));
    dir.write("plans/non-ascii.toml", non_ascii_plan);
    // Names a folder search lints whatever their case, and the other Markdown extension.
    dir.write("plans/SERVING.TOML", planlint::test::inference_plan_with("gpu_count = 8\n"));
    dir.write("docs/fallback.markdown",
              "# Fallback\n\n```toml\n" + planlint::test::inference_plan_with("gpu_typ = 1\n") + "```\n");
    dir.write("pyproject.toml", "[project]\nname = \"capacity\"\n");
    dir.write("README.md", "# Capacity\n\n```toml\n[tool]\nx = 1\n```\n");
  }
  fs::path path() const { return dir.path; }
};

struct Lint {
  int status = -1;
  std::string output;
};

Lint planlint_binary(const fs::path& cwd, const std::string& arguments) {
  Lint run;
  run.status = run_command("cd " + quote(cwd.string()) + " && " + quote(PLANLINT_BINARY) + " " + arguments, run.output);
  return run;
}

/// The 1-based character column of a 1-based byte column in `line` of `file`.
long character_column(const fs::path& file, long line, long byte_column) {
  const std::string text = read_text(file);
  std::size_t start = 0;
  for (long l = 1; l < line; ++l) start = text.find('\n', start) + 1;
  long characters = 1;
  for (std::size_t i = start; i < start + static_cast<std::size_t>(byte_column - 1); ++i)
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++characters;
  return characters;
}

}  // namespace

TEST_CASE("the docs' VS Code problem matcher reads every finding of the text output, and nothing else",
          "[integrations][vscode]") {
  const std::string node = system_tool("node", "nodejs");
  PlanRepository repo;
  // As the docs' task runs it: ${workspaceFolder}/plans, an absolute path.
  const std::string folders = quote((repo.path() / "plans").string()) + " " + quote((repo.path() / "docs").string());
  const Lint text = planlint_binary(repo.path(), "check --no-color --today 2026-12-01 " + folders);
  REQUIRE(text.status == 1);
  const Lint report = planlint_binary(repo.path(), "check --format json --today 2026-12-01 " + folders);
  REQUIRE(report.status == 1);

  const fs::path output = repo.dir.write("output.txt", text.output);
  std::string matched;
  REQUIRE(run_command(quote(node) + " " + quote((source_dir / "tests/integrations/problem_matcher.mjs").string()) +
                          " " + quote((source_dir / "docs/integrations.md").string()) + " < " + quote(output.string()),
                      matched) == 0);
  INFO(matched);
  const json problems = json::parse(matched)["problems"];

  const json diagnostics = json::parse(report.output)["diagnostics"];
  std::vector<json> findings;
  for (const json& d : diagnostics)
    if (!d["suppressed"].get<bool>()) findings.push_back(d);
  std::set<std::string> levels;
  for (const json& d : findings) levels.insert(d["level"].get<std::string>());
  REQUIRE(levels == std::set<std::string>{"error", "warning", "note"});
  REQUIRE(findings.size() > 100);

  // One problem a finding, in the same order (text and JSON sort alike), with its file, line,
  // character column, severity, message and rule; so no note, help, excerpt or summary line
  // matched.
  REQUIRE(problems.size() == findings.size());
  bool saw_non_ascii = false;
  for (std::size_t i = 0; i < findings.size(); ++i) {
    const json& d = findings[i];
    const json& p = problems[i];
    INFO(d.dump());
    INFO(p.dump());
    CHECK(p["file"] == d["file"]);
    CHECK(p["line"] == d["line"]);
    const long column = character_column(d["file"].get<std::string>(), d["line"], d["column"]);
    CHECK(p["column"] == column);
    saw_non_ascii = saw_non_ascii || column != d["column"].get<long>();
    CHECK(p["severity"] == d["level"]);
    CHECK(p["message"] == d["message"]);
    CHECK(p["code"] == d["rule"]);
  }
  CHECK(saw_non_ascii);
}

namespace {

/// The docs' GitLab job's command, run in `cwd` on ARGUMENTS: `planlint check --format gitlab -o
/// gl-code-quality-report.json`. Returns the Code Quality report.
json gitlab_code_quality(const fs::path& cwd, const std::string& arguments) {
  const std::string command = "check --format gitlab -o gl-code-quality-report.json";
  REQUIRE_THAT(docs_block(".gitlab-ci.yml"), Catch::Contains("planlint " + command + " plans/"));
  const Lint lint = planlint_binary(cwd, command + " " + arguments);
  INFO(lint.output);
  REQUIRE(lint.status == 1);
  return json::parse(read_text(cwd / "gl-code-quality-report.json"));
}

/// Two findings that are the same in all but the line: the same unused comment, twice.
const std::string twice_suppressed_plan =
    "# planlint: allow-file chinchilla-ratio -- deliberate over-training\n"
    "# planlint: allow-file chinchilla-ratio -- deliberate over-training\n" +
    planlint::test::inference_plan_with("");

/// How many fingerprints the issues of a Code Quality report have. GitLab tells findings apart
/// by fingerprint: two with one fingerprint show as one.
std::size_t distinct_fingerprints(const json& quality) {
  std::set<std::string> fingerprints;
  for (const json& issue : quality) fingerprints.insert(issue["fingerprint"].get<std::string>());
  return fingerprints.size();
}

/// The issues of one report or the other that the other lacks, each as "fingerprint path:line
/// check": none when both have the same findings with the same fingerprints and paths.
std::vector<std::string> issues_not_in_both(const json& before, const json& after) {
  auto issues = [](const json& quality) {
    std::set<std::string> out;
    for (const json& issue : quality)
      out.insert(issue["fingerprint"].get<std::string>() + " " + issue["location"]["path"].get<std::string>() + ":" +
                 std::to_string(issue["location"]["lines"]["begin"].get<long>()) + " " +
                 issue["check_name"].get<std::string>());
    return out;
  };
  const std::set<std::string> a = issues(before), b = issues(after);
  std::vector<std::string> difference;
  std::set_symmetric_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(difference));
  return difference;
}

/// How many issues of two reports of the same findings (same order) have different descriptions.
std::size_t descriptions_changed(const json& before, const json& after) {
  REQUIRE(before.size() == after.size());
  std::size_t changed = 0;
  for (std::size_t i = 0; i < before.size(); ++i) changed += before[i]["description"] != after[i]["description"];
  return changed;
}

}  // namespace

TEST_CASE("planlint check --format gitlab writes a Code Quality report GitLab accepts, with the JSON output's findings",
          "[integrations][gitlab]") {
  PlanRepository repo;
  repo.dir.write("plans/twice-suppressed.toml", twice_suppressed_plan);
  const json quality = gitlab_code_quality(repo.path(), "--today 2026-12-01 plans/ docs/");

  // What GitLab requires of the artifact (tests/integrations/gitlab-code-quality.schema.json).
  if (const auto ajv = planlint::test::ajv()) {
    std::string output;
    const std::string command = quote(*ajv) + " validate --spec=draft7 --strict=false -s " +
                                quote((source_dir / "tests/integrations/gitlab-code-quality.schema.json").string()) +
                                " -d " + quote((repo.path() / "gl-code-quality-report.json").string());
    INFO(command);
    CHECK(run_command(command, output) == 0);
    INFO(output);
  }

  const Lint json_lint = planlint_binary(repo.path(), "check --today 2026-12-01 --format json -o planlint.json plans/ docs/");
  const json report = json::parse(read_text(repo.path() / "planlint.json"));
  std::size_t unsuppressed = 0;
  for (const json& d : report["diagnostics"]) unsuppressed += d["suppressed"].get<bool>() ? 0 : 1;
  CHECK(quality.size() == unsuppressed);
  // One fingerprint a finding, the two identical ones included.
  CHECK(distinct_fingerprints(quality) == quality.size());
  std::size_t twice = 0;
  for (const json& issue : quality) {
    INFO(issue.dump());
    // Repository-relative paths: GitLab links them to the merge request's files.
    CHECK(fs::exists(repo.path() / issue["location"]["path"].get<std::string>()));
    if (issue["location"]["path"] == "plans/twice-suppressed.toml" && issue["check_name"] == "unused-suppression")
      ++twice;
  }
  CHECK(twice == 2);
}

TEST_CASE("the vendored GitLab schema says what it checks: the report --format gitlab writes", "[integrations][gitlab][docs]") {
  const json schema = json::parse(planlint::test::read_text(source_dir / "tests/integrations/gitlab-code-quality.schema.json"));
  const std::string comment = schema["$comment"].get<std::string>();
  CHECK_THAT(comment, Catch::Contains("`planlint check --format gitlab` writes"));
  CHECK(comment.find("jq") == std::string::npos);
}

TEST_CASE("planlint check --format gitlab: fingerprints stay while the finding does, and paths are the repository's",
          "[integrations][gitlab]") {
  PlanRepository repo;
  repo.dir.write("plans/twice-suppressed.toml", twice_suppressed_plan);
  const json quality = gitlab_code_quality(repo.path(), "--today 2026-12-01 plans/ docs/");
  REQUIRE(distinct_fingerprints(quality) == quality.size());

  SECTION("the next day, when plan-stale and assumption-stale count one more day") {
    const json next_day = gitlab_code_quality(repo.path(), "--today 2026-12-02 plans/ docs/");
    CHECK(descriptions_changed(quality, next_day) >= 2);
    CHECK(issues_not_in_both(quality, next_day).empty());
  }
  SECTION("after an edit of a number that a finding's message quotes") {
    const fs::path plan = repo.path() / "plans/rules/mfu-implausible.toml";
    std::string text = read_text(plan);
    const std::size_t at = text.find("mfu = \"72%\"");
    REQUIRE(at != std::string::npos);
    repo.dir.write("plans/rules/mfu-implausible.toml", text.replace(at, 11, "mfu = \"75%\""));
    const json edited = gitlab_code_quality(repo.path(), "--today 2026-12-01 plans/ docs/");
    CHECK(descriptions_changed(quality, edited) >= 1);
    CHECK(issues_not_in_both(quality, edited).empty());
  }
  // The paths and fingerprints are the same however the job names the files.
  SECTION("from a subfolder, on ../ paths") {
    const json from_docs = gitlab_code_quality(repo.path() / "docs", "--today 2026-12-01 ../plans/ ../docs/");
    CHECK(issues_not_in_both(quality, from_docs).empty());
  }
  SECTION("on absolute paths") {
    const json absolute = gitlab_code_quality(
        repo.path() / "plans",
        "--today 2026-12-01 " + quote((repo.path() / "plans").string()) + " " + quote((repo.path() / "docs").string()));
    CHECK(issues_not_in_both(quality, absolute).empty());
  }
  SECTION("on ./ paths") {
    const json dotted = gitlab_code_quality(repo.path(), "--today 2026-12-01 ./plans/ ./docs/");
    CHECK(issues_not_in_both(quality, dotted).empty());
  }
}

TEST_CASE("the docs' .taplo.toml checks the plans with the plan schema and .planlint.toml files with the config schema",
          "[integrations][taplo]") {
  Scratch repo;
  const std::string config = docs_block("[[rule]]");
  repo.write(".taplo.toml", config);
  // The schemas where the snippet's rules expect them, relative to the repository root.
  std::size_t schemas = 0;
  for (std::size_t at = 0; (at = config.find("path = \"", at)) != std::string::npos; ++schemas) {
    at += 8;
    const fs::path path = config.substr(at, config.find('"', at) - at);
    INFO(path.string());
    REQUIRE(fs::exists(source_dir / "schemas" / path.filename()));
    repo.write(path.lexically_normal().string(), read_text(source_dir / "schemas" / path.filename()));
  }
  CHECK(schemas == 2);
  const std::string plan = planlint::test::inference_plan_with("");
  const std::string lint_config = "[lint]\nignore = [\"chinchilla-ratio\"]\n\n[lint.options]\nassumption_max_age = \"90 d\"\n";
  const std::vector<std::string> good = {"plans/serving.toml", "plans/team/training.toml", ".planlint.toml",
                                         "plans/.planlint.toml", "plans/team/.planlint.toml"};
  repo.write("plans/serving.toml", plan);
  repo.write("plans/team/training.toml",
             "[plan]\nname = \"t\"\nkind = \"training\"\n[model]\nparams = \"7B\"\n[training]\ntokens = \"1T\"\n"
             "[cluster]\ngpu = \"h100-sxm\"\ncount = 128\n[estimates.train]\ndays = \"9.6 d\"\n");
  repo.write(".planlint.toml", lint_config);
  repo.write("plans/.planlint.toml", lint_config);
  repo.write("plans/team/.planlint.toml", "[lint]\nselect = [\"all\"]\n");
  // planlint agrees with the schemas: the configs are valid and the plans' keys known.
  const Lint lint = planlint_binary(repo.path, "check plans/");
  INFO(lint.output);
  CHECK(lint.status != 2);
  CHECK_THAT(lint.output, !Catch::Contains("[unknown-key]"));

  const auto taplo_path = planlint::test::taplo();
  if (!taplo_path) return;
  // As an editor runs it: from the repository root, where taplo finds .taplo.toml.
  const std::string taplo = "cd " + quote(repo.path.string()) + " && " + quote(*taplo_path) + " lint ";
  std::string files, output;
  for (const std::string& file : good) files += " " + quote(file);
  const int status = run_command(taplo + files, output);
  INFO(output);
  CHECK(status == 0);

  // A plan, and a config under plans/, each with a key its schema does not have.
  repo.write("plans/team/bad.toml", planlint::test::inference_plan_with("hmb = 1\n"));
  CHECK(run_command(taplo + quote("plans/team/bad.toml"), output) != 0);
  CHECK_THAT(output, Catch::Contains("hmb"));
  repo.write("plans/team/.planlint.toml", "[lint]\nignroe = [\"chinchilla-ratio\"]\n");
  CHECK(run_command(taplo + quote("plans/team/.planlint.toml"), output) != 0);
  CHECK_THAT(output, Catch::Contains("ignroe"));
}

namespace {

/// A git repository of plans with pre-commit's cache inside it, and `path_first` (by default the
/// folder of the built planlint) first on PATH, as the hook's users have it; `environment` is
/// added to each command's environment.
struct HookRepository {
  PlanRepository plans;
  std::string prefix;  ///< cd and the environment, before each command
  explicit HookRepository(const fs::path& path_first = fs::path(PLANLINT_BINARY).parent_path(),
                          const std::string& environment = "") {
    fs::remove_all(plans.path() / ".git");
    prefix = "cd " + quote(plans.path().string()) + " && " + environment + " PATH=" +
             quote(path_first.string()) + ":\"$PATH\" PRE_COMMIT_HOME=" +
             quote((plans.path() / ".pre-commit-home").string()) +
             " GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t"
             " GIT_COMMITTER_EMAIL=t@example.com GIT_CONFIG_NOSYSTEM=1 HOME=" +
             quote(plans.path().string()) + " ";
    std::string output;
    REQUIRE(run("git init -q && git add -A", output) == 0);
  }
  int run(const std::string& command, std::string& output) const {
    return run_command(prefix + "sh -c " + quote(command), output);
  }
};

}  // namespace

TEST_CASE("the shipped pre-commit hook lints the plans and Markdown docs and passes over other files",
          "[integrations][pre-commit]") {
  system_tool("git", "git");
  const std::string pre_commit = system_tool("pre-commit", "pre-commit");
  HookRepository repo;
  std::string output;
  // try-repo runs the hook of this checkout's .pre-commit-hooks.yaml, as `repo:` does for users.
  const int status = repo.run(pre_commit + " try-repo " + quote(source_dir.string()) + " planlint --all-files", output);
  INFO(output);
  CHECK(status == 1);
  CHECK_THAT(output, Catch::Contains("planlint....") && Catch::Contains("Failed"));
  CHECK_THAT(output, Catch::Contains("plans/llama 7b serving.toml:9:1: error: unknown key 'hmb' in [cluster]"));
  CHECK_THAT(output, Catch::Contains("docs/"));
  CHECK_THAT(output, Catch::Contains("plans/SERVING.TOML:9:1: error: unknown key 'gpu_count'"));
  CHECK_THAT(output, Catch::Contains("docs/fallback.markdown:12:1: error: unknown key 'gpu_typ'"));
  // The TOML and Markdown files without a plan are passed over (--skip-non-plans).
  CHECK_THAT(output, !Catch::Contains("pyproject.toml") && !Catch::Contains("README.md"));
}

namespace {

using planlint::test::ReleaseFolder;

/// A folder with a `planlint` of another version on PATH, which prints its version and does
/// nothing else: a hook that ran it instead of the pinned one would pass every plan.
fs::path other_version_on_path(const Scratch& dir) {
  const fs::path fake = dir.write("other/planlint", "#!/bin/sh\necho 'planlint 0.0.1 (git v0.0.1)'\n");
  fs::permissions(fake, fs::perms::owner_all);
  return fake.parent_path();
}

}  // namespace

TEST_CASE("the shipped hook fetches the release binary of its version, checks it and keeps it in the cache",
          "[integrations][pre-commit]") {
  system_tool("git", "git");
  const std::string pre_commit = system_tool("pre-commit", "pre-commit");
  ReleaseFolder release;
  Scratch home;
  // A planlint of another version on PATH: the hook must not use it.
  HookRepository repo(other_version_on_path(home), "PLANLINT_RELEASE_URL=" + quote(release.url) +
                                                       " XDG_CACHE_HOME=" + quote((home.path / "cache").string()));
  const std::string try_repo = pre_commit + " try-repo " + quote(source_dir.string()) + " planlint --all-files";
  std::string output;
  CHECK(repo.run(try_repo, output) == 1);
  INFO(output);
  CHECK_THAT(output, Catch::Contains("plans/llama 7b serving.toml:9:1: error: unknown key 'hmb' in [cluster]"));
  const fs::path cached = home.path / "cache/planlint" / PLANLINT_VERSION / "planlint";
  CHECK(fs::is_regular_file(cached));

  // Offline, from the cache.
  fs::remove_all(release.folder());
  CHECK(repo.run(try_repo, output) == 1);
  CHECK_THAT(output, Catch::Contains("plans/llama 7b serving.toml:9:1: error: unknown key 'hmb' in [cluster]"));
}

TEST_CASE("the shipped hook refuses a release whose checksum differs, and says what to do without one",
          "[integrations][pre-commit]") {
  system_tool("git", "git");
  const std::string pre_commit = system_tool("pre-commit", "pre-commit");
  const std::string try_repo = pre_commit + " try-repo " + quote(source_dir.string()) + " planlint --all-files";
  Scratch home;
  const fs::path cache = home.path / "cache";
  std::string output;
  {
    ReleaseFolder release;
    std::ofstream(release.tarball(), std::ios::binary | std::ios::app) << "tampered";
    HookRepository repo(other_version_on_path(home),
                        "PLANLINT_RELEASE_URL=" + quote(release.url) + " XDG_CACHE_HOME=" + quote(cache.string()));
    CHECK(repo.run(try_repo, output) == 1);
    INFO(output);
    CHECK_THAT(output, Catch::Contains("release does not check out") && Catch::Contains("SHA-256"));
    CHECK_THAT(output, !Catch::Contains("unknown key"));
    CHECK_FALSE(fs::exists(cache / "planlint" / PLANLINT_VERSION / "planlint"));
  }
  {
    // No release to be had, and only another version on PATH: stop, naming both versions.
    HookRepository repo(other_version_on_path(home), "PLANLINT_RELEASE_URL=" +
                                                         quote("file://" + (home.path / "no-release").string()) +
                                                         " XDG_CACHE_HOME=" + quote(cache.string()));
    CHECK(repo.run(try_repo, output) == 1);
    INFO(output);
    CHECK_THAT(output, Catch::Contains(std::string("pinned to planlint ") + PLANLINT_VERSION) &&
                           Catch::Contains("the planlint on PATH is 0.0.1") && Catch::Contains("set PLANLINT"));
  }
  {
    // $PLANLINT names the binary to use, whatever PATH holds.
    HookRepository repo(other_version_on_path(home), "PLANLINT=" + quote(PLANLINT_BINARY) + " XDG_CACHE_HOME=" +
                                                         quote(cache.string()));
    CHECK(repo.run(try_repo, output) == 1);
    INFO(output);
    CHECK_THAT(output, Catch::Contains("plans/llama 7b serving.toml:9:1: error: unknown key 'hmb' in [cluster]"));
  }
}

TEST_CASE("the docs' local pre-commit hook refuses a commit of a plan with an error and lets its fix through",
          "[integrations][pre-commit]") {
  system_tool("git", "git");
  const std::string pre_commit = system_tool("pre-commit", "pre-commit");
  HookRepository repo;
  repo.plans.dir.write(".pre-commit-config.yaml", docs_block("repo: local"));
  std::string output;
  REQUIRE(repo.run("git rm -q -r --cached . && git add .pre-commit-config.yaml pyproject.toml README.md && " +
                       pre_commit + " install && git commit -q -m start",
                   output) == 0);
  INFO(output);

  // A plan with an error: the commit is refused, with the finding.
  const std::string plan = "plans/llama 7b serving.toml";
  int status = repo.run("git add " + quote(plan) + " && git commit -m plan", output);
  INFO(output);
  CHECK(status != 0);
  CHECK_THAT(output, Catch::Contains(plan + ":9:1: error: unknown key 'hmb' in [cluster]"));
  std::string log;
  repo.run("git log --oneline", log);
  CHECK_THAT(log, !Catch::Contains("plan"));

  // The fix goes through; so does a change to a TOML file that holds no plan.
  repo.plans.dir.write(plan, planlint::test::inference_plan_with(""));
  repo.plans.dir.write("pyproject.toml", "[project]\nname = \"capacity-plans\"\n");
  status = repo.run("git add " + quote(plan) + " pyproject.toml && git commit -m plan", output);
  INFO(output);
  CHECK(status == 0);
  CHECK_THAT(output, Catch::Contains("planlint....") && Catch::Contains("Passed"));

  // A doc with the other Markdown extension, and a plan in capitals, are linted too.
  status = repo.run("git add docs/fallback.markdown plans/SERVING.TOML && git commit -m more", output);
  INFO(output);
  CHECK(status != 0);
  CHECK_THAT(output, Catch::Contains("docs/fallback.markdown:12:1: error: unknown key 'gpu_typ'"));
  CHECK_THAT(output, Catch::Contains("plans/SERVING.TOML:9:1: error: unknown key 'gpu_count'"));
}

TEST_CASE("planlint check --format junit is valid against the Apache Ant JUnit schema, a testcase per file and rule",
          "[integrations][junit]") {
  PlanRepository repo;
  const Lint lint = planlint_binary(repo.path(), "check --today 2026-12-01 --format junit -o junit.xml plans/ docs/");
  INFO(lint.output);
  REQUIRE(lint.status == 1);
  const std::string xmllint = system_tool("xmllint", "libxml2-utils");
  std::string output;
  CHECK(run_command(quote(xmllint) + " --noout --schema " +
                        quote((source_dir / "tests/integrations/junit/JUnit.xsd").string()) + " " +
                        quote((repo.path() / "junit.xml").string()),
                    output) == 0);
  INFO(output);
  CHECK_THAT(output, Catch::Contains("validates"));

  // The same findings as the JSON output: a failing testcase per file and rule that has one.
  const Lint json_lint = planlint_binary(repo.path(), "check --today 2026-12-01 --format json -o all.json plans/ docs/");
  const json report = json::parse(read_text(repo.path() / "all.json"));
  std::set<std::string> failing;  // "file rule"
  for (const json& d : report["diagnostics"])
    if (!d["suppressed"].get<bool>())
      failing.insert(d["repository_file"].get<std::string>() + " " + d["rule"].get<std::string>());
  const std::string xml = read_text(repo.path() / "junit.xml");
  std::size_t failures = 0, suites = 0;
  for (std::size_t at = 0; (at = xml.find("<failure ", at)) != std::string::npos; ++at) ++failures;
  for (std::size_t at = 0; (at = xml.find("<testsuite ", at)) != std::string::npos; ++at) ++suites;
  CHECK(failures == failing.size());
  CHECK(suites == report["files"].size());
  // A failure names the place of each finding, file:line:col from the repository root.
  CHECK_THAT(xml, Catch::Contains("<testcase name=\"unknown-key\" classname=\"plans/llama 7b serving.toml\" time=\"0\">"));
  CHECK_THAT(xml, Catch::Contains("plans/llama 7b serving.toml:9:1: error: unknown key &apos;hmb&apos; in [cluster]\n"));
}
