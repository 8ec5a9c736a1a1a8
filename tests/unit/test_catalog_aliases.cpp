// A plan names its GPU as people write it ("H100", "a100-80gb", "NVIDIA H100 SXM5 80GB"): the
// catalog reads each such name as one entry, which every estimate and rule then uses, and a
// gpu-alias note says which; a name that several entries answer to stays unknown-gpu.
#include <map>
#include <set>
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "integration_support.hpp"
#include "planlint/catalog/catalog.hpp"
#include "planlint/catalog/gpu_names.hpp"

using namespace planlint;
using namespace planlint::test;

namespace {

/// A catalog entry of a file of the test's own, with `aliases` (TOML array items).
std::string entry(const std::string& id, const std::string& aliases) {
  return "[[gpu]]\nid = \"" + id + "\"\nname = \"Test " + id + "\"\naliases = [" + aliases +
         "]\nhbm = \"80 GB\"\nhbm_bandwidth = \"3.35 TB/s\"\nsources = [\"a datasheet\"]\n[gpu.dense]\n"
         "bf16 = \"989 TFLOPS\"\n";
}

/// The built planlint run in `folder` with `arguments` (shell words): its exit status and stdout.
std::pair<int, std::string> planlint_in(const fs::path& folder, const std::string& arguments) {
  std::string out;
  const int status =
      run_command("(cd " + quote(folder.string()) + " && " + quote(PLANLINT_BINARY) + " " + arguments + " 2>/dev/null)", out);
  return {status, out};
}

}  // namespace

TEST_CASE("every id, name and alias of the built-in catalog names one entry, its own", "[catalog][aliases]") {
  const Catalog& catalog = Catalog::builtin();
  std::map<std::string, std::string> entry_of_key;  // gpu_name_key → id
  std::size_t aliases = 0;
  for (const GpuSpec& gpu : catalog.gpus()) {
    CAPTURE(gpu.id);
    CHECK(catalog.resolve(gpu.id).exact);
    std::vector<std::string> names = {gpu.id, gpu.name};
    names.insert(names.end(), gpu.aliases.begin(), gpu.aliases.end());
    aliases += gpu.aliases.size();
    for (const std::string& name : names) {
      CAPTURE(name);
      CHECK(catalog.resolve(name).gpu == &gpu);
      const auto [at, added] = entry_of_key.emplace(gpu_name_key(name), gpu.id);
      CHECK(at->second == gpu.id);  // no two entries answer to one name
    }
    // An alias says what the normalisation does not: not the id nor the name again.
    for (const std::string& alias : gpu.aliases) {
      CAPTURE(alias);
      CHECK(gpu_name_key(alias) != gpu_name_key(gpu.id));
      CHECK(gpu_name_key(alias) != gpu_name_key(gpu.name));
    }
  }
  CHECK(aliases >= 20);
}

TEST_CASE("the spellings people write name the catalog entry they mean", "[catalog][aliases]") {
  const Catalog& catalog = Catalog::builtin();
  const std::map<std::string, std::string> meant = {
      {"a100-80gb", "a100-sxm"},          {"A100 80GB PCIe", "a100-pcie"},
      {"NVIDIA A100-SXM4-40GB", "a100-sxm-40gb"}, {"h100", "h100-sxm"},
      {"H100 SXM5", "h100-sxm"},          {"h100_sxm", "h100-sxm"},
      {"NVIDIA H100 80GB HBM3", "h100-sxm"}, {"NVIDIA H100 PCIe", "h100-pcie"},
      {"B200", "b200"},                   {"HGX B200", "b200"},
      {"AMD Instinct MI300X", "mi300x"},  {"TPU v5e", "tpu-v5e"},
      {"Tesla V100-SXM2-16GB", "v100-sxm2-16gb"},
  };
  for (const auto& [name, id] : meant) {
    CAPTURE(name);
    const GpuMatch match = catalog.resolve(name);
    REQUIRE(match.gpu != nullptr);
    CHECK(match.gpu->id == id);
    CHECK_FALSE(match.exact);
  }
  // A model whose parts differ in memory and no entry claims: none is chosen.
  for (const char* model : {"a100", "V100", "x9000", "", "--"}) {
    CAPTURE(model);
    CHECK(catalog.resolve(model).gpu == nullptr);
  }
}

TEST_CASE("two entries of one catalog file answering to one name are an error at the name", "[catalog][aliases]") {
  Catalog catalog;
  DiagnosticSink errors;
  const std::string file = entry("gpu-a", "\"X1 80GB\"") + entry("gpu-b", "\"x1-80gb\"");
  CHECK_FALSE(catalog.load(SourceFile("x.toml", file), errors).has_value());
  REQUIRE(errors.size() == 1);
  const Diagnostic& d = errors.diagnostics().front();
  CHECK(d.message == "'x1-80gb' names the entry \"gpu-a\" too (as 'X1 80GB'): an id, name or alias names one entry, "
                     "up to case, separators and vendor words");
  CHECK(d.primary.span.begin.line == 13);
  CHECK(d.key_path == "gpu[1].aliases[0]");
  DiagnosticSink none;
  Catalog own;
  CHECK(own.load(SourceFile("x.toml", entry("gpu-a", "\"X1 80GB\", \"x1 80 gb\"")), none).has_value());
}

TEST_CASE("a name that entries of two catalog files answer to stays unknown-gpu, naming both", "[catalog][aliases]") {
  Catalog catalog = Catalog::builtin();
  DiagnosticSink errors;
  REQUIRE(catalog.load(SourceFile("ours.toml", entry("h100-ours", "\"H100\"")), errors).has_value());
  const GpuMatch match = catalog.resolve("h100");
  CHECK(match.gpu == nullptr);
  REQUIRE(match.candidates.size() == 2);
  CHECK(match.candidates[0]->id == "h100-sxm");
  CHECK(match.candidates[1]->id == "h100-ours");

  Scratch dir;
  dir.write(".planlint.toml", "[lint]\ncatalog = \"ours.toml\"\n");
  dir.write("ours.toml", entry("h100-ours", "\"H100\""));
  dir.write("plan.toml", "[plan]\nname = \"x\"\nkind = \"inference\"\n[model]\nparams = \"7B\"\n[cluster]\n"
                         "gpu = \"H100\"\ncount = 8\n");
  const auto [status, out] = planlint_in(dir.path, "check --no-color plan.toml");
  CHECK(status == 1);
  CHECK_THAT(out, Catch::Contains("plan.toml:7:7: error: unknown GPU 'H100': more than one catalog entry answers to it "
                                  "[unknown-gpu]") &&
                      Catch::Contains("help: name the entry: 'h100-sxm' or 'h100-ours'"));
}

TEST_CASE("a plan naming its GPU by an alias is checked on that entry, with a note and a fix to the id",
          "[catalog][aliases][cli]") {
  Scratch dir;
  // memory-fit's case on h100-sxm, its GPU written as nvidia-smi prints it: the finding an
  // unknown GPU hides (no HBM to compare with) is still there.
  const std::string by_id = read_text(data_path("rules/memory-fit/fires.toml"));
  const std::string id_line = "gpu = \"h100-sxm\"\n";
  REQUIRE(by_id.find(id_line) != std::string::npos);
  std::string by_alias = by_id;
  by_alias.replace(by_alias.find(id_line), id_line.size(), "gpu = \"NVIDIA H100 80GB HBM3\"\n");
  dir.write("by-id.toml", by_id);
  dir.write("plan.toml", by_alias);
  const auto [status, out] = planlint_in(dir.path, "check --no-color --today 2026-11-30 plan.toml");
  CHECK(status == 1);
  CHECK_THAT(out, Catch::Contains("note: GPU 'NVIDIA H100 80GB HBM3' is read as the catalog's 'h100-sxm' (NVIDIA H100 "
                                  "SXM5 80GB) [gpu-alias]") &&
                      Catch::Contains("note: other parts of the model have other peaks and memory: 'h100-pcie', "
                                      "'h100-nvl'") &&
                      Catch::Contains("help: write the id: gpu = \"h100-sxm\"") && Catch::Contains("[memory-fit]"));
  CHECK(out.find("unknown-gpu") == std::string::npos);
  // The findings of the plan written with the id, and the note.
  auto rules = [&](const std::string& file) {
    const nlohmann::json report =
        nlohmann::json::parse(planlint_in(dir.path, "check --format json --today 2026-11-30 " + file).second);
    std::multiset<std::string> found;
    for (const nlohmann::json& d : report["diagnostics"]) found.insert(d["rule"].get<std::string>());
    return found;
  };
  std::multiset<std::string> expected = rules("by-id.toml");
  REQUIRE(expected.count("memory-fit") == 1);
  expected.insert("gpu-alias");
  CHECK(rules("plan.toml") == expected);
  // --fix writes the id.
  planlint_in(dir.path, "check --fix --today 2026-11-30 plan.toml");
  CHECK(read_text(dir.path / "plan.toml") == by_id);
}

TEST_CASE("planlint gpus shows each entry's aliases", "[catalog][aliases][cli]") {
  Scratch dir;
  const auto [status, text] = planlint_in(dir.path, "gpus");
  CHECK(status == 0);
  CHECK_THAT(text, Catch::Contains("h100-sxm  NVIDIA H100 SXM5 80GB\n  also named    H100, H100 80GB, H100 80GB HBM3"));
  const auto [json_status, json] = planlint_in(dir.path, "gpus --format json");
  for (const nlohmann::json& gpu : nlohmann::json::parse(json))
    if (gpu["id"] == "a100-sxm") CHECK(gpu["aliases"] == nlohmann::json::array({"A100 80GB"}));
}
