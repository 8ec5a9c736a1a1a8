// What the built-in rules say about small plans written for one question each: mistakes
// of realistic plans and the way findings
// show numbers (percentages in text, numbers in fixes, no exponents).
#include <algorithm>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <catch2/catch.hpp>

#include "integration_support.hpp"
#include "planlint/lint/run.hpp"
#include "planlint/rules/rule_set.hpp"
#include "support.hpp"

namespace fs = std::filesystem;
using namespace planlint;
using Catch::VectorContains;

namespace {

/// The findings of `plan`, linted as plan.toml in a fresh folder the way `planlint check
/// --today 2026-11-30 [--rules PACK]` lints it.
std::vector<Diagnostic> lint_plan(const std::string& plan, std::vector<std::string> packs = {}) {
  return test::lint_plan_text(plan, Date{2026, 11, 30}, std::move(packs));
}

/// The findings of `rule` among `diagnostics`.
std::vector<Diagnostic> of_rule(const std::vector<Diagnostic>& diagnostics, std::string_view rule) {
  std::vector<Diagnostic> found;
  for (const Diagnostic& d : diagnostics)
    if (d.rule == rule) found.push_back(d);
  return found;
}

/// The one finding of `rule` in `plan`, or nullopt.
std::optional<Diagnostic> finding(const std::string& plan, std::string_view rule) {
  const std::vector<Diagnostic> found = of_rule(lint_plan(plan), rule);
  REQUIRE(found.size() <= 1);
  if (found.empty()) return std::nullopt;
  return found.front();
}

/// A training plan: [plan] and [model] `params`, then `training` and `cluster` table bodies.
std::string training_plan(const std::string& model, const std::string& training, const std::string& cluster) {
  return "[plan]\nname = \"x\"\nkind = \"training\"\n[model]\n" + model + "[training]\ntokens = \"1T\"\n" + training +
         "[cluster]\n" + cluster;
}

}  // namespace

TEST_CASE("a fraction is shown as a percentage in a finding's text, and as a number in its fix", "[rules][packs][fix]") {
  // mfu = 0.55 reads "55%" in a message (a fraction key), as "40%" does; a fix replaces the
  // plan's value, so there it stays the number the key takes.
  test::Scratch pack;
  pack.write("mfu-fix.toml", R"(id = "org-mfu-fix"
group = "org"
severity = "warning"
summary = "Every plan's MFU, shown"
check = "false"
at = "training.mfu"
message = "mfu {training.mfu}, goodput {training.goodput}, comm {est.train.comm.fraction}, limit {options.limit}, ratio {training.mfu / options.limit}, in percent {training.mfu:%}"
help = "mfu {training.mfu}"
fix = "{training.mfu}"
)" + std::string(test::rule_docs_stub) + R"(
[options]
limit = "50%"
)");
  const std::vector<Diagnostic> found = of_rule(
      lint_plan(training_plan("params = \"7B\"\n",
                              "mfu = 0.55\ngoodput = \"90%\"\nglobal_batch = \"4M tokens\"\nseq_len = 4096\n",
                              "gpu = \"h100-sxm\"\ncount = 16\ngpus_per_node = 8\ninter_node_bandwidth = \"400 Gbps\"\n"),
                {pack.path.string()}),
      "org-mfu-fix");
  REQUIRE(found.size() == 1);
  CHECK_THAT(found[0].message, Catch::StartsWith("mfu 55%, goodput 90%, comm "));
  CHECK_THAT(found[0].message, Catch::Matches(".*comm [0-9.]+%, limit 50%, ratio 1.1, in percent 55%"));
  CHECK(found[0].help == "mfu 55%");
  REQUIRE(found[0].fixes.size() == 1);
  CHECK(found[0].fixes[0].replacement == "0.55");
}

TEST_CASE("a pipeline bubble of 1000% or more is written in whole percent, not with an exponent", "[rules][parallelism]") {
  // pp = 16 with one micro-batch per pipeline: (16 − 1) / 1 = 1500%.
  const auto bubble = finding(training_plan("params = \"70B\"\n", "pp = 16\nmicro_batch = 1\nglobal_batch = 8\nseq_len = 4096\n",
                                            "gpu = \"h100-sxm\"\ncount = 128\ngpus_per_node = 8\n"),
                              "pipeline-bubble");
  REQUIRE(bubble);
  CHECK_THAT(bubble->message, Catch::Contains("the pipeline bubble is (16 − 1) / 1 = 1500% of the compute time (more than 20%)") &&
                                  Catch::Contains("idle for 93.8% of each step") && !Catch::Contains("e+0"));
}

TEST_CASE("global-batch-split needs whole micro-batches for a batch in sequences, and at least one for a batch in tokens",
          "[rules][parallelism]") {
  // 64 H100, tp 8: dp = 8. micro_batch 2 → a replica's share of the batch is 16 sequences.
  auto split = [](const std::string& batch) {
    return finding(training_plan("params = \"7B\"\n", "tp = 8\nmicro_batch = 2\nseq_len = 4096\nglobal_batch = " + batch + "\n",
                                 "gpu = \"h100-sxm\"\ncount = 64\ngpus_per_node = 8\n"),
                   "global-batch-split");
  };
  CHECK_FALSE(split("512"));  // 512 / (8 · 2) = 32
  CHECK_FALSE(split("16"));   // exactly one micro-batch
  const auto uneven = split("500");  // 31.25
  REQUIRE(uneven);
  CHECK_THAT(uneven->message, Catch::Contains("= 500 sequences is 31.2 micro-batches of 2 sequences") &&
                                  Catch::Contains("dp · micro_batch = 16 sequences") &&
                                  Catch::Contains("not a whole number"));
  CHECK_THAT(*uneven->help, Catch::StartsWith("make training.global_batch 496 sequences, the nearest whole multiple of dp · micro_batch = 16 sequences"));
  CHECK(split("8"));  // half a micro-batch
  // "4M tokens" / 4096 = 976.6 sequences, 61.0 micro-batches: a round figure, not a mistake.
  CHECK_FALSE(split("\"4M tokens\""));
  // 32,768 tokens are 8 sequences: fewer than one micro-batch per replica.
  const auto few = split("\"32768 tokens\"");
  REQUIRE(few);
  CHECK_THAT(few->message, Catch::Contains("0.5 micro-batches") && Catch::Contains("fewer than one"));
}

TEST_CASE("an 800 Gb/s NIC per GPU is a real card in bits and in bytes", "[rules][network]") {
  // "800 Gbps per GPU is more than any network card delivers (800 Gbps)".
  auto rules_for = [](const std::string& bandwidth) {
    return test::rules_of(lint_plan(training_plan(
        "params = \"70B\"\n", "",
        "gpu = \"b200-sxm\"\ncount = 64\ngpus_per_node = 8\ninter_node_bandwidth = \"" + bandwidth + "\"\n")));
  };
  CHECK_THAT(rules_for("800 Gbps"), !VectorContains(std::string("bandwidth-per-node")));
  CHECK_THAT(rules_for("100 GB/s"), !VectorContains(std::string("bits-for-bytes")));
  CHECK_THAT(rules_for("1.6 Tbps"), VectorContains(std::string("bandwidth-per-node")));
  CHECK_THAT(rules_for("200 GB/s"), VectorContains(std::string("bits-for-bytes")));
}

TEST_CASE("a TPU slice's ICI figure is neither a node's NICs added up nor bits written as bytes",
          "[rules][network]") {
  // A v5p chip's 4,800 Gb/s ICI drew bandwidth-per-node, whose fix
  // rewrote it to 1,200 Gbps; written as 600 GB/s it drew bits-for-bytes. A GPU keeps both.
  auto rules_for = [](const std::string& gpu, const std::string& bandwidth) {
    return test::rules_of(lint_plan(training_plan(
        "params = \"7B\"\n", "",
        "gpu = \"" + gpu + "\"\ncount = 64\ngpus_per_node = 4\ninter_node_bandwidth = \"" + bandwidth + "\"\n")));
  };
  CHECK_THAT(rules_for("tpu-v5p", "4800 Gbps"), !VectorContains(std::string("bandwidth-per-node")));
  CHECK_THAT(rules_for("tpu-v5p", "600 GB/s"), !VectorContains(std::string("bits-for-bytes")));
  CHECK_THAT(rules_for("h100-sxm", "4800 Gbps"), VectorContains(std::string("bandwidth-per-node")));
  CHECK_THAT(rules_for("h100-sxm", "600 GB/s"), VectorContains(std::string("bits-for-bytes")));
}

TEST_CASE("a team's own TPU entry is left to its ICI when the catalog says scale_out = \"ici\"",
          "[rules][network][catalog]") {
  // The network-card rules named the two built-in TPU ids, so a team's own
  // entry (a v6e) drew bandwidth-per-node and bits-for-bytes on its ICI figure.
  auto rules_for = [](const std::string& scale_out, const std::string& bandwidth) {
    test::Scratch dir;
    dir.write("hw.toml", "[[gpu]]\nid = \"tpu-v6e\"\nname = \"Google Cloud TPU v6e\"\nhbm = \"32 GB\"\n"
                         "hbm_bandwidth = \"1.64 TB/s\"\n" + scale_out +
                         "sources = [\"Google Cloud TPU documentation, TPU v6e\"]\n"
                         "[gpu.dense]\nbf16 = \"918 TFLOPS\"\n");
    dir.write(".planlint.toml", "[lint]\ncatalog = \"hw.toml\"\n");
    RunOptions options;
    options.paths = {dir.write("plan.toml", training_plan("params = \"7B\"\n", "",
                                                          "gpu = \"tpu-v6e\"\ncount = 256\ngpus_per_node = 4\n"
                                                          "inter_node_bandwidth = \"" + bandwidth + "\"\n"))
                         .string()};
    options.today = Date{2026, 11, 30};
    RunResult result = run_lint(options);
    REQUIRE(result.errors.empty());
    return test::rules_of(result.report.diagnostics);
  };
  CHECK_THAT(rules_for("scale_out = \"ici\"\n", "3584 Gbps"), !VectorContains(std::string("bandwidth-per-node")));
  CHECK_THAT(rules_for("scale_out = \"ici\"\n", "448 GB/s"), !VectorContains(std::string("bits-for-bytes")));
  // An entry that says nothing connects by network cards, as a GPU does.
  CHECK_THAT(rules_for("", "3584 Gbps"), VectorContains(std::string("bandwidth-per-node")));
  CHECK_THAT(rules_for("scale_out = \"nic\"\n", "448 GB/s"), VectorContains(std::string("bits-for-bytes")));
  CHECK_THAT(rules_for("", "448 GB/s"), !VectorContains(std::string("unknown-gpu")));
}

TEST_CASE("a target's finding points at the bound it has", "[rules][targets]") {
  // A `min` target's finding pointed at the [[targets]] header.
  const std::string plan = training_plan("params = \"7B\"\n", "",
                                         "gpu = \"h100-sxm\"\ncount = 64\n") +
                           "[[targets]]\nname = \"data\"\nmetric = \"train.tokens_per_param\"\nmin = 200\n"
                           "[[targets]]\nname = \"soft data\"\nmetric = \"train.tokens_per_param\"\nmin = 300\n"
                           "hard = false\n";
  const std::optional<Diagnostic> hard = finding(plan, "hard-target-violated");
  REQUIRE(hard);
  CHECK(hard->key_path == "targets[name=data].min");
  CHECK(hard->primary.span.begin.line == 14);
  CHECK(hard->related.empty());  // the bound is the finding's own place
  const std::optional<Diagnostic> soft = finding(plan, "soft-target-violated");
  REQUIRE(soft);
  CHECK(soft->key_path == "targets[name=\"soft data\"].min");
}

TEST_CASE("estimate-unverifiable leaves a GPU the catalog does not know and invalid values to their errors",
          "[rules][claims]") {
  // `gpu = "h100-sxn"` drew one unknown-gpu error and a warning per
  // claim, none of which named the typo.
  auto rules_for = [](const std::string& gpu, const std::string& extra) {
    return lint_plan(training_plan("params = \"7B\"\n", "mfu = \"40%\"\n",
                                   "gpu = \"" + gpu + "\"\ncount = 64\n" + extra) +
                     "[estimates]\n\"train.days\" = \"3 d\"\n\"train.gpu_hours\" = \"4.6K GPU*h\"\n");
  };
  const std::vector<Diagnostic> typo = rules_for("h100-sxn", "");
  CHECK(of_rule(typo, "unknown-gpu").size() == 1);
  CHECK(of_rule(typo, "estimate-unverifiable").empty());
  // A value that is not valid: the bad-quantity error names it.
  const std::vector<Diagnostic> invalid = lint_plan(
      training_plan("params = \"7B\"\n", "mfu = \"140%\"\n", "gpu = \"h100-sxm\"\ncount = 64\n") +
      "[estimates]\n\"train.days\" = \"3 d\"\n");
  CHECK(of_rule(invalid, "estimate-unverifiable").empty());
  CHECK(of_rule(invalid, "bad-quantity").size() + of_rule(invalid, "bad-value").size() == 1);
  // A GPU outside the catalog whose figures the plan states is checked as any other.
  const std::vector<Diagnostic> custom = rules_for("our-asic", "peak = \"500 TFLOPS\"\nhbm = \"96 GB\"\n");
  CHECK(of_rule(custom, "estimate-unverifiable").empty());
  CHECK(of_rule(custom, "estimate-mismatch").size() == 2);
}

TEST_CASE("memory-fit suggests ZeRO-3 only where it would shard something", "[rules][memory]") {
  // A plan already at ZeRO-3, or with dp = 1, was told to set
  // training.zero = 3.
  auto help_for = [](const std::string& training, const std::string& count) {
    const std::optional<Diagnostic> fit =
        finding(training_plan("params = \"70B\"\nlayers = 80\nhidden = 8192\nheads = 64\n",
                              "seq_len = 4096\nmicro_batch = 1\nrecompute = \"full\"\n" + training,
                              "gpu = \"h100-sxm\"\ncount = " + count + "\n"),
                "memory-fit");
    REQUIRE(fit);
    return *fit->help;
  };
  CHECK_THAT(help_for("zero = 1\n", "8"), Catch::Contains("training.zero = 3 shards"));
  CHECK_THAT(help_for("zero = 3\n", "8"),
             Catch::Contains("ZeRO-3 already shards them over dp") && !Catch::Contains("training.zero = 3 shards"));
  CHECK_THAT(help_for("zero = 1\n", "1"),
             Catch::Contains("with dp = 1, ZeRO has no data-parallel ranks") && !Catch::Contains("training.zero = 3 shards"));
}

TEST_CASE("metric_low() and metric_high() give a metric's range, computed for the plan that asks", "[rules][packs]") {
  // The built-in rules name no est.METRIC.low, so a check estimates without the ranges; the
  // first metric_low() on a plan computes them (PlanRanges).
  test::Scratch pack;
  pack.write("days-range.toml", R"(id = "org-days-range"
group = "org"
severity = "note"
summary = "Every plan's days range, shown"
check = "false"
at = "training.mfu"
message = "{if known(metric_low('train.days')) then 'range' else 'no range'} {metric_low('train.days')} to {metric_high('train.days')}"
)" + std::string(test::rule_docs_stub));
  const std::string plan = training_plan("params = \"7B\"\n", "mfu = \"40%\"\n", "gpu = \"h100-sxm\"\ncount = 128\n");
  const std::string assumption = "[[assumptions]]\nid = \"mfu\"\nkey = \"training.mfu\"\nvalue = \"40%\"\n"
                                 "low = \"30%\"\nhigh = \"50%\"\nsource = \"trial\"\nupdated = 2026-11-01\n";
  const std::vector<Diagnostic> ranged = of_rule(lint_plan(plan + assumption, {pack.path.string()}), "org-days-range");
  REQUIRE(ranged.size() == 1);
  CHECK(ranged[0].message == "range 7.68 d to 12.8 d");  // 9.6 d at 50% and 30% MFU
  const std::vector<Diagnostic> point = of_rule(lint_plan(plan, {pack.path.string()}), "org-days-range");
  REQUIRE(point.size() == 1);
  CHECK(point[0].message == "no range ? to ?");
}

TEST_CASE("the memory rules' help leaves out what the plan already does", "[rules][memory]") {
  SECTION("inference: weights already in fp8 and too large for one sequence") {
    // 80B in fp8 is 80 GB: with the reserve nothing is left on an 80 GB GPU at tp 1.
    const auto fit = finding(
        "[plan]\nname = \"x\"\nkind = \"inference\"\n[model]\nparams = \"80B\"\nlayers = 80\nhidden = 8192\n"
        "heads = 64\nkv_heads = 8\n[inference]\nweights = \"fp8\"\nkv_precision = \"fp8\"\n"
        "context = \"8192 tokens\"\nconcurrency = \"4 seq\"\ntp = 1\n[cluster]\ngpu = \"h100-sxm\"\ncount = 8\n",
        "inference-memory-fit");
    REQUIRE(fit);
    CHECK_THAT(*fit->help, Catch::Contains("holds at most 0 sequences") &&
                               Catch::Contains("leave no room for one; raise inference.tp") &&
                               !Catch::Contains("quantise") && !Catch::Contains("KV cache in fp8") &&
                               !Catch::Contains("lower inference.concurrency"));
  }
  SECTION("training: micro_batch already 1 and recompute already full") {
    const auto fit = finding(training_plan("params = \"13B\"\nlayers = 40\nhidden = 5120\nheads = 40\n",
                                           "seq_len = 524288\nmicro_batch = 1\nglobal_batch = 64\nrecompute = \"full\"\nzero = 3\n",
                                           "gpu = \"h100-sxm\"\ncount = 64\n"),
                             "memory-fit");
    REQUIRE(fit);
    CHECK_THAT(*fit->help, Catch::StartsWith("the activations dominate") &&
                               Catch::Contains("raise training.tp (with sequence parallelism) or training.cp") &&
                               !Catch::Contains("recompute = \"full\"") && !Catch::Contains("micro_batch") &&
                               !Catch::Contains("or training.pp"));
  }
}

TEST_CASE("an MoE plan with ep > 1 fails memory-fit and interconnect-bottleneck only on their lower bounds",
          "[rules][memory][network]") {
  // DeepSeek-V3's run (671B, 37B active, 2,048 H800, pp 16, ep 64): as counted, 172 GB of states
  // per GPU and an 18% all-reduce; the experts split 64 ways fit, and the run happened.
  auto rules_for = [](int ep, const std::string& count) {
    return test::rules_of(lint_plan(training_plan(
        "params = \"671B\"\nactive_params = \"37B\"\narchitecture = \"moe\"\nlayers = 61\nhidden = 7168\nheads = 128\n",
        "precision = \"fp8\"\nseq_len = 4096\nmicro_batch = 1\nglobal_batch = 15360\ntp = 1\npp = 16\nep = " +
            std::to_string(ep) + "\nzero = 1\nmfu = \"19%\"\n",
        "gpu = \"h800-sxm\"\ncount = " + count + "\ninter_node_bandwidth = \"400 Gbps\"\n")));
  };
  const std::vector<std::string> split = rules_for(64, "2048");
  CHECK_THAT(split, !VectorContains(std::string("memory-fit")) && !VectorContains(std::string("interconnect-bottleneck")));
  const std::vector<std::string> unsplit = rules_for(1, "2048");
  CHECK_THAT(unsplit, VectorContains(std::string("memory-fit")) && VectorContains(std::string("interconnect-bottleneck")));
  // ep 2 on 16 H800: even split two ways the states are far over 80 GB.
  CHECK_THAT(rules_for(2, "16"), VectorContains(std::string("memory-fit")));
}

TEST_CASE("mfu-out-of-range scales its bf16 ranges to an fp8 plan's peak", "[rules][compute]") {
  // 2,048 H100 in fp8: the MFU counts the fp8 peak (1979 TFLOPS), twice the bf16 one, so the
  // 35–50% measured in bf16 terms is 17.5–25% here (DeepSeek-V3's 19% of
  // the fp8 peak is within range).
  auto mfu = [](const std::string& precision, const std::string& value) {
    return finding(training_plan("params = \"70B\"\n", "precision = \"" + precision + "\"\nmfu = \"" + value + "\"\n",
                                 "gpu = \"h100-sxm\"\ncount = 2048\n"),
                   "mfu-out-of-range");
  };
  CHECK_FALSE(mfu("fp8", "20%"));
  CHECK_FALSE(mfu("bf16", "40%"));
  const auto low = mfu("fp8", "15%");
  REQUIRE(low);
  CHECK_THAT(low->message, Catch::Contains("below the 17.5%–25%") && Catch::Contains("as a share of the fp8 peak"));
  const auto high = mfu("fp8", "30%");
  REQUIRE(high);
  CHECK_THAT(high->message, Catch::Contains("above the 17.5%–25%"));
  const auto bf16 = mfu("bf16", "20%");
  REQUIRE(bf16);
  CHECK_THAT(bf16->message, Catch::Contains("below the 35%–50%") && !Catch::Contains("share of"));
}

TEST_CASE("missing-range asks for the assumptions' range when the plan gives none", "[rules][claims]") {
  // With MFU and goodput assumed without a low and high, missing-range
  // said the metric "depends on assumptions that are ranges", and the only range it could be
  // given (low = high) is estimate-range-invalid.
  auto plan = [](const std::string& mfu_range) {
    return training_plan("params = \"7B\"\n", "mfu = \"40%\"\ngoodput = \"90%\"\n",
                         "gpu = \"h100-sxm\"\ncount = 128\n") +
           "[[assumptions]]\nid = \"mfu\"\nkey = \"training.mfu\"\nvalue = \"40%\"\n" + mfu_range +
           "source = \"bench\"\nupdated = 2026-11-01\n"
           "[[assumptions]]\nid = \"goodput\"\nkey = \"training.goodput\"\nvalue = \"90%\"\nsource = \"fleet\"\n"
           "updated = 2026-11-01\n[estimates]\n\"train.days\" = \"9.6 d\"\n";
  };
  const std::optional<Diagnostic> points = finding(plan(""), "missing-range");
  REQUIRE(points);
  CHECK_THAT(points->message, Catch::Contains("but the assumptions it rests on (MFU) state no low and high"));
  CHECK_THAT(points->message, !Catch::Contains("that are ranges"));
  const std::optional<Diagnostic> ranged = finding(plan("low = \"30%\"\nhigh = \"50%\"\n"), "missing-range");
  REQUIRE(ranged);
  CHECK_THAT(ranged->message, Catch::Contains("depends on assumptions (MFU) that are ranges"));
  // A claim whose value is not valid has its bad-quantity error, and no missing-range "?".
  const std::vector<Diagnostic> invalid = lint_plan(
      training_plan("params = \"13B\"\n", "mfu = \"45%\"\n", "gpu = \"a100-sxm\"\ncount = 128\n") +
      "[estimates]\n\"train.gpu_seconds\" = \"5.6e8 s\"\n");
  CHECK(of_rule(invalid, "missing-range").empty());
  const std::vector<Diagnostic> bad = of_rule(invalid, "bad-quantity");
  REQUIRE(bad.size() == 1);
  // GPU-seconds written as seconds: the help says how GPU time is written.
  CHECK_THAT(bad.front().message, Catch::Contains("expected GPU time, found seconds"));
  REQUIRE(bad.front().help);
  CHECK_THAT(*bad.front().help, Catch::Contains("\"560M GPU-s\" (155.6K GPU·h)"));
  // Written so, it is a claim like any other.
  const std::vector<Diagnostic> fixed = lint_plan(
      training_plan("params = \"13B\"\n", "mfu = \"45%\"\n", "gpu = \"a100-sxm\"\ncount = 128\n") +
      "[estimates]\n\"train.gpu_seconds\" = \"560M GPU-s\"\n");
  CHECK(of_rule(fixed, "bad-quantity").empty());
  CHECK(of_rule(fixed, "estimate-mismatch").empty());
  CHECK(of_rule(fixed, "unit-slip").empty());
}

TEST_CASE("a plain number claim reads in the unit its metric's name says, and the help says which",
          "[rules][claims]") {
  // The help of a GPU-seconds claim said "a plain number in GPU-hours".
  const std::vector<Diagnostic> diagnostics = lint_plan(
      training_plan("params = \"7B\"\n", "mfu = \"40%\"\n", "gpu = \"h100-sxm\"\ncount = 128\n") +
      "[estimates]\n\"train.gpu_seconds\" = \"3 GB\"\n\"train.gpu_hours\" = \"3 GB\"\n\"train.days\" = \"3 GB\"\n");
  std::vector<std::string> helps;
  for (const Diagnostic& d : of_rule(diagnostics, "bad-quantity")) helps.push_back(d.help.value_or(""));
  CHECK_THAT(helps, VectorContains(std::string(
                        "estimates.train.gpu_seconds takes GPU time: a plain number in GPU-seconds, or a string with a unit")));
  CHECK_THAT(helps, VectorContains(std::string(
                        "estimates.train.gpu_hours takes GPU time: a plain number in GPU-hours, or a string with a unit")));
  CHECK_THAT(helps, VectorContains(std::string(
                        "estimates.train.days takes seconds: a plain number in days, or a string with a unit")));
}

TEST_CASE("idle-gpus reports GPUs that no replica uses, stated or derived", "[rules][parallelism]") {
  // 20 GPUs at tp 8 are two replicas on 16, and nothing said so.
  auto plan = [](const std::string& inference, int count) {
    return "[plan]\nname = \"x\"\nkind = \"inference\"\n[model]\nparams = \"8B\"\nlayers = 32\nhidden = 4096\n"
           "heads = 32\nkv_heads = 8\n[inference]\ncontext = \"4096 tokens\"\nconcurrency = \"8 seq\"\n" + inference +
           "[cluster]\ngpu = \"h100-sxm\"\ncount = " + std::to_string(count) + "\n";
  };
  const std::optional<Diagnostic> derived = finding(plan("tp = 8\n", 20), "idle-gpus");
  REQUIRE(derived);
  CHECK(derived->key_path == "cluster.count");
  CHECK_THAT(derived->message, Catch::Contains("use 16 GPUs of the 20 GPUs the plan books: 4 GPUs serve nothing"));
  const std::optional<Diagnostic> stated = finding(plan("tp = 2\nreplicas = 3\n", 8), "idle-gpus");
  REQUIRE(stated);
  CHECK(stated->key_path == "inference.replicas");
  REQUIRE(stated->help);
  CHECK_THAT(*stated->help, Catch::StartsWith("state the replicas the GPUs hold (replicas = 4), or book the 6 GPUs the replicas use;"));
  CHECK_FALSE(finding(plan("tp = 8\n", 16), "idle-gpus"));
  CHECK_FALSE(finding(plan("tp = 2\nreplicas = 4\n", 8), "idle-gpus"));
  // More replicas than fit are replica-count-mismatch's.
  CHECK_FALSE(finding(plan("tp = 2\nreplicas = 5\n", 8), "idle-gpus"));
}

TEST_CASE("a serving replica that cannot fit a node is told how replicas span nodes", "[rules][parallelism]") {
  // DeepSeek-V3 in fp8 (671 GB) on two nodes of 8 H100 (576 GB usable
  // a node) drew "keep tp ≤ 8 … use more replicas of a node-sized tp", which cannot fit it; and
  // `ep` in [inference] was told to move to [training].
  auto plan = [](const std::string& params, const std::string& extra) {
    return "[plan]\nname = \"x\"\nkind = \"inference\"\n[model]\nparams = \"" + params +
           "\"\nlayers = 61\nhidden = 7168\nheads = 128\nkv_heads = 1\nhead_dim = 128\n[inference]\n"
           "weights = \"fp8\"\ncontext = \"4096 tokens\"\nconcurrency = \"8 seq\"\ntp = 16\n" + extra +
           "[cluster]\ngpu = \"h100-sxm\"\ncount = 16\ngpus_per_node = 8\n";
  };
  const std::optional<Diagnostic> big = finding(plan("671B", ""), "tp-across-nodes");
  REQUIRE(big);
  REQUIRE(big->help);
  CHECK_THAT(*big->help, Catch::StartsWith("the weights alone (671 GB) are more than a node holds (576 GB usable)"));
  const std::optional<Diagnostic> small = finding(plan("70B", ""), "tp-across-nodes");
  REQUIRE(small);
  CHECK_THAT(small->help.value_or(""), Catch::StartsWith("keep tp ≤ 8 (within a node)"));
  const std::optional<Diagnostic> ep = finding(plan("671B", "ep = 16\n"), "unknown-key");
  REQUIRE(ep);
  CHECK_THAT(ep->help.value_or(""), Catch::StartsWith("[inference] has no 'ep': planlint sizes a serving replica"));
  const std::optional<Diagnostic> dp = finding(plan("70B", "dp = 2\n"), "unknown-key");
  REQUIRE(dp);
  CHECK_THAT(dp->help.value_or(""), Catch::StartsWith("[inference] has no 'dp': the copies of the model that serve "
                                                      "side by side are inference.replicas"));
}

TEST_CASE("a cluster smaller than one replica is replica-count-mismatch", "[rules][parallelism]") {
  // Count 4 at tp 8 is no replica at all, and nothing said so.
  const std::string plan =
      "[plan]\nname = \"x\"\nkind = \"inference\"\n[model]\nparams = \"8B\"\nlayers = 32\nhidden = 4096\nheads = 32\n"
      "kv_heads = 8\n[inference]\ncontext = \"4096 tokens\"\nconcurrency = \"8 seq\"\ntp = 8\n[cluster]\n"
      "gpu = \"h100-sxm\"\ncount = 4\n";
  const std::optional<Diagnostic> none = finding(plan, "replica-count-mismatch");
  REQUIRE(none);
  CHECK(none->key_path == "inference.tp");
  CHECK(none->message ==
        "one replica of tp = 8 needs 8 GPUs, but cluster.count is 4 GPUs: not one replica fits, so the plan serves "
        "nothing");
  CHECK(none->help == "book at least 8 GPUs for one replica, or lower inference.tp to the GPUs a replica may span");
  CHECK_FALSE(finding(plan, "idle-gpus"));
}

TEST_CASE("decode-bound says how many tokens a speculative step emits", "[rules][inference]") {
  // "each token reads 70 GB ... at most 201.8 tokens/s" did not add up.
  const std::string plan =
      "[plan]\nname = \"x\"\nkind = \"inference\"\n[model]\nparams = \"70B\"\nlayers = 80\nhidden = 8192\nheads = 64\n"
      "kv_heads = 8\n[inference]\nweights = \"fp8\"\ncontext = 4096\nconcurrency = 1\ntokens_per_s = \"300 tokens/s\"\n"
      "tokens_per_step = 3\n[cluster]\ngpu = \"h200-sxm\"\ncount = 1\n";
  const std::optional<Diagnostic> bound = finding(plan, "decode-bound");
  REQUIRE(bound);
  CHECK_THAT(bound->message, Catch::Contains("(tp 1) a step, which emits 3 tokens (inference.tokens_per_step): at most "
                                             "201.8 tokens/s"));
}

TEST_CASE("a decode benchmark below the bandwidth bound is no deviation, one above it is", "[rules][claims]") {
  // 150 tokens/s measured with speculative drafts against a bound of
  // 201.8 drew "the formula does not describe this setup"; serving engines reach 50–80% of the
  // bound, so every real decode benchmark would have.
  auto plan = [](const std::string& measured) {
    return "[plan]\nname = \"x\"\nkind = \"inference\"\n[model]\nparams = \"70B\"\nlayers = 80\nhidden = 8192\n"
           "heads = 64\nkv_heads = 8\n[inference]\nweights = \"fp8\"\ncontext = 4096\nconcurrency = 1\n"
           "tokens_per_step = 3\n[cluster]\ngpu = \"h200-sxm\"\ncount = 1\n[[benchmarks]]\n"
           "metric = \"infer.decode_tokens_per_s\"\nvalue = \"" + measured + "\"\ndate = 2026-11-01\nsource = \"vllm\"\n";
  };
  CHECK_FALSE(finding(plan("150 tokens/s"), "benchmark-deviation"));
  CHECK(finding(plan("300 tokens/s"), "benchmark-deviation"));
}

TEST_CASE("a claim against a computed 0 says there is no ratio, not '+?'", "[rules][claims]") {
  // 70B in bf16 on one H100: the weights alone do not fit, so no sequence does.
  const std::optional<Diagnostic> mismatch = finding(
      "[plan]\nname = \"x\"\nkind = \"inference\"\n[model]\nparams = \"70B\"\nlayers = 80\nhidden = 8192\nheads = 64\n"
      "kv_heads = 8\n[inference]\nweights = \"bf16\"\ncontext = 4096\nconcurrency = 4\n[cluster]\ngpu = \"h100-sxm\"\n"
      "count = 1\n[estimates]\n\"infer.max_concurrency\" = 4\n",
      "estimate-mismatch");
  REQUIRE(mismatch);
  CHECK(mismatch->message == "claims 4 sequences for infer.max_concurrency but planlint computes 0 sequences (no finite "
                             "ratio; capacity tolerance 15%)");
}

TEST_CASE("decode-bound and batch-decode-bound print the MoE weights the bound reads", "[rules][inference]") {
  // Of Mixtral (46.7B, 12.9B active) the messages printed all 93.4 GB of
  // weights as read a step, while the bound reads the routed experts' share (25.8 GB), so the
  // printed figures did not divide to the printed bound.
  auto plan = [](const std::string& inference, const std::string& gpu) {
    return "[plan]\nname = \"x\"\nkind = \"inference\"\n[model]\nparams = \"46.7B\"\nactive_params = \"12.9B\"\n"
           "architecture = \"moe\"\nlayers = 32\nhidden = 4096\nheads = 32\nkv_heads = 8\n[inference]\n" + inference +
           "tp = 1\ntokens_per_s = \"200 tokens/s\"\n[cluster]\ngpu = \"" + gpu + "\"\ncount = 1\n";
  };
  const std::optional<Diagnostic> one = finding(
      plan("weights = \"bf16\"\ncontext = \"4096 tokens\"\nconcurrency = \"8 seq\"\n", "h100-sxm"), "decode-bound");
  REQUIRE(one);
  // 3.35 TB/s / (93.4 GB × 12.9 / 46.7 + 0.5369 GB) = 127.2 tokens/s
  CHECK_THAT(one->message, Catch::Contains("each token reads 25.8 GB of weights (the experts its tokens are routed to: "
                                           "27.6% of all 93.4 GB) and 0.5369 GB of KV cache from 3.35 TB/s of HBM "
                                           "bandwidth (tp 1): at most 127.2 tokens/s"));
  const std::optional<Diagnostic> batch = finding(
      plan("weights = \"fp8\"\ncontext = \"32768 tokens\"\nconcurrency = \"2 seq\"\n", "h200-sxm"), "batch-decode-bound");
  REQUIRE(batch);
  // 46.7 GB × (1 − (1 − 12.9 / 46.7)^2) = 22.24 GB; (22.24 + 8.59) GB / 4.8 TB/s = 6.42 ms
  CHECK_THAT(batch->message, Catch::Contains("each decode step reads 22.24 GB of weights (the experts its sequences are "
                                             "routed to: 47.6% of all 46.7 GB) and 8.59 GB of KV cache from 4.8 TB/s of "
                                             "HBM bandwidth: 6.42 ms a token"));
}

TEST_CASE("chinchilla-ratio counts an MoE plan's compute with its active parameters", "[rules][compute]") {
  // 400B (20B active) on 4T tokens printed "the same 6 · N · D = 9.6e24 FLOP
  // would train a dense 282.8B-parameter model", with the total parameters; the plan computes
  // train.flops = 6 · N_a · D = 4.8e23, whose compute-optimal model is √(4.8e23 / 120) = 63.2B.
  const std::optional<Diagnostic> note = finding(
      "[plan]\nname = \"x\"\nkind = \"training\"\n[model]\nparams = \"400B\"\nactive_params = \"20B\"\n"
      "architecture = \"moe\"\n[training]\ntokens = \"4T\"\n[cluster]\ngpu = \"h100-sxm\"\ncount = 1024\n",
      "chinchilla-ratio");
  REQUIRE(note);
  CHECK_THAT(note->message, Catch::EndsWith("the same compute, 6 · N_a · D = 4.8e23 FLOP, would train a dense "
                                            "63.2B-parameter model on 1.26T tokens to a lower loss"));
}

TEST_CASE("mfu-out-of-range's help says above for an fp8 or fp4 MFU above the scaled range", "[rules][compute]") {
  // Fp8 at 26% (range 17.5–25%, scaled to the fp8 peak) read "above" in the
  // message, but the help tested the unscaled 50% and said "an MFU below the range is pessimistic".
  auto plan = [](const std::string& precision, const std::string& mfu, const std::string& gpu) {
    return "[plan]\nname = \"x\"\nkind = \"training\"\n[model]\nparams = \"70B\"\nlayers = 80\nhidden = 8192\n"
           "heads = 64\nkv_heads = 8\n[training]\nmfu = \"" + mfu + "\"\nprecision = \"" + precision +
           "\"\ntokens = \"15T\"\nseq_len = 8192\nmicro_batch = 1\nglobal_batch = 2048\ntp = 8\npp = 4\nzero = 1\n"
           "[cluster]\ngpu = \"" + gpu + "\"\ncount = 2048\ninter_node_bandwidth = \"400 Gbps\"\n";
  };
  for (const auto& [precision, mfu, gpu] : {std::tuple<std::string, std::string, std::string>{"fp8", "26%", "h100-sxm"},
                                            {"fp4", "14%", "b200"}}) {
    INFO(precision);
    const std::optional<Diagnostic> above = finding(plan(precision, mfu, gpu), "mfu-out-of-range");
    REQUIRE(above);
    CHECK_THAT(above->message, Catch::Contains(" is above the "));
    CHECK_THAT(above->help.value_or(""), Catch::StartsWith("an MFU above the range needs a measurement"));
  }
}

TEST_CASE("a tp that does not divide kv_heads shows the KV divisor and the KV bytes the bounds use", "[rules][inference][memory]") {
  // At tp 6 and 8 KV heads each GPU holds ⌈8 / 6⌉ = 2 heads. inference-memory-fit
  // printed "KV cache 375.8 GB / 6" (the total used / 4) and decode-bound "42.95 GB of KV cache
  // from 20.1 TB/s" (the bound reads it 6 × 2 / 8 = 1.5 times), with the caveat only at tp > kv_heads.
  auto plan = [](const std::string& inference) {
    return "[plan]\nname = \"x\"\nkind = \"inference\"\n[model]\nparams = \"70B\"\nlayers = 80\nhidden = 8192\n"
           "heads = 64\nkv_heads = 8\n[inference]\nweights = \"bf16\"\ntp = 6\n" + inference +
           "[cluster]\ngpu = \"h100-sxm\"\ncount = 6\n";
  };
  const std::optional<Diagnostic> fit =
      finding(plan("context = \"8192 tokens\"\nconcurrency = \"140 seq\"\n"), "inference-memory-fit");
  REQUIRE(fit);
  // (140 / 6 + 375.8 / 4) GB × 1.1 = 129 GB
  CHECK(fit->message ==
        "needs 129 GB per GPU but h100-sxm has 80 GB: weights 140 GB / tp 6 + KV cache 375.8 GB / 4 (a KV head is not "
        "split across GPUs: each GPU holds ⌈kv_heads / tp⌉ = 2 of the 8 heads, so the cache divides by kv_heads / "
        "⌈kv_heads / tp⌉, not by tp) + reserve 11.73 GB");
  const std::optional<Diagnostic> bound = finding(
      plan("context = \"131072 tokens\"\nconcurrency = \"4 seq\"\ntokens_per_s = \"100 tokens/s\"\n"), "decode-bound");
  REQUIRE(bound);
  // 20.1 TB/s / (140 GB + 42.95 GB × 1.5) = 98.3 tokens/s
  CHECK_THAT(bound->message,
             Catch::Contains("each token reads 140 GB of weights and 64.42 GB of KV cache (a KV head is not split across "
                             "GPUs: each of the 6 GPUs holds 2 of the 8 KV heads and reads their whole cache, so the "
                             "42.95 GB cache counts 6 × 2 / 8 = 1.5 times) from 20.1 TB/s of HBM bandwidth (tp 6): at "
                             "most 98.3 tokens/s"));
}

TEST_CASE("idle-gpus does not suggest the replicas already stated", "[rules][parallelism]") {
  // Tp 8, count 36, replicas = 4 drew "state the replicas the GPUs hold
  // (replicas = 4), or book the 32 GPUs": the plan already says replicas = 4.
  const std::optional<Diagnostic> idle = finding(
      "[plan]\nname = \"x\"\nkind = \"inference\"\n[model]\nparams = \"70B\"\nlayers = 80\nhidden = 8192\nheads = 64\n"
      "kv_heads = 8\n[inference]\nreplicas = 4\ncontext = \"8192 tokens\"\nconcurrency = \"8 seq\"\ntp = 8\n[cluster]\n"
      "gpu = \"h100-sxm\"\ncount = 36\n",
      "idle-gpus");
  REQUIRE(idle);
  CHECK_THAT(idle->help.value_or(""), Catch::StartsWith("book the 32 GPUs the replicas use, or use the idle ones: "
                                                        "replicas = 5 needs 40 GPUs;"));
}

TEST_CASE("a GPU count that tp · pp · cp does not divide is not told to state a dp", "[rules][parallelism]") {
  // Count 2000 at tp 8 × pp 4 drew bad-value's "or state training.dp", and a
  // stated dp = 62 parallelism-mismatch's "dp = count / (tp · pp · cp) = 62.5 … leave dp out":
  // no whole dp exists, so the user went in a circle. Both now name the counts that divide.
  auto plan = [](const std::string& dp) {
    return training_plan("params = \"70B\"\nlayers = 80\nhidden = 8192\nheads = 64\nkv_heads = 8\n",
                         dp + "seq_len = 8192\nmicro_batch = 1\nglobal_batch = 2048\ntp = 8\npp = 4\nzero = 1\n",
                         "gpu = \"h100-sxm\"\ncount = 2000\ninter_node_bandwidth = \"400 Gbps\"\n");
  };
  const std::optional<Diagnostic> derived = finding(plan(""), "bad-value");
  REQUIRE(derived);
  CHECK(derived->help == "make the GPU count a multiple of tp · pp · cp = 32 (1984 or 2016 GPUs), or choose a "
                         "tp · pp · cp that divides 2000");
  const std::optional<Diagnostic> stated = finding(plan("dp = 62\n"), "parallelism-mismatch");
  REQUIRE(stated);
  CHECK(stated->help == "no whole dp multiplies with tp · pp · cp = 32 to 2000 GPUs: book 1984 GPUs (dp = 62) or "
                        "2016 GPUs (dp = 63), or choose a tp · pp · cp that divides 2000 GPUs");
  const std::optional<Diagnostic> small = finding(
      training_plan("params = \"7B\"\n", "tp = 8\npp = 4\n", "gpu = \"h100-sxm\"\ncount = 16\n"), "bad-value");
  REQUIRE(small);
  CHECK(small->help == "book at least tp · pp · cp = 32 GPUs, or choose a tp · pp · cp that divides 16");
}

namespace {

/// The ```toml blocks of a rule's docs under `heading` (up to the next "## ").
std::vector<std::string> docs_toml_blocks(std::string_view docs, std::string_view heading) {
  std::vector<std::string> blocks;
  const std::size_t start = docs.find(heading);
  if (start == std::string_view::npos) return blocks;
  const std::size_t end = docs.find("\n## ", start + heading.size());
  const std::string_view section = docs.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
  for (std::size_t at = section.find("```toml\n"); at != std::string_view::npos; at = section.find("```toml\n", at)) {
    const std::size_t body = at + 8, close = section.find("```", body);
    blocks.emplace_back(section.substr(body, close - body));
    at = close + 3;
  }
  return blocks;
}

/// `base` with the keys of `overlay` put in (a key of the same table replaced, a new one added):
/// a docs page's "Use instead" shows only what changes from its "Example".
std::string overlay_toml(const std::string& base, const std::string& overlay) {
  std::vector<std::pair<std::string, std::vector<std::pair<std::string, std::string>>>> tables;
  auto read = [&](const std::string& text) {
    std::istringstream in(text);
    std::string line, table;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      if (line[0] == '[') table = line;
      auto it = std::find_if(tables.begin(), tables.end(), [&](const auto& t) { return t.first == table; });
      if (it == tables.end()) it = tables.insert(tables.end(), {table, {}});
      if (line[0] == '[') continue;
      const std::string key = line.substr(0, line.find('='));
      auto entry = std::find_if(it->second.begin(), it->second.end(), [&](const auto& e) { return e.first == key; });
      if (entry == it->second.end()) it->second.emplace_back(key, line);
      else entry->second = line;
    }
  };
  read(base);
  read(overlay);
  std::string out;
  for (const auto& [table, entries] : tables) {
    out += table + "\n";
    for (const auto& entry : entries) out += entry.second + "\n";
  }
  return out;
}

}  // namespace

TEST_CASE("interconnect-bottleneck's docs example fires and its 'Use instead' passes", "[rules][docs]") {
  // The "Use instead" (4M-token batch, tp 2, 400 Gbps) still put the
  // all-reduce at 16.7% of a step, above the 10% the rule allows.
  std::optional<RuleDescriptor> rule;
  for (const RuleDescriptor& d : RuleSet::builtin().descriptors())
    if (d.id == "interconnect-bottleneck") rule = d;
  REQUIRE(rule);
  const std::vector<std::string> example = docs_toml_blocks(rule->docs.view(), "## Example");
  const std::vector<std::string> instead = docs_toml_blocks(rule->docs.view(), "## Use instead");
  REQUIRE(example.size() == 1);
  REQUIRE(instead.size() == 1);
  const std::string plan = "[plan]\nname = \"x\"\nkind = \"training\"\n" + example.front();
  CHECK(finding(plan, "interconnect-bottleneck"));
  INFO(overlay_toml(plan, instead.front()));
  CHECK_FALSE(finding(overlay_toml(plan, instead.front()), "interconnect-bottleneck"));
}

TEST_CASE("estimate-mismatch's docs say which rule compares the ends of a range claim", "[rules][docs]") {
  // The docs said the ends "are not [compared] … missing-range and the
  // assumption rules look after those", but estimate-range-mismatch compares them.
  std::optional<RuleDescriptor> rule;
  for (const RuleDescriptor& d : RuleSet::builtin().descriptors())
    if (d.id == "estimate-mismatch") rule = d;
  REQUIRE(rule);
  CHECK_THAT(std::string(rule->docs.view()), Catch::Contains("ends are compared by `estimate-range-mismatch`"));
  CHECK_THAT(std::string(rule->docs.view()), !Catch::Contains("look after those"));
}

TEST_CASE("estimate-range-invalid names every fault of a range claim", "[rules][claims]") {
  // { value = "9.6 d", low = "7.7 d", high = "7.7 d" } was reported only as
  // "low equal to high"; the value is above high too.
  auto plan = [](const std::string& claim) {
    return training_plan("params = \"7B\"\n", "mfu = \"40%\"\n",
                         "gpu = \"h100-sxm\"\ncount = 128\n[[assumptions]]\nid = \"mfu\"\nkey = \"training.mfu\"\n"
                         "value = \"40%\"\nlow = \"30%\"\nhigh = \"50%\"\nsource = \"trial\"\nupdated = 2026-09-15\n"
                         "[estimates]\n\"train.days\" = " + claim + "\n");
  };
  const std::optional<Diagnostic> both =
      finding(plan("{ value = \"9.6 d\", low = \"7.7 d\", high = \"7.7 d\" }"), "estimate-range-invalid");
  REQUIRE(both);
  CHECK_THAT(both->message, Catch::StartsWith("the claim of train.days has low equal to high: a point estimate written "
                                              "as a range, and the value above high (7.7 d – 9.6 d – 7.7 d)"));
  const std::optional<Diagnostic> point =
      finding(plan("{ value = \"9.6 d\", low = \"9.6 d\", high = \"9.6 d\" }"), "estimate-range-invalid");
  REQUIRE(point);
  CHECK_THAT(point->message, Catch::StartsWith("the claim of train.days has low equal to high: a point estimate written "
                                               "as a range (9.6 d – 9.6 d – 9.6 d)"));
  const std::optional<Diagnostic> inverted =
      finding(plan("{ value = \"20 d\", low = \"16 d\", high = \"9 d\" }"), "estimate-range-invalid");
  REQUIRE(inverted);
  CHECK_THAT(inverted->message, Catch::StartsWith("the claim of train.days has low above high, and the value outside both "
                                                  "ends (16 d – 20 d – 9 d)"));
  const std::optional<Diagnostic> above =
      finding(plan("{ value = \"20 d\", low = \"7.7 d\", high = \"12.8 d\" }"), "estimate-range-invalid");
  REQUIRE(above);
  CHECK_THAT(above->message, Catch::StartsWith("the claim of train.days has the value above high (7.7 d – 20 d – 12.8 d)"));
}

TEST_CASE("helps do not suggest quantising int4 weights, and name the inputs of the plan's kind", "[rules][inference][claims]") {
  // decode-bound, sla-unreachable and batch-decode-bound told an int4 plan to
  // quantise its weights; target-unmeasurable listed only training keys for an inference target;
  // missing-range said "the assumptions … state no low and high" of a plan with no [[assumptions]].
  auto plan = [](const std::string& inference, const std::string& gpu) {
    return "[plan]\nname = \"x\"\nkind = \"inference\"\n[model]\nparams = \"70B\"\nlayers = 80\nhidden = 8192\n"
           "heads = 64\nkv_heads = 8\n[inference]\nweights = \"int4\"\ncontext = \"8192 tokens\"\n"
           "concurrency = \"32 seq\"\n" + inference + "[cluster]\ngpu = \"" + gpu + "\"\ncount = 2\n"
           "[[targets]]\nname = \"first token\"\nmetric = \"infer.ttft\"\nmax = \"1 s\"\n";
  };
  const std::vector<Diagnostic> alone =
      lint_plan(plan("tp = 1\ntokens_per_s = \"200 tokens/s\"\nsla_itl = \"5 ms\"\n", "h100-sxm"));
  for (const char* rule : {"decode-bound", "sla-unreachable"}) {
    INFO(rule);
    const std::vector<Diagnostic> found = of_rule(alone, rule);
    REQUIRE(found.size() == 1);
    CHECK_THAT(found.front().help.value_or(""), !Catch::Contains("quantise"));
  }
  const std::vector<Diagnostic> unmeasurable = of_rule(alone, "target-unmeasurable");
  REQUIRE(unmeasurable.size() == 1);
  // Of the inference inputs without a default, the plan leaves out only the prompt (the help
  // must not list keys the plan states).
  CHECK_THAT(unmeasurable.front().help.value_or(""),
             Catch::Contains("(inputs with no default that the plan does not state: `inference.prompt_tokens`)"));
  const std::optional<Diagnostic> batch = finding(plan("tp = 2\nsla_itl = \"30 ms\"\n", "l40s"), "batch-decode-bound");
  REQUIRE(batch);
  CHECK_THAT(batch->help.value_or(""), Catch::Contains("more replicas), quantise the KV cache (kv_precision = \"fp8\"), "
                                                       "or raise inference.tp"));
  const std::optional<Diagnostic> point = finding(
      training_plan("params = \"7B\"\n", "mfu = \"40%\"\n", "gpu = \"h100-sxm\"\ncount = 128\n[estimates]\n"
                                                           "\"train.days\" = \"9.6 d\"\n"),
      "missing-range");
  REQUIRE(point);
  CHECK_THAT(point->message, Catch::EndsWith("but the inputs it rests on (MFU) have no [[assumptions]] entry, so it has no "
                                             "range yet: add entries with a low and a high, then claim the range they imply"));
}

TEST_CASE("tp-heads-indivisible: the KV heads are split over tp or copied to tp / kv_heads GPUs",
          "[rules][parallelism]") {
  const std::string cluster = "gpu = \"h100-sxm\"\ncount = 256\ngpus_per_node = 16\n";
  // 12 KV heads at tp 8 neither divide nor are divided (1.5 a GPU).
  const std::string model = "params = \"70B\"\nheads = 96\nkv_heads = 12\n";
  const auto training = finding(training_plan(model, "tp = 8\n", cluster), "tp-heads-indivisible");
  REQUIRE(training);
  CHECK(training->message ==
        "tp = 8 does not divide the model's 12 KV heads (12 / 8 = 1.5), nor do they divide it: each GPU of a "
        "tensor-parallel group must hold whole heads, or a whole copy of one, and the frameworks (Megatron-LM, "
        "vLLM, TensorRT-LLM) refuse the layout; the memory and time figures are of a layout that cannot run");
  CHECK_THAT(*training->help, Catch::StartsWith("use a tp that divides model.heads, with model.kv_heads divisible by "
                                                "it or it by them: 4 is the largest power of two up to 8 that does"));
  CHECK_FALSE(finding(training_plan(model, "tp = 4\n", cluster), "tp-heads-indivisible"));
  // StarCoder 15.5B, 48 heads and one multi-query KV head, trained at tp 4 (its
  // Megatron-LM fork copies the KV head); Llama 3 70B's 8 KV heads at tp 16 are copied likewise.
  CHECK_FALSE(finding(training_plan("params = \"15.5B\"\nheads = 48\nkv_heads = 1\n", "tp = 4\n", cluster),
                      "tp-heads-indivisible"));
  CHECK_FALSE(finding(training_plan("params = \"70B\"\nheads = 64\nkv_heads = 8\n", "tp = 16\n", cluster),
                      "tp-heads-indivisible"));
  // Without kv_heads the KV heads are the heads: 40 of them at tp 8 is 5 a GPU; at tp 6, 6.67.
  CHECK_FALSE(finding(training_plan("params = \"13B\"\nheads = 40\n", "tp = 8\n", cluster), "tp-heads-indivisible"));
  const auto thirds = finding(training_plan("params = \"13B\"\nheads = 40\n", "tp = 6\n", cluster),
                              "tp-heads-indivisible");
  REQUIRE(thirds);
  CHECK_THAT(thirds->message, Catch::StartsWith("tp = 6 does not divide the model's 40 attention heads (40 / 6 = 6.67): "
                                                "each GPU of a tensor-parallel group must hold whole heads, and"));
  CHECK_THAT(*thirds->help, Catch::Contains(": 4 is the largest power of two up to 6 that does"));

  // Serving at tp 72 (an NVL72 rack): 128 heads and 8 KV heads fit 64.
  const std::string serving = "[plan]\nname = \"x\"\nkind = \"inference\"\n[model]\nparams = \"405B\"\nheads = 128\n"
                              "kv_heads = 8\n[inference]\ntp = 72\n[cluster]\ngpu = \"gb200\"\ncount = 72\n"
                              "gpus_per_node = 72\n";
  const auto rack = finding(serving, "tp-heads-indivisible");
  REQUIRE(rack);
  CHECK_THAT(*rack->help, Catch::Contains(": 64 is the largest power of two up to 72 that does, with more replicas"));
}

TEST_CASE("a price per hour without the GPU gets both readings as help: one GPU's rate or a node's",
          "[rules][cost]") {
  const std::string plan = training_plan("params = \"7B\"\n", "mfu = \"40%\"\n",
                                         "gpu = \"h100-sxm\"\ncount = 64\nprice = \"$98.32/h\"\n");
  const auto bad = finding(plan, "bad-quantity");
  REQUIRE(bad);
  REQUIRE(bad->help);
  CHECK(*bad->help == "a price per GPU-hour names the GPU: if \"$98.32/h\" is one GPU's rate, write "
                      "\"$98.32/GPU/h\"; if it is a node's, divide it by the node's GPUs (a node of 8 at "
                      "\"$98.32/h\" is \"$12.29/GPU/h\")");
  // The node is the plan's: 4 GPUs at AWS's $113.93 an hour for a B200 node; no rounding of
  // the price as written, no exponent.
  const auto four = finding(training_plan("params = \"7B\"\n", "mfu = \"40%\"\n",
                                          "gpu = \"h100-sxm\"\ncount = 64\nprice = \"$113.93/h\"\ngpus_per_node = 4\n"),
                            "bad-quantity");
  REQUIRE(four);
  CHECK_THAT(*four->help, Catch::Contains("write \"$113.93/GPU/h\"") &&
                              Catch::Contains("(a node of 4 at \"$113.93/h\" is \"$28.48/GPU/h\")"));
  const auto large = finding(training_plan("params = \"7B\"\n", "mfu = \"40%\"\n",
                                           "gpu = \"h100-sxm\"\ncount = 64\nprice = \"$12345/h\"\n"),
                             "bad-quantity");
  REQUIRE(large);
  CHECK_THAT(*large->help, Catch::Contains("write \"$12345/GPU/h\"") && Catch::Contains("is \"$1543.12/GPU/h\""));
  // Both suggestions read back as prices, and the node's is under price-per-node's limit.
  CHECK_FALSE(finding(training_plan("params = \"7B\"\n", "mfu = \"40%\"\n",
                                    "gpu = \"h100-sxm\"\ncount = 64\nprice = \"$12.29/GPU/h\"\n"),
                      "bad-quantity"));
  const auto node = finding(training_plan("params = \"7B\"\n", "mfu = \"40%\"\n",
                                          "gpu = \"h100-sxm\"\ncount = 64\nprice = \"$98.32/GPU/h\"\n"),
                            "price-per-node");
  REQUIRE(node);
  CHECK_THAT(*node->help, Catch::StartsWith("if it is a node's hourly price, write price = \"12.29 USD/GPU/h\""));
}
