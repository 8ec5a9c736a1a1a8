// A config's mistakes are reported all at once, each at its file:line:col, and so are those of
// every config a run reads: fixing them takes one run, not one run per mistake.
#include <catch2/catch.hpp>

#include "integration_support.hpp"

using namespace planlint::test;

TEST_CASE("planlint check reports every mistake of a config at once", "[cli][config]") {
  Scratch dir;
  dir.write("plans/a.toml", inference_plan_with(""));
  dir.write(".planlint.toml",
            "[lint]\n"
            "selct = [\"all\"]\n"
            "ignore = [\"chinchila-ratio\"]\n"
            "fail_on = \"warn\"\n"
            "rules = [\"nope/\"]\n"
            "[lint.severity]\n"
            "memory-fitt = \"error\"\n");
  InDirectory here(dir.path);
  const auto run = run_cli({"check", "plans/a.toml"});
  CHECK(run.status == 2);
  CHECK(run.out.empty());
  CHECK_THAT(run.err, Catch::Contains(".planlint.toml:2:1: error: unknown key 'selct' in [lint]"));
  CHECK_THAT(run.err, Catch::Contains(".planlint.toml:3:11: error: lint.ignore names 'chinchila-ratio'"));
  CHECK_THAT(run.err, Catch::Contains(".planlint.toml:4:11: error: lint.fail_on = \"warn\""));
  CHECK_THAT(run.err, Catch::Contains(".planlint.toml:5:"));
  CHECK_THAT(run.err, Catch::Contains("nope"));
  CHECK_THAT(run.err, Catch::Contains(".planlint.toml:7:1: error: lint.severity names 'memory-fitt'"));
  CHECK_THAT(run.err, Catch::Contains("invalid config '.planlint.toml'"));
}

TEST_CASE("planlint check reports the mistakes of every config of a run at once", "[cli][config]") {
  Scratch dir;
  dir.write("a/plan.toml", inference_plan_with(""));
  dir.write("a/other.toml", inference_plan_with(""));
  dir.write("b/plan.toml", inference_plan_with(""));
  dir.write("a/.planlint.toml", "[lint]\nselct = [\"all\"]\n");
  dir.write("b/.planlint.toml", "[lint]\nignore = [\"chinchila-ratio\"]\n");
  InDirectory here(dir.path);
  const auto run = run_cli({"check", "a", "b"});
  CHECK(run.status == 2);
  CHECK_THAT(run.err, Catch::Contains("a/.planlint.toml:2:1: error: unknown key 'selct' in [lint]"));
  CHECK_THAT(run.err, Catch::Contains("b/.planlint.toml:2:11: error: lint.ignore names 'chinchila-ratio'"));
  // A config that fails is reported once, however many files it governs.
  const std::string err = run.err;
  CHECK(err.find("unknown key 'selct'") == err.rfind("unknown key 'selct'"));
}
