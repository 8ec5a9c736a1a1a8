// Files a pull request can plant: a per-folder .planlint.toml names only files inside its
// repository, and configs, catalogs, rule packs and baselines are read only from regular files,
// without ever blocking on a device or a FIFO (docs/hardening.md, "Running on untrusted pull
// requests").
#include <sys/stat.h>

#include <catch2/catch.hpp>

#include "integration_support.hpp"

using namespace planlint::test;
namespace fs = std::filesystem;

namespace {

const std::string catalog_entry =
    "[[gpu]]\nid = \"team-gpu\"\nname = \"Team GPU\"\nhbm = \"80 GB\"\nhbm_bandwidth = \"3 TB/s\"\n"
    "sources = [\"our measurements\"]\n[gpu.dense]\nbf16 = \"900 TFLOPS\"\n";

}  // namespace

TEST_CASE("a per-folder config names no file outside its repository", "[hostile][config]") {
  Scratch outside;
  const fs::path secret = outside.write("secret.toml", catalog_entry);
  Scratch dir;  // a repository: it holds .git
  InDirectory here(dir.path);
  dir.write("plans/plan.toml", inference_plan_with(""));
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"catalog = \"/dev/tty\"", "lint.catalog = \"/dev/tty\""},
      {"catalog = \"/proc/self/environ\"", "lint.catalog = \"/proc/self/environ\""},
      {"catalog = [\"ok.toml\", \"../../" + fs::relative(secret, dir.path / "plans").string() + "\"]", "lint.catalog"},
      {"catalog = \"" + secret.string() + "\"", "lint.catalog"},
      {"rules = [\"/etc\"]", "lint.rules = \"/etc\""},
      {"catalog = \"link.toml\"", "lint.catalog = \"link.toml\""},
  };
  dir.write("plans/ok.toml", catalog_entry);
  fs::create_symlink(secret, dir.path / "plans/link.toml");
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto& [line, key] = cases[i];
    // Named by index: a case's text holds the scratch folder's name, new at each run of the test.
    DYNAMIC_SECTION("case " << i) {
      INFO(line);
      dir.write("plans/.planlint.toml", "[lint]\n" + line + "\n");
      const CliRun run = run_cli({"check", "plans/plan.toml"});
      CHECK(run.status == 2);
      INFO(run.err);
      CHECK_THAT(run.err, Catch::StartsWith("plans/.planlint.toml:2:"));
      CHECK_THAT(run.err, Catch::Contains(key));
      CHECK_THAT(run.err, Catch::Contains("outside the repository"));
    }
  }
  SECTION("a file inside the repository, above the config's folder, is fine") {
    dir.write("catalogs/catalog.toml", catalog_entry);
    dir.write("plans/.planlint.toml", "[lint]\ncatalog = \"../catalogs/catalog.toml\"\n");
    const CliRun run = run_cli({"check", "plans/plan.toml"});
    INFO(run.err);
    CHECK(run.status == 0);
  }
  SECTION("a config named with --config may name any file") {
    const fs::path config = outside.write("ci.toml", "[lint]\ncatalog = \"" + secret.string() + "\"\n");
    const CliRun run = run_cli({"check", "--config", config.string(), "plans/plan.toml"});
    INFO(run.err);
    CHECK(run.status == 0);
  }
}

TEST_CASE("configs, catalogs, rule packs and baselines are read only from regular files", "[hostile][config]") {
  Scratch dir;
  InDirectory here(dir.path);
  dir.write("plan.toml", inference_plan_with(""));
  REQUIRE(::mkfifo((dir.path / "fifo.toml").c_str(), 0644) == 0);
  // Nobody writes the FIFO: a blocking open would hang the run for ever.
  SECTION("a catalog") {
    const fs::path config = dir.write("ci.toml", "[lint]\ncatalog = \"fifo.toml\"\n");
    const CliRun run = run_cli({"check", "--config", config.string(), "plan.toml"});
    CHECK(run.status == 2);
    CHECK_THAT(run.err, Catch::Contains("is not a regular file (a FIFO)"));
  }
  SECTION("a config") {
    const CliRun run = run_cli({"check", "--config", "fifo.toml", "plan.toml"});
    CHECK(run.status == 2);
    CHECK_THAT(run.err, Catch::Contains("is not a regular file (a FIFO)"));
  }
  SECTION("a rule pack") {
    const CliRun run = run_cli({"check", "--rules", "fifo.toml", "plan.toml"});
    CHECK(run.status == 2);
    CHECK_THAT(run.err, Catch::Contains("is not a regular file (a FIFO)"));
  }
  SECTION("a baseline") {
    const CliRun run = run_cli({"check", "--baseline", "fifo.toml", "plan.toml"});
    CHECK(run.status == 2);
    CHECK_THAT(run.err, Catch::Contains("is not a regular file (a FIFO)"));
  }
  SECTION("the null device is an empty config") {
    CHECK(run_cli({"check", "--config", "/dev/null", "plan.toml"}).status == 0);
  }
  SECTION("a device") {
    const CliRun run = run_cli({"check", "--config", "/dev/zero", "plan.toml"});
    CHECK(run.status == 2);
    CHECK_THAT(run.err, Catch::Contains("is not a regular file (a character device)"));
  }
}

TEST_CASE("a rule pack's folder search follows no link out of the folder", "[hostile][config][rules]") {
  Scratch dir, outside;
  InDirectory here(dir.path);
  dir.write("plans/plan.toml", inference_plan_with(""));
  const std::string rule = "id = \"org-x\"\ngroup = \"governance\"\nseverity = \"warning\"\nsummary = \"s\"\n"
                           "check = \"true\"\nat = \"plan.name\"\nmessage = \"m\"\n" + std::string(rule_docs_stub);
  dir.write("policies/own.toml", rule);
  const fs::path secret = outside.write("secret.toml", "id = \"org-secret\"\n");
  dir.write(".planlint.toml", "[lint]\nrules = [\"policies/\"]\n");
  SECTION("a link to a file inside the folder is read") {
    dir.write("policies/shared/base.toml", rule);
    fs::remove(dir.path / "policies/own.toml");
    fs::create_symlink("shared/base.toml", dir.path / "policies/own.toml");
    const CliRun run = run_cli({"check", "plans/plan.toml"});
    INFO(run.err);
    CHECK(run.status == 0);
  }
  SECTION("a link out of it is an error naming the link, and nothing of its target is read") {
    fs::create_symlink(secret, dir.path / "policies/planted.toml");
    const CliRun run = run_cli({"check", "plans/plan.toml"});
    INFO(run.err);
    CHECK(run.status == 2);
    CHECK_THAT(run.err, Catch::Contains("planted.toml' in rule pack") && Catch::Contains("is a symbolic link to") &&
                            Catch::Contains("outside the pack's folder"));
    CHECK_THAT(run.err, !Catch::Contains("org-secret"));
  }
}
