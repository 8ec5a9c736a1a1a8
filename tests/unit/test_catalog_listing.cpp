/// `planlint gpus`: the catalog as text and JSON, with a config's own catalog over it.
#include <algorithm>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "planlint/catalog/catalog.hpp"
#include "integration_support.hpp"
#include "support.hpp"

using nlohmann::json;
using planlint::Catalog;
using planlint::test::run_cli;

TEST_CASE("planlint gpus lists the catalog with peaks per precision, memory, links and sources", "[catalog][cli]") {
  const auto run = run_cli({"gpus"});
  INFO(run.err);
  REQUIRE(run.status == 0);
  CHECK_THAT(run.out, Catch::Contains("h100-sxm  NVIDIA H100 SXM5 80GB\n"));
  CHECK_THAT(run.out, Catch::Contains("bf16 989 TFLOPS"));
  CHECK_THAT(run.out, Catch::Contains("tpu-v4  Google Cloud TPU v4\n"));
  CHECK_THAT(run.out, Catch::Contains("scale-up      a slice of up to 4096 GPUs over ICI\n"));
  CHECK_THAT(run.out, Catch::Contains("scale-up      72 GPUs over NVLink; hosts of 4\n"));
  CHECK_THAT(run.out, Catch::Contains("source        NVIDIA L4 Tensor Core GPU datasheet"));
  for (const planlint::GpuSpec& gpu : Catalog::builtin().gpus()) CHECK_THAT(run.out, Catch::Contains(gpu.id + "  "));
}

TEST_CASE("planlint gpus --format json gives each value in the unit its key names", "[catalog][cli]") {
  const auto run = run_cli({"gpus", "--format", "json"});
  REQUIRE(run.status == 0);
  const json gpus = json::parse(run.out);
  REQUIRE(gpus.size() == Catalog::builtin().gpus().size());
  const auto h100 = std::find_if(gpus.begin(), gpus.end(), [](const json& g) { return g["id"] == "h100-sxm"; });
  REQUIRE(h100 != gpus.end());
  CHECK((*h100)["hbm_bytes"].get<double>() == 80e9);
  CHECK((*h100)["dense_peak_flops"]["bf16"].get<double>() == Approx(989e12).epsilon(1e-3));
  CHECK((*h100)["sparse_peak_flops"]["bf16"].get<double>() == Approx(1979e12).epsilon(1e-3));
  CHECK((*h100)["link_bandwidth_bytes_per_s"].get<double>() == 900e9);
  CHECK_FALSE((*h100)["sources"].empty());
  const auto l4 = std::find_if(gpus.begin(), gpus.end(), [](const json& g) { return g["id"] == "l4"; });
  REQUIRE(l4 != gpus.end());
  CHECK((*l4)["link_bandwidth_bytes_per_s"].is_null());
}

TEST_CASE("planlint gpus lists a config's own catalog over the built-in one", "[catalog][cli][config]") {
  planlint::test::Scratch dir;
  dir.write("gpus.toml", "[[gpu]]\nid = \"x1\"\nname = \"X One\"\nhbm = \"94 GB\"\n"
                         "hbm_bandwidth = \"0.864 TB/s\"\nsources = [\"our datasheet\"]\nnotes = \"n\"\n"
                         "[gpu.dense]\nbf16 = \"835.5 TFLOPS\"\n");
  const auto config = dir.write(".planlint.toml", "[lint]\ncatalog = [\"gpus.toml\"]\n");
  const auto run = run_cli({"gpus", "--config", config.string()});
  INFO(run.err);
  REQUIRE(run.status == 0);
  CHECK_THAT(run.out, Catch::Contains("x1  X One\n"));
  CHECK_THAT(run.out, Catch::Contains("bf16 835.5 TFLOPS"));
  CHECK(run_cli({"gpus", "--format", "xml"}).status == 2);
}
