// What a plan's figures are measured against: the precision the GPU computes in, the peak a
// stated figure is, the basis of the MFU, a per-node figure written per GPU, and what a
// fine-tune keeps in memory. The rule cases are in tests/rules/<id>/; these check what the
// text output does not show (key paths, severities, estimates).
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "integration_support.hpp"
#include "planlint/lint/run.hpp"
#include "support.hpp"
#include "test_estimates_support.hpp"

using namespace planlint;
using Catch::VectorContains;

namespace {

std::vector<Diagnostic> lint_plan(const std::string& plan) { return test::lint_plan_text(plan, Date{2026, 12, 2}); }

std::optional<Diagnostic> finding(const std::vector<Diagnostic>& diagnostics, std::string_view rule) {
  for (const Diagnostic& d : diagnostics)
    if (d.rule == rule) return d;
  return std::nullopt;
}

std::string training(const std::string& precision, const std::string& gpu, const std::string& peak) {
  return "[plan]\nname = \"x\"\nkind = \"training\"\nupdated = 2026-11-20\n[model]\nparams = \"7B\"\n"
         "[training]\ntokens = \"1T\"\nprecision = \"" + precision + "\"\n[cluster]\ngpu = \"" + gpu +
         "\"\ncount = 128\n" + (peak.empty() ? "" : "peak = \"" + peak + "\"\n") +
         "[estimates]\n\"train.flops\" = \"4.2e22 FLOP\"\n";
}

std::string inference(const std::string& gpu, const std::string& peak) {
  return "[plan]\nname = \"x\"\nkind = \"inference\"\nupdated = 2026-11-20\n[model]\nparams = \"70B\"\n"
         "layers = 80\nhidden = 8192\nheads = 64\nkv_heads = 8\n[inference]\nweights = \"fp8\"\n"
         "context = \"8192 tokens\"\nprompt_tokens = \"2048 tokens\"\nconcurrency = \"8 seq\"\ntp = 4\n[cluster]\ngpu = \"" +
         gpu + "\"\ncount = 4\n" + (peak.empty() ? "" : "peak = \"" + peak + "\"\n");
}

}  // namespace

TEST_CASE("a training precision the GPU has no tensor cores for is an error", "[rules][peak]") {
  // FP8 training on an A100 with its BF16-with-sparsity 624 TFLOPS as the
  // peak, and FP4 on an H100 with its FP8-with-sparsity 3958, passed with "no problems": the
  // peak rules compare only with the catalog's figures at the plan's precision, and there are none.
  const auto a100 = lint_plan(training("fp8", "a100-sxm", "624 TFLOPS"));
  const std::optional<Diagnostic> d = finding(a100, "precision-unsupported");
  REQUIRE(d);
  CHECK(d->severity == Severity::error);
  CHECK(d->key_path == "training.precision");
  CHECK_THAT(d->message, Catch::Contains("fp8 has no tensor cores on the a100-sxm"));
  CHECK(finding(lint_plan(training("fp4", "h100-sxm", "3958 TFLOPS")), "precision-unsupported"));
  CHECK(finding(lint_plan(training("fp8", "a100-sxm", "")), "precision-unsupported"));
  // Precisions the GPU has, and a GPU the catalog does not know (unknown-gpu's), are not reported.
  CHECK_FALSE(finding(lint_plan(training("fp8", "h100-sxm", "")), "precision-unsupported"));
  CHECK_FALSE(finding(lint_plan(training("bf16", "a100-sxm", "")), "precision-unsupported"));
  CHECK_FALSE(finding(lint_plan(training("fp8", "a100-sxm-80", "")), "precision-unsupported"));
  // Once the precision is one the GPU has, the stated peak is checked: 624 is BF16 with sparsity.
  CHECK(finding(lint_plan(training("bf16", "a100-sxm", "624 TFLOPS")), "sparse-peak"));
}

TEST_CASE("fp8 weights on a GPU without FP8 tensor cores compute in BF16", "[rules][peak][estimate]") {
  // An fp8 70B on four A100s with peak 624 TFLOPS (BF16 with sparsity)
  // passed, its TTFT computed at FP8 from that figure (half the real time), and the help said
  // "already at the FP8 peak". FP8 weights there are weight-only quantization (plan-format.md).
  const auto stated = lint_plan(inference("a100-sxm", "624 TFLOPS"));
  const std::optional<Diagnostic> sparse = finding(stated, "sparse-peak");
  REQUIRE(sparse);
  CHECK_THAT(sparse->message, Catch::Contains("bf16 peak with 2:4 sparsity") && Catch::Contains("312 TFLOPS"));
  // Without a stated peak the catalog's dense BF16 peak applies, and the TTFT is computed with it.
  const test::Estimated by_catalog = test::estimate_text(inference("a100-sxm", ""));
  const test::Estimated by_bf16_peak = test::estimate_text(inference("a100-sxm", "312 TFLOPS"));
  REQUIRE(by_catalog.estimates.find("infer.ttft") != nullptr);
  REQUIRE(by_bf16_peak.estimates.find("infer.ttft") != nullptr);
  CHECK(by_catalog.estimates.find("infer.ttft")->value == by_bf16_peak.estimates.find("infer.ttft")->value);
  // A V100 has no BF16 tensor cores: it serves in FP16, at its 125 TFLOPS.
  const test::Estimated v100 = test::estimate_text(inference("v100-sxm2", ""));
  const test::Estimated v100_fp16 = test::estimate_text(inference("v100-sxm2", "125 TFLOPS"));
  REQUIRE(v100.estimates.find("infer.ttft") != nullptr);
  CHECK(v100.estimates.find("infer.ttft")->value == v100_fp16.estimates.find("infer.ttft")->value);
  // On a GPU with FP8 tensor cores, fp8 weights compute in FP8: its dense FP8 peak is the default.
  CHECK(finding(lint_plan(inference("h100-sxm", "989 TFLOPS")), "precision-peak"));
}

TEST_CASE("a plan says which basis its MFU is on, and the time, attention-flops and mfu-out-of-range follow it",
          "[rules][compute][estimate]") {
  // attention-flops' "Use instead" (the MFU rescaled to the 6 · N · D
  // basis) did not clear it, and the rescaled MFU then drew mfu-out-of-range, whose ranges
  // count the attention FLOPs: only a suppression could answer the question the rule asks.
  auto plan = [](const std::string& mfu, const std::string& basis) {
    return "[plan]\nname = \"x\"\nkind = \"training\"\nupdated = 2026-11-20\n[model]\nparams = \"8B\"\n"
           "layers = 32\nhidden = 4096\nheads = 32\n[training]\ntokens = \"1T\"\nseq_len = 131072\nmicro_batch = 1\n"
           "cp = 16\ntp = 8\nzero = 1\nmfu = \"" + mfu + "\"\n" + basis + "[cluster]\ngpu = \"h100-sxm\"\ncount = 1024\n";
  };
  auto rules = [&](const std::string& text) { return test::rules_of(lint_plan(text)); };
  CHECK_THAT(rules(plan("35%", "")), VectorContains(std::string("attention-flops")));
  CHECK_THAT(rules(plan("35%", "mfu_counts_attention = true\n")), !VectorContains(std::string("attention-flops")));
  CHECK_THAT(rules(plan("35%", "mfu_counts_attention = true\n")), !VectorContains(std::string("mfu-out-of-range")));
  CHECK_THAT(rules(plan("6.7%", "mfu_counts_attention = false\n")), !VectorContains(std::string("attention-flops")));
  CHECK_THAT(rules(plan("6.7%", "mfu_counts_attention = false\n")), !VectorContains(std::string("mfu-out-of-range")));
  CHECK_THAT(rules(plan("6.7%", "")), VectorContains(std::string("mfu-out-of-range")));
  const std::optional<Diagnostic> low = finding(lint_plan(plan("3%", "mfu_counts_attention = false\n")), "mfu-out-of-range");
  REQUIRE(low);
  CHECK_THAT(low->message, Catch::StartsWith("training.mfu 3% (15.9% as the ranges count)") && Catch::Contains("is below"));
  // Next to the range, the converted figure is rounded away from it: 6.61% is 34.9997%.
  const std::optional<Diagnostic> edge = finding(lint_plan(plan("6.61%", "mfu_counts_attention = false\n")), "mfu-out-of-range");
  REQUIRE(edge);
  CHECK_THAT(edge->message, Catch::StartsWith("training.mfu 6.61% (34.9% as the ranges count)"));

  // With the attention counted, the GPU time divides (6 · N + 12 · L · h · S) · D by the MFU:
  // 5.29× the 6 · N · D time at 128K tokens.
  const test::Estimated plain = test::estimate_text(plan("35%", "mfu_counts_attention = false\n"));
  const test::Estimated counted = test::estimate_text(plan("35%", "mfu_counts_attention = true\n"));
  REQUIRE(plain.estimates.find("train.gpu_hours") != nullptr);
  REQUIRE(counted.estimates.find("train.gpu_hours") != nullptr);
  CHECK(counted.estimates.find("train.gpu_hours")->value ==
        Approx(plain.estimates.find("train.gpu_hours")->value * (1 + 12.0 * 32 * 4096 * 131072 / (6 * 8e9))));
  // The attention term is train.attention_flops_per_token's figure, the one the rules read.
  const std::string attention = counted.estimates.find("train.attention_flops_per_token")->arithmetic.str();
  CHECK_THAT(attention, Catch::StartsWith("12 × 32 × 4096 × 131.1K tokens = "));
  CHECK_THAT(counted.estimates.find("train.gpu_hours")->arithmetic.str(),
             Catch::StartsWith("(4.8e22 FLOP + " + attention.substr(attention.rfind("= ") + 2) + " × 1T tokens)"));
}

TEST_CASE("a LoRA fine-tune's states are its frozen base's weights", "[rules][memory][estimate]") {
  // A QLoRA 70B fine-tune on eight H100s drew
  // memory-fit, its states taken at 16 B a parameter as if every weight trained with AdamW;
  // a 4-bit frozen base is 0.5 B a parameter, 35 GB in all.
  auto plan = [](const std::string& base) {
    return "[plan]\nname = \"x\"\nkind = \"finetune\"\nupdated = 2026-11-20\n[model]\nparams = \"70B\"\n"
           "[training]\ntokens = \"400M\"\nlora_rank = 16\n" + base + "mfu = \"25%\"\n[cluster]\ngpu = \"h100-sxm\"\ncount = 8\n";
  };
  const test::Estimated qlora = test::estimate_text(plan("quantized_base = \"int4\"\n"));
  REQUIRE(qlora.estimates.find("train.memory.states") != nullptr);
  CHECK(qlora.estimates.find("train.memory.states")->value == Approx(0.5 * 70e9));
  const test::Estimated lora = test::estimate_text(plan(""));
  REQUIRE(lora.estimates.find("train.memory.states") != nullptr);
  CHECK(lora.estimates.find("train.memory.states")->value == Approx(2 * 70e9));
  // Without the model's widths the adapters cannot be sized: the base alone, said to be a bound.
  const std::vector<std::string>& notes = lora.estimates.find("train.memory.states")->notes;
  CHECK(std::any_of(notes.begin(), notes.end(), [](const std::string& note) {
    return note.starts_with("a lower bound: without the LoRA adapters' states, whose size needs model.layers");
  }));
  CHECK_FALSE(finding(lint_plan(plan("quantized_base = \"int4\"\n")), "memory-fit"));
  // A stated bytes_per_param is taken at its word, as before.
  CHECK(test::estimate_text(plan("quantized_base = \"int4\"\nbytes_per_param = \"0.6 B\"\n"))
            .estimates.find("train.memory.states")->value == Approx(0.6 * 70e9));
}

TEST_CASE("a LoRA fine-tune's adapters add their own states to the frozen base's", "[memory][estimate]") {
  // Llama 3 70B's shape, rank 16: an adapter on a d_out × d_in matrix is r · (d_in + d_out)
  // parameters (Hu et al. 2021). Per layer, q 8192 → 8192, k and v 8192 → 1024, o 8192 → 8192,
  // SwiGLU's gate, up 8192 → 28672 and down 28672 → 8192.
  auto plan = [](const std::string& extra) {
    return "[plan]\nname = \"x\"\nkind = \"finetune\"\nupdated = 2026-11-20\n[model]\nparams = \"70B\"\n"
           "layers = 80\nhidden = 8192\nheads = 64\nkv_heads = 8\nmlp = \"swiglu\"\nffn_hidden = 28672\n"
           "[training]\ntokens = \"400M\"\nlora_rank = 16\nquantized_base = \"int4\"\nseq_len = 4096\n"
           "global_batch = 64\nmicro_batch = 1\nrecompute = \"full\"\nmfu = \"25%\"\n" +
           extra + "[cluster]\ngpu = \"h100-sxm\"\ncount = 8\n";
  };
  const double attention = (8192 + 8192) + 2 * (8192 + 1024) + (8192 + 8192);
  const double mlp = 3 * (8192 + 28672);
  const test::Estimated all = test::estimate_text(plan(""));
  const double adapters = 16 * 80 * (attention + mlp);
  CHECK(all["train.lora.adapter_params"].value == Approx(adapters));
  CHECK(all["train.lora.adapter_params"].value == Approx(207.1e6).epsilon(0.001));  // QLoRA's Llama 70B figure
  // AdamW's 16 B for each adapter parameter, beside the 4-bit base's 0.5 B for each of 70B.
  CHECK(all["train.memory.adapter_states"].value == Approx(16 * adapters));
  CHECK(all["train.memory.states"].value == Approx(0.5 * 70e9 + 16 * adapters));
  CHECK_THAT(all["train.memory.states"].formula, Catch::StartsWith("adapter states + "));
  // Which matrices carry adapters: the attention's alone, or the query and value projections.
  CHECK(test::estimate_text(plan("lora_targets = \"attention\"\n"))["train.lora.adapter_params"].value ==
        Approx(16 * 80 * attention));
  CHECK(test::estimate_text(plan("lora_targets = \"qv\"\n"))["train.lora.adapter_params"].value ==
        Approx(16 * 80 * (8192 + 8192 + 8192 + 1024)));
  // ZeRO 3 shards the adapters' states over the eight GPUs with the base's weights.
  CHECK(test::estimate_text(plan("zero = 3\n"))["train.memory.states"].value ==
        Approx((0.5 * 70e9 + 16 * adapters) / 8));
  // A stated bytes_per_param counts the adapters itself: nothing is added to it.
  const test::Estimated stated = test::estimate_text(plan("bytes_per_param = \"0.6 B\"\n"));
  CHECK(stated["train.memory.states"].value == Approx(0.6 * 70e9));
  CHECK(stated.estimates.find("train.memory.adapter_states") == nullptr);
}

TEST_CASE("with the attention counted, the step time divides the same FLOPs as the GPU time", "[estimate]") {
  // With mfu_counts_attention = true the GPU-hours
  // counted the attention and the step time did not (3.48 s against 4.01 s), so the steps did
  // not add up to the days, and the all-reduce's share of a step was overstated.
  auto estimates_of = [](const std::string& basis) {
    return test::estimate_text(
        "[plan]\nname = \"x\"\nkind = \"training\"\nupdated = 2026-11-20\n[model]\nparams = \"7B\"\nlayers = 32\n"
        "hidden = 4096\nheads = 32\n[training]\ntokens = \"1T\"\nseq_len = 4096\nmicro_batch = 1\nglobal_batch = 512\n"
        "zero = 1\nmfu = \"40%\"\n" + basis + "[cluster]\ngpu = \"h100-sxm\"\ncount = 64\n");
  };
  const test::Estimated counted = estimates_of("mfu_counts_attention = true\n");
  const test::Estimated plain = estimates_of("");
  const MetricValue* step = counted.estimates.find("train.step_seconds");
  const MetricValue* days = counted.estimates.find("train.days");
  REQUIRE(step != nullptr);
  REQUIRE(days != nullptr);
  CHECK(step->value == Approx(plain.estimates.find("train.step_seconds")->value * (1 + 12.0 * 32 * 4096 * 4096 / (6 * 7e9))));
  // 1T tokens in steps of 512 × 4096 tokens, each step_seconds long, take train.days.
  CHECK(step->value * 1e12 / (512 * 4096) == Approx(days->value));
}

TEST_CASE("a V100 plan that states no precision trains in FP16", "[rules][peak]") {
  // A V100 plan without training.precision drew
  // precision-unsupported for "bf16", a default it never stated; Volta trains in FP16.
  const std::string plan = "[plan]\nname = \"x\"\nkind = \"training\"\nupdated = 2026-11-20\n[model]\nparams = \"1B\"\n"
                           "[training]\ntokens = \"20B\"\nzero = 1\nmfu = \"40%\"\n[cluster]\ngpu = \"v100-sxm2\"\ncount = 8\n";
  CHECK_FALSE(finding(lint_plan(plan), "precision-unsupported"));
  const test::Estimated e = test::estimate_text(plan);
  REQUIRE(e.estimates.find("train.gpu_hours") != nullptr);  // at the FP16 peak, 125 TFLOPS
  CHECK(e.estimates.find("train.gpu_hours")->value == Approx(6 * 1e9 * 20e9 / (125e12 * 0.4)));
}

TEST_CASE("a node's HBM or HBM bandwidth written per GPU is an error, and HBM in GiB is no mismatch",
          "[rules][peak]") {
  // `hbm = "640 GB"`, a DGX H100's total, turned off memory-fit on
  // a 70B run that needs 192 GB a GPU, with only peak-mismatch's "check the variant" left.
  auto plan = [](const std::string& cluster) {
    return "[plan]\nname = \"x\"\nkind = \"training\"\nupdated = 2026-11-20\n[model]\nparams = \"70B\"\n"
           "layers = 80\nhidden = 8192\nheads = 64\n[training]\ntokens = \"1T\"\nseq_len = 8192\n"
           "micro_batch = 1\nglobal_batch = 64\ntp = 2\npp = 2\nzero = 1\n[cluster]\ngpu = \"h100-sxm\"\n"
           "count = 64\n" + cluster;
  };
  const std::vector<Diagnostic> node_hbm = lint_plan(plan("hbm = \"640 GB\"\n"));
  const std::optional<Diagnostic> d = finding(node_hbm, "per-node-figure");
  REQUIRE(d);
  CHECK(d->severity == Severity::error);
  CHECK_THAT(d->message, Catch::StartsWith("cluster.hbm 640 GB is 8 × the 80 GB of one h100-sxm: a node's total"));
  REQUIRE(d->help);
  CHECK_THAT(*d->help, Catch::Contains("write cluster.hbm = \"80 GB\""));
  CHECK_FALSE(finding(node_hbm, "peak-mismatch"));  // one finding that says what the number is
  // The same run with the HBM left to the catalog is memory-fit's error.
  CHECK(finding(lint_plan(plan("")), "memory-fit"));
  const std::optional<Diagnostic> bandwidth = finding(lint_plan(plan("hbm_bandwidth = \"26.8 TB/s\"\n")), "per-node-figure");
  REQUIRE(bandwidth);
  CHECK_THAT(bandwidth->message, Catch::StartsWith("cluster.hbm_bandwidth 26.8 TB/s is 8 × the 3.35 TB/s"));
  // 80 GiB (85.9 GB) is an H100's HBM as nvidia-smi shows it: no peak-mismatch, no per-node figure.
  const std::vector<Diagnostic> gib = lint_plan(plan("hbm = \"80 GiB\"\n"));
  CHECK_FALSE(finding(gib, "peak-mismatch"));
  CHECK_FALSE(finding(gib, "per-node-figure"));
  // A figure that is neither is still peak-mismatch's: the PCIe card's 2 TB/s on an SXM plan.
  CHECK(finding(lint_plan(plan("hbm_bandwidth = \"2 TB/s\"\n")), "peak-mismatch"));
  // Datasheets round a node's total, and GiB reads one too: 8 × 80 GiB = 687 GB.
  CHECK(finding(lint_plan(plan("hbm = \"640 GiB\"\n")), "per-node-figure"));
  std::string mi300x = plan("hbm = \"1.5 TB\"\n");
  mi300x.replace(mi300x.find("h100-sxm"), 8, "mi300x");
  const std::optional<Diagnostic> amd = finding(lint_plan(mi300x), "per-node-figure");  // 8 × 192 GB = 1,536 GB
  REQUIRE(amd);
  CHECK_THAT(amd->message, Catch::StartsWith("cluster.hbm 1.5 TB is 8 × the 192 GB of one mi300x"));
  // A peak that is one GPU's sparse peak on a 2-GPU node is sparse-peak's, not a node total.
  const std::vector<Diagnostic> sparse = lint_plan(plan("gpus_per_node = 2\npeak = \"1979 TFLOPS\"\n"));
  CHECK(finding(sparse, "sparse-peak"));
  CHECK_FALSE(finding(sparse, "per-node-figure"));
}

