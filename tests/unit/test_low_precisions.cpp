/// FP4 and FP6 weights and KV caches, and FP8 training's memory (docs/estimates.md, "Bytes per
/// element" and "Model states").
#include <catch2/catch.hpp>

#include "planlint/plan/defaults.hpp"
#include "test_estimates_support.hpp"

using namespace planlint;
using namespace planlint::test;

TEST_CASE("FP4 and FP6 weights take their bytes per element, block scales counted", "[estimates][precision]") {
  for (const auto& [precision, bytes] : std::vector<std::pair<std::string, double>>{
           {"fp4", 0.5}, {"nvfp4", 0.5625}, {"mxfp4", 0.53125}, {"fp6", 0.75}, {"mxfp6", 0.78125}}) {
    INFO(precision);
    const Estimated e = estimate_text(inference_plan({{"inference.weights", "\"" + precision + "\""},
                                                      {"inference.kv_precision", "\"" + precision + "\""}}));
    CHECK(e["infer.weights"].value == Approx(70e9 * bytes));
    // 2 · L · a_kv · d_h · bytes: 80 layers, 8 KV heads of 128.
    CHECK(e["infer.kv_per_token"].value == Approx(2 * 80 * 8 * 128 * bytes));
  }
}

TEST_CASE("FP4 weights compute at the FP4 peak where the GPU has one, else in 16 bits", "[estimates][precision]") {
  const Estimated b200 = estimate_text(inference_plan({{"cluster.gpu", "\"b200\""}, {"inference.weights", "\"nvfp4\""}}));
  CHECK(b200["gpu.catalog_peak"].value == Approx(9000e12));
  const Estimated h100 =
      estimate_text(inference_plan({{"cluster.gpu", "\"h100-sxm\""}, {"inference.weights", "\"nvfp4\""}}));
  CHECK(h100["gpu.catalog_peak"].value == Approx(989e12));
  const Estimated mi355x =
      estimate_text(inference_plan({{"cluster.gpu", "\"mi355x\""}, {"inference.weights", "\"mxfp6\""}}));
  CHECK(mi355x["gpu.catalog_peak"].value == Approx(10050e12));
  CHECK(weight_compute_precision("mxfp4") == Precision::fp4);
  CHECK_FALSE(weight_compute_precision("int4").has_value());
}

TEST_CASE("FP8 training holds an FP8 copy of the weights beside BF16 training's states", "[estimates][precision]") {
  // ZeRO 0, tp 1, pp 1: every GPU holds k · N.
  const Estimated bf16 = estimate_text(training_plan({{"training.precision", "\"bf16\""}}));
  const Estimated fp8 = estimate_text(training_plan({{"training.precision", "\"fp8\""}}));
  CHECK(bf16["train.memory.states"].value == Approx(16 * 7e9));
  CHECK(fp8["train.memory.states"].value == Approx(17 * 7e9));
  const Estimated fp8_zero3 = estimate_text(training_plan({{"training.precision", "\"fp8\""}, {"training.zero", "3"}}));
  CHECK(fp8_zero3["train.memory.states"].value == Approx(17 * 7e9 / 128));
}
