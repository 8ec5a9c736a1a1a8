/// Attention per layer kind (docs/estimates.md, "Attention"): sliding-window and global layers in
/// the KV cache and the attention FLOPs, separate query/key and value widths, causal or full
/// counting, and one attention FLOPs figure for the metrics that divide it by the MFU.
#include <catch2/catch.hpp>

#include "test_estimates_support.hpp"

using namespace planlint;
using namespace planlint::test;

namespace {

// Mistral 7B v0.1 (Jiang et al. 2023, table 1): every layer windowed at 4096.
std::map<std::string, std::string> mistral_7b(std::string context) {
  return {{"model.params", "\"7.24B\""}, {"model.layers", "32"},         {"model.hidden", "4096"},
          {"model.heads", "32"},         {"model.kv_heads", "8"},        {"model.sliding_window", "4096"},
          {"inference.tp", "1"},         {"cluster.count", "1"},         {"inference.context", context},
          {"inference.concurrency", "\"16 seq\""}, {"inference.prompt_tokens", "8192"}};
}

// Gemma 3 27B (Gemma Team 2025, §2: 5 local layers to 1 global, window 1024): 10 of 62 global.
std::map<std::string, std::string> gemma3_27b() {
  return {{"model.params", "\"27B\""},  {"model.layers", "62"},        {"model.hidden", "5376"},
          {"model.heads", "32"},        {"model.kv_heads", "16"},      {"model.head_dim", "128"},
          {"model.sliding_window", "1024"}, {"model.global_layers", "10"}};
}

}  // namespace

TEST_CASE("a sliding-window layer's KV cache holds min(context, window) tokens", "[estimates][attention]") {
  SECTION("Mistral 7B at 32K tokens holds 4096 of them in every layer: 8 times less (Mistral 7B §2)") {
    const Estimated e = estimate_text(inference_plan(mistral_7b("\"32768 tokens\"")));
    const double per_token = e["infer.kv_per_token"].value;
    CHECK(per_token == Approx(2.0 * 32 * 8 * 128 * 2));
    CHECK(e["infer.kv_tokens"].value == Approx(4096));
    CHECK(e["infer.kv_per_sequence"].value == Approx(per_token * 32768 / 8));
    CHECK(e["infer.kv_cache"].value == Approx(per_token * 4096 * 16));
    CHECK_THAT(e["infer.kv_cache"].formula, Catch::Contains("kv_per_token · infer.kv_tokens"));
    // The concurrency and the decode bound read the same cache.
    const double hbm = *e.plan().number("cluster.hbm") * 0.9;
    CHECK(e["infer.max_concurrency"].value ==
          Approx(std::floor((hbm - e["infer.weights"].value) / (per_token * 4096))));
  }
  SECTION("below the window a sequence's cache is its context") {
    const Estimated e = estimate_text(inference_plan(mistral_7b("\"2048 tokens\"")));
    CHECK(e["infer.kv_tokens"].value == Approx(2048));
  }
  SECTION("Gemma 3 27B: the 10 global layers hold the whole context, the 52 local ones 1024 tokens") {
    auto plan = gemma3_27b();
    plan["inference.context"] = "\"32768 tokens\"";
    plan["inference.tp"] = "1";
    plan["cluster.count"] = "1";
    const Estimated e = estimate_text(inference_plan(plan));
    CHECK(e["infer.kv_tokens"].value == Approx((10 * 32768.0 + 52 * 1024) / 62));
    CHECK(e["infer.kv_per_sequence"].value == Approx(2.0 * 16 * 128 * 2 * (10 * 32768.0 + 52 * 1024)));
  }
  SECTION("a model without a window is unchanged, and has no infer.kv_tokens") {
    const Estimated e = estimate_text(inference_plan());
    CHECK(e.estimates.find("infer.kv_tokens") == nullptr);
    CHECK(e["infer.kv_per_sequence"].value == Approx(e["infer.kv_per_token"].value * 4096));
  }
}

TEST_CASE("sliding-window layers attend min(S, W) keys in the attention FLOPs", "[estimates][attention]") {
  // Gemma 2 27B's shape (Gemma Team 2024, table 1): 46 layers alternating local (4096) and global.
  const Estimated e = estimate_text(training_plan({{"model.params", "\"27.2B\""}, {"model.layers", "46"},
                                                   {"model.hidden", "4608"}, {"model.heads", "32"},
                                                   {"model.head_dim", "128"}, {"model.sliding_window", "4096"},
                                                   {"model.global_layers", "23"}, {"training.seq_len", "8192"}}));
  CHECK(e["train.attended_tokens"].value == Approx((23 * 8192.0 + 23 * 4096) / 46));
  CHECK(e["train.attention_flops_per_token"].value == Approx(12.0 * 46 * 32 * 128 * 6144));
  SECTION("the prompt's causal attention: S/2 keys in a global layer, W − W²/(2S) in a local one") {
    const Estimated serving = estimate_text(inference_plan(
        {{"model.layers", "46"}, {"model.hidden", "4608"}, {"model.heads", "32"}, {"model.head_dim", "128"},
         {"model.kv_heads", "16"}, {"model.sliding_window", "4096"}, {"model.global_layers", "23"},
         {"inference.prompt_tokens", "8192"}, {"inference.context", "\"8192 tokens\""}}));
    const double keys = (23 * 4096.0 + 23 * (4096 - 4096.0 * 4096 / (2 * 8192))) / 46;
    CHECK(serving["infer.prefill_attended_tokens"].value == Approx(keys));
    CHECK(serving["infer.prefill_attention_flops"].value == Approx(4.0 * 46 * 8192 * keys * 32 * 128));
  }
}

TEST_CASE("causal counting halves the attention FLOPs, and full counting stays the default",
          "[estimates][attention]") {
  const double full = 12.0 * 32 * 4096 * 4096;
  CHECK(estimate_text(training_plan())["train.attention_flops_per_token"].value == Approx(full));
  CHECK(estimate_text(training_plan({{"training.attention_flops", "\"full\""}}))["train.attention_flops_per_token"]
            .value == Approx(full));
  const Estimated causal = estimate_text(training_plan({{"training.attention_flops", "\"causal\""}}));
  CHECK(causal["train.attended_tokens"].value == Approx(2048));
  CHECK(causal["train.attention_flops_per_token"].value == Approx(full / 2));
  SECTION("a causal sliding window beyond S: each query attends min(i, W) keys") {
    auto plan = gemma3_27b();
    plan["training.seq_len"] = "8192";
    plan["training.attention_flops"] = "\"causal\"";
    const Estimated e = estimate_text(training_plan(plan));
    const double keys = (10 * 4096.0 + 52 * (1024 - 1024.0 * 1024 / (2 * 8192))) / 62;
    CHECK(e["train.attended_tokens"].value == Approx(keys));
    CHECK(e["train.attention_flops_per_token"].value == Approx(12.0 * 62 * 32 * 128 * keys));
  }
}

TEST_CASE("separate query/key and value widths size the attention FLOPs (MLA)", "[estimates][attention]") {
  // DeepSeek-V3 (§2.1.1, §4.2): 128 heads, d_qk = 128 + 64 RoPE, d_v = 128, 61 layers, hidden 7168.
  const std::map<std::string, std::string> v3 = {
      {"model.params", "\"671B\""},  {"model.layers", "61"},         {"model.hidden", "7168"},
      {"model.heads", "128"},        {"model.qk_head_dim", "192"},   {"model.v_head_dim", "128"},
      {"model.kv_lora_rank", "512"}, {"model.qk_rope_head_dim", "64"}};
  const Estimated e = estimate_text(training_plan(v3));
  CHECK(e["train.attention_flops_per_token"].value == Approx(6.0 * 61 * 128 * (192 + 128) * 4096));
  CHECK_THAT(e["train.attention_flops_per_token"].formula, Catch::Contains("a · (d_qk + d_v)"));
  auto serving = v3;
  serving["inference.prompt_tokens"] = "4096";
  const Estimated s = estimate_text(inference_plan(serving));
  CHECK(s["infer.prefill_attention_flops"].value == Approx(61.0 * 4096 * 4096 * 128 * (192 + 128)));
  // The MLA KV cache keeps its own keys: (d_c + d_h^R) · L.
  CHECK(s["infer.kv_per_token"].value == Approx((512.0 + 64) * 61 * 2));
}

TEST_CASE("the time and the step time divide the attention FLOPs of the metric", "[estimates][attention]") {
  // With the MFU counting the attention, a windowed, causally counted model's GPU time and step
  // time divide train.attention_flops_per_token, not a second 12 · L · h · S.
  auto plan = gemma3_27b();
  plan["training.seq_len"] = "8192";
  plan["training.global_batch"] = "512";
  plan["training.attention_flops"] = "\"causal\"";
  plan["training.mfu_counts_attention"] = "true";
  const Estimated e = estimate_text(training_plan(plan));
  const double attention = e["train.attention_flops_per_token"].value;
  const double n = 27e9, d = 1e12, peak = *e.plan().number("cluster.peak");
  CHECK(e["train.gpu_seconds"].value == Approx((6 * n + attention) * d / (peak * 0.4)));
  CHECK(e["train.step_seconds"].value == Approx((6 * n + attention) * 512 * 8192 / (128 * peak * 0.4)));
  CHECK_THAT(e["train.gpu_seconds"].formula, Catch::Contains("train.attention_flops_per_token"));
}

TEST_CASE("the training and the prompt's attention count one width, heads · head_dim where it differs from hidden",
          "[estimates][attention]") {
  // Gemma-7B's shape: 16 heads of 256 over a 3072-wide model.
  const std::map<std::string, std::string> shape = {
      {"model.hidden", "3072"}, {"model.heads", "16"}, {"model.head_dim", "256"}, {"model.layers", "28"}};
  const Estimated training = estimate_text(training_plan(shape));
  auto serving = shape;
  serving["model.kv_heads"] = "16";
  serving["inference.prompt_tokens"] = "4096";
  const Estimated prompt = estimate_text(inference_plan(serving));
  const double width_training = training["train.attention_flops_per_token"].value / (12.0 * 28 * 4096);
  const double width_prompt = prompt["infer.prefill_attention_flops"].value / (2.0 * 28 * 4096 * 4096);
  CHECK(width_training == Approx(16 * 256));
  CHECK(width_prompt == Approx(width_training));
}
