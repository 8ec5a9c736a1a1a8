/// The activation memory of a stated architecture (Korthikanti et al. 2022, table 2, with the
/// model's own widths), the first pipeline stage's in-flight micro-batches, the attention width
/// heads · head_dim, and the published dense run of examples/llama3-405b-published.toml.
#include <catch2/catch.hpp>

#include "planlint/lint/lint.hpp"
#include "test_estimates_support.hpp"

using namespace planlint;
using namespace planlint::test;

namespace {

double activations(const std::map<std::string, std::string>& changes) {
  return estimate_text(training_plan(changes))["train.memory.activations"].value;
}

// S·b·h of the base plan: 4096 tokens, micro-batch 1, h = 4096, 32 layers, tp 1.
constexpr double sbh = 4096.0 * 4096;
constexpr double layers = 32;

}  // namespace

TEST_CASE("GPT-3's shape keeps table 2's 34 bytes · S·b·h a layer", "[estimates][activations]") {
  CHECK(activations({}) == Approx(layers * sbh * 34));
  // Stating the defaults changes nothing.
  CHECK(activations({{"model.mlp", "\"gelu\""}, {"model.ffn_hidden", "16384"}, {"training.dropout", "true"},
                     {"model.kv_heads", "32"}}) == Approx(layers * sbh * 34));
}

TEST_CASE("the activations follow the plan's architecture", "[estimates][activations]") {
  SECTION("no dropout drops the two 1-byte masks") {
    CHECK(activations({{"training.dropout", "false"}}) == Approx(layers * sbh * 32));
  }
  SECTION("GQA's narrower K and V: 4 · kv_heads · head_dim / h in place of 4") {
    // 8 of 32 heads: K and V are 4 · 1024 / 4096 = 1 in place of 4.
    CHECK(activations({{"model.kv_heads", "8"}}) == Approx(layers * sbh * 31));
  }
  SECTION("SwiGLU's three matrices: 6F in place of GeLU's 4F") {
    // Llama-2-7B: F = 11008; 8 + 2 + 4 + 4 + 6 · 11008 / 4096.
    const double c = 18 + 6 * 11008.0 / 4096;
    CHECK(activations({{"model.mlp", "\"swiglu\""}, {"model.ffn_hidden", "11008"}}) == Approx(layers * sbh * c));
    // Unstated, F is 8h/3: 6F = 16h, GeLU's 4 · 4h.
    CHECK(activations({{"model.mlp", "\"swiglu\""}}) == Approx(layers * sbh * 34));
  }
  SECTION("without sequence parallelism only the split part is divided by tp") {
    // Llama-3-8B's shape at tp 2: kept 8, split 4 + 1 + 6 · 14336 / 4096 = 26.
    const double kept = 8, split = 4 + 1 + 6 * 14336.0 / 4096;
    CHECK(activations({{"model.kv_heads", "8"}, {"model.mlp", "\"swiglu\""}, {"model.ffn_hidden", "14336"},
                       {"training.dropout", "false"}, {"training.tp", "2"}, {"training.sequence_parallel", "false"}}) ==
          Approx(layers * sbh * (kept + split / 2)));
  }
  SECTION("stored scores without dropout are the softmax output alone, 2 · a · S") {
    const double scores = 2 * 32 * 4096.0 / 4096;
    CHECK(activations({{"training.dropout", "false"}, {"training.recompute", "\"none\""},
                       {"training.flash_attention", "false"}}) == Approx(layers * sbh * (32 + scores)));
  }
  SECTION("full recompute keeps each layer's input whatever the shape") {
    CHECK(activations({{"training.dropout", "false"}, {"training.recompute", "\"full\""}}) ==
          Approx(layers * sbh * 2));
  }
  SECTION("the formula shows the parts") {
    const Estimated e = estimate_text(training_plan({{"training.dropout", "false"}, {"model.kv_heads", "8"}}));
    const MetricValue& metric = e["train.memory.activations"];
    CHECK_THAT(metric.formula, Catch::Contains("L · S·b·h·29 / t") && Catch::Contains("1 (K and V, 4 · 1024/h)"));
    CHECK_THAT(metric.arithmetic.str(), Catch::StartsWith("32 × 4096 × 1 × 4096 × 29 / 1 = "));
  }
}

TEST_CASE("the first pipeline stage holds its in-flight micro-batches", "[estimates][activations]") {
  const std::map<std::string, std::string> pipelined = {{"training.pp", "4"}, {"cluster.count", "128"}};
  SECTION("1F1B: pp micro-batches of L / pp layers, L layers' worth") {
    CHECK(activations(pipelined) == Approx(layers * sbh * 34));
  }
  SECTION("first_stage_layers: pp micro-batches of that stage's layers") {
    auto changes = pipelined;
    changes["training.first_stage_layers"] = "7";
    CHECK(activations(changes) == Approx(4 * 7 * sbh * 34));
  }
  SECTION("interleaved: (1 + (pp − 1) / (pp · v)) times as much") {
    auto changes = pipelined;
    changes["training.virtual_stages"] = "2";
    const Estimated e = estimate_text(training_plan(changes));
    CHECK(e["train.memory.activations"].value == Approx(layers * sbh * 34 * (1 + 3.0 / 8)));
    CHECK_THAT(e["train.memory.activations"].arithmetic.str(), Catch::Contains("× (1 + (4 − 1) / (4 × 2))"));
  }
}

TEST_CASE("the attention FLOPs use heads · head_dim where it differs from hidden", "[estimates]") {
  // Gemma-7B's shape: 16 heads of 256 over a 3072-wide model (PaLM's 12 · L · H · Q · T).
  const Estimated e = estimate_text(training_plan(
      {{"model.hidden", "3072"}, {"model.heads", "16"}, {"model.head_dim", "256"}, {"model.layers", "28"}}));
  CHECK(e["train.attention_flops_per_token"].value == Approx(12.0 * 28 * 16 * 256 * 4096));
  const Estimated plain = estimate_text(training_plan({{"model.hidden", "3072"}, {"model.heads", "16"}}));
  CHECK(plain["train.attention_flops_per_token"].value == Approx(12.0 * 32 * 3072 * 4096));
}

TEST_CASE("Llama 3 405B, trained without activation checkpointing on 80 GB H100s, fits",
          "[estimates][activations][published]") {
  const std::string path = std::string(PLANLINT_SOURCE_DIR) + "/examples/llama3-405b-published.toml";
  auto text = read_file(path);
  REQUIRE(text.has_value());
  const Estimated e = estimate_text(*text);
  // Dubey et al. 2024: 3.8e25 FLOPs (§1); planlint's 6 · N · D within 3%.
  CHECK(e["train.flops"].value == Approx(3.8e25).epsilon(0.03));
  // Table 4: 400 TFLOPs/GPU at 41% BF16 MFU: 41% of the catalog's 989 TFLOPS within 3%.
  CHECK(0.41 * *e.plan().number("cluster.peak") == Approx(400e12).epsilon(0.03));
  // 31.75 bytes · S·b·h a layer over tp 8, 16 micro-batches of the first stage's 7 layers.
  CHECK(e["train.memory.activations"].value == Approx(16 * 7 * 8192.0 * 16384 * 31.75 / 8));
  CHECK(e["train.memory.total"].value < 80e9);
  CHECK(e["train.memory.total"].value == Approx(73.0e9).epsilon(0.005));
  // No error from the checks: memory-fit above all.
  const FileResult result = lint_source(std::make_shared<SourceFile>(path, *text), LintOptions{});
  for (const Diagnostic& d : result.diagnostics) {
    INFO(d.rule << ": " << d.message);
    CHECK(d.severity != Severity::error);
  }
}
