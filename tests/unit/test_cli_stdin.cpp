// `planlint check -` reads a plan from standard input; --stdin-filename names it in the
// findings, finds its config and makes a Markdown name a doc.
#include <catch2/catch.hpp>

#include <sstream>

#include "cli/cli.hpp"
#include "integration_support.hpp"

using namespace planlint::test;

namespace {

/// The real command line with `input` as its standard input.
CliRun run_with_stdin(const std::vector<std::string>& args, const std::string& input) {
  std::vector<std::string> all = {"planlint"};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<const char*> argv;
  for (const std::string& a : all) argv.push_back(a.c_str());
  std::istringstream in(input);
  planlint::cli::Environment environment;
  environment.input = &in;
  std::ostringstream out, err;
  CliRun run;
  run.status = planlint::cli::run(static_cast<int>(argv.size()), argv.data(), out, err, environment);
  run.out = out.str();
  run.err = err.str();
  return run;
}

}  // namespace

TEST_CASE("planlint check - lints standard input, named '-'", "[cli][stdin]") {
  const auto run = run_with_stdin({"check", "--format", "concise", "-"}, inference_plan_with("hmb = 1\n"));
  CHECK(run.status == 1);
  CHECK(run.out == "-:9:1: error: unknown key 'hmb' in [cluster] [unknown-key]\n1 error in 1 file\n");
  // `planlint -`: check is the default command.
  CHECK(run_with_stdin({"-"}, inference_plan_with("")).status == 0);
  // Empty standard input holds no plan: a plan file named explicitly without [plan].
  const auto empty = run_with_stdin({"check", "--format", "concise", "-"}, "");
  CHECK(empty.status == 1);
  CHECK_THAT(empty.out, Catch::Contains("[missing-required]"));
}

TEST_CASE("planlint check --stdin-filename names standard input and finds its folder's config", "[cli][stdin]") {
  Scratch dir;
  dir.write("plans/.planlint.toml", "[lint]\nignore = [\"unknown-key\"]\n");
  dir.write("plans/on-disk.toml", "not a plan, not read");
  const std::string name = (dir.path / "plans" / "on-disk.toml").string();
  const std::string plan = inference_plan_with("hmb = 1\n");
  // The config of plans/ ignores unknown-key; the file on disk under that name is not read.
  const auto in_plans = run_with_stdin({"check", "--format", "concise", "--stdin-filename", name, "-"}, plan);
  CHECK(in_plans.status == 0);
  CHECK(in_plans.out == "no problems in 1 file\n");
  // Elsewhere no config ignores it, and the findings carry the name.
  const std::string elsewhere = (dir.path / "other" / "q3.toml").string();
  const auto other = run_with_stdin({"check", "--format", "concise", "--stdin-filename", elsewhere, "-"}, plan);
  CHECK(other.status == 1);
  CHECK(other.out == elsewhere + ":9:1: error: unknown key 'hmb' in [cluster] [unknown-key]\n1 error in 1 file\n");
  // Beside files: each is linted, the names sorted.
  const std::string file = dir.write("other/a.toml", inference_plan_with("")).string();
  const auto both = run_with_stdin({"check", "--stdin-filename", elsewhere, file, "-"}, plan);
  CHECK(both.status == 1);
  CHECK_THAT(both.out, Catch::EndsWith("1 error in 2 files\n"));
}

TEST_CASE("planlint check --stdin-filename with a Markdown name reads standard input as a doc", "[cli][stdin]") {
  const std::string doc = "# Q3 capacity\n\nProse [plan] that is not read.\n\n```toml\n" +
                          inference_plan_with("hmb = 1\n") + "```\n";
  const auto run = run_with_stdin({"check", "--format", "concise", "--stdin-filename", "docs/q3.md", "-"}, doc);
  CHECK(run.status == 1);
  CHECK(run.out == "docs/q3.md:14:1: error: unknown key 'hmb' in [cluster] [unknown-key]\n1 error in 1 file\n");
  // A doc without a plan block passes, with its note.
  const auto prose = run_with_stdin({"check", "--stdin-filename", "notes.md", "-"}, "# Notes\n");
  CHECK(prose.status == 0);
  CHECK_THAT(prose.err, Catch::Contains("notes.md: no plan found"));
  // --skip-non-plans passes it over, as it does a named file.
  CHECK(run_with_stdin({"check", "--skip-non-plans", "--stdin-filename", "notes.md", "-"}, "# Notes\n").out ==
        "no problems in 0 files\n");
}

TEST_CASE("planlint check -: --diff prints standard input's fixes, --fix and a lone --stdin-filename are errors", "[cli][stdin]") {
  const std::string plan = inference_plan_with("hmb = \"80 GB\"\n");
  const auto diff = run_with_stdin({"check", "--diff", "--stdin-filename", "plan.toml", "-"}, plan);
  CHECK(diff.status == 1);
  CHECK_THAT(diff.out, Catch::Contains("+hbm = \"80 GB\""));
  const auto fix = run_with_stdin({"check", "--fix", "-"}, plan);
  CHECK(fix.status == 2);
  CHECK(fix.err == "planlint: error: --fix: standard input ('-') has no file to write; --diff prints its fixes\n");
  const auto lone = run_with_stdin({"check", "--stdin-filename", "plan.toml", "plan.toml"}, plan);
  CHECK(lone.status == 2);
  CHECK(lone.err == "planlint: error: --stdin-filename: names standard input, which is read when a PATH is '-'\n");
  CHECK(run_with_stdin({"check", "--stdin-filename", "", "-"}, plan).status == 2);
}

TEST_CASE("planlint check -: standard input over --max-file-size is exit 2", "[cli][stdin]") {
  const auto run = run_with_stdin({"check", "--max-file-size", "100", "--stdin-filename", "big.toml", "-"},
                                  inference_plan_with(std::string(200, '#') + "\n"));
  CHECK(run.status == 2);
  CHECK(run.err ==
        "planlint: error: cannot read 'big.toml' (standard input): it is over the 100 bytes size limit (raise it with "
        "--max-file-size)\n");
}
