// The command-line conventions of other linters: --exit-zero, -q, --statistics, the concise
// format, --color with NO_COLOR and FORCE_COLOR, and an empty run being an error.
#include <catch2/catch.hpp>

#include <sstream>

#include "cli/cli.hpp"
#include "integration_support.hpp"

namespace fs = std::filesystem;
using namespace planlint::test;

namespace {

/// A plan with two unknown-key errors and nothing else.
std::string two_unknown_keys() { return inference_plan_with("hmb = 1\nlink = 2\n"); }

std::string run_colored(const std::vector<std::string>& args, planlint::cli::Environment environment) {
  std::vector<std::string> all = {"planlint"};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<const char*> argv;
  for (const std::string& a : all) argv.push_back(a.c_str());
  std::ostringstream out, err;
  planlint::cli::run(static_cast<int>(argv.size()), argv.data(), out, err, environment);
  return out.str();
}

}  // namespace

TEST_CASE("planlint check --exit-zero: findings exit 0, a failed run still 2", "[cli][conventions]") {
  Scratch dir;
  const std::string plan = dir.write("plan.toml", two_unknown_keys()).string();
  auto run = run_cli({"check", "--exit-zero", plan});
  CHECK(run.status == 0);
  CHECK_THAT(run.out, Catch::Contains("[unknown-key]"));
  CHECK(run_cli({"check", "--exit-zero", (dir.path / "missing.toml").string()}).status == 2);
}

TEST_CASE("planlint check -q prints the findings only", "[cli][conventions]") {
  Scratch dir;
  const std::string plan = dir.write("plan.toml", two_unknown_keys()).string();
  auto quiet = run_cli({"check", "-q", plan});
  CHECK(quiet.status == 1);
  CHECK_THAT(quiet.out, Catch::Contains("[unknown-key]"));
  CHECK_THAT(quiet.out, !Catch::Contains("2 errors in 1 file"));
  CHECK(run_cli({"check", "--quiet", plan}).out == quiet.out);
  auto full = run_cli({"check", plan});
  CHECK(full.out == quiet.out + "\n2 errors in 1 file\n");
  // A doc without a plan: its note goes too.
  const std::string doc = dir.write("notes.md", "# Notes\n").string();
  CHECK_THAT(run_cli({"check", doc}).err, Catch::Contains("no plan found"));
  CHECK(run_cli({"check", "-q", doc}).err.empty());
}

TEST_CASE("planlint check --statistics counts the findings of each rule", "[cli][conventions]") {
  Scratch dir;
  dir.write("plans/a.toml", two_unknown_keys());
  dir.write("plans/b.toml", inference_plan_with("gpu_count = 8\n"));
  auto run = run_cli({"check", "--statistics", "--select", "unknown-key,bad-value", (dir.path / "plans").string()});
  CHECK(run.status == 1);
  CHECK(run.out == "3  error    unknown-key\n\n3 errors in 2 files\n");
  auto json = run_cli({"check", "--statistics", "--format", "json", (dir.path / "plans").string()});
  CHECK(json.status == 2);
  CHECK(json.err == "planlint: error: --statistics: applies to the text and concise formats, not --format json\n");
}

TEST_CASE("planlint check --format concise: one gcc-style line per finding (--output-format and full are other names)", "[cli][conventions]") {
  Scratch dir;
  const std::string plan = dir.write("plan.toml", two_unknown_keys()).string();
  auto concise = run_cli({"check", "--format", "concise", plan});
  CHECK(concise.status == 1);
  CHECK(concise.out == plan + ":9:1: error: unknown key 'hmb' in [cluster] [unknown-key]\n" + plan +
                           ":10:1: error: unknown key 'link' in [cluster] [unknown-key]\n2 errors in 1 file\n");
  CHECK(run_cli({"check", "--output-format", "concise", plan}).out == concise.out);
  CHECK(run_cli({"check", "--output-format", "full", plan}).out == run_cli({"check", plan}).out);
  CHECK(run_cli({"check", "--format", "full", plan}).out == run_cli({"check", "--format", "text", plan}).out);
}

TEST_CASE("planlint --color auto|always|never, NO_COLOR and FORCE_COLOR", "[cli][conventions][color]") {
  Scratch dir;
  const std::string plan = dir.write("plan.toml", two_unknown_keys()).string();
  using Env = planlint::cli::Environment;
  const Env pipe{false, false, false}, terminal{true, false, false}, no_color{true, true, false},
      forced{false, false, true}, both{false, true, true};
  auto colored = [&](std::vector<std::string> args, Env environment) {
    args.push_back(plan);
    return run_colored(args, environment).find("\x1b[") != std::string::npos;
  };
  CHECK_FALSE(colored({}, pipe));
  CHECK(colored({}, terminal));
  CHECK_FALSE(colored({}, no_color));
  CHECK(colored({}, forced));
  CHECK_FALSE(colored({}, both));  // NO_COLOR wins
  CHECK(colored({"--color", "always"}, pipe));
  CHECK(colored({"--color", "always"}, no_color));
  CHECK_FALSE(colored({"--color", "never"}, forced));
  CHECK_FALSE(colored({"--no-color"}, terminal));
  CHECK(colored({"--color", "auto"}, terminal));
  CHECK_THAT(run_cli({"report", "--help"}).out, Catch::Contains("--color"));
  CHECK(run_cli({"check", "--color", "sometimes", plan}).status == 2);
  CHECK(run_cli({"check", "--color", "always", "--no-color", plan}).status == 2);
}

TEST_CASE("a run that finds no plan is exit 2 unless --allow-empty", "[cli][conventions]") {
  Scratch dir;
  fs::create_directories(dir.path / "empty");
  dir.write("other/pyproject.toml", "[tool.x]\n");
  const std::string empty = (dir.path / "empty").string(), other = (dir.path / "other").string();
  auto run = run_cli({"check", empty});
  CHECK(run.status == 2);
  CHECK(run.out.empty());
  CHECK_THAT(run.err, Catch::StartsWith("planlint: error: no plans found in " + empty + ":"));
  CHECK_THAT(run_cli({empty, other}).err, Catch::StartsWith("planlint: error: no plans found in " + empty + ", " + other + ":"));
  auto allowed = run_cli({"check", "--allow-empty", empty});
  CHECK(allowed.status == 0);
  CHECK(allowed.out == "no problems in 0 files\n");
  // pre-commit passes a commit's files, which may hold no plan.
  CHECK(run_cli({"check", "--skip-non-plans", (dir.path / "other/pyproject.toml").string()}).status == 0);
}

TEST_CASE("a misspelt option or command gets a did-you-mean", "[cli][conventions]") {
  Scratch dir;
  const std::string plan = dir.write("plan.toml", two_unknown_keys()).string();
  auto option = run_cli({"check", "--formt", "json", plan});
  CHECK(option.status == 2);
  CHECK_THAT(option.err, Catch::StartsWith("planlint: error: ") && Catch::Contains("; did you mean '--format'?\n"));
  auto implied = run_cli({plan, "--exit-zreo"});  // `planlint PATH` is check
  CHECK_THAT(implied.err, Catch::Contains("did you mean '--exit-zero'?"));
  auto report = run_cli({"report", "--blokc", "2", plan});
  CHECK_THAT(report.err, Catch::Contains("did you mean '--block'?"));
  auto command = run_cli({"chek", plan});
  CHECK(command.status == 2);
  CHECK(command.err == "planlint: error: unknown command 'chek'; did you mean 'check'?\nRun 'planlint --help' for usage.\n");
  CHECK_THAT(run_cli({"repotr", plan}).err, Catch::Contains("did you mean 'report'?"));
  // A file of that name is linted, as `planlint PATH` always does.
  InDirectory in(dir.path);
  dir.write("chek", two_unknown_keys());
  CHECK(run_cli({"chek"}).status == 1);
}
