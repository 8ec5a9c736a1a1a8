#include <catch2/catch.hpp>

#include "test_estimates_support.hpp"

using namespace planlint;
using namespace planlint::test;

namespace {

double metric_of(const std::map<std::string, std::string>& changes, std::string_view metric) {
  return estimate_text(training_plan(changes))[metric].value;
}

double inference_metric(const std::map<std::string, std::string>& changes, std::string_view metric) {
  return estimate_text(inference_plan(changes))[metric].value;
}

}  // namespace

TEST_CASE("more GPUs mean fewer days and the same GPU-hours", "[estimates]") {
  const Estimated small = estimate_text(training_plan({{"cluster.count", "128"}}));
  const Estimated large = estimate_text(training_plan({{"cluster.count", "256"}}));
  CHECK(large["train.gpu_hours"].value == Approx(small["train.gpu_hours"].value));
  CHECK(large["train.days"].value == Approx(small["train.days"].value / 2));
  CHECK(large["train.step_seconds"].value == Approx(small["train.step_seconds"].value / 2));
  // Billed GPU-hours follow the wall time of the whole allocation: the same as well.
  CHECK(large["cost.gpu_hours_billed"].value == Approx(small["cost.gpu_hours_billed"].value));
}

TEST_CASE("a higher ZeRO stage holds less model state per GPU", "[estimates]") {
  double previous_states = 0, previous_total = 0;
  for (int stage = 0; stage <= 3; ++stage) {
    INFO("zero " << stage);
    const Estimated e = estimate_text(training_plan({{"training.zero", std::to_string(stage)}}));
    const double states = e["train.memory.states"].value;
    const double total = e["train.memory.total"].value;
    if (stage > 0) {
      CHECK(states < previous_states);
      CHECK(total < previous_total);
    }
    previous_states = states;
    previous_total = total;
  }
  // ZeRO paper (Rajbhandari et al. 2020) figure 1, Ψ = 7.5B, N_d = 64: 120 GB, 31.4 GB,
  // 16.6 GB, 1.9 GB.
  const std::map<std::string, std::string> zero_paper = {
      {"model.params", "\"7.5B\""}, {"cluster.count", "64"}};
  auto with_stage = [&](int stage) {
    auto changes = zero_paper;
    changes["training.zero"] = std::to_string(stage);
    return metric_of(changes, "train.memory.states") / 1e9;
  };
  CHECK(with_stage(0) == Approx(120));
  CHECK(with_stage(1) == Approx(31.4).epsilon(0.01));
  CHECK(with_stage(2) == Approx(16.6).epsilon(0.01));
  CHECK(with_stage(3) == Approx(1.9).epsilon(0.02));
}

TEST_CASE("more tensor or pipeline parallelism holds less memory per GPU", "[estimates]") {
  double previous = 0;
  for (int tp : {1, 2, 4, 8}) {
    INFO("tp " << tp);
    const double total = metric_of({{"training.tp", std::to_string(tp)}}, "train.memory.total");
    if (tp > 1) CHECK(total < previous);
    previous = total;
  }
  for (int pp : {1, 2, 4}) {
    INFO("pp " << pp);
    const double states = metric_of({{"training.pp", std::to_string(pp)}}, "train.memory.states");
    if (pp > 1) CHECK(states < previous);
    previous = states;
  }
  // Sequence parallelism divides every stored activation by tp; without it only 24 of 34.
  const double with_sp = metric_of({{"training.tp", "8"}}, "train.memory.activations");
  const double without_sp = metric_of(
      {{"training.tp", "8"}, {"training.sequence_parallel", "false"}}, "train.memory.activations");
  CHECK(with_sp == Approx(metric_of({}, "train.memory.activations") / 8));
  CHECK(without_sp / with_sp == Approx((10 + 24.0 / 8) / (34.0 / 8)));
}

TEST_CASE("full recompute keeps less than selective, and selective less than none",
          "[estimates][activations]") {
  auto activations = [](std::string recompute, std::string flash) {
    return metric_of({{"training.recompute", "\"" + recompute + "\""},
                      {"training.flash_attention", flash}},
                     "train.memory.activations");
  };
  const double full = activations("full", "false");
  const double selective = activations("selective", "false");
  const double none = activations("none", "false");
  CHECK(full < selective);
  CHECK(selective < none);
  // Korthikanti et al. 2022: 2·S·b·h, S·b·h·34, S·b·h·(34 + 5·a·S/h) per layer.
  const double sbh = 4096.0 * 1 * 4096;
  CHECK(full == Approx(32 * 2 * sbh));
  CHECK(selective == Approx(32 * 34 * sbh));
  CHECK(none == Approx(32 * sbh * (34 + 5.0 * 32 * 4096 / 4096)));
  // Flash attention never stores the scores: no recompute then keeps what selective keeps.
  CHECK(activations("none", "true") == Approx(selective));
  // A measurement replaces the formula.
  CHECK(metric_of({{"training.activation_memory", "\"20 GB\""}}, "train.memory.activations") ==
        Approx(20e9));
}

TEST_CASE("context parallelism splits the activations by cp", "[estimates][activations]") {
  const double one = metric_of({}, "train.memory.activations");
  CHECK(metric_of({{"training.cp", "2"}}, "train.memory.activations") == Approx(one / 2));
}

TEST_CASE("the optimizer sets the model-state bytes per parameter", "[estimates]") {
  auto states = [](std::string optimizer) {
    return metric_of({{"training.optimizer", "\"" + optimizer + "\""}}, "train.memory.states") / 7e9;
  };
  CHECK(states("adamw") == Approx(16));
  CHECK(states("adam") == Approx(16));
  CHECK(states("sgd") == Approx(12));
  CHECK(states("lion") == Approx(12));
  CHECK(states("adafactor") == Approx(8));
  CHECK(metric_of({{"training.bytes_per_param", "\"18 B\""}}, "train.memory.states") / 7e9 ==
        Approx(18));
  // Below 4 bytes (a quantised frozen base) ZeRO-1 still shards nothing it does not have.
  CHECK(metric_of({{"training.bytes_per_param", "\"0.6 B\""}, {"training.zero", "1"}},
                  "train.memory.states") / 7e9 == Approx(0.6));
}

TEST_CASE("compute follows the active parameters and memory the total", "[estimates][moe]") {
  const std::map<std::string, std::string> moe = {{"model.params", "\"141B\""},
                                                 {"model.active_params", "\"39B\""},
                                                 {"model.architecture", "\"moe\""},
                                                 {"training.ep", "8"},
                                                 {"training.tp", "8"},
                                                 {"training.pp", "4"},
                                                 {"cluster.count", "256"}};
  const Estimated e = estimate_text(training_plan(moe));
  CHECK(e["train.flops"].value == Approx(6 * 39e9 * 1e12));
  CHECK(e["train.memory.states"].value == Approx(16 * 141e9 / 32));
  CHECK(e["train.tokens_per_param"].value == Approx(1e12 / 141e9));
  REQUIRE(e["train.memory.states"].notes.size() == 1);
  CHECK_THAT(e["train.memory.states"].notes[0], Catch::StartsWith("upper bound: ep = 8"));
}

TEST_CASE("the all-reduce crosses the network only when dp spans nodes", "[estimates][comm]") {
  // tp 8 fills a node: dp runs between nodes over the 50 GB/s NIC.
  const Estimated across = estimate_text(training_plan({{"training.tp", "8"}}));
  CHECK(across["train.comm.seconds"].value ==
        Approx(across["train.comm.allreduce_bytes"].value / 50e9));
  // 8 GPUs, dp 8 inside one node: NVLink, 900 GB/s both directions = 450 GB/s each way.
  const Estimated within = estimate_text(training_plan({{"cluster.count", "8"}}));
  CHECK(within["train.comm.seconds"].value ==
        Approx(within["train.comm.allreduce_bytes"].value / 450e9));
  // dp 1: nothing to reduce.
  const Estimated alone = estimate_text(training_plan({{"cluster.count", "1"}}));
  CHECK(alone["train.comm.allreduce_bytes"].value == 0);
  CHECK(alone["train.comm.seconds"].value == 0);
  // Without a NIC figure a multi-node dp group has no all-reduce time.
  const Estimated unknown = estimate_text(training_plan({{"cluster.inter_node_bandwidth", ""}}));
  CHECK(*unknown.estimates.missing_inputs("train.comm.seconds") ==
        std::vector<std::string>{"cluster.inter_node_bandwidth"});
}

TEST_CASE("the pipeline bubble is (p − 1) over the micro-batches per pipeline",
          "[estimates][comm]") {
  // 1024 sequences / (dp 32 · b 1) = 32 micro-batches; (4 − 1) / 32.
  CHECK(metric_of({{"training.pp", "4"}}, "train.pipeline_bubble") == Approx(3.0 / 32));
  CHECK(metric_of({}, "train.pipeline_bubble") == 0);
  // A global batch in tokens counts sequences of seq_len.
  CHECK(metric_of({{"training.pp", "4"}, {"training.global_batch", "\"4M tokens\""}},
                  "train.pipeline_bubble") == Approx(3.0 / (4e6 / 4096 / 32)));
}

TEST_CASE("the optimal checkpoint interval is the Young/Daly square root", "[estimates][comm]") {
  const double interval = metric_of(
      {{"training.checkpoint_write_time", "\"60 s\""}, {"cluster.node_mtbf", "\"6300 h\""}},
      "train.checkpoint.optimal_interval");
  // 128 GPUs = 16 nodes of 8: MTBF 6300 h / 16.
  CHECK(interval == Approx(std::sqrt(2 * 60 * 6300 * 3600.0 / 16)));
}

TEST_CASE("grouped-query attention shrinks the KV cache by heads / kv_heads",
          "[estimates][inference]") {
  const double gqa = inference_metric({{"model.kv_heads", "8"}}, "infer.kv_per_token");
  const double mha = inference_metric({{"model.kv_heads", "64"}}, "infer.kv_per_token");
  CHECK(mha / gqa == Approx(64.0 / 8));
  CHECK(inference_metric({{"model.kv_heads", "64"}}, "infer.kv_cache") /
            inference_metric({{"model.kv_heads", "8"}}, "infer.kv_cache") ==
        Approx(8));
  CHECK(gqa == 2 * 80 * 8 * 128 * 2);
  CHECK(inference_metric({{"model.kv_heads", "8"}}, "infer.max_concurrency") >
        inference_metric({{"model.kv_heads", "64"}}, "infer.max_concurrency"));
}

TEST_CASE("int4 weights are a quarter of bf16", "[estimates][inference]") {
  const double bf16 = inference_metric({{"inference.weights", "\"bf16\""}}, "infer.weights");
  const double int4 = inference_metric({{"inference.weights", "\"int4\""}}, "infer.weights");
  const double fp8 = inference_metric({{"inference.weights", "\"fp8\""}}, "infer.weights");
  CHECK(bf16 == Approx(140e9));
  CHECK(int4 == Approx(bf16 / 4));
  CHECK(fp8 == Approx(bf16 / 2));
  CHECK(inference_metric({{"inference.kv_precision", "\"fp8\""}}, "infer.kv_per_token") ==
        Approx(inference_metric({}, "infer.kv_per_token") / 2));
}

TEST_CASE("inference memory, capacity and latency follow docs/estimates.md", "[estimates][inference]") {
  const Estimated e = estimate_text(inference_plan());
  const double weights = 140e9, per_token = 2 * 80 * 8 * 128 * 2.0, cache = per_token * 4096 * 32;
  CHECK(e["infer.kv_cache"].value == Approx(cache));
  CHECK(e["infer.memory.total"].value == Approx((weights + cache) / 4 * 1.1));
  CHECK(e["infer.max_concurrency"].value == std::floor((80e9 * 0.9 * 4 - weights) / (per_token * 4096)));
  CHECK(e["infer.decode_tokens_per_s"].value == Approx(3.35e12 * 4 / (weights + per_token * 4096)));
  CHECK(e["infer.itl"].value == Approx(1 / e["infer.decode_tokens_per_s"].value));
  CHECK(e["infer.decode_flops_per_token"].value == Approx(1.4e11));
  CHECK(e["infer.prefill_flops"].value == Approx(2 * 70e9 * 3072));
  // bf16 weights compute on the bf16 peak; 50% prefill MFU by default.
  CHECK(e["infer.ttft"].value == Approx(2 * 70e9 * 3072 / (989e12 * 4 * 0.5)));
  // More GPUs per replica: more room for sequences, faster decode.
  const Estimated wider = estimate_text(inference_plan({{"inference.tp", "8"}, {"cluster.count", "8"}}));
  CHECK(wider["infer.max_concurrency"].value > e["infer.max_concurrency"].value);
  CHECK(wider["infer.decode_tokens_per_s"].value > e["infer.decode_tokens_per_s"].value);
}
