/// Serving layouts (docs/estimates.md, "Serving layouts"): pipeline stages, data-parallel
/// attention and expert parallelism of an inference replica, and MLA's KV cache under each.
#include <catch2/catch.hpp>

#include "test_estimates_support.hpp"

using namespace planlint;
using namespace planlint::test;

namespace {

/// DeepSeek-V3's shape (its config.json): 671B, 37B active, MLA with a 512-wide latent and a
/// 64-wide RoPE key, 256 routed experts of 2048 (SwiGLU) in 58 of 61 layers, 8 a token. Its
/// config states 128 KV heads, which MLA's one cached latent makes moot.
std::string deepseek_v3_serving(std::map<std::string, std::string> changes = {}) {
  std::map<std::string, std::string> keys = {
      {"model.params", "\"671B\""},          {"model.active_params", "\"37B\""},
      {"model.architecture", "\"moe\""},      {"model.mlp", "\"swiglu\""},
      {"model.layers", "61"},                 {"model.hidden", "7168"},
      {"model.heads", "128"},                 {"model.kv_heads", "128"},
      {"model.head_dim", "128"},              {"model.kv_lora_rank", "512"},
      {"model.qk_rope_head_dim", "64"},       {"model.experts", "256"},
      {"model.experts_per_token", "8"},       {"model.moe_layers", "58"},
      {"model.expert_ffn_hidden", "2048"},    {"model.shared_experts", "1"},
      {"inference.weights", "\"fp8\""},      {"inference.context", "\"32768 tokens\""},
      {"inference.concurrency", "\"64 seq\""}, {"inference.tp", "16"},
      {"cluster.gpu", "\"h100-sxm\""},        {"cluster.count", "16"},
  };
  for (auto& [key, value] : changes) keys[key] = value;
  return inference_plan(keys);
}

}  // namespace

TEST_CASE("an MLA cache held whole on every tp GPU is counted so by the reserve and the per-GPU figures",
          "[estimates][serving][inference]") {
  // One latent for every head (DeepSeek-V2 §2.1): each of the 16 GPUs holds all of it, whatever
  // model.kv_heads says.
  const Estimated e = estimate_text(deepseek_v3_serving());
  const double weights = e["infer.weights"].value, cache = e["infer.kv_cache"].value;
  CHECK(e["infer.kv_heads_per_gpu"].value == 1);
  CHECK(e["infer.kv_replication"].value == 16);
  CHECK(e["infer.memory.reserve"].value == Approx(0.1 * (weights / 16 + cache)));
  CHECK(e["infer.memory.total"].value == Approx(weights / 16 + cache + e["infer.memory.reserve"].value));
  CHECK(e["infer.kv_per_sequence_per_gpu"].value == Approx(e["infer.kv_per_sequence"].value));
  CHECK(e["infer.memory.one_sequence"].value ==
        Approx(1.1 * (weights / 16 + e["infer.kv_per_sequence"].value)));
}

TEST_CASE("data-parallel attention divides an MLA cache over its ranks, each with its own dense weights",
          "[estimates][serving][inference]") {
  const Estimated tp = estimate_text(deepseek_v3_serving());
  const Estimated dp = estimate_text(deepseek_v3_serving({{"inference.dp_attention", "16"}, {"inference.ep", "16"}}));
  const double weights = dp["infer.weights"].value, cache = dp["infer.kv_cache"].value;
  const double n = 671e9, dense = dp["train.moe.dense_params"].value;
  // N_e = 58 · 256 · 3 · 7168 · 2048; the rest, 17B, is every rank's own.
  CHECK(dp["train.moe.expert_params"].value == Approx(58.0 * 256 * 3 * 7168 * 2048));
  const double held = weights * (1 + 15 * dense / n) / 16;
  CHECK(dp["infer.kv_replication"].value == 1);
  CHECK(dp["infer.memory.total"].value == Approx(1.1 * (held + cache / 16)));
  CHECK(dp["infer.memory.reserve"].value == Approx(0.1 * (held + cache / 16)));
  CHECK(dp["infer.memory.total"].value < tp["infer.memory.total"].value / 2);
  // A sequence lives on one rank's one GPU; each of the 16 ranks holds whole sequences.
  const double sequence = dp["infer.kv_per_sequence"].value;
  CHECK(dp["infer.kv_per_sequence_per_gpu"].value == Approx(sequence));
  CHECK(dp["infer.memory.weights_alone"].value == Approx(1.1 * held));
  CHECK(dp["infer.max_concurrency"].value == 16 * std::floor((80e9 * 0.9 - held) / sequence));
  // Under tensor parallelism every GPU holds every sequence: several times fewer fit.
  CHECK(dp["infer.max_concurrency"].value > 5 * tp["infer.max_concurrency"].value);
  // One sequence alone: its rank's one GPU reads the dense weights and its whole cache.
  const double share = 37e9 / n;
  CHECK(dp["infer.decode_tokens_per_s"].value ==
        Approx(3.35e12 * 16 / (weights * share + 15 * weights * dense / n + sequence * 16)));
}

TEST_CASE("pipeline stages divide a GPU's weights and cache, not one sequence's decode", "[estimates][serving][inference]") {
  const Estimated flat = estimate_text(inference_plan({{"inference.tp", "4"}, {"cluster.count", "16"}}));
  const Estimated staged =
      estimate_text(inference_plan({{"inference.tp", "4"}, {"inference.pp", "2"}, {"cluster.count", "16"}}));
  const double weights = staged["infer.weights"].value, cache = staged["infer.kv_cache"].value;
  CHECK(staged["infer.memory.total"].value == Approx(1.1 * (weights + cache) / 8));
  CHECK(staged["infer.replica_gpus"].value == 8);
  CHECK(staged.plan().number("inference.replicas") == 2);
  CHECK(staged["infer.service_gpus"].value == 16);
  CHECK(staged["infer.max_concurrency"].value == std::floor((80e9 * 0.9 - weights / 8) / (cache / 32 / 8)));
  // A token passes both stages in turn; a full replica's step spreads over all 8 GPUs.
  CHECK(staged["infer.decode_tokens_per_s"].value == Approx(flat["infer.decode_tokens_per_s"].value));
  CHECK(staged["infer.itl_at_concurrency"].value == Approx(flat["infer.itl_at_concurrency"].value / 2));
  CHECK(staged["infer.ttft"].value == Approx(flat["infer.ttft"].value / 2));
}

TEST_CASE("attention ranks and expert-parallel ranks must divide tp, and expert parallelism needs experts",
          "[estimates][serving][loader][bad-value]") {
  SECTION("dp_attention") {
    const LoadResult loaded = load_text(inference_plan({{"inference.dp_attention", "3"}}));
    CHECK(rules_of(loaded.diagnostics) == std::vector<std::string>{"bad-value"});
  }
  SECTION("ep of a dense model") {
    const LoadResult loaded = load_text(inference_plan({{"inference.ep", "4"}}));
    CHECK(rules_of(loaded.diagnostics) == std::vector<std::string>{"bad-value"});
  }
  SECTION("ep that divides tp") {
    const LoadResult loaded = load_text(deepseek_v3_serving({{"inference.ep", "8"}}));
    CHECK(rules_of(loaded.diagnostics).empty());
  }
}

TEST_CASE("a disaggregated prefill pool gives TTFT its own GPUs and the KV transfer, and bills its GPUs",
          "[estimates][serving][inference]") {
  const std::map<std::string, std::string> decode = {
      {"cluster.gpu", "\"h200-sxm\""}, {"cluster.count", "8"}, {"cluster.price", "\"$3/GPU/h\""}};
  std::map<std::string, std::string> disaggregated = decode;
  disaggregated.insert({{"inference.prefill_gpu", "\"h100-sxm\""}, {"inference.prefill_count", "8"},
                        {"inference.prefill_tp", "2"}});
  const Estimated together = estimate_text(inference_plan(decode));
  const Estimated apart = estimate_text(inference_plan(disaggregated));
  const double kv_prompt = apart["infer.kv_per_token"].value * 3072;
  // The prompt's cache leaves over the two prefill GPUs' 400 Gb/s ports.
  CHECK(apart["infer.kv_transfer_seconds"].value == Approx(kv_prompt / (50e9 * 2)));
  CHECK(apart["infer.ttft"].value ==
        Approx(apart["infer.prefill_flops"].value / (989e12 * 2 * 0.5) + apart["infer.kv_transfer_seconds"].value));
  CHECK(apart["infer.prefill_memory"].value == Approx(1.1 * (apart["infer.weights"].value + kv_prompt) / 2));
  CHECK(apart["infer.cost_per_month"].value == Approx(2 * together["infer.cost_per_month"].value));
  // The decode pool is the [cluster] and [inference] it was.
  CHECK(apart["infer.memory.total"].value == Approx(together["infer.memory.total"].value));
  CHECK(apart["infer.itl_at_concurrency"].value == Approx(together["infer.itl_at_concurrency"].value));
}

TEST_CASE("a prefill pool's GPU is a catalog id like the cluster's, counted, and laid out as a replica is", "[estimates][serving][loader]") {
  const LoadResult unknown =
      load_text(inference_plan({{"inference.prefill_gpu", "\"h1000\""}, {"inference.prefill_count", "8"}}));
  CHECK(rules_of(unknown.diagnostics) == std::vector<std::string>{"unknown-gpu"});
  const LoadResult degrees = load_text(inference_plan({{"inference.prefill_gpu", "\"h100-sxm\""},
                                                       {"inference.prefill_count", "8"},
                                                       {"inference.prefill_tp", "4"},
                                                       {"inference.prefill_dp_attention", "3"}}));
  CHECK(rules_of(degrees.diagnostics) == std::vector<std::string>{"bad-value"});
  const LoadResult uncounted = load_text(inference_plan({{"inference.prefill_gpu", "\"h100-sxm\""}}));
  CHECK(rules_of(uncounted.diagnostics) == std::vector<std::string>{"missing-required"});
}
