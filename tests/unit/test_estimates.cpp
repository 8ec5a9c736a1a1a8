#include <map>
#include <optional>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "planlint/estimate/engine.hpp"
#include "test_estimates_support.hpp"

using namespace planlint;
using namespace planlint::test;

namespace {

std::string example(std::string_view name) {
  return std::string(PLANLINT_SOURCE_DIR) + "/examples/" + std::string(name);
}

Estimated estimate_example(std::string_view name) {
  auto text = read_file(example(name));
  if (!text) INFO(text.error().message);
  REQUIRE(text.has_value());
  return estimate_text(*std::move(text));
}

double days(double seconds) { return seconds / 86400; }
double hours(double gpu_seconds) { return gpu_seconds / 3600; }

/// Every TOML file of the project that loads as a plan, with its path.
std::vector<std::pair<std::string, Plan>> project_plans() {
  std::vector<std::pair<std::string, Plan>> plans;
  for (const std::string& path : project_toml_files()) {
    auto text = read_file(path);
    if (!text) continue;
    LoadResult loaded = load_text(*std::move(text), path);
    if (loaded.plan) plans.emplace_back(path, std::move(*loaded.plan));
  }
  return plans;
}

/// Checks that the ranges at the two corners are those of every combination of the ends;
/// returns every combination's ranges.
std::map<std::string, MetricRange, std::less<>> check_corners_match(const Plan& plan) {
  const Estimates lean = estimate(plan, Catalog::builtin(), EstimateScope{false, false});
  const auto corners = metric_ranges(plan, Catalog::builtin(), lean, RangeEvaluations::corners);
  auto every = metric_ranges(plan, Catalog::builtin(), lean, RangeEvaluations::every_combination);
  REQUIRE(corners.size() == every.size());
  for (const auto& [name, range] : every) {
    INFO(name);
    const auto found = corners.find(name);
    REQUIRE(found != corners.end());
    CHECK(found->second.low == range.low);
    CHECK(found->second.high == range.high);
  }
  return every;
}

}  // namespace

TEST_CASE("every worked example of docs/estimates.md is reproduced to 3 significant figures",
          "[estimates]") {
  for (const std::string& fixture : vector_fixtures) {
    DYNAMIC_SECTION(fixture) {
      const Estimated e = estimate_fixture(fixture);
      REQUIRE_FALSE(e.plan().estimates.empty());
      for (const Claim& claim : e.plan().estimates) {
        INFO(claim.metric);
        const MetricValue& metric = e[claim.metric];
        INFO("computed " << metric.arithmetic);
        REQUIRE(claim.value);
        CHECK(same_3sf(claim.metric, metric.value, claim.value->quantity()->value));
        if (claim.low) {
          REQUIRE(metric.low);
          CHECK(same_3sf(claim.metric, *metric.low, claim.low->quantity()->value));
        }
        if (claim.high) {
          REQUIRE(metric.high);
          CHECK(same_3sf(claim.metric, *metric.high, claim.high->quantity()->value));
        }
      }
    }
  }
}

TEST_CASE("the worked examples read as docs/estimates.md writes them", "[estimates]") {
  // The same vectors, spelled out, so that a fixture edited by mistake cannot hide a regression.
  CHECK(round3(estimate_fixture("7b-pretrain.toml")["train.flops"].value) == Approx(4.2e22));
  CHECK(round3(days(estimate_fixture("7b-pretrain.toml")["train.days"].value)) == Approx(9.6));
  CHECK(estimate_fixture("7b-pretrain.toml")["train.memory.states"].value == Approx(112e9));
  const Estimated big = estimate_fixture("70b-15t.toml");
  CHECK(round3(hours(big["train.gpu_hours"].value)) == Approx(4.42e6));
  CHECK(round3(hours(*big["train.gpu_hours"].low)) == Approx(3.54e6));
  CHECK(round3(hours(*big["train.gpu_hours"].high)) == Approx(5.90e6));
  CHECK(round3(days(big["train.days"].value)) == Approx(90.0));
  CHECK(round3(days(big["train.wall_days"].value)) == Approx(106));
  CHECK(round3(hours(estimate_fixture("13b-1t.toml")["train.gpu_hours"].value)) == Approx(1.54e5));
  CHECK(round3(days(estimate_fixture("13b-1t.toml")["train.days"].value)) == Approx(50.2));
  CHECK(estimate_fixture("13b-zero3.toml")["train.memory.states"].value == Approx(26e9));
  const Estimated kv = estimate_fixture("llama2-7b-kv.toml");
  CHECK(kv["infer.kv_per_token"].value == 524288);
  CHECK(kv["infer.kv_cache"].value == 32.0 * 1024 * 1024 * 1024);
  CHECK(round3(estimate_fixture("13b-decode.toml")["infer.itl"].value) == Approx(0.013));
  CHECK(round3(estimate_fixture("70b-decode.toml")["infer.decode_tokens_per_s"].value) == Approx(23.9));
  CHECK(round3(estimate_fixture("70b-decode-int4.toml")["infer.decode_tokens_per_s"].value) ==
        Approx(95.7));
  // Not 336,538: that divides seconds by 1000.
  CHECK(round3(hours(estimate_fixture("7b-a100.toml")["train.gpu_hours"].value)) == Approx(9.35e4));
  const Estimated gpt3 = estimate_fixture("gpt3-v100.toml");
  CHECK(round3(gpt3["train.flops"].value) == Approx(3.15e23));
  CHECK(round3(hours(gpt3["train.gpu_hours"].value)) == Approx(1.75e6));
}

TEST_CASE("a metric keeps its formula, its arithmetic and where its inputs are", "[estimates]") {
  const Estimated e = estimate_example("cluster-plan.toml");

  const MetricValue& flops = e["train.flops"];
  CHECK(flops.formula == "6 · N_a · D");
  CHECK(flops.arithmetic == "6 × 7B × 1T tokens = 4.2e22 FLOP");
  REQUIRE(flops.inputs.size() == 2);
  const MetricInput& tokens = flops.inputs[1];
  CHECK(tokens.name == "training.tokens");
  CHECK(tokens.origin == Origin::plan);
  CHECK(tokens.span == e.plan().find("training.tokens")->span);
  CHECK(tokens.span.known());
  CHECK(flops.inputs[0].name == "model.active_params");
  CHECK(flops.inputs[0].origin == Origin::default_);

  const MetricValue& gpu_hours = e["train.gpu_hours"];
  CHECK(gpu_hours.arithmetic == "4.2e22 FLOP / (989 TFLOPS × 40%) = 29.5K GPU·h");
  REQUIRE(gpu_hours.inputs.size() == 3);
  CHECK(gpu_hours.inputs[0].name == "train.flops");
  CHECK(gpu_hours.inputs[0].is_metric);
  const MetricInput& peak = gpu_hours.inputs[1];
  CHECK(peak.name == "cluster.peak");
  CHECK(peak.origin == Origin::catalog);
  CHECK(peak.value == Approx(989e12));
  CHECK(peak.span == e.plan().find("cluster.gpu")->span);
  CHECK(peak.note == "catalog h100-sxm dense bf16 peak");

  CHECK(e["train.days"].arithmetic == "29.5K GPU·h / 128 GPUs / 24 = 9.6 d");
  CHECK(e["train.memory.total"].arithmetic == "28.7 GB + 18.3 GB + 4.69 GB = 51.6 GB");
  const MetricValue& states = e["train.memory.states"];
  const auto optimizer = std::find_if(states.inputs.begin(), states.inputs.end(),
                                      [](const MetricInput& i) { return i.name == "training.optimizer"; });
  REQUIRE(optimizer != states.inputs.end());
  CHECK(optimizer->text == "adamw");
  CHECK(optimizer->value == 16);
}

TEST_CASE("cost-tier metrics range over the assumptions' low and high", "[estimates]") {
  SECTION("one assumption: the cluster plan's MFU 30–50%") {
    const Estimated e = estimate_example("cluster-plan.toml");
    const MetricValue& d = e["train.days"];
    REQUIRE(d.has_range());
    CHECK(round3(days(*d.low)) == Approx(7.68));
    CHECK(round3(days(*d.high)) == Approx(12.8));
    CHECK(d.range_keys == std::vector<std::string>{"training.mfu"});
    CHECK_FALSE(e["train.flops"].has_range());  // 6·N·D depends on no assumption
    CHECK_FALSE(e["train.memory.total"].has_range());  // capacity tier
    REQUIRE(e.estimates.range_sources().size() == 1);
    CHECK(e.estimates.range_sources()[0].assumption == "mfu");
  }
  SECTION("three assumptions: low is the optimistic end of all of them") {
    const Estimated e = estimate_example("llama-70b-pretrain.toml");
    const MetricValue& cost = e["cost.total"];
    CHECK(round3(cost.value) == Approx(15.6e6));
    CHECK(round3(*cost.low) == Approx(7.69e6));   // MFU 50%, goodput 92%, $2/GPU-h
    CHECK(round3(*cost.high) == Approx(29.5e6));  // MFU 30%, goodput 80%, $4/GPU-h
    CHECK(cost.range_keys ==
          std::vector<std::string>{"training.mfu", "training.goodput", "cluster.price"});
    CHECK(round3(days(*e["train.wall_days"].low)) == Approx(78.3));
    CHECK(round3(days(*e["train.wall_days"].high)) == Approx(150));
    CHECK(round3(days(*e["train.days"].low)) == Approx(72.0));
    CHECK(e["train.days"].range_keys == std::vector<std::string>{"training.mfu"});
    for (const MetricValue& metric : e.estimates.values())
      if (metric.has_range()) {
        INFO(metric.name);
        CHECK(*metric.low <= metric.value);
        CHECK(metric.value <= *metric.high);
      }
  }
}

TEST_CASE("every cost-tier metric of a training plan comes from the compute group", "[estimates]") {
  // estimate() re-evaluates only that group for the ranges (compute.cpp): a cost-tier metric
  // computed by the memory or communication group would lose its range.
  for (const char* name : {"llama-70b-pretrain.toml", "cluster-plan.toml", "moe-pretrain.toml",
                           "finetune-qlora.toml"}) {
    INFO(name);
    const Estimated full = estimate_example(name);
    REQUIRE(full.plan().is_training());
    const detail::Overrides none;
    detail::EstimateContext compute_only(full.plan(), Catalog::builtin(), none);
    detail::estimate_training_compute(compute_only);
    const Estimates group = compute_only.take();
    std::size_t cost_metrics = 0;
    for (const MetricValue& value : full.estimates.values()) {
      const std::string& metric = value.name;
      const MetricSpec* known = find_metric(metric);
      REQUIRE(known != nullptr);
      if (known->tier != Tier::cost) continue;
      INFO(metric);
      ++cost_metrics;
      const MetricValue* from_group = group.find(metric);
      REQUIRE(from_group != nullptr);
      CHECK(from_group->value == value.value);
    }
    CHECK(cost_metrics >= 5);
  }
}

TEST_CASE("every cost-tier metric an assumption moves in an inference plan comes from the inference group",
          "[estimates]") {
  // The ranges' re-evaluations skip the reads group (compute.cpp): a cost-tier metric of it that
  // MFU, goodput or price moves would lose its range.
  std::size_t moved = 0;
  for (const char* name : {"inference-serving.toml", "mistral-7b-published.toml",
                           "deepseek-r1-fp4-serving-published.toml"}) {
    INFO(name);
    const Estimated full = estimate_example(name);
    REQUIRE_FALSE(full.plan().is_training());
    const detail::Overrides none;
    detail::EstimateContext inference_only(full.plan(), Catalog::builtin(), none);
    detail::estimate_inference(inference_only);
    const Estimates group = inference_only.take();
    for (const MetricValue& value : full.estimates.values()) {
      const MetricSpec* known = find_metric(value.name);
      REQUIRE(known != nullptr);
      if (known->tier != Tier::cost || (value.range_keys.empty() && known->ranged_by == 0)) continue;
      INFO(value.name);
      ++moved;
      const MetricValue* from_group = group.find(value.name);
      REQUIRE(from_group != nullptr);
      CHECK(from_group->value == value.value);
    }
  }
  CHECK(moved >= 1);  // infer.cost_per_month, by the price
}

TEST_CASE("the examples' hand-computed numbers agree with the engine", "[estimates]") {
  SECTION("llama-70b-pretrain") {
    const Estimated e = estimate_example("llama-70b-pretrain.toml");
    CHECK(round3(e["train.flops"].value) == Approx(6.3e24));
    CHECK(round3(hours(e["train.gpu_hours"].value)) == Approx(4.42e6));
    CHECK(round3(days(e["train.wall_days"].value)) == Approx(106));
    CHECK(round3(e["train.memory.states"].value) == Approx(9.16e9));
    CHECK(round3(e["train.memory.activations"].value) == Approx(22.5e9));
    CHECK(round3(e["train.memory.reserve"].value) == Approx(3.16e9));
    CHECK(round3(e["train.memory.total"].value) == Approx(34.8e9));
    CHECK(round3(e["train.step_seconds"].value) == Approx(8.70));
    CHECK(round3(e["train.comm.allreduce_bytes"].value) == Approx(8.61e9));
    CHECK(round3(e["train.comm.seconds"].value) == Approx(0.172));
    CHECK(round3(e["train.comm.fraction"].value) == Approx(0.0198));
    CHECK(e["train.pipeline_bubble"].value == Approx(3.0 / 32));
    CHECK(round3(e["train.checkpoint.optimal_interval"].value / 60) == Approx(54.3));
  }
  SECTION("cluster-plan") {
    const Estimated e = estimate_example("cluster-plan.toml");
    CHECK(round3(hours(e["train.gpu_hours"].value)) == Approx(29500));
    CHECK(round3(days(e["train.wall_days"].value)) == Approx(10.7));
    CHECK(round3(e["train.memory.states"].value) == Approx(28.7e9));
    CHECK(round3(e["train.memory.activations"].value) == Approx(18.3e9));
    CHECK(round3(e["train.memory.reserve"].value) == Approx(4.69e9));
    CHECK(round3(e["train.memory.total"].value) == Approx(51.6e9));
    CHECK(round3(e["train.comm.fraction"].value) == Approx(0.167));
  }
  SECTION("every claim of every example is within 2% of the recomputed metric") {
    for (const char* name : {"cluster-plan.toml", "llama-70b-pretrain.toml", "moe-pretrain.toml",
                             "finetune-qlora.toml", "inference-serving.toml", "llama3-405b-published.toml"}) {
      const Estimated e = estimate_example(name);
      for (const Claim& claim : e.plan().estimates) {
        INFO(name << ": " << claim.metric);
        const MetricValue& metric = e[claim.metric];
        INFO(metric.arithmetic);
        REQUIRE(claim.value);
        CHECK(metric.value == Approx(claim.value->quantity()->value).epsilon(0.02));
        if (claim.low && metric.low) CHECK(*metric.low == Approx(claim.low->quantity()->value).epsilon(0.02));
        if (claim.high && metric.high)
          CHECK(*metric.high == Approx(claim.high->quantity()->value).epsilon(0.02));
      }
    }
  }
}

TEST_CASE("a metric whose input is missing is absent and names the input", "[estimates]") {
  SECTION("activations without the layer count") {
    const Estimated e = estimate_text(training_plan({{"model.layers", ""}}));
    CHECK(e.estimates.find("train.memory.activations") == nullptr);
    REQUIRE(e.estimates.missing_inputs("train.memory.activations"));
    CHECK(*e.estimates.missing_inputs("train.memory.activations") == std::vector<std::string>{"model.layers"});
    // Metrics built on it are absent for the same root cause, not for "train.memory.activations".
    REQUIRE(e.estimates.missing_inputs("train.memory.total"));
    CHECK(*e.estimates.missing_inputs("train.memory.total") == std::vector<std::string>{"model.layers"});
    CHECK(e.estimates.find("train.memory.states") != nullptr);
  }
  SECTION("time without an MFU") {
    const Estimated e = estimate_text(training_plan({{"training.mfu", ""}}));
    CHECK(e.estimates.find("train.flops") != nullptr);
    CHECK(*e.estimates.missing_inputs("train.days") == std::vector<std::string>{"training.mfu"});
    CHECK(*e.estimates.missing_inputs("cost.total") ==
          std::vector<std::string>{"training.mfu", "cluster.price"});
  }
  SECTION("a GPU without a peak at the compute precision: V100 has no bf16") {
    // Stated: a plan that states none trains in fp16 on a V100 (test_figure_basis.cpp).
    const Estimated e =
        estimate_text(training_plan({{"cluster.gpu", "\"v100-sxm2\""}, {"training.precision", "\"bf16\""}}));
    CHECK(*e.estimates.missing_inputs("train.gpu_hours") ==
          std::vector<std::string>{"cluster.peak (the catalog has no bf16 peak for v100-sxm2)"});
    const Estimated fp16 = estimate_text(
        training_plan({{"cluster.gpu", "\"v100-sxm2\""}, {"training.precision", "\"fp16\""}}));
    CHECK(fp16["train.gpu_hours"].inputs[1].value == Approx(125e12));
  }
  SECTION("a LoRA fine-tune's all-reduce: only the adapters' gradients, sized by their shapes") {
    // The full model's 2 · N / M bytes overstated a QLoRA run's traffic 100× or more and made
    // interconnect-bottleneck fire on it (test_rules.cpp has the plan). 7B shape, rank 16 on
    // every linear layer: 16 · 32 · (4 · 4096 + 64 · 128 + 2 · (4096 + 16384)) adapter parameters
    // (GeLU's two h × 4h matrices, 32 heads of 128 for queries and as many for keys and values).
    const Estimated e = estimate_text(training_plan({{"training.lora_rank", "16"}}));
    const double adapters = 16.0 * 32 * (4 * 4096 + (32 + 32) * (128 + 128) + 2 * (4096 + 16384));
    CHECK(e["train.lora.adapter_params"].value == Approx(adapters));
    CHECK(e["train.comm.allreduce_bytes"].value == Approx(2.0 * 127 / 128 * 2 * adapters));
    CHECK_THAT(e["train.comm.allreduce_bytes"].formula, Catch::Contains("N_a"));
    CHECK(e.estimates.find("train.comm.fraction") != nullptr);
    // Without the model's widths the adapters' size is unknown, and so is their traffic.
    const Estimated unshaped = estimate_text(training_plan({{"training.lora_rank", "16"}, {"model.hidden", ""}}));
    CHECK(unshaped.estimates.find("train.comm.allreduce_bytes") == nullptr);
    REQUIRE(unshaped.estimates.missing_inputs("train.comm.allreduce_bytes"));
    CHECK_THAT(*unshaped.estimates.missing_inputs("train.comm.allreduce_bytes"),
               Catch::VectorContains(std::string("model.hidden")));
    CHECK(e.estimates.find("train.step_seconds") != nullptr);
  }
  SECTION("a global batch in sequences needs the sequence length for the step") {
    const Estimated e = estimate_text(training_plan({{"training.seq_len", ""}}));
    const auto& missing = *e.estimates.missing_inputs("train.step_seconds");
    CHECK(missing == std::vector<std::string>{"training.seq_len"});
  }
  SECTION("a plan computes only the metrics of its kind") {
    const Estimated training = estimate_text(training_plan());
    for (std::string_view name : training.estimates.absent_names()) CHECK_FALSE(name.starts_with("infer."));
    for (const MetricValue& value : training.estimates.values()) CHECK_FALSE(value.name.starts_with("infer."));
    const Estimated inference = estimate_text(inference_plan());
    // The catalog's figures of the plan's GPU (gpu.*), the model's structural counts (model.*) and
    // the price of its capacity (cost.price, a mix's cost.capacity_share) are every plan's.
    const auto every_plans = [](std::string_view name) {
      return name.starts_with("infer.") || name.starts_with("gpu.") || name.starts_with("model.") ||
             name == "cost.price" || name == "cost.capacity_share";
    };
    for (const MetricValue& value : inference.estimates.values()) CHECK(every_plans(value.name));
    for (std::string_view name : inference.estimates.absent_names()) CHECK(every_plans(name));
    for (const MetricValue& value : training.estimates.values()) CHECK_FALSE(value.name.starts_with("infer."));
  }
}

TEST_CASE("a pipeline schedule sets the bubble, the in-flight activations and the parameter copies",
          "[estimates]") {
  // 7B on 128 GPUs at pp 8, dp 16: m = 1024 / (16 · 1) = 64 micro-batches per pipeline.
  auto with = [](const char* schedule) {
    return estimate_text(training_plan({{"training.pp", "8"}, {"training.pipeline_schedule", schedule}}));
  };
  const Estimated one_f_one_b = with("\"1f1b\"");
  REQUIRE(one_f_one_b["train.micro_batches"].value == 64);
  CHECK(one_f_one_b["train.pipeline_bubble"].value == Approx(7.0 / 64));
  const double activations = one_f_one_b["train.memory.activations"].value;
  const double states = one_f_one_b["train.memory.states"].value;
  // ZB-H1 (Qi et al. 2024): a third of the bubble at 1F1B's memory.
  const Estimated h1 = with("\"zb-h1\"");
  CHECK(h1["train.pipeline_bubble"].value == Approx(7.0 / (3 * 64)));
  CHECK(h1["train.memory.activations"].value == Approx(activations));
  // ZB-H2: no bubble, 2p − 1 micro-batches in flight on the first stage where 1F1B holds p.
  const Estimated h2 = with("\"zb-h2\"");
  CHECK(h2["train.pipeline_bubble"].value == 0);
  CHECK(h2["train.memory.activations"].value == Approx(activations * 15 / 8));
  // ZB-V: no bubble at 1F1B's memory.
  const Estimated v = with("\"zb-v\"");
  CHECK(v["train.pipeline_bubble"].value == 0);
  CHECK(v["train.memory.activations"].value == Approx(activations));
  // DualPipe (DeepSeek-V3 table 2): (p/2 − 1)(F&B + B − 3W) over m · (F + B), two copies of the
  // parameters, p + 1 micro-batches in flight.
  const Estimated dual = with("\"dualpipe\"");
  CHECK(dual["train.pipeline_bubble"].value == Approx(6.0 / (3 * 64)));
  CHECK(dual["train.memory.states"].value == Approx(2 * states));
  CHECK(dual["train.memory.activations"].value == Approx(activations * 9 / 8));
  // DualPipe pairs stage i with stage p − 1 − i: an odd p has no such schedule.
  const Estimated odd = estimate_text(training_plan(
      {{"training.pp", "3"}, {"cluster.count", "96"}, {"training.pipeline_schedule", "\"dualpipe\""}}));
  CHECK(odd.estimates.find("train.pipeline_bubble") == nullptr);
  REQUIRE(odd.estimates.missing_inputs("train.pipeline_bubble"));
  CHECK_THAT(odd.estimates.missing_inputs("train.pipeline_bubble")->front(), Catch::StartsWith("training.pp even"));
  // A schedule other than 1F1B places its own chunks: virtual_stages is not read.
  const Estimated chunked = estimate_text(training_plan(
      {{"training.pp", "8"}, {"training.virtual_stages", "2"}, {"training.pipeline_schedule", "\"zb-h1\""}}));
  CHECK(chunked["train.pipeline_bubble"].value == Approx(7.0 / (3 * 64)));
  CHECK(chunked["train.memory.activations"].value == Approx(activations));
}

TEST_CASE("offload keeps states or activations in host memory and moves them over the host link",
          "[estimates]") {
  // 7B on 128 H100s (host link PCIe Gen5 x16, 128 GB/s both directions), ZeRO 1: dp = 128,
  // m = 1024 / 128 = 8 micro-batches a step.
  auto with = [](const char* offload) {
    return estimate_text(training_plan({{"training.zero", "1"}, {"training.offload", offload}}));
  };
  const Estimated plain = with("\"none\"");
  CHECK(plain.estimates.find("train.offload.bytes") == nullptr);
  const double n = 7e9;
  REQUIRE(plain["train.memory.states"].value == Approx(4 * n + 12 * n / 128));
  // ZeRO-Offload (Ren et al. 2021): HBM keeps the 16-bit weights; the gradients and the
  // optimizer states the GPU would hold are in host memory; its step sends its shard's 16-bit
  // gradients out and gets their 16-bit weights back.
  const Estimated optimizer = with("\"optimizer\"");
  CHECK(optimizer["train.memory.states"].value == Approx(2 * n));
  CHECK(optimizer["train.offload.state_bytes"].value == Approx(2 * n + 12 * n / 128));
  CHECK(optimizer["train.offload.bytes"].value == Approx(4 * n / 128));
  CHECK(optimizer["train.offload.seconds"].value == Approx(4 * n / 128 / 64e9));
  CHECK(optimizer["train.offload.fraction"].value ==
        Approx(4 * n / 128 / 64e9 / optimizer["train.step_seconds"].value));
  CHECK(optimizer["train.memory.activations"].value == Approx(plain["train.memory.activations"].value));
  // Activation offload: two layers' worth of one micro-batch in HBM, the 32 layers' in host
  // memory, each micro-batch's out and back.
  const Estimated activations = with("\"activations\"");
  const double hbm = activations["train.memory.activations"].value;
  CHECK(hbm == Approx(plain["train.memory.activations"].value * 2 / 32));
  CHECK(activations["train.offload.activation_bytes"].value == Approx(plain["train.memory.activations"].value));
  CHECK(activations["train.offload.bytes"].value == Approx(hbm * 8 * 32));
  CHECK(activations["train.memory.states"].value == Approx(plain["train.memory.states"].value));
  const Estimated both = with("\"optimizer+activations\"");
  CHECK(both["train.offload.bytes"].value == Approx(4 * n / 128 + hbm * 8 * 32));
  // A GPU whose host link the catalog does not give leaves the time to the plan.
  const Estimated tpu = estimate_text(training_plan(
      {{"training.offload", "\"optimizer\""}, {"cluster.gpu", "\"tpu-v5p\""}, {"cluster.count", "128"}}));
  CHECK(tpu.estimates.find("train.offload.seconds") == nullptr);
  REQUIRE(tpu.estimates.missing_inputs("train.offload.seconds"));
  CHECK(*tpu.estimates.missing_inputs("train.offload.seconds") == std::vector<std::string>{"cluster.host_bandwidth"});
}

TEST_CASE("an MoE model's single-sequence decode bound reads the routed experts' weights only", "[estimates]") {
  // Mixtral 8x7B (46.7B, 12.9B active) in bf16 on one H100 SXM (3.35 TB/s), 4096 tokens of
  // context: weights 93.4 GB, of which one token reads 93.4 × 12.9 / 46.7 = 25.8 GB, and its KV
  // cache 32 layers × 8 heads × 128 × 2 × 2 B = 131 kB/token, 0.54 GB.
  const std::string plan = R"([plan]
name = "mixtral"
kind = "inference"
[model]
params = "46.7B"
active_params = "12.9B"
architecture = "moe"
layers = 32
hidden = 4096
heads = 32
kv_heads = 8
[inference]
context = "4096 tokens"
concurrency = "1 seq"
tp = 1
[cluster]
gpu = "h100-sxm"
count = 1
)";
  const Estimated moe = estimate_text(plan);
  const double read_per_token = 93.4e9 * 12.9 / 46.7 + 131072.0 * 4096;
  CHECK(moe["infer.decode_tokens_per_s"].value == Approx(3.35e12 / read_per_token).epsilon(0.01));
  CHECK_THAT(moe["infer.decode_tokens_per_s"].arithmetic.str(), Catch::Contains("× 12.9B / 46.7B"));
  // The same shape as a dense model reads all of its weights.
  std::string dense_plan = plan;
  dense_plan.replace(dense_plan.find("active_params = \"12.9B\"\narchitecture = \"moe\"\n"),
                     std::string("active_params = \"12.9B\"\narchitecture = \"moe\"\n").size(), "");
  const Estimated dense = estimate_text(dense_plan);
  CHECK(dense["infer.decode_tokens_per_s"].value == Approx(3.35e12 / (93.4e9 + 131072.0 * 4096)).epsilon(0.01));
}

TEST_CASE("context parallelism shards the ZeRO states and reduces the gradients over dp · cp", "[estimates]") {
  // 70B at 128K tokens on 128 H100, tp 8 · pp 2 · cp 8, dp 1, ZeRO-1.
  // The cp ranks hold the same weights: Megatron-Core's distributed optimizer shards over, and
  // its gradient reduction spans, the 8 ranks of dp · cp. States 4 B · 70B / 16 + 12 B · 70B /
  // (16 · 8) = 24.1 GB (planlint said 70 GB: a false memory-fit error on a plan that fits), and
  // an all-reduce of 2 · 7/8 · 2 B · 70B / 16 = 15.3 GB (planlint said 0 B).
  auto plan = [](const std::string& cp, const std::string& dp) {
    return "[plan]\nname = \"x\"\nkind = \"training\"\n[model]\nparams = \"70B\"\nlayers = 80\nhidden = 8192\n"
           "heads = 64\n[training]\ntokens = \"20B\"\nseq_len = 131072\nmicro_batch = 1\nglobal_batch = 64\n"
           "tp = 8\npp = 2\nzero = 1\nrecompute = \"selective\"\nmfu = \"35%\"\n" + cp + dp +
           "[cluster]\ngpu = \"h100-sxm\"\ncount = 128\ngpus_per_node = 8\ninter_node_bandwidth = \"400 Gbps\"\n";
  };
  const Estimated cp8 = estimate_text(plan("cp = 8\n", ""));
  CHECK(cp8["train.memory.states"].value == Approx(4 * 70e9 / 16 + 12 * 70e9 / (16 * 8)).epsilon(1e-9));
  CHECK_THAT(cp8["train.memory.states"].formula, Catch::Contains("k_o · N / (M · dp · cp)"));
  CHECK_THAT(cp8["train.memory.states"].arithmetic.str(), Catch::Contains("/ (8 × 2 × 1 × 8)"));
  CHECK(cp8["train.comm.allreduce_bytes"].value == Approx(2 * 7.0 / 8 * 2 * 70e9 / 16).epsilon(1e-9));
  CHECK_THAT(cp8["train.comm.allreduce_bytes"].formula, Catch::Contains("g = dp · cp"));
  CHECK(cp8["train.comm.seconds"].value > 0);
  // Without cp, the same GPUs as dp 8: the same figures, the formulas without cp.
  const Estimated dp8 = estimate_text(plan("", ""));
  CHECK(dp8["train.memory.states"].value == Approx(cp8["train.memory.states"].value).epsilon(1e-9));
  CHECK(dp8["train.comm.allreduce_bytes"].value == Approx(cp8["train.comm.allreduce_bytes"].value).epsilon(1e-9));
  CHECK_THAT(dp8["train.memory.states"].formula, Catch::Contains("k_o · N / (M · dp)") && !Catch::Contains("cp"));
  // dp = cp = 1: nothing to reduce.
  const Estimated alone = estimate_text(
      "[plan]\nname = \"x\"\nkind = \"training\"\n[model]\nparams = \"7B\"\n[training]\ntokens = \"1T\"\n"
      "global_batch = 8\nseq_len = 4096\ntp = 8\n[cluster]\ngpu = \"h100-sxm\"\ncount = 8\n");
  CHECK(alone["train.comm.allreduce_bytes"].value == 0);
  CHECK(alone["train.comm.seconds"].formula == "no data parallelism (dp = 1): nothing to all-reduce");
}

TEST_CASE("a full replica's inter-token latency reads the weights once and every sequence's KV cache",
          "[estimates]") {
  // 70.6B in int4 with an fp8 KV cache on two L40S (864 GB/s each),
  // 32 sequences of 8192 tokens: 35.3 GB + 32 × 8192 × 163.8 kB = 78.2 GB a step, 45.3 ms,
  // where a sequence alone takes 21.2 ms.
  auto plan = [](const std::string& model, const std::string& concurrency) {
    return "[plan]\nname = \"x\"\nkind = \"inference\"\n[model]\n" + model +
           "layers = 80\nhidden = 8192\nheads = 64\nkv_heads = 8\nhead_dim = 128\n[inference]\nweights = \"int4\"\n"
           "kv_precision = \"fp8\"\ncontext = \"8192 tokens\"\nconcurrency = \"" + concurrency + "\"\ntp = 2\n"
           "[cluster]\ngpu = \"l40s\"\ncount = 2\n";
  };
  const Estimated dense = estimate_text(plan("params = \"70.6B\"\n", "32 seq"));
  const double cache = 32 * 8192 * 163840.0;
  CHECK(dense["infer.itl_at_concurrency"].value == Approx((35.3e9 + cache) / (2 * 864e9)).epsilon(1e-6));
  CHECK(dense["infer.itl_at_concurrency"].value == Approx(0.0453).epsilon(0.005));
  CHECK(dense["infer.itl"].value == Approx(0.0212).epsilon(0.005));
  // One sequence: the single-sequence bound.
  const Estimated one = estimate_text(plan("params = \"70.6B\"\n", "1 seq"));
  CHECK(one["infer.itl_at_concurrency"].value == Approx(one["infer.itl"].value).epsilon(1e-9));
  // An MoE model: N_a / N of the weights for one sequence (the single-sequence bound), nearly
  // all of them for 32 (1 − (1 − 0.25)^32 = 0.99990).
  const std::string moe = "params = \"70.6B\"\nactive_params = \"17.65B\"\narchitecture = \"moe\"\n";
  const Estimated moe_one = estimate_text(plan(moe, "1 seq"));
  CHECK(moe_one["infer.itl_at_concurrency"].value == Approx(moe_one["infer.itl"].value).epsilon(1e-9));
  const Estimated moe_full = estimate_text(plan(moe, "32 seq"));
  CHECK(moe_full["infer.itl_at_concurrency"].value ==
        Approx((35.3e9 * (1 - std::pow(0.75, 32)) + cache) / (2 * 864e9)).epsilon(1e-6));
}

TEST_CASE("at tp above the KV heads, the KV cache divides over the heads, not tp", "[estimates]") {
  // A Qwen3-235B-A22B-like MoE (94 layers, 4 KV heads of 128, fp8
  // weights and KV cache) at tp 8 on H200 (141 GB, 4.8 TB/s), 96 sequences of 32,768 tokens.
  // A KV head's cache is not split across GPUs: serving engines hold each head on tp / kv_heads
  // = 2 GPUs, so a GPU holds a quarter of the cache, not an eighth. KV 96,256 B a token, 302.8
  // GB in all: (235 / 8 + 302.8 / 4) GB × 1.1 = 115.6 GB a GPU (dividing the cache by tp: 73.9 GB),
  // and ⌊(141 × 0.9 × 8 − 235) / (96,256 × 32,768 × 2)⌋ = 123 sequences, not 247.
  auto plan = [](int tp) {
    return "[plan]\nname = \"x\"\nkind = \"inference\"\n[model]\nparams = \"235B\"\nactive_params = \"22B\"\n"
           "architecture = \"moe\"\nlayers = 94\nhidden = 4096\nheads = 64\nkv_heads = 4\nhead_dim = 128\n"
           "[inference]\nweights = \"fp8\"\nkv_precision = \"fp8\"\ncontext = \"32768 tokens\"\n"
           "concurrency = \"96 seq\"\nprompt_tokens = \"30000 tokens\"\ntp = " + std::to_string(tp) +
           "\n[cluster]\ngpu = \"h200-sxm\"\ncount = 8\n";
  };
  const Estimated tp8 = estimate_text(plan(8));
  const double per_token = 2 * 94 * 4 * 128 * 1.0, cache = per_token * 32768 * 96;
  CHECK(tp8["infer.kv_cache"].value == Approx(cache).epsilon(1e-9));
  CHECK(tp8["infer.memory.total"].value == Approx((235e9 / 8 + cache / 4) * 1.1).epsilon(1e-9));
  CHECK(tp8["infer.memory.total"].value == Approx(115.6e9).epsilon(0.001));
  CHECK_THAT(tp8["infer.memory.total"].formula, Catch::Contains("kv_cache / kv_heads"));
  CHECK_THAT(tp8["infer.memory.total"].arithmetic.str(), Catch::Contains("302.8 GB / 4"));
  CHECK(tp8["infer.max_concurrency"].value == 123);
  // Each GPU reads its heads' whole cache: tp / kv_heads = 2 times its share.
  CHECK(tp8["infer.decode_tokens_per_s"].value ==
        Approx(4.8e12 * 8 / (235e9 * 22 / 235 + per_token * 32768 * 2)).epsilon(1e-9));
  CHECK(tp8["infer.itl_at_concurrency"].value ==
        Approx((235e9 * (1 - std::pow(1 - 22.0 / 235, 96)) + cache * 2) / (4.8e12 * 8)).epsilon(1e-9));
  // At tp = kv_heads the two ways agree: the cache divides by tp.
  const Estimated tp4 = estimate_text(plan(4));
  CHECK(tp4["infer.memory.total"].value == Approx((235e9 + cache) / 4 * 1.1).epsilon(1e-9));
  CHECK(tp4["infer.memory.total"].formula.starts_with("(weights + kv_cache) / tp"));
  CHECK(tp4["infer.max_concurrency"].value == std::floor((141e9 * 0.9 * 4 - 235e9) / (per_token * 32768)));
  CHECK(tp4["infer.decode_tokens_per_s"].formula.find("kv_heads") == std::string::npos);
}

TEST_CASE("speculative decoding emits tokens_per_step tokens a step", "[estimates]") {
  // 70B in fp8 on one H200 (4.8 TB/s) with EAGLE-style drafts, a
  // measured 150 tokens/s; without drafts a step reads 70 GB + 4096 × 327.7 kB and gives at most
  // 67.3 tokens/s, with 3 tokens a step 201.8.
  auto plan = [](const std::string& steps) {
    return "[plan]\nname = \"x\"\nkind = \"inference\"\n[model]\nparams = \"70B\"\nlayers = 80\nhidden = 8192\n"
           "heads = 64\nkv_heads = 8\n[inference]\nweights = \"fp8\"\ncontext = 4096\nconcurrency = 4\n" + steps +
           "[cluster]\ngpu = \"h200-sxm\"\ncount = 1\n";
  };
  const double read = 70e9 + 4096 * 327680.0;
  const Estimated one = estimate_text(plan(""));
  CHECK(one["infer.decode_tokens_per_s"].value == Approx(4.8e12 / read).epsilon(1e-9));
  CHECK(one["infer.decode_tokens_per_s"].formula == "hbm_bandwidth · tp / (weights + kv_per_token · context)");
  const Estimated three = estimate_text(plan("tokens_per_step = 3\n"));
  CHECK(three["infer.decode_tokens_per_s"].value == Approx(3 * 4.8e12 / read).epsilon(1e-9));
  CHECK(three["infer.decode_tokens_per_s"].value == Approx(201.8).epsilon(0.001));
  CHECK_THAT(three["infer.decode_tokens_per_s"].formula, Catch::Contains("· tokens_per_step (speculative decoding"));
  CHECK_THAT(three["infer.decode_tokens_per_s"].arithmetic.str(), Catch::EndsWith("× 3 = 201.8 tokens/s"));
  CHECK(three["infer.itl"].value == Approx(1 / three["infer.decode_tokens_per_s"].value).epsilon(1e-9));
  CHECK(three["infer.itl_at_concurrency"].value ==
        Approx(one["infer.itl_at_concurrency"].value / 3).epsilon(1e-9));
  // 1 is the default and changes nothing.
  const Estimated stated_one = estimate_text(plan("tokens_per_step = 1\n"));
  CHECK(stated_one["infer.decode_tokens_per_s"].formula == one["infer.decode_tokens_per_s"].formula);
}

TEST_CASE("a GPU holds whole KV heads: the cache divides by tp only where tp divides kv_heads", "[estimates]") {
  // 8 KV heads at tp 6 put ⌈8 / 6⌉ = 2 heads on some GPUs, a
  // quarter of the cache, not a sixth; at tp 12 a GPU holds one head, an eighth.
  auto plan = [](int tp, int kv_heads) {
    return "[plan]\nname = \"x\"\nkind = \"inference\"\n[model]\nparams = \"70B\"\nlayers = 80\nhidden = 8192\n"
           "heads = 64\nkv_heads = " + std::to_string(kv_heads) + "\nhead_dim = 128\n[inference]\nweights = \"fp8\"\n"
           "context = 8192\nconcurrency = 32\ntp = " + std::to_string(tp) + "\n[cluster]\ngpu = \"h100-sxm\"\n"
           "count = 24\n";
  };
  auto cache = [](int kv_heads) { return 2.0 * 80 * kv_heads * 128 * 2 * 8192 * 32; };
  const Estimated tp6 = estimate_text(plan(6, 8));
  CHECK(tp6["infer.memory.total"].value == Approx((70e9 / 6 + cache(8) * 2 / 8) * 1.1).epsilon(1e-9));
  CHECK_THAT(tp6["infer.memory.total"].formula, Catch::Contains("kv_cache · ⌈kv_heads / tp⌉ / kv_heads"));
  REQUIRE(tp6["infer.memory.total"].notes.size() == 1);
  CHECK_THAT(tp6["infer.memory.total"].notes[0], Catch::Contains("do not divide one another"));
  const Estimated tp12 = estimate_text(plan(12, 8));
  CHECK(tp12["infer.memory.total"].value == Approx((70e9 / 12 + cache(8) / 8) * 1.1).epsilon(1e-9));
  CHECK_THAT(tp12["infer.memory.total"].notes[0], Catch::Contains("do not divide one another"));
  // MQA: every GPU holds the whole cache, and the note says so in words.
  const Estimated mqa = estimate_text(plan(8, 1));
  CHECK(mqa["infer.memory.total"].value == Approx((70e9 / 8 + cache(1)) * 1.1).epsilon(1e-9));
  REQUIRE(mqa["infer.memory.total"].notes.size() == 1);
  CHECK(mqa["infer.memory.total"].notes[0] ==
        "the model has one KV head, which is not split across GPUs: every GPU of the tp 8 replica holds the "
        "whole KV cache");
  // tp dividing kv_heads: the cache divides by tp, with no note.
  const Estimated tp4 = estimate_text(plan(4, 8));
  CHECK(tp4["infer.memory.total"].value == Approx((70e9 + cache(8)) / 4 * 1.1).epsilon(1e-9));
  CHECK(tp4["infer.memory.total"].notes.empty());
}

TEST_CASE("an MoE model's speculative step routes each of its tokens apart", "[estimates]") {
  // DeepSeek-V3-like (671B, 37B active) at 2 tokens a step read
  // the one-token experts twice over: a step of k tokens reads 1 − (1 − N_a / N)^k of them.
  auto plan = [](const std::string& steps) {
    return "[plan]\nname = \"x\"\nkind = \"inference\"\n[model]\nparams = \"671B\"\nactive_params = \"37B\"\n"
           "architecture = \"moe\"\nlayers = 61\nhidden = 7168\nheads = 128\nkv_heads = 128\nhead_dim = 128\n"
           "[inference]\nweights = \"fp8\"\nkv_precision = \"fp8\"\ncontext = 4096\nconcurrency = 4\ntp = 8\n" + steps +
           "[cluster]\ngpu = \"h200-sxm\"\ncount = 8\n";
  };
  const double r = 37.0 / 671, kv = 2.0 * 61 * 128 * 128 * 4096;
  const Estimated two = estimate_text(plan("tokens_per_step = 2\n"));
  CHECK(two["infer.decode_tokens_per_s"].value ==
        Approx(2 * 4.8e12 * 8 / (671e9 * (1 - (1 - r) * (1 - r)) + kv)).epsilon(1e-9));
  CHECK_THAT(two["infer.decode_tokens_per_s"].formula, Catch::Contains("(1 − (1 − N_a / N)^tokens_per_step)"));
  CHECK(two["infer.itl_at_concurrency"].value ==
        Approx((671e9 * (1 - std::pow(1 - r, 8)) + 4 * kv) / (4.8e12 * 8 * 2)).epsilon(1e-9));
  // A value that is not valid leaves the decode metrics absent, not computed at 1.
  for (const char* bad : {"tokens_per_step = 0\n", "tokens_per_step = 17\n", "tokens_per_step = \"3 tokens\"\n"}) {
    INFO(bad);
    const LoadResult loaded = load_text(plan(bad));
    REQUIRE(loaded.plan);
    const Estimates invalid = estimate(*loaded.plan, Catalog::builtin());
    CHECK(invalid.find("infer.decode_tokens_per_s") == nullptr);
    CHECK(invalid.find("infer.itl_at_concurrency") == nullptr);
    CHECK(invalid.find("infer.memory.total") != nullptr);
  }
}

TEST_CASE("metric_ranges gives the ranges that estimate() with ranges sets", "[estimates]") {
  // metric_low() and metric_high() read metric_ranges(), computed from the values alone;
  // `planlint report` and est.METRIC.low read estimate()'s, found through the provenance.
  // Over every TOML file of the project that loads as a plan, they must agree.
  std::size_t ranged_plans = 0;
  for (const auto& [path, plan] : project_plans()) {
    const Estimates full = estimate(plan, Catalog::builtin(), EstimateScope{true, true});
    const Estimates lean = estimate(plan, Catalog::builtin(), EstimateScope{false, false});
    const auto ranges = metric_ranges(plan, Catalog::builtin(), lean);
    INFO(path);
    for (const MetricValue& metric : full.values()) {
      const std::string& name = metric.name;
      INFO(name);
      const auto found = ranges.find(name);
      CHECK(metric.has_range() == (found != ranges.end()));
      if (metric.has_range() && found != ranges.end()) {
        CHECK(found->second.low == *metric.low);
        CHECK(found->second.high == *metric.high);
      }
    }
    if (!ranges.empty()) ++ranged_plans;
  }
  CHECK(ranged_plans >= 10);  // the examples, the range fixtures, the golden cases
}

TEST_CASE("the ranges at the two corners are those of every combination of the ends", "[estimates]") {
  // metric_ranges() evaluates the cheaper and the dearer corner of the assumptions' lows and
  // highs, which stand for every combination because each cost-tier formula is a product of
  // powers of MFU, goodput and price (compute.cpp, corners_suffice). A formula for which that
  // stops holding shows here, on every TOML file of the project that loads as a plan.
  std::size_t ranged_plans = 0, multi_key_plans = 0;
  for (const auto& [path, plan] : project_plans()) {
    INFO(path);
    if (!check_corners_match(plan).empty()) ++ranged_plans;
    const Estimates full = estimate(plan, Catalog::builtin(), EstimateScope{true, true});
    if (full.range_sources().size() >= 2) ++multi_key_plans;
  }
  CHECK(ranged_plans >= 10);
  CHECK(multi_key_plans >= 2);  // plans where the corners are fewer than the combinations

  // An inverted assumption (low above high: assumption-range-inverted) beside other ranged
  // keys: the corners take each key's ends by value, not by name.
  auto text = read_file(example("llama-70b-pretrain.toml"));
  REQUIRE(text);
  for (const auto& [written, inverted] : {std::pair{"low = \"30%\"\nhigh = \"50%\"", "low = \"50%\"\nhigh = \"30%\""},
                                          std::pair{"low = \"$2/GPU/h\"\nhigh = \"$4/GPU/h\"", "low = \"$4/GPU/h\"\nhigh = \"$2/GPU/h\""}}) {
    std::string changed = *text;
    const std::size_t at = changed.find(written);
    REQUIRE(at != std::string::npos);
    changed.replace(at, std::string_view(written).size(), inverted);
    INFO(inverted);
    LoadResult loaded = load_text(std::move(changed), "inverted.toml");
    REQUIRE(loaded.plan);
    REQUIRE(check_corners_match(*loaded.plan).count("cost.total") == 1);
  }
}

TEST_CASE("Estimates finds its own metrics after a copy or a move", "[estimates]") {
  // find() reads a slot per metric: its place in the Estimates' own array, which a copy
  // keeps; a move takes the array, and a moved-from Estimates finds nothing.
  auto held = [](const Estimates& estimates, std::string_view name) -> const MetricValue* {
    for (const MetricValue& metric : estimates.values())
      if (metric.name == name) return &metric;
    return nullptr;
  };
  std::optional<Estimates> original = estimate_fixture("7b-pretrain.toml").estimates;
  const MetricValue* days = original->find("train.days");
  REQUIRE(days != nullptr);
  const double value = days->value;
  Estimates copy = *original;
  CHECK(copy.find("train.days") != days);
  Estimates assigned;
  assigned = *original;
  original.reset();  // the copies must not point into it
  REQUIRE(copy.find("train.days") != nullptr);
  CHECK(copy.find("train.days")->value == value);
  CHECK(copy.find("train.days") == held(copy, "train.days"));
  CHECK(assigned.find("train.days") == held(assigned, "train.days"));
  Estimates moved = std::move(copy);
  CHECK(moved.find("train.days") == held(moved, "train.days"));
  CHECK(copy.find("train.days") == nullptr);  // NOLINT(bugprone-use-after-move): what a move leaves
  CHECK(copy.values().empty());               // NOLINT(bugprone-use-after-move)
  // A metric set absent after being set is not found; the others still are, each at its own
  // place, whichever metric took the freed one.
  const std::size_t before = moved.values().size();
  MetricValue flops;
  flops.name = "train.flops";
  moved.set(std::move(flops));
  CHECK(moved.find("train.flops") != nullptr);
  CHECK(moved.values().size() == before);  // set again in its place, not added
  const std::vector<MetricValue> all = moved.values();
  REQUIRE(all.size() >= 3);
  const std::string gone = all[all.size() / 2].name;
  moved.set_absent(gone, {"model.params"});
  CHECK(moved.find(gone) == nullptr);
  CHECK(moved.values().size() == all.size() - 1);
  REQUIRE(moved.missing_inputs(gone) != nullptr);
  for (const MetricValue& metric : all) {
    if (metric.name == gone) continue;
    INFO(metric.name);
    REQUIRE(moved.find(metric.name) != nullptr);
    CHECK(moved.find(metric.name)->name == metric.name);
    CHECK(moved.find(metric.name) == held(moved, metric.name));
  }
  // Setting it again brings it back, and no longer absent.
  MetricValue again;
  again.name = gone;
  moved.set(std::move(again));
  CHECK(moved.find(gone) != nullptr);
  CHECK(moved.missing_inputs(gone) == nullptr);
  // A name outside the metric table is kept and found too.
  MetricValue other;
  other.name = "test.metric";
  other.value = 3;
  moved.set(std::move(other));
  REQUIRE(moved.find("test.metric") != nullptr);
  CHECK(moved.find("test.metric")->value == 3);
}

TEST_CASE("metrics set absent keep their missing inputs apart as others come and go", "[estimates]") {
  Estimates estimates;
  // Absent one after the other, one of them outside the metric table (a test's name).
  estimates.set_absent("train.days", {"training.mfu"});
  estimates.set_absent("cost.total", {"training.mfu", "cluster.price"});
  estimates.set_absent("test.outside", {"model.params"});
  estimates.set_absent("train.gpu_hours", {"cluster.peak"});
  CHECK(estimates.absent_names().size() == 4);
  // The first found computed after all: the last absent takes its place, and every other
  // keeps its own inputs.
  MetricValue days;
  days.name = "train.days";
  days.value = 10;
  estimates.set(std::move(days));
  CHECK(estimates.missing_inputs("train.days") == nullptr);
  REQUIRE(estimates.missing_inputs("train.gpu_hours") != nullptr);
  CHECK(*estimates.missing_inputs("train.gpu_hours") == std::vector<std::string>{"cluster.peak"});
  REQUIRE(estimates.missing_inputs(Metric::cost_total) != nullptr);
  CHECK(*estimates.missing_inputs(Metric::cost_total) == std::vector<std::string>{"training.mfu", "cluster.price"});
  REQUIRE(estimates.missing_inputs("test.outside") != nullptr);
  CHECK(*estimates.missing_inputs("test.outside") == std::vector<std::string>{"model.params"});
  // Absent again with other inputs: replaced, not added.
  estimates.set_absent("cost.total", {"cluster.price"});
  CHECK(*estimates.missing_inputs("cost.total") == std::vector<std::string>{"cluster.price"});
  CHECK(estimates.absent_names().size() == 3);
  // The one outside the table computed: gone from the absent ones too.
  MetricValue outside;
  outside.name = "test.outside";
  estimates.set(std::move(outside));
  CHECK(estimates.missing_inputs("test.outside") == nullptr);
  const std::vector<std::string_view> names = estimates.absent_names();
  CHECK(std::find(names.begin(), names.end(), "train.gpu_hours") != names.end());
  CHECK(std::find(names.begin(), names.end(), "cost.total") != names.end());
  CHECK(names.size() == 2);
  // A copy and a move keep them; what a move leaves holds none.
  Estimates copy = estimates;
  CHECK(copy.missing_inputs("train.gpu_hours") != nullptr);
  Estimates moved = std::move(copy);
  CHECK(moved.missing_inputs(Metric::cost_total) != nullptr);
  CHECK(copy.missing_inputs(Metric::cost_total) == nullptr);  // NOLINT(bugprone-use-after-move): what a move leaves
  CHECK(copy.absent_names().empty());                         // NOLINT(bugprone-use-after-move)
}

TEST_CASE("the GPUs of a layout and a service, and the replicas a demand's peak needs", "[estimates]") {
  // Training: tp 8 · pp 4 · cp 2 = 64 GPUs a model copy; a stated dp of 3 makes 192 of the 256.
  const Estimated training = estimate_text(
      "[plan]\nname = \"x\"\nkind = \"training\"\n[model]\nparams = \"70B\"\n[training]\ntokens = \"1T\"\n"
      "tp = 8\npp = 4\ncp = 2\ndp = 3\n[cluster]\ngpu = \"h100-sxm\"\ncount = 256\n");
  CHECK(training["train.model_gpus"].value == 64);
  CHECK(training["train.parallel_gpus"].value == 192);
  // Without dp the layout is the GPU count.
  const Estimated derived = estimate_text(
      "[plan]\nname = \"x\"\nkind = \"training\"\n[model]\nparams = \"70B\"\n[training]\ntokens = \"1T\"\n"
      "tp = 8\npp = 4\n[cluster]\ngpu = \"h100-sxm\"\ncount = 256\n");
  CHECK(derived["train.parallel_gpus"].value == 256);
  // Inference: 3 replicas of tp 4, 16 sequences each, for a peak of 20 · 3.5 = 70 sequences.
  const std::string serving =
      "[plan]\nname = \"x\"\nkind = \"inference\"\n[model]\nparams = \"8B\"\nlayers = 32\nhidden = 4096\n"
      "heads = 32\nkv_heads = 8\n[inference]\ncontext = \"8192 tokens\"\ntp = 4\nreplicas = 3\n"
      "mean_concurrency = \"20 seq\"\npeak_factor = 3.5\n";
  const Estimated stated = estimate_text(serving + "concurrency = \"16 seq\"\n[cluster]\ngpu = \"h100-sxm\"\ncount = 16\n");
  CHECK(stated["infer.service_gpus"].value == 12);
  CHECK(stated["infer.service_concurrency"].value == 48);
  CHECK(stated["infer.peak_replicas"].value == 5);  // ⌈70 / 16⌉
  // Without a concurrency a replica holds what fits beside the weights.
  const Estimated sized = estimate_text(serving + "[cluster]\ngpu = \"h100-sxm\"\ncount = 16\n");
  const double fits = sized["infer.max_concurrency"].value;
  REQUIRE(fits >= 1);
  CHECK(sized["infer.service_concurrency"].value == 3 * fits);
  CHECK(sized["infer.peak_replicas"].value == std::ceil(70 / fits));
}
