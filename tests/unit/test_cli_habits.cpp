// What users of other linters expect of the command line (ruff, eslint): a narrowed --select
// that still reports a plan planlint cannot read, `check` with no path, `explain GROUP`, a
// folder given to `report`, a Markdown doc piped without its name, an unknown template, a
// missing --config, the safety of JSON fixes. Each runs the built binary, as users do.
#include <filesystem>
#include <map>
#include <string>

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

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

/// A training plan that loads, on `gpu`, with `extra` after its [cluster] table's keys.
std::string training_plan(const std::string& gpu, const std::string& extra = "") {
  return "[plan]\nname = \"x\"\nkind = \"training\"\n[model]\nparams = \"7B\"\n[training]\ntokens = \"1T\"\n"
         "mfu = \"40%\"\n[cluster]\ngpu = \"" + gpu + "\"\ncount = 128\n" + extra;
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

TEST_CASE("planlint check with no path lints the working folder, its excludes applied", "[cli][habits]") {
  Scratch dir;
  dir.write("plans/typo.toml", training_plan("h100-sxm", "hmb = \"80 GB\"\n"));
  dir.write("drafts/typo.toml", training_plan("h100-sxm", "hmb = \"80 GB\"\n"));
  dir.write(".gitignore", "ignored/\n");
  dir.write("ignored/typo.toml", training_plan("h100-sxm", "hmb = \"80 GB\"\n"));
  const BinaryRun run = planlint_in(dir.path, "check --format concise --exclude drafts/");
  CHECK(run.status == 1);
  // Named as a search of `.` names them.
  CHECK_THAT(run.out, Catch::Contains("./plans/typo.toml:12:1: error: unknown key 'hmb' in [cluster] [unknown-key]") &&
                          Catch::EndsWith("1 error, 1 warning in 1 file\n"));
  // `planlint` with options only is `planlint check` of the working folder too.
  CHECK(planlint_in(dir.path, "--format concise --exclude drafts/").out == run.out);
  // A folder without plans is the usual "no plans found" (exit 2), naming it.
  Scratch empty;
  const BinaryRun none = planlint_in(empty.path, "check");
  CHECK(none.status == 2);
  CHECK_THAT(none.err, Catch::StartsWith("planlint: error: no plans found in .:"));
}

TEST_CASE("planlint explain GROUP lists the group's rules", "[cli][habits]") {
  Scratch dir;
  const BinaryRun memory = planlint_in(dir.path, "explain memory");
  CHECK(memory.status == 0);
  // As many rules as the built-in rule files of rules/memory/, each listed.
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(PLANLINT_SOURCE_DIR) / "rules/memory"))
    files += entry.path().extension() == ".toml";
  CHECK_THAT(memory.out, Catch::StartsWith(fmt::format(
                             "memory is a group of {} rules; `planlint explain RULE` prints one's documentation", files)));
  for (const char* rule :
       {"memory-fit", "inference-memory-fit", "kv-cache-dominates", "prefill-memory-fit", "offload-host-memory"})
    CHECK_THAT(memory.out, Catch::Contains(std::string("\n") + rule + " "));
  CHECK(memory.out.find("peak-mismatch") == std::string::npos);
  const BinaryRun misspelt = planlint_in(dir.path, "explain memroy");
  CHECK(misspelt.status == 2);
  CHECK_THAT(misspelt.err, Catch::StartsWith("planlint: error: no rule or group 'memroy'; did you mean 'memory'?"));
}

TEST_CASE("planlint report of a folder reports its one plan, and names them when it holds several", "[cli][habits][report]") {
  Scratch dir;
  dir.write("plans/a.toml", training_plan("h100-sxm"));
  dir.write("plans/notes.txt", "not a plan");
  const BinaryRun one = planlint_in(dir.path, "report --no-color plans");
  CHECK(one.status == 0);
  CHECK(one.out == planlint_in(dir.path, "report --no-color plans/a.toml").out);
  CHECK_THAT(one.out, Catch::Contains("train.flops"));
  dir.write("plans/b.toml", training_plan("a100-sxm"));
  const BinaryRun two = planlint_in(dir.path, "report plans");
  CHECK(two.status == 2);
  CHECK(two.out.empty());
  CHECK(two.err == "planlint: error: plans is a folder of 2 plans (plans/a.toml, plans/b.toml): report --format text "
                   "reports one plan; name one, or give --format html for a page of them all\n");
  Scratch empty;
  const BinaryRun none = planlint_in(empty.path, "report .");
  CHECK(none.status == 2);
  CHECK_THAT(none.err, Catch::StartsWith("planlint: error: no plan found in .:"));
}

TEST_CASE("a Markdown doc piped without --stdin-filename gets the option in its TOML error's help", "[cli][habits][stdin]") {
  Scratch dir;
  const std::string doc = "# Q3 capacity\n\nThe plan:\n\n```toml\n" + training_plan("h100-sxm") + "```\n";
  const BinaryRun piped = planlint_in(dir.path, "check --no-color -", doc);
  CHECK(piped.status == 1);
  CHECK_THAT(piped.out, Catch::Contains("[toml-syntax]") &&
                            Catch::Contains("help: standard input is a Markdown doc with a ```toml plan block: name it "
                                            "with --stdin-filename NAME.md to lint its plans"));
  CHECK(planlint_in(dir.path, "check --no-color --stdin-filename q3.md -", doc).status == 0);
  // Broken TOML that is no Markdown doc keeps the usual help.
  const BinaryRun broken = planlint_in(dir.path, "check --no-color -", "a = [\n");
  CHECK_THAT(broken.out, Catch::Contains("help: fix the syntax"));
}

TEST_CASE("planlint new of a kind without a template says which there are, in one line", "[cli][habits][new]") {
  Scratch dir;
  const BinaryRun finetune = planlint_in(dir.path, "new finetune");
  CHECK(finetune.status == 2);
  CHECK(finetune.out.empty());
  CHECK(finetune.err == "planlint: error: no template for kind 'finetune': `planlint new` writes training or inference; "
                        "a finetune plan starts from `planlint new training`, with kind = \"finetune\"\n");
  const BinaryRun misspelt = planlint_in(dir.path, "new traning");
  CHECK(misspelt.err == "planlint: error: no template for kind 'traning': `planlint new` writes training or inference; "
                        "did you mean 'training'?\n");
}

TEST_CASE("a --config file that cannot be read is one error line", "[cli][habits][config]") {
  Scratch dir;
  dir.write("plan.toml", training_plan("h100-sxm"));
  const std::string line = "planlint: error: nope.toml: cannot read config file: No such file or directory\n";
  for (const char* command : {"check --config nope.toml plan.toml", "report --config nope.toml plan.toml",
                              "rules --config nope.toml", "gpus --config nope.toml"}) {
    CAPTURE(command);
    const BinaryRun run = planlint_in(dir.path, command);
    CHECK(run.status == 2);
    CHECK(run.err == line);
  }
}

TEST_CASE("planlint check --format json says whether each fix is safe", "[cli][habits][json]") {
  Scratch dir;
  // bits-for-bytes' fix is unsafe, the misspelt key's rename safe.
  std::string plan = read_text(data_path("rules/bits-for-bytes/fires.toml"));
  plan.replace(plan.find("[cluster]\n"), 10, "[cluster]\nhmb = \"80 GB\"\n");
  dir.write("plan.toml", plan);
  const BinaryRun run = planlint_in(dir.path, "check --format json --today 2026-11-30 plan.toml");
  const nlohmann::json report = nlohmann::json::parse(run.out);
  std::map<std::string, std::string> safety;
  for (const nlohmann::json& d : report["diagnostics"])
    for (const nlohmann::json& fix : d["fixes"]) safety[d["rule"]] = fix["safety"];
  CHECK(safety.at("unknown-key") == "safe");
  CHECK(safety.at("bits-for-bytes") == "unsafe");
}
