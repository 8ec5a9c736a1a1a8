// JSON output: valid against schemas/diagnostics.schema.json (checked with ajv) for every
// golden case, and marks suppressed findings.
#include <algorithm>
#include <filesystem>
#include <set>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "integration_support.hpp"
#include "support.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using planlint::test::run_cli;
using planlint::test::Scratch;

TEST_CASE("every golden case's JSON output validates against schemas/diagnostics.schema.json",
          "[json][validator]") {
  planlint::test::InDirectory cwd(PLANLINT_SOURCE_DIR);
  Scratch scratch;
  std::vector<fs::path> inputs;
  for (const auto& entry : fs::directory_iterator("tests/golden"))
    if (entry.path().extension() == ".toml") inputs.push_back(entry.path());
  for (const auto& entry : fs::directory_iterator("examples"))
    if (entry.path().extension() == ".toml") inputs.push_back(entry.path());
  for (const auto& entry : fs::directory_iterator("tests/data/markdown"))
    if (entry.path().extension() == ".md") inputs.push_back(entry.path());
  std::sort(inputs.begin(), inputs.end());
  REQUIRE(inputs.size() >= 5);
  std::string data_args;
  for (const fs::path& input : inputs) {
    auto run = run_cli({"check", "--format", "json", input.string()});
    INFO(input.string() << "\n" << run.err);
    REQUIRE(run.status != 2);
    REQUIRE(json::accept(run.out));
    data_args += " -d " + planlint::test::quote(scratch.write(input.filename().string() + ".json", run.out).string());
  }
  const auto ajv = planlint::test::ajv();
  if (!ajv) return;
  std::string output;
  std::string command = planlint::test::quote(*ajv) + " validate --spec=draft7 --strict=false -c ajv-formats -s " +
                        planlint::test::quote((fs::current_path() / "schemas/diagnostics.schema.json").string()) +
                        data_args;
  int status = planlint::test::run_command(command, output);
  INFO(command << "\n" << output);
  CHECK(status == 0);
}

TEST_CASE("the JSON output lists findings with their key and marks suppressed ones", "[json][suppress]") {
  Scratch dir;
  planlint::test::InDirectory cwd(dir.path);
  dir.write("plan.toml", R"([plan]
name = "x"
kind = "inference"
[model]
params = "7B"
[cluster]
gpu = "h100-sxm"
count = 8
hmb = "80 GB"  # planlint: allow unknown-key -- kept for the old dashboard
hbmm = "80 GB"
)");
  auto run = run_cli({"check", "--format", "json", "plan.toml"});
  CHECK(run.status == 1);
  json out = json::parse(run.out);
  CHECK(out["version"] == 1);
  CHECK(out["files"] == json::array({"plan.toml"}));
  REQUIRE(out["diagnostics"].size() == 2);
  const json& first = out["diagnostics"][0];
  CHECK(first["rule"] == "unknown-key");
  CHECK(first["line"] == 9);
  CHECK(first["key"] == "cluster.hmb");
  CHECK(first["suppressed"] == true);
  CHECK(first["suppression"]["kind"] == "inline");
  CHECK(first["suppression"]["justification"] == "kept for the old dashboard");
  const json& second = out["diagnostics"][1];
  CHECK(second["suppressed"] == false);
  CHECK(second["suppression"].is_null());
  CHECK(second["help"] == "did you mean 'hbm'?");
  CHECK(out["summary"]["errors"] == 1);
  CHECK(out["summary"]["suppressed"] == 1);
  CHECK(out["summary"]["files"] == 1);
}

TEST_CASE("each JSON finding has SARIF's fingerprint and its path from the repository root", "[json][sarif]") {
  Scratch repo;  // holds .git: the repository root
  repo.write("plans/team/plan.toml", "# planlint: allow-file chinchilla-ratio -- deliberate over-training\n"
                                     "# planlint: allow-file chinchilla-ratio -- deliberate over-training\n" +
                                         planlint::test::inference_plan_with("hmb = 1\n"));
  const fs::path docs = repo.path / "docs";
  fs::create_directories(docs);
  planlint::test::InDirectory cwd(docs);
  const std::string absolute = (repo.path / "plans/team/plan.toml").string();
  for (const std::string& named : {std::string("../plans/team/plan.toml"), absolute}) {
    INFO(named);
    auto run = run_cli({"check", "--format", "json", named});
    REQUIRE(run.status == 1);
    const json diagnostics = json::parse(run.out)["diagnostics"];
    auto sarif = run_cli({"check", "--format", "sarif", named});
    const json results = json::parse(sarif.out)["runs"][0]["results"];
    // Two unused comments, the same but for their line, and the unknown key.
    REQUIRE(diagnostics.size() == 3);
    REQUIRE(results.size() == diagnostics.size());
    CHECK(diagnostics[0]["message"] == diagnostics[1]["message"]);
    std::set<std::string> fingerprints;
    for (std::size_t i = 0; i < diagnostics.size(); ++i) {
      const json& d = diagnostics[i];
      CHECK(d["file"] == named);
      CHECK(d["repository_file"] == "plans/team/plan.toml");
      CHECK(d["fingerprint"] == results[i]["partialFingerprints"]["planlint/v1"]);
      fingerprints.insert(d["fingerprint"].get<std::string>());
    }
    CHECK(fingerprints.size() == diagnostics.size());
  }
  // Outside the repository root a file keeps its path; its fingerprint is still SARIF's.
  Scratch outside;
  const std::string elsewhere = outside.write("plan.toml", planlint::test::inference_plan_with("hmb = 1\n")).string();
  auto run = run_cli({"check", "--format", "json", elsewhere});
  const json d = json::parse(run.out)["diagnostics"][0];
  CHECK(d["repository_file"] == elsewhere);
  auto sarif = run_cli({"check", "--format", "sarif", elsewhere});
  CHECK(d["fingerprint"] == json::parse(sarif.out)["runs"][0]["results"][0]["partialFingerprints"]["planlint/v1"]);
}
