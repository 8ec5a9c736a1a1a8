// schemas/: plan.schema.json is generated from the plan format's data and lists exactly its
// keys; taplo accepts every valid example and golden plan with it and rejects unknown keys;
// config.schema.json is generated from the config keys and accepts the documented config.
#include <fstream>
#include <set>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "integration_support.hpp"
#include "planlint/config/config.hpp"
#include "planlint/config/config_keys.hpp"
#include "planlint/emit/config_schema.hpp"
#include "planlint/emit/plan_schema.hpp"
#include "planlint/plan/schema.hpp"
#include "support.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using planlint::test::quote;
using planlint::test::run_cli;

namespace {

const fs::path source_dir = PLANLINT_SOURCE_DIR;

/// `taplo lint --schema SCHEMA FILES...` with the taplo at `taplo`: its status, its output in `output`.
int taplo_lint(const std::string& taplo, const std::string& schema, const std::vector<std::string>& files,
               std::string& output) {
  std::string command = quote(taplo) + " lint --schema " +
                        quote("file://" + (source_dir / "schemas" / schema).string());
  for (const std::string& file : files) command += " " + quote(file);
  return planlint::test::run_command(command, output);
}

/// The rules of the findings planlint reports for a file.
std::set<std::string> rules_reported(const fs::path& file) {
  auto run = run_cli({"check", "--format", "json", file.string()});
  std::set<std::string> rules;
  const json out = json::parse(run.out);
  for (const json& d : out["diagnostics"]) rules.insert(d["rule"].get<std::string>());
  return rules;
}

}  // namespace

TEST_CASE("schemas/plan.schema.json is the schema generated from the plan format", "[schema]") {
  const fs::path path = source_dir / "schemas/plan.schema.json";
  const std::string generated = planlint::plan_json_schema();
  if (planlint::test::updating_golden())
    std::ofstream(path, std::ios::binary) << generated;
  INFO("PLANLINT_UPDATE_GOLDEN=1 build/tests/planlint_tests \"[schema]\" rewrites it");
  CHECK(planlint::test::read_text(path) == generated);
}

TEST_CASE("plan.schema.json lists exactly the keys of plan_keys(), section by section", "[schema]") {
  json schema = json::parse(planlint::test::read_text(source_dir / "schemas/plan.schema.json"));
  std::set<std::string> in_schema, in_code;
  for (const auto& [section, spec] : schema["properties"].items()) {
    if (section == "estimates") continue;  // metric names, not keys
    const json& table = spec.contains("items") ? spec["items"] : spec;
    CHECK(table["additionalProperties"] == false);
    for (const auto& [key, value] : table["properties"].items()) {
      // A stage's sub-tables hold the keys of [training], [cluster], [estimates], [[assumptions]]
      // and [[targets]] (Loader::read_stage), which their own sections list.
      if (section == "stages" && key != "name") {
        CHECK(value.contains(key == "assumptions" || key == "targets" ? "items" : "properties"));
        continue;
      }
      in_schema.insert(section + "." + key);
      CHECK(value.contains("description"));
    }
  }
  for (const planlint::KeySpec& spec : planlint::plan_keys())
    in_code.insert(std::string(spec.section) + "." + std::string(spec.key));
  CHECK(in_schema == in_code);
}

TEST_CASE("schemas/config.schema.json is the schema generated from the config keys", "[schema][config]") {
  const fs::path path = source_dir / "schemas/config.schema.json";
  const std::string generated = planlint::config_json_schema();
  if (planlint::test::updating_golden())
    std::ofstream(path, std::ios::binary) << generated;
  INFO("PLANLINT_UPDATE_GOLDEN=1 build/tests/planlint_tests \"[schema]\" rewrites it");
  CHECK(planlint::test::read_text(path) == generated);
  // Every key of config_keys() is in it, with its doc; no other key is.
  const json schema = json::parse(generated);
  std::set<std::string> in_schema, in_code;
  for (const auto& [table, spec] : schema["properties"].items())
    for (const auto& [key, value] : spec["properties"].items()) {
      in_schema.insert(table + "." + key);
      CHECK_FALSE(value["description"].get<std::string>().empty());
    }
  for (const planlint::ConfigKeySpec& spec : planlint::config_keys())
    in_code.insert(std::string(spec.table) + "." + std::string(spec.name));
  CHECK(in_schema == in_code);
}

TEST_CASE("a config of every key's example loads, and taplo accepts it with config.schema.json",
          "[schema][config][validator]") {
  planlint::test::Scratch dir;
  std::string text;
  for (const planlint::ConfigTableSpec& table : planlint::config_tables()) {
    text += "[" + std::string(table.name) + "]\n";
    for (const planlint::ConfigKeySpec& spec : planlint::config_keys())
      if (spec.table == table.name) text += std::string(spec.name) + " = " + std::string(spec.example) + "\n";
  }
  const fs::path config = dir.write(".planlint.toml", text);
  planlint::DiagnosticSink problems;
  INFO(text);
  CHECK(planlint::load_config(config.string(), problems));
  CHECK(problems.empty());
  const auto taplo = planlint::test::taplo();
  if (!taplo) return;
  std::string output;
  const int status = taplo_lint(*taplo, "config.schema.json", {config.string()}, output);
  INFO(output);
  CHECK(status == 0);
}

TEST_CASE("taplo accepts every valid example and golden plan with plan.schema.json", "[schema][validator]") {
  planlint::test::InDirectory cwd(PLANLINT_SOURCE_DIR);
  std::vector<std::string> valid, unknown_keys;
  std::vector<fs::path> plans;
  for (const char* folder : {"examples", "tests/golden", "templates"})
    for (const auto& entry : fs::directory_iterator(folder))
      if (entry.path().extension() == ".toml") plans.push_back(entry.path());
  std::sort(plans.begin(), plans.end());
  for (const fs::path& plan : plans) {
    std::set<std::string> rules = rules_reported(plan);
    if (rules.count("unknown-key")) unknown_keys.push_back(plan.string());
    else if (!rules.count("toml-syntax") && !rules.count("missing-required") && !rules.count("bad-value"))
      valid.push_back(plan.string());
  }
  REQUIRE(valid.size() >= 5);
  REQUIRE_FALSE(unknown_keys.empty());
  const auto taplo = planlint::test::taplo();
  if (!taplo) return;
  std::string output;
  int status = taplo_lint(*taplo, "plan.schema.json", valid, output);
  INFO(output);
  CHECK(status == 0);
  for (const std::string& plan : unknown_keys) {
    INFO(plan);
    CHECK(taplo_lint(*taplo, "plan.schema.json", {plan}, output) != 0);
  }
}

TEST_CASE("a #:schema line lets taplo check a plan without --schema", "[schema][validator]") {
  planlint::test::Scratch dir;
  auto plan = dir.write("plan.toml", "#:schema file://" + (source_dir / "schemas/plan.schema.json").string() +
                                         "\n[plan]\nname = \"x\"\nkind = \"inference\"\n[model]\nparams = \"7B\"\n"
                                         "[cluster]\ngpu = \"h100-sxm\"\ncount = 8\n");
  CHECK(run_cli({plan.string()}).status == 0);  // planlint reads the line as a comment
  const auto taplo = planlint::test::taplo();
  if (!taplo) return;
  std::string output;
  CHECK(planlint::test::run_command(quote(*taplo) + " lint " + quote(plan.string()), output) == 0);
  std::ofstream(plan, std::ios::app) << "kind = \"training\"\n";  // now a key of [cluster]
  CHECK(planlint::test::run_command(quote(*taplo) + " lint " + quote(plan.string()), output) != 0);
}

TEST_CASE("config.schema.json accepts the documented config and rejects unknown keys", "[schema][validator]") {
  planlint::test::Scratch dir;
  auto good = dir.write(".planlint.toml", R"([lint]
select = ["all"]
ignore = ["chinchilla-ratio"]
rules = ["policies/"]
fail_on = "warning"
catalog = "hardware.toml"

[lint.severity]
missing-range = "error"

[lint.options]
assumption_max_age = "90 d"

[tolerances]
capacity = "10%"
cost = 0.3
)");
  // docs/catalog.md's form: a list of catalog files.
  auto listed = dir.write("listed/.planlint.toml", "[lint]\ncatalog = [\"hardware/our-gpus.toml\", \"hardware/trial.toml\"]\n");
  auto bad = dir.write("bad/.planlint.toml", "[lint]\nselct = [\"all\"]\n");
  auto bad_catalog = dir.write("bad-catalog/.planlint.toml", "[lint]\ncatalog = 3\n");
  const auto taplo = planlint::test::taplo();
  if (!taplo) return;
  std::string output;
  int status = taplo_lint(*taplo, "config.schema.json", {good.string(), listed.string()}, output);
  INFO(output);
  CHECK(status == 0);
  CHECK(taplo_lint(*taplo, "config.schema.json", {bad.string()}, output) != 0);
  CHECK(taplo_lint(*taplo, "config.schema.json", {bad_catalog.string()}, output) != 0);
}

namespace {

/// A training plan whose [estimates] is `estimates`, written to `name` in `dir`.
fs::path plan_with_estimates(const planlint::test::Scratch& dir, const std::string& name,
                             const std::string& estimates) {
  return dir.write(name, "[plan]\nname = \"x\"\nkind = \"training\"\n[model]\nparams = \"7B\"\n"
                         "[training]\ntokens = \"1T\"\n[cluster]\ngpu = \"h100-sxm\"\ncount = 128\n" +
                             estimates);
}

}  // namespace

TEST_CASE("plan.schema.json accepts claimed metric names quoted and nested, as planlint reads them",
          "[schema][validator]") {
  // docs/plan-format.md, "Quote dotted names": both spellings work.
  planlint::test::Scratch dir;
  const std::vector<std::pair<std::string, std::string>> spellings = {
      {"quoted.toml",
       "[estimates]\n\"train.days\" = { value = \"9.6 d\", low = \"8 d\", high = \"12 d\" }\n"
       "\"train.memory.total\" = \"60 GB\"\n"},
      {"nested.toml",
       "[estimates.train]\ndays = { value = \"9.6 d\", low = \"8 d\", high = \"12 d\" }\n"
       "[estimates.train.memory]\ntotal = \"60 GB\"\n"},
      {"dotted.toml", "[estimates]\ntrain.days = \"9.6 d\"\ntrain.comm.fraction = 0.02\ncost.total = 1.2e6\n"},
      {"mixed.toml", "[estimates.train]\n\"memory.total\" = \"60 GB\"\n[estimates]\n\"train.memory\" = { states = \"20 GB\" }\n"},
      {"inline.toml", "[estimates]\ninfer = { kv_cache = \"10 GB\", memory = { total = { value = \"40 GB\", low = \"30 GB\", high = \"50 GB\" } } }\n"},
  };
  std::vector<std::string> files;
  for (const auto& [name, estimates] : spellings) {
    const fs::path plan = plan_with_estimates(dir, name, estimates);
    INFO(name);
    CHECK_FALSE(rules_reported(plan).count("unknown-key"));  // planlint reads every name
    files.push_back(plan.string());
  }
  const auto taplo = planlint::test::taplo();
  if (!taplo) return;
  std::string output;
  const int status = taplo_lint(*taplo, "plan.schema.json", files, output);
  INFO(output);
  CHECK(status == 0);
}

TEST_CASE("plan.schema.json rejects a claimed name that is not a metric, quoted or nested",
          "[schema][validator]") {
  planlint::test::Scratch dir;
  const auto taplo = planlint::test::taplo();
  const std::vector<std::pair<std::string, std::string>> unknown = {
      {"quoted.toml", "[estimates]\n\"train.dayz\" = \"9.6 d\"\n"},
      {"nested.toml", "[estimates.train]\ndayz = \"9.6 d\"\n"},
      {"dotted.toml", "[estimates]\ntrain.dayz = \"9.6 d\"\n"},
      {"prefix.toml", "[estimates.trian]\ndays = \"9.6 d\"\n"},
      {"deeper.toml", "[estimates.train.memory]\ntotl = \"60 GB\"\n"},
      {"table-not-claim.toml", "[estimates.train]\nmemory = \"60 GB\"\n"},
      {"range-of-a-table.toml", "[estimates.train]\nmemory = { value = \"60 GB\" }\n"},
  };
  for (const auto& [name, estimates] : unknown) {
    const fs::path plan = plan_with_estimates(dir, name, estimates);
    INFO(name);
    CHECK(rules_reported(plan).count("unknown-key"));
    std::string output;
    if (taplo) CHECK(taplo_lint(*taplo, "plan.schema.json", {plan.string()}, output) != 0);
  }
}
