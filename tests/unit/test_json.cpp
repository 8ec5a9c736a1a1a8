// JSON output: valid against schemas/diagnostics.schema.json (checked with ajv) for every
// golden case, and marks suppressed findings.
#include <algorithm>
#include <filesystem>

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
  const std::string ajv = planlint::test::ajv();
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
  std::string output;
  std::string command = planlint::test::quote(ajv) + " validate --spec=draft7 --strict=false -c ajv-formats -s " +
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
