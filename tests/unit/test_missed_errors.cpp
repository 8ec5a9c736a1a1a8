// Mistakes a rule must not pass in silence: a
// precision the GPU has no tensor cores for, and memory that does not fit where a part of the
// total is unknown. Each case is a small plan linted as `planlint check` lints it.
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
  CHECK_THAT(d->message, Catch::Contains("a100-sxm has no fp8 tensor cores"));
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

TEST_CASE("memory-fit reports states that alone exceed the HBM when the activations are unknown",
          "[rules][memory]") {
  // A 70B model on eight H100s, without model.layers, hidden or seq_len,
  // passed: train.memory.total needs the activations, though its states cannot fit.
  auto plan = [](const std::string& params, const std::string& zero) {
    return "[plan]\nname = \"x\"\nkind = \"training\"\nupdated = 2026-11-20\n[model]\nparams = \"" + params +
           "\"\n[training]\ntokens = \"1.4T\"\nmfu = \"40%\"\n" + zero + "[cluster]\ngpu = \"h100-sxm\"\ncount = 8\n";
  };
  // With no training.zero stated, the bound is what ZeRO-3 leaves: 16 B × 70B / 8 = 140 GB.
  const std::optional<Diagnostic> d = finding(lint_plan(plan("70B", "")), "memory-fit");
  REQUIRE(d);
  CHECK_THAT(d->message, Catch::StartsWith("needs 154 GB or more per GPU but h100-sxm has 80 GB: states 140 GB "
                                           "(with ZeRO-3 over dp · cp"));
  CHECK_THAT(d->message, Catch::Contains("+ reserve 14 GB, before any activations") && !Catch::Contains("?"));
  REQUIRE(d->help);
  CHECK_THAT(*d->help, Catch::Contains("spread the run over more GPUs") && !Catch::Contains("?"));
  // A stated ZeRO stage is taken at its word: ZeRO-1 keeps 4 bytes a parameter unsharded,
  // (4 + 12 / 8) × 70B = 385 GB.
  const std::optional<Diagnostic> zero1 = finding(lint_plan(plan("70B", "zero = 1\n")), "memory-fit");
  REQUIRE(zero1);
  CHECK_THAT(zero1->message, Catch::StartsWith("needs 423.5 GB or more per GPU") && Catch::Contains("states 385 GB + reserve"));
  // A cost-only plan whose states ZeRO-3 would fit is no finding: 7B is 14 GB a GPU sharded.
  CHECK_FALSE(finding(lint_plan(plan("7B", "")), "memory-fit"));
  CHECK(finding(lint_plan(plan("7B", "zero = 0\n")), "memory-fit"));
  // An MoE plan's ep ranks are ranks of dp: ZeRO-3's states are not split by ep again
  // (1T parameters over 64 GPUs is 250 GB a GPU however they shard).
  const std::string moe =
      "[plan]\nname = \"x\"\nkind = \"training\"\nupdated = 2026-11-20\n[model]\nparams = \"1T\"\n"
      "active_params = \"50B\"\narchitecture = \"moe\"\n[training]\ntokens = \"1T\"\nep = 8\nmfu = \"30%\"\n"
      "[cluster]\ngpu = \"h100-sxm\"\ncount = 64\n";
  const std::optional<Diagnostic> experts = finding(lint_plan(moe), "memory-fit");
  REQUIRE(experts);
  CHECK_THAT(experts->message, Catch::StartsWith("needs 275 GB or more per GPU"));
}

TEST_CASE("inference-memory-fit reports weights that alone exceed the HBM when no concurrency is stated",
          "[rules][memory]") {
  // 70B in bf16 on one H100 without inference.concurrency passed: the memory
  // total needs the KV cache, which needs the concurrency; 140 GB of weights never fit 80 GB.
  auto plan = [](const std::string& weights, const std::string& tp) {
    return "[plan]\nname = \"x\"\nkind = \"inference\"\nupdated = 2026-11-20\n[model]\nparams = \"70B\"\n"
           "layers = 80\nhidden = 8192\nheads = 64\nkv_heads = 8\n[inference]\nweights = \"" + weights +
           "\"\ncontext = \"8192 tokens\"\ntp = " + tp + "\n[cluster]\ngpu = \"h100-sxm\"\ncount = " + tp + "\n";
  };
  const std::optional<Diagnostic> d = finding(lint_plan(plan("bf16", "1")), "inference-memory-fit");
  REQUIRE(d);
  CHECK(d->message == "the weights alone need 154 GB per GPU but h100-sxm has 80 GB: weights 140 GB / tp 1 + reserve "
                      "14 GB, before any KV cache (the plan states no inference.concurrency to size it for)");
  // Weights that fit are no finding without a concurrency: 140 GB over tp 2, 77 GB a GPU.
  CHECK_FALSE(finding(lint_plan(plan("bf16", "2")), "inference-memory-fit"));
  // 70 GB of fp8 weights and one 8K sequence's 2.68 GB of KV cache fit one H100 with their
  // reserve, 79.95 GB; one 32K sequence's 10.74 GB does not (2 · 80 · 8 · 128 · 2 B = 327.7 kB
  // a token): no concurrency could be served.
  CHECK_FALSE(finding(lint_plan(plan("fp8", "1")), "inference-memory-fit"));
  std::string long_context = plan("fp8", "1");
  long_context.replace(long_context.find("8192 tokens"), 11, "32768 tokens");
  const std::optional<Diagnostic> sequence = finding(lint_plan(long_context), "inference-memory-fit");
  REQUIRE(sequence);
  CHECK(sequence->message == "one sequence of 32.8K tokens needs 88.82 GB per GPU but h100-sxm has 80 GB: weights 70 GB "
                             "/ tp 1 + KV cache 10.74 GB of the one sequence + reserve 8.074 GB: no sequence fits, "
                             "whatever the concurrency (the plan states no inference.concurrency)");
  REQUIRE(sequence->help);
  CHECK(*sequence->help == "raise inference.tp (each GPU holds weights / tp and its share of the KV heads), store the "
                           "KV cache in fp8, shorten inference.context, or use a GPU with more HBM; then state "
                           "inference.concurrency, so that the KV cache is checked at the load it must hold");
  // Over tp 2 the sequence fits: (35 + 10.74 / 2) GB × 1.1 = 44.4 GB.
  std::string wider = long_context;
  wider.replace(wider.find("tp = 1"), 6, "tp = 2");
  wider.replace(wider.find("count = 1"), 9, "count = 2");
  CHECK_FALSE(finding(lint_plan(wider), "inference-memory-fit"));
  // Without a stated tp either, the plan is held to the largest tp a node gives: a 70B sketch
  // on 16 H100s fits at tp 8; a 405B one does not (810 GB / 8 = 101 GB).
  auto sketch = [](const std::string& params) {
    return "[plan]\nname = \"x\"\nkind = \"inference\"\n[model]\nparams = \"" + params +
           "\"\n[cluster]\ngpu = \"h100-sxm\"\ncount = 16\n";
  };
  CHECK_FALSE(finding(lint_plan(sketch("70B")), "inference-memory-fit"));
  const std::optional<Diagnostic> big = finding(lint_plan(sketch("405B")), "inference-memory-fit");
  REQUIRE(big);
  CHECK(big->message == "the weights alone need 111.4 GB per GPU but h100-sxm has 80 GB: weights 810 GB / tp 8 (the "
                        "plan states no inference.tp: the most one node gives) + reserve 10.12 GB, before any KV cache "
                        "(the plan states no inference.concurrency to size it for)");
  REQUIRE(big->help);
  CHECK_THAT(*big->help, Catch::StartsWith("state an inference.tp at which the weights fit") && !Catch::Contains("?"));
  // Stated replicas bound the tp: 16 replicas of 16 GPUs have one GPU each, and 70B does not
  // fit one.
  const std::string replicas = "[plan]\nname = \"x\"\nkind = \"inference\"\n[model]\nparams = \"70B\"\n"
                               "[inference]\nreplicas = 16\n[cluster]\ngpu = \"h100-sxm\"\ncount = 16\n";
  const std::optional<Diagnostic> one_each = finding(lint_plan(replicas), "inference-memory-fit");
  REQUIRE(one_each);
  CHECK_THAT(one_each->message, Catch::Contains("weights 140 GB / tp 1 (the plan states no inference.tp: the GPUs of one "
                                                "of its replicas)"));
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
  CHECK_THAT(low->message, Catch::StartsWith("training.mfu 3% (15.9% counting the attention FLOPs") && Catch::Contains("is below"));
  // Next to the range, the converted figure is rounded away from it: 6.61% is 34.9997%.
  const std::optional<Diagnostic> edge = finding(lint_plan(plan("6.61%", "mfu_counts_attention = false\n")), "mfu-out-of-range");
  REQUIRE(edge);
  CHECK_THAT(edge->message, Catch::StartsWith("training.mfu 6.61% (34.9% counting the attention FLOPs"));

  // With the attention counted, the GPU time divides (6 · N + 12 · L · h · S) · D by the MFU:
  // 5.29× the 6 · N · D time at 128K tokens.
  const test::Estimated plain = test::estimate_text(plan("35%", "mfu_counts_attention = false\n"));
  const test::Estimated counted = test::estimate_text(plan("35%", "mfu_counts_attention = true\n"));
  REQUIRE(plain.estimates.find("train.gpu_hours") != nullptr);
  REQUIRE(counted.estimates.find("train.gpu_hours") != nullptr);
  CHECK(counted.estimates.find("train.gpu_hours")->value ==
        Approx(plain.estimates.find("train.gpu_hours")->value * (1 + 12.0 * 32 * 4096 * 131072 / (6 * 8e9))));
  CHECK(counted.estimates.find("train.gpu_hours")->arithmetic.str().starts_with("(4.8e22 FLOP + 12 × 32 × 4096 × 131.1K tokens × 1T tokens)"));
}

TEST_CASE("an assumption with one end ranges from its value to that end", "[rules][assumptions]") {
  // An mfu entry with value 40% and high 50% (no low) flagged the plan's 45%
  // as "off the value of its assumption (40% – 40%)", while the cost ranges used 45%–50%.
  auto plan = [](const std::string& mfu) {
    return "[plan]\nname = \"x\"\nkind = \"training\"\nupdated = 2026-11-20\n[model]\nparams = \"7B\"\n"
           "[training]\ntokens = \"1T\"\nmfu = \"" + mfu + "\"\n[cluster]\ngpu = \"h100-sxm\"\ncount = 64\n"
           "[[assumptions]]\nid = \"mfu\"\nkey = \"training.mfu\"\nvalue = \"40%\"\nhigh = \"50%\"\n"
           "source = \"bench\"\nupdated = 2026-11-01\n";
  };
  CHECK_FALSE(finding(lint_plan(plan("45%")), "assumption-value-mismatch"));
  const std::optional<Diagnostic> below = finding(lint_plan(plan("35%")), "assumption-value-mismatch");
  REQUIRE(below);
  CHECK_THAT(below->message, Catch::Contains("outside the range of its assumption 'mfu' (40% – 50%, its value standing "
                                             "for the end it leaves out)"));
  CHECK(finding(lint_plan(plan("55%")), "assumption-value-mismatch"));
  // The value end keeps the tolerance a value has (1%): 39.99% is the assumption's 40%.
  CHECK_FALSE(finding(lint_plan(plan("39.99%")), "assumption-value-mismatch"));
  CHECK(finding(lint_plan(plan("39.5%")), "assumption-value-mismatch"));
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
  CHECK_FALSE(finding(lint_plan(plan("quantized_base = \"int4\"\n")), "memory-fit"));
  // A stated bytes_per_param is taken at its word, as before.
  CHECK(test::estimate_text(plan("quantized_base = \"int4\"\nbytes_per_param = \"0.6 B\"\n"))
            .estimates.find("train.memory.states")->value == Approx(0.6 * 70e9));
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
  CHECK_THAT(d->message, Catch::StartsWith("hbm 640 GB is 8 × the 80 GB of one h100-sxm: the node's total"));
  REQUIRE(d->help);
  CHECK_THAT(*d->help, Catch::Contains("write hbm = \"80 GB\""));
  CHECK_FALSE(finding(node_hbm, "peak-mismatch"));  // one finding that says what the number is
  // The same run with the HBM left to the catalog is memory-fit's error.
  CHECK(finding(lint_plan(plan("")), "memory-fit"));
  const std::optional<Diagnostic> bandwidth = finding(lint_plan(plan("hbm_bandwidth = \"26.8 TB/s\"\n")), "per-node-figure");
  REQUIRE(bandwidth);
  CHECK_THAT(bandwidth->message, Catch::StartsWith("hbm_bandwidth 26.8 TB/s is 8 × the 3.35 TB/s"));
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
  CHECK_THAT(amd->message, Catch::StartsWith("hbm 1.5 TB is 8 × the 192 GB of one mi300x"));
  // A peak that is one GPU's sparse peak on a 2-GPU node is sparse-peak's, not a node total.
  const std::vector<Diagnostic> sparse = lint_plan(plan("gpus_per_node = 2\npeak = \"1979 TFLOPS\"\n"));
  CHECK(finding(sparse, "sparse-peak"));
  CHECK_FALSE(finding(sparse, "per-node-figure"));
}

TEST_CASE("a wall-clock or cost claim worked out without the plan's goodput is an error", "[rules][claims]") {
  // Goodput = 85% stated, and the claims booked the ideal 90 days and
  // $13.3M; 15% short, inside a cost claim's 30% tolerance: "no problems".
  auto plan = [](const std::string& goodput, const std::string& estimates) {
    return "[plan]\nname = \"x\"\nkind = \"training\"\nupdated = 2026-11-20\n[model]\nparams = \"70B\"\n"
           "[training]\ntokens = \"15T\"\nmfu = \"40%\"\n" + goodput + "[cluster]\ngpu = \"h100-sxm\"\n"
           "count = 2048\nprice = \"$3/GPU/h\"\n[estimates]\n" + estimates;
  };
  const std::vector<Diagnostic> ideal =
      lint_plan(plan("goodput = \"85%\"\n", "\"train.wall_days\" = \"90 d\"\n\"cost.total\" = \"$13.3M\"\n"));
  std::vector<std::string> messages;
  for (const Diagnostic& d : ideal) {
    if (d.rule == "goodput-not-applied") messages.push_back(d.message);
    CHECK(d.rule != "estimate-mismatch");  // one finding per claim, the one that names the cause
  }
  REQUIRE(messages.size() == 2);
  // 6 · 7e10 · 1.5e13 / (989 TFLOPS · 40%) / 2048 GPUs = 90.0 d; / 85% = 105.9 d; × 2048 × 24 × $3.
  CHECK(messages[0] == "claims 90 d for train.wall_days, which is what planlint computes at 100% goodput, 90 d: the "
                       "plan's training.goodput of 85% is not applied, and the claim is 15% short; with it, "
                       "train.wall_days is 105.9 d (90 d / 85%)");
  CHECK_THAT(messages[1], Catch::StartsWith("claims $13.3M for cost.total") && Catch::Contains("cost.total is $15.6M"));
  // The claims with the goodput applied are no finding.
  const std::vector<Diagnostic> applied =
      lint_plan(plan("goodput = \"85%\"\n", "\"train.wall_days\" = \"106 d\"\n\"cost.total\" = \"$15.6M\"\n"));
  CHECK_FALSE(finding(applied, "goodput-not-applied"));
  CHECK_FALSE(finding(applied, "estimate-mismatch"));
  // A goodput of 98% leaves nothing to tell apart; a claim off by more is estimate-mismatch's.
  CHECK_FALSE(finding(lint_plan(plan("goodput = \"98%\"\n", "\"train.wall_days\" = \"90 d\"\n")), "goodput-not-applied"));
  // An owned cluster (price = 0) claims $0 whatever the goodput: no finding.
  std::string owned = plan("goodput = \"90%\"\n", "\"cost.total\" = \"$0\"\n");
  owned.replace(owned.find("price = \"$3/GPU/h\""), 18, "price = 0");
  CHECK_FALSE(finding(lint_plan(owned), "goodput-not-applied"));
  CHECK_FALSE(finding(lint_plan(owned), "estimate-mismatch"));
  // Without a goodput, estimate-mismatch still checks the claims it always did.
  const std::vector<Diagnostic> no_goodput = lint_plan(plan("", "\"train.days\" = \"60 d\"\n"));
  CHECK(finding(no_goodput, "estimate-mismatch"));
  CHECK_FALSE(finding(no_goodput, "goodput-not-applied"));
}

TEST_CASE("an MFU that counts full recomputation is asked about, and divides 4/3 of the FLOPs when stated",
          "[rules][compute]") {
  // GPT-3 175B on 1024 A100 at "44.9% of peak" with full
  // recomputation (Narayanan et al. 2021 §5.1, 140 TFLOPS a GPU) gave 25.4 days, where the
  // paper's own estimate, 8 · T · P / (n · X), is 34: the figure counts the second forward pass.
  auto plan = [](const std::string& training) {
    return "[plan]\nname = \"x\"\nkind = \"training\"\nupdated = 2026-11-20\n[model]\nparams = \"175B\"\n"
           "[training]\ntokens = \"300B\"\nmfu = \"44.9%\"\n" + training + "[cluster]\ngpu = \"a100-sxm\"\ncount = 1024\n"
           "[estimates]\n\"train.days\" = \"34 d\"\n";
  };
  const std::vector<Diagnostic> unstated = lint_plan(plan("recompute = \"full\"\n"));
  const std::optional<Diagnostic> asked = finding(unstated, "recompute-flops");
  REQUIRE(asked);
  // 6 · 175e9 · 300e9 / (312 TFLOPS · 44.9%) = 624.6K GPU-hours; 4/3 of it 832.8K.
  CHECK_THAT(asked->message, Catch::Contains("the GPU time is 832.8K GPU·h, not 624.6K GPU·h"));
  CHECK(finding(unstated, "estimate-mismatch"));  // 34 d against 25.4 d
  // Stated: the GPU time divides 8 · N · D by it, 33.9 days, and the paper's 34 holds.
  const std::vector<Diagnostic> counted = lint_plan(plan("recompute = \"full\"\nmfu_counts_recompute = true\n"));
  CHECK_FALSE(finding(counted, "recompute-flops"));
  CHECK_FALSE(finding(counted, "estimate-mismatch"));
  // With selective recomputation the flag changes nothing (the attention core is a few percent)
  // and nothing is asked.
  const std::vector<Diagnostic> selective =
      lint_plan(plan("recompute = \"selective\"\nmfu_counts_recompute = true\n"));
  CHECK_FALSE(finding(selective, "recompute-flops"));
  CHECK(finding(selective, "estimate-mismatch"));
  CHECK_FALSE(finding(lint_plan(plan("recompute = \"full\"\nmfu_counts_recompute = false\n")), "recompute-flops"));
}

TEST_CASE("mfu-out-of-range compares a hardware FLOPs utilisation at 3/4", "[rules][compute]") {
  // Megatron-LM's 52% of peak for 1T on 3072 A100 counts the recomputed forward pass: 39% of
  // model FLOPs, inside the 35–50% of thousand-GPU runs.
  auto plan = [](const std::string& mfu, const std::string& basis) {
    return "[plan]\nname = \"x\"\nkind = \"training\"\nupdated = 2026-11-20\n[model]\nparams = \"1T\"\n"
           "[training]\ntokens = \"450B\"\nrecompute = \"full\"\nmfu = \"" + mfu + "\"\n" + basis +
           "[cluster]\ngpu = \"a100-sxm\"\ncount = 3072\n";
  };
  CHECK(finding(lint_plan(plan("52%", "")), "mfu-out-of-range"));
  CHECK_FALSE(finding(lint_plan(plan("52%", "mfu_counts_recompute = true\n")), "mfu-out-of-range"));
  const std::optional<Diagnostic> high = finding(lint_plan(plan("80%", "mfu_counts_recompute = true\n")), "mfu-out-of-range");
  REQUIRE(high);
  // mfu-implausible holds the same MFU to its 60% at 3/4: 62% of hardware FLOPs is 46.5%.
  CHECK_FALSE(finding(lint_plan(plan("62%", "mfu_counts_recompute = true\n")), "mfu-implausible"));
  CHECK(finding(lint_plan(plan("62%", "")), "mfu-implausible"));
  CHECK(high->message == "training.mfu 80% (60% as model FLOPs utilisation, as the ranges are: it counts the recomputed "
                         "forward pass, 8 · N a token) is above the 35%–50% measured for dense runs on 1000 GPUs or "
                         "more (3072 GPUs here)");
}

TEST_CASE("a goodput above what the plan's own node failures allow is a warning", "[rules][governance]") {
  // Goodput = 100% on 2,048 H100 nodes with node_mtbf = 6300 h (a
  // failure every 3.1 hours) passed; Llama 3 reports higher than 90% at this scale.
  auto plan = [](const std::string& goodput, const std::string& extra) {
    return "[plan]\nname = \"x\"\nkind = \"training\"\nupdated = 2026-11-20\n[model]\nparams = \"405B\"\n"
           "[training]\ntokens = \"15.6T\"\nmfu = \"40%\"\ngoodput = \"" + goodput + "\"\n" + extra +
           "[cluster]\ngpu = \"h100-sxm\"\ncount = 16384\nnode_mtbf = \"6300 h\"\n";
  };
  const std::optional<Diagnostic> d = finding(lint_plan(plan("100%", "")), "goodput-implausible");
  REQUIRE(d);
  // 6 · 405e9 · 15.6e12 / (989 TFLOPS · 40% · 16384) = 67.7 d; 2048 · 67.7 d / 6300 h = 528
  // failures × 5 min = 1.83 d lost: at most 97.2% (97.29%, shown rounded down).
  CHECK_THAT(d->message, Catch::StartsWith("training.goodput 100% is more than the 97.2% the plan's own failures allow: "
                                           "2048 nodes with a node MTBF of 6300 h fail about every 3.08 h, about 528 "
                                           "times in the 67.7 d of the run"));
  CHECK_FALSE(finding(lint_plan(plan("90%", "")), "goodput-implausible"));
  // Checkpointing every 2 hours loses an hour of work a failure on average: at 90% the run's
  // 75.2 d see 587 failures of 65 min each, and the bound falls to 64.7%.
  CHECK(finding(lint_plan(plan("90%", "checkpoint_interval = \"2 h\"\n")), "goodput-implausible"));
  // At the Young/Daly interval planlint itself suggests (√(2 · 60 s · 6300 h / 2048) = 19.2
  // min), 90% holds, as Llama 3's "higher than 90%" did.
  CHECK_FALSE(finding(lint_plan(plan("90%", "checkpoint_interval = \"19 min\"\ncheckpoint_write_time = \"60 s\"\n")),
                      "goodput-implausible"));
  // Without a node MTBF there is nothing to bound it with.
  std::string no_mtbf = plan("100%", "");
  no_mtbf.erase(no_mtbf.find("node_mtbf"));
  CHECK_FALSE(finding(lint_plan(no_mtbf), "goodput-implausible"));
}

namespace {

/// A 70B run on 2048 H100: every claim is
/// right for 15T tokens; `tokens` is what the plan says.
std::string tokens_plan(const std::string& tokens, const std::string& estimates) {
  return "[plan]\nname = \"x\"\nkind = \"training\"\nupdated = 2026-11-20\n[model]\nparams = \"70B\"\n"
         "[training]\ntokens = \"" + tokens + "\"\nmfu = \"40%\"\ngoodput = \"85%\"\n[cluster]\n"
         "gpu = \"h100-sxm\"\ncount = 2048\nprice = \"$3/GPU/h\"\n[estimates]\n" + estimates;
}

const std::string right_for_15t =
    "\"train.flops\" = \"6.3e24 FLOP\"\n\"train.days\" = \"90 d\"\n\"cost.total\" = \"$15.6M\"\n";

std::vector<Diagnostic> findings_of(const std::vector<Diagnostic>& diagnostics, std::string_view rule) {
  std::vector<Diagnostic> found;
  for (const Diagnostic& d : diagnostics)
    if (d.rule == rule) found.push_back(d);
  return found;
}

}  // namespace

TEST_CASE("claims off by one factor point at the inputs they share, not at each claim", "[rules][claims]") {
  // training.tokens = "15B" for 15T made every claim 1000× too large, and
  // unit-slip told each claim to take planlint's figure: a $15.6M budget became $15.6K.
  const std::vector<Diagnostic> slips = findings_of(lint_plan(tokens_plan("15B", right_for_15t)), "unit-slip");
  REQUIRE(slips.size() == 3);
  for (const Diagnostic& d : slips) {
    INFO(d.message);
    CHECK_THAT(d.message, Catch::Contains("3 claims of this plan are off by this same factor, so the slip is "
                                          "most likely in an input they share (model.params, training.tokens), "
                                          "not in each claim"));
    CHECK_THAT(d.help.value_or(""), Catch::StartsWith("the claims agree with one another: check model.params, training.tokens "
                                         "against the sources they came from"));
    CHECK_THAT(d.help.value_or(""), !Catch::Contains("correct every figure derived from this one"));
  }
  // A time has no SI prefix to slip.
  CHECK_THAT(slips[1].message, Catch::Contains("90 d for train.days"));
  CHECK_THAT(slips[1].message, !Catch::Contains("an SI prefix slip"));
  CHECK_THAT(slips[1].message, Catch::Contains("1000× too large: no two of d, h, min and s are 1000 apart"));
  // With the input corrected, the claims are right.
  CHECK(findings_of(lint_plan(tokens_plan("15T", right_for_15t)), "unit-slip").empty());
  // Two claims off together, but a third that agrees rests on the inputs they share: 6 · N · D
  // matching train.flops clears params and tokens, and an MFU cannot be 1000× off in range, so
  // no input is blamed and each claim is its own slip.
  const std::vector<Diagnostic> cleared = findings_of(
      lint_plan(tokens_plan("15T", "\"train.flops\" = \"6.3e24 FLOP\"\n\"train.gpu_hours\" = \"4.42K GPU-h\"\n"
                                   "\"cost.total\" = \"$15.6K\"\n")),
      "unit-slip");
  REQUIRE(cleared.size() == 2);
  for (const Diagnostic& d : cleared) {
    INFO(d.message);
    CHECK_THAT(d.message, !Catch::Contains("an input they share"));
    CHECK_THAT(d.help.value_or(""), Catch::Contains("correct every figure derived from this one"));
  }
  // One claim off, the others right: the slip is that claim's, as before.
  const std::vector<Diagnostic> one = findings_of(
      lint_plan(tokens_plan("15T", "\"train.flops\" = \"6.3e27 FLOP\"\n\"train.days\" = \"90 d\"\n"
                                   "\"cost.total\" = \"$15.6M\"\n")),
      "unit-slip");
  REQUIRE(one.size() == 1);
  CHECK_THAT(one[0].message, Catch::EndsWith("1000× too large: an SI prefix slip (k/M/G/T/P/E/Z differ by 1000)"));
  CHECK_THAT(one[0].help.value_or(""), Catch::StartsWith("redo the unit conversion"));
}

namespace {

/// Llama 3.1 405B's published layout, trimmed: pp 16, dp 128,
/// 16 sequences per data-parallel rank; `extra` adds [training] keys, `tail` sections after,
/// `batch` is the global batch in sequences.
std::string llama405(const std::string& extra, const std::string& tail = "", const std::string& batch = "2048") {
  return "[plan]\nname = \"x\"\nkind = \"training\"\nupdated = 2026-11-20\n[model]\nparams = \"405B\"\n"
         "layers = 126\nhidden = 16384\nheads = 128\nkv_heads = 8\n[training]\ntokens = \"15.6T\"\n"
         "seq_len = 8192\nmicro_batch = 1\nglobal_batch = " + batch + "\ntp = 8\npp = 16\ndp = 128\nzero = 2\n"
         "recompute = \"full\"\nmfu = \"40%\"\n" + extra + "[cluster]\ngpu = \"h100-sxm\"\ncount = 16384\n" + tail;
}

}  // namespace

TEST_CASE("pipeline-bubble offers only what clears it: virtual stages, a measured step time", "[rules][parallelism]") {
  // On Llama 3.1 405B's configuration the help asked for 75 micro-batches
  // (9,600 sequences, 5× its batch) or an interleaved schedule "stated as a benchmark", which
  // the check never read.
  const std::optional<Diagnostic> d = finding(lint_plan(llama405("")), "pipeline-bubble");
  REQUIRE(d);
  CHECK_THAT(d->message, Catch::Contains("(16 − 1) / 16 = 93.8%"));
  CHECK_THAT(d->help.value_or(""), Catch::Contains("state training.virtual_stages = 5 or more"));
  CHECK_THAT(d->help.value_or(""), Catch::Contains("training.global_batch = 9600 sequences or more"));
  CHECK_THAT(d->help.value_or(""), !Catch::Contains("training.micro_batch ="));  // 1 sequence is the least
  // Without a pipeline each GPU would hold 2 B × 405B / 8 = 101 GB of weights: a lower pp is
  // not offered, since it does not fit.
  CHECK_THAT(d->help.value_or(""), !Catch::Contains("training.pp ="));
  // Each option clears it: the virtual stages, and a measured step time.
  CHECK_FALSE(finding(lint_plan(llama405("virtual_stages = 5\n")), "pipeline-bubble"));
  const std::optional<Diagnostic> four = finding(lint_plan(llama405("virtual_stages = 4\n")), "pipeline-bubble");
  REQUIRE(four);
  CHECK_THAT(four->message, Catch::Contains("4 virtual stages per GPU (an interleaved schedule)"));
  CHECK_THAT(four->message, Catch::Contains("(16 − 1) / (4 × 16) = 23.4%"));
  CHECK_FALSE(finding(lint_plan(llama405("", "", "9600")),
                      "pipeline-bubble"));
  CHECK_FALSE(finding(lint_plan(llama405("", "[[benchmarks]]\nmetric = \"train.step_seconds\"\nvalue = \"6.2 s\"\n"
                                             "date = 2026-11-30\nsource = \"Llama 3 paper Table 4\"\n")),
                      "pipeline-bubble"));
}
