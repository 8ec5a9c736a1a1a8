// What users of other linters expect of the command line (ruff, eslint): a narrowed --select
// that still reports a plan planlint cannot read. Each runs the built binary, as users do.
#include <filesystem>
#include <string>

#include <catch2/catch.hpp>

#include "integration_support.hpp"

using namespace planlint::test;

namespace {

struct BinaryRun {
  int status = -1;
  std::string out, err;
};

/// The built planlint run in `folder` with `arguments` (shell words) and `input` on stdin.
BinaryRun planlint_in(const fs::path& folder, const std::string& arguments, const std::string& input = "") {
  Scratch io;
  const fs::path in = io.write("stdin", input), err = io.path / "stderr";
  BinaryRun run;
  run.status = run_command("(cd " + quote(folder.string()) + " && " + quote(PLANLINT_BINARY) + " " + arguments + " <" +
                               quote(in.string()) + " 2>" + quote(err.string()) + ")",
                           run.out);
  run.err = read_text(err);
  return run;
}

}  // namespace

TEST_CASE("a narrowed --select still reports what keeps planlint from reading the plan", "[cli][habits][select]") {
  Scratch dir;
  // A GPU the catalog does not have, a unit planlint does not know and a misspelt key.
  dir.write("plan.toml", "[plan]\nname = \"x\"\nkind = \"training\"\n[model]\nparams = \"7 Bq\"\n[training]\n"
                         "tokens = \"1T\"\n[cluster]\ngpu = \"x9000\"\ncount = 8\nhmb = \"80 GB\"\n");
  const BinaryRun narrowed = planlint_in(dir.path, "check --format concise --select peak,memory plan.toml");
  CHECK(narrowed.status == 1);
  CHECK_THAT(narrowed.out, Catch::Contains("[unknown-gpu]") && Catch::Contains("[bad-quantity]") &&
                               Catch::Contains("[unknown-key]"));
  // A config's select narrows alike.
  dir.write(".planlint.toml", "[lint]\nselect = [\"memory\"]\n");
  CHECK_THAT(planlint_in(dir.path, "check --format concise plan.toml").out, Catch::Contains("[unknown-gpu]"));
  // Only an ignore or "off" by name, group or all silences them.
  const BinaryRun ignored = planlint_in(dir.path, "check --format concise --select peak --ignore unknown-gpu plan.toml");
  CHECK(ignored.out.find("[unknown-gpu]") == std::string::npos);
  CHECK_THAT(ignored.out, Catch::Contains("[bad-quantity]"));
  const BinaryRun off = planlint_in(dir.path, "check --format concise --select peak --severity structure=off plan.toml");
  CHECK(off.status == 0);
  CHECK(off.out == "no problems in 1 file\n");
  CHECK(planlint_in(dir.path, "check --select peak --ignore structure plan.toml").status == 0);
}
