/// Mixture of experts with expert parallelism (docs/estimates.md, "Mixture of experts"): the
/// parameter split, the states per GPU with ep, the gradient all-reduce per group, the expert
/// all-to-all, MLA's KV cache, and the published run of examples/deepseek-v3-published.toml.
#include <catch2/catch.hpp>

#include "planlint/lint/lint.hpp"
#include "test_estimates_support.hpp"

using namespace planlint;
using namespace planlint::test;

namespace {

/// Mixtral-8x22B's shape (Jiang et al. 2024): 141B, 39B active, 56 layers of 8 SwiGLU experts
/// of 16384, 2 a token, on 2048 H100 with tp 8, pp 4, ep 8 and ZeRO-1.
std::map<std::string, std::string> mixtral(std::map<std::string, std::string> changes = {}) {
  std::map<std::string, std::string> keys = {
      {"model.params", "\"141B\""},       {"model.active_params", "\"39B\""},
      {"model.architecture", "\"moe\""},  {"model.layers", "56"},
      {"model.hidden", "6144"},           {"model.heads", "48"},
      {"model.kv_heads", "8"},            {"model.mlp", "\"swiglu\""},
      {"model.experts", "8"},             {"model.experts_per_token", "2"},
      {"model.expert_ffn_hidden", "16384"}, {"training.tp", "8"},
      {"training.pp", "4"},               {"training.ep", "8"},
      {"training.zero", "1"},             {"training.global_batch", "4096"},
      {"cluster.count", "2048"},
  };
  for (auto& [key, value] : changes) keys[key] = value;
  return keys;
}

constexpr double expert_params = 56.0 * 8 * 3 * 6144 * 16384;  // 135.3B
constexpr double dense_params = 141e9 - expert_params;           // 5.7B

Estimated deepseek_v3() {
  auto text = read_file(std::string(PLANLINT_SOURCE_DIR) + "/examples/deepseek-v3-published.toml");
  REQUIRE(text.has_value());
  return estimate_text(*text);
}

}  // namespace

TEST_CASE("the expert keys split the parameters into routed experts and the rest", "[estimates][moe]") {
  const Estimated e = estimate_text(training_plan(mixtral()));
  CHECK(e["train.moe.expert_params"].value == Approx(expert_params));
  CHECK(e["train.moe.dense_params"].value == Approx(dense_params));
  CHECK(e["train.moe.active_params"].value == Approx(dense_params + expert_params * 2 / 8));
  SECTION("without expert_ffn_hidden, from N, N_a and the routing") {
    const Estimated derived = estimate_text(training_plan(mixtral({{"model.expert_ffn_hidden", ""}})));
    CHECK(derived["train.moe.expert_params"].value == Approx((141e9 - 39e9) / (1 - 2.0 / 8)));
    CHECK(derived.estimates.find("train.moe.active_params") == nullptr);
  }
  SECTION("a dense plan has none of them") {
    const Estimated dense = estimate_text(training_plan());
    CHECK(dense.estimates.find("train.moe.expert_params") == nullptr);
    CHECK(dense.estimates.find("train.comm.alltoall_bytes") == nullptr);
  }
}

TEST_CASE("MoE states with ep: experts over tp · pp · ep, ZeRO over the ranks that hold them", "[estimates][moe]") {
  const double m = 8 * 4;
  SECTION("ZeRO-1") {
    const Estimated e = estimate_text(training_plan(mixtral()));
    CHECK(e["train.memory.states"].value ==
          Approx(4 * (dense_params / m + expert_params / (m * 8)) + 12 * 141e9 / (m * 64)));
    // Exact, not an upper bound: memory-fit holds the plan to the states themselves.
    CHECK(e["train.memory.lower_bound_states"].value == Approx(e["train.memory.states"].value));
  }
  SECTION("ZeRO-0 and ZeRO-3") {
    CHECK(estimate_text(training_plan(mixtral({{"training.zero", "0"}})))["train.memory.states"].value ==
          Approx(16 * (dense_params / m + expert_params / (m * 8))));
    CHECK(estimate_text(training_plan(mixtral({{"training.zero", "3"}})))["train.memory.states"].value ==
          Approx(16 * 141e9 / (m * 64)));
  }
}

TEST_CASE("the gradient all-reduce of an MoE plan runs per group", "[estimates][moe]") {
  const Estimated e = estimate_text(training_plan(mixtral()));
  const double m = 8 * 4;
  // Dense gradients over dp = 64, each expert's over dp / ep = 8.
  CHECK(e["train.comm.allreduce_bytes"].value ==
        Approx(2 * 63.0 / 64 * 2 * dense_params / m + 2 * 7.0 / 8 * 2 * expert_params / (m * 8)));
  CHECK(e["train.comm.fraction_lower_bound"].value == Approx(e["train.comm.fraction"].value));
}

TEST_CASE("the expert all-to-all: dispatch and combine, forward and backward", "[estimates][moe]") {
  const Estimated e = estimate_text(training_plan(mixtral()));
  // 4096 × 4096 tokens a step over dp 64 · tp 8; 56 / 4 MoE layers a stage; 7/8 leaves the GPU.
  const double bytes = 7.0 / 8 * 2 * 6144 * 8 * 56 / 4 * (4096.0 * 4096 / (64 * 8));
  CHECK(e["train.comm.alltoall_bytes"].value == Approx(bytes));
  // tp 8 · ep 8 spans 8 nodes, one rank on each: all of it crosses the 50 GB/s network.
  CHECK(e["train.comm.ep_group_domains"].value == 8);
  CHECK(e["train.comm.alltoall_seconds"].value == Approx(bytes / 50e9));
  SECTION("an ep group inside a node runs on NVLink, at one direction's rate") {
    const Estimated local = estimate_text(training_plan(mixtral({{"training.tp", "1"}, {"training.pp", "1"}})));
    CHECK(local["train.comm.ep_group_domains"].value == 1);
    CHECK(local["train.comm.alltoall_seconds"].value ==
          Approx(local["train.comm.alltoall_bytes"].value / (900e9 / 2)));
  }
  SECTION("FP8 dispatches 1 byte an element, the rest stays 16-bit") {
    const Estimated fp8 = estimate_text(training_plan(mixtral({{"training.precision", "\"fp8\""}})));
    CHECK(fp8["train.comm.alltoall_bytes"].value == Approx(bytes * 7 / 8));
  }
}

TEST_CASE("MLA's KV cache is its latent and RoPE key", "[estimates][moe][inference]") {
  // DeepSeek-V3 (DeepSeek-V2 §2.1): (512 + 64) · 61 elements a token, 2 bytes each.
  const Estimated e = estimate_text(inference_plan({{"model.layers", "61"},
                                                    {"model.kv_lora_rank", "512"},
                                                    {"model.qk_rope_head_dim", "64"},
                                                    {"inference.tp", "8"},
                                                    {"cluster.count", "8"}}));
  CHECK(e["infer.kv_per_token"].value == Approx(576.0 * 61 * 2));
  // One latent for all heads: each GPU of the tp 8 replica holds all of it.
  CHECK(e["infer.memory.total"].value ==
        Approx(1.1 * (e["infer.weights"].value / 8 + e["infer.kv_cache"].value)));
}

TEST_CASE("DeepSeek-V3 as published: its memory fits, its all-to-all is counted",
          "[estimates][moe][published]") {
  const Estimated e = deepseek_v3();
  // §4.2: 671B, 37B activated; the keys give 37.5B.
  CHECK(e["train.moe.active_params"].value == Approx(37e9).epsilon(0.03));
  // States: dense 17.1B over pp 16, experts over pp 16 · ep 64, ZeRO-1 over 2048 GPUs; FP8
  // training keeps an FP8 copy of the weights beside the BF16 ones (k_w = 3).
  CHECK(e["train.memory.states"].value == Approx(12.47e9).epsilon(0.005));
  CHECK(e["train.memory.total"].value == Approx(78.5e9).epsilon(0.005));
  CHECK(e["train.memory.total"].value < 80e9);
  // 704 GB a GPU and step; 56 of 63 peers across nodes at 50 GB/s: 12.5 s.
  CHECK(e["train.comm.alltoall_bytes"].value == Approx(704e9).epsilon(0.005));
  CHECK(e["train.comm.alltoall_seconds"].value == Approx(704e9 * 56 / 63 / 50e9).epsilon(0.005));
}
