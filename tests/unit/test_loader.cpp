#include <algorithm>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "planlint/plan/loader.hpp"
#include "support.hpp"

using namespace planlint;
using Catch::Detail::Approx;
using test::load_text;
using test::load_fixture;
using test::rules_of;

namespace {

double number(const Plan& plan, std::string_view path) {
  auto value = plan.number(path);
  INFO(path);
  REQUIRE(value.has_value());
  return *value;
}

Position begin_of(const Plan& plan, std::string_view path) {
  const PlanValue* value = plan.find(path);
  INFO(path);
  REQUIRE(value != nullptr);
  return value->span.begin;
}

}  // namespace

TEST_CASE("every key of a training plan is loaded with its value in base units", "[loader]") {
  test::LoadResult result = load_fixture("loader/every-training-key.toml");
  INFO(test::render(result.diagnostics));
  REQUIRE(result.diagnostics.empty());
  const Plan& plan = *result.plan;

  CHECK(plan.kind == PlanKind::training);
  CHECK(plan.text("plan.name") == "every-key");
  CHECK(plan.text("plan.owner") == "capacity");
  CHECK(plan.text("plan.status") == "review");
  CHECK(*plan.find("plan.updated")->date() == Date{2026, 11, 1});

  CHECK(number(plan, "model.params") == Approx(7e9));
  CHECK(number(plan, "model.active_params") == Approx(7e9));
  CHECK(number(plan, "model.layers") == 32);
  CHECK(number(plan, "model.hidden") == 4096);
  CHECK(number(plan, "model.heads") == 32);
  CHECK(number(plan, "model.kv_heads") == 8);
  CHECK(number(plan, "model.head_dim") == 128);
  CHECK(number(plan, "model.vocab") == Approx(32e3));
  CHECK(plan.text("model.architecture") == "dense");

  CHECK(number(plan, "training.tokens") == Approx(1e12));
  CHECK(plan.find("training.tokens")->quantity()->dim == units::dims::tokens);
  CHECK(plan.text("training.precision") == "bf16");
  CHECK(plan.text("training.optimizer") == "adamw");
  CHECK(number(plan, "training.bytes_per_param") == 16);
  CHECK(number(plan, "training.seq_len") == 4096);
  CHECK(number(plan, "training.micro_batch") == 1);
  CHECK(number(plan, "training.global_batch") == Approx(4e6));
  CHECK(plan.find("training.global_batch")->quantity()->dim == units::dims::tokens);
  CHECK(number(plan, "training.tp") == 2);
  CHECK(number(plan, "training.pp") == 2);
  CHECK(number(plan, "training.dp") == 32);
  CHECK(number(plan, "training.cp") == 1);
  CHECK(number(plan, "training.ep") == 1);
  CHECK(plan.boolean("training.sequence_parallel") == false);
  CHECK(number(plan, "training.zero") == 1);
  CHECK(plan.text("training.recompute") == "full");
  CHECK(plan.boolean("training.flash_attention") == false);
  CHECK(number(plan, "training.activation_memory") == Approx(20e9));
  CHECK(number(plan, "training.mfu") == Approx(0.4));
  CHECK(number(plan, "training.goodput") == Approx(0.9));
  CHECK(number(plan, "training.schedule_margin") == Approx(1.2));
  CHECK(number(plan, "training.checkpoint_interval") == Approx(4 * 3600));
  CHECK(number(plan, "training.checkpoint_write_time") == Approx(120));
  CHECK(number(plan, "training.lora_rank") == 64);
  CHECK(plan.text("training.quantized_base") == "int4");

  CHECK(plan.text("cluster.gpu") == "h100-sxm");
  CHECK(number(plan, "cluster.count") == 128);
  CHECK(number(plan, "cluster.gpus_per_node") == 8);
  CHECK(number(plan, "cluster.peak") == Approx(989e12));
  CHECK(number(plan, "cluster.hbm") == Approx(80e9));
  CHECK(number(plan, "cluster.hbm_bandwidth") == Approx(3.35e12));
  CHECK(number(plan, "cluster.intra_node_bandwidth") == Approx(900e9));
  CHECK(number(plan, "cluster.inter_node_bandwidth") == Approx(400e9 / 8));
  CHECK(plan.find("cluster.inter_node_bandwidth")->quantity()->dim == units::dims::bytes_per_second);
  CHECK(number(plan, "cluster.price") == Approx(3.0 / 3600));
  CHECK(number(plan, "cluster.node_mtbf") == Approx(1000 * 3600));
  CHECK(number(plan, "cluster.memory_reserve") == Approx(0.1));

  REQUIRE(plan.targets.size() == 2);
  CHECK(plan.targets[0].find("name")->text()[0] == "training time");
  CHECK(plan.targets[0].find("max")->quantity()->value == Approx(14 * 86400));
  CHECK(*plan.targets[0].find("hard")->boolean() == false);
  CHECK(*plan.targets[1].find("hard")->boolean() == true);  // default
  CHECK(plan.targets[1].find("hard")->origin == Origin::default_);
  CHECK(plan.targets[1].find("max")->quantity()->value == Approx(2e6));

  REQUIRE(plan.assumptions.size() == 2);
  CHECK(plan.assumptions[0].find("low")->quantity()->value == Approx(0.3));
  CHECK(*plan.assumptions[0].find("updated")->date() == Date{2026, 9, 15});
  // A plain number in an assumption about cluster.price is in that key's unit: USD per GPU-hour.
  CHECK(plan.assumptions[1].find("value")->quantity()->value == Approx(3.0 / 3600));

  REQUIRE(plan.estimates.size() == 4);
  CHECK(plan.estimates[0].metric == "train.flops");
  CHECK(plan.estimates[0].value->quantity()->value == Approx(4.2e22));
  CHECK_FALSE(plan.estimates[0].is_range());
  CHECK(plan.estimates[1].metric == "train.days");
  CHECK(plan.estimates[1].is_range());
  CHECK(plan.estimates[1].low->quantity()->value == Approx(7.7 * 86400));
  // Plain numbers in claims are in the unit the metric's name says.
  CHECK(plan.estimates[2].metric == "train.gpu_hours");
  CHECK(plan.estimates[2].value->quantity()->value == Approx(29500.0 * 3600));
  // An unquoted dotted key is the same metric name.
  CHECK(plan.estimates[3].metric == "train.wall_days");
  CHECK(plan.estimates[3].value->quantity()->value == Approx(10.7 * 86400));

  REQUIRE(plan.benchmarks.size() == 1);
  CHECK(plan.benchmarks[0].find("value")->quantity()->value == Approx(4.1));

  CHECK(number(plan, "tolerances.capacity") == Approx(0.10));
  CHECK(number(plan, "tolerances.cost") == Approx(0.25));
  CHECK(number(plan, "tolerances.formula_vs_benchmark") == Approx(0.20));
}

TEST_CASE("every key of an inference plan is loaded", "[loader]") {
  test::LoadResult result = load_fixture("loader/every-inference-key.toml");
  INFO(test::render(result.diagnostics));
  REQUIRE(result.diagnostics.empty());
  const Plan& plan = *result.plan;
  CHECK(plan.kind == PlanKind::inference);
  CHECK(plan.text("inference.weights") == "fp8");
  CHECK(plan.text("inference.kv_precision") == "fp8");
  CHECK(number(plan, "inference.context") == Approx(8000));
  CHECK(number(plan, "inference.prompt_tokens") == 2000);
  CHECK(number(plan, "inference.output_tokens") == 500);
  CHECK(number(plan, "inference.concurrency") == 64);
  CHECK(plan.find("inference.concurrency")->quantity()->dim == units::dims::sequences);
  CHECK(number(plan, "inference.mean_concurrency") == 20);
  CHECK(number(plan, "inference.peak_factor") == 4);
  CHECK(number(plan, "inference.tp") == 4);
  CHECK(number(plan, "inference.pp") == 1);
  CHECK(number(plan, "inference.ep") == 1);
  CHECK(number(plan, "inference.dp_attention") == 2);
  CHECK(number(plan, "inference.replicas") == 2);
  CHECK(plan.text("inference.batching") == "continuous");
  CHECK(number(plan, "inference.sla_ttft") == Approx(1.5));
  CHECK(number(plan, "inference.sla_itl") == Approx(0.05));
  CHECK(number(plan, "inference.tokens_per_s") == 30);
  CHECK(number(plan, "inference.mfu") == Approx(0.4));
  // The compute precision of fp8 weights selects the fp8 catalog peak.
  CHECK(number(plan, "cluster.peak") == Approx(1979e12));
}

// The fixed defaults (8 GPUs per node, the tolerances) are checked against their specs in
// test_plan_keys.cpp.
TEST_CASE("defaults are resolved as plan-format.md says", "[loader][defaults]") {
  test::LoadResult result = load_fixture("loader/defaults.toml");
  INFO(test::render(result.diagnostics));
  REQUIRE(result.diagnostics.empty());
  const Plan& plan = *result.plan;

  SECTION("model defaults") {
    CHECK(number(plan, "model.active_params") == Approx(7e9));
    CHECK(number(plan, "model.kv_heads") == 32);
    CHECK(number(plan, "model.head_dim") == 128);
    CHECK(plan.text("model.architecture") == "dense");
    CHECK(plan.find("model.kv_heads")->origin == Origin::default_);
  }
  SECTION("training defaults") {
    CHECK(plan.text("training.precision") == "bf16");
    CHECK(plan.text("training.optimizer") == "adamw");
    CHECK(number(plan, "training.dp") == 16);  // 128 / (tp 2 · pp 4 · cp 1)
    CHECK(number(plan, "training.cp") == 1);
    CHECK(number(plan, "training.ep") == 1);
    CHECK(plan.boolean("training.sequence_parallel") == true);  // tp > 1
    CHECK(number(plan, "training.zero") == 0);
    CHECK(plan.text("training.recompute") == "selective");
    CHECK(plan.boolean("training.flash_attention") == true);
  }
  SECTION("cluster defaults come from the catalog entry and point at cluster.gpu") {
    CHECK(number(plan, "cluster.hbm") == Approx(80e9));
    CHECK(number(plan, "cluster.hbm_bandwidth") == Approx(3.35e12));
    CHECK(number(plan, "cluster.intra_node_bandwidth") == Approx(900e9));
    CHECK(number(plan, "cluster.peak") == Approx(989e12));
    const PlanValue* hbm = plan.find("cluster.hbm");
    CHECK(hbm->origin == Origin::catalog);
    CHECK(hbm->span == plan.find("cluster.gpu")->span);
    CHECK(plan.find("cluster.inter_node_bandwidth") == nullptr);  // no catalog default
  }
}

TEST_CASE("every value keeps the line and column of its TOML node", "[loader][spans]") {
  test::LoadResult result = load_fixture("loader/every-training-key.toml");
  const Plan& plan = *result.plan;
  CHECK(begin_of(plan, "plan.name") == Position{3, 8});
  CHECK(begin_of(plan, "model.params") == Position{10, 10});
  CHECK(begin_of(plan, "training.mfu") == Position{38, 7});
  CHECK(begin_of(plan, "cluster.inter_node_bandwidth") == Position{54, 24});
  const PlanValue* params = plan.find("model.params");
  CHECK(params->span.end == Position{10, 14});  // "7B" with its quotes
  CHECK(params->key_span.begin == Position{10, 1});
  CHECK(plan.section("cluster").header.begin.line == 46);
  CHECK(plan.targets[1].find("max")->span.begin == Position{68, 7});
  CHECK(plan.estimates[1].low->span.begin.line == 90);
}

TEST_CASE("a misspelt key is unknown-key with a did-you-mean and a fix", "[loader][unknown-key]") {
  test::LoadResult result = load_text(R"([plan]
name = "x"
kind = "training"
[model]
params = "7B"
[training]
tokens = "1T"
[cluster]
gpu = "h100-sxm"
count = 8
hmb = "80 GB"
)");
  REQUIRE(rules_of(result.diagnostics) == std::vector<std::string>{"unknown-key"});
  const Diagnostic& d = result.diagnostics[0];
  CHECK(d.message == "unknown key 'hmb' in [cluster]");
  CHECK(d.help == "did you mean 'hbm'?");
  CHECK(d.primary.span.begin == Position{11, 1});
  CHECK(d.key_path == "cluster.hmb");
  REQUIRE(d.fixes.size() == 1);
  CHECK(d.fixes[0].replacement == "hbm");
}

TEST_CASE("a misspelt section or key is recorded as the name it stands for", "[loader][unknown-key]") {
  test::LoadResult section = load_text(R"([plan]
name = "x"
kind = "training"
[model]
params = "7B"
[training]
tokens = "1T"
goodpt = "90%"
[clutser]
gpu = "h100-sxm"
count = 8
)");
  // One finding each: no "missing required section [cluster]" beside the misspelling.
  REQUIRE(rules_of(section.diagnostics) == std::vector<std::string>{"unknown-key", "unknown-key"});
  REQUIRE(section.plan);
  const Plan& plan = *section.plan;
  REQUIRE(plan.misspellings.size() == 2);
  CHECK(plan.misspelt("cluster.count")->written == "clutser");
  CHECK(plan.misspelt("cluster")->written == "clutser");
  CHECK(plan.misspelt("training.goodput")->written == "goodpt");
  CHECK(plan.misspelt("training.mfu") == nullptr);
  CHECK(plan.misspelt("clusters") == nullptr);
  CHECK(plan.states_unread("training.goodput"));
  // Nothing under it gets a default: cluster.gpus_per_node has none for a [cluster] never read.
  CHECK(plan.find("cluster.gpus_per_node") == nullptr);

  // The right name written as well: the misspelt one is a stray key, the other is read.
  test::LoadResult both = load_text(R"([plan]
name = "x"
kind = "training"
[model]
params = "7B"
[training]
tokens = "1T"
goodput = "90%"
goodpt = "90%"
[cluster]
gpu = "h100-sxm"
count = 8
)");
  REQUIRE(both.plan);
  CHECK(both.plan->misspellings.empty());

  // A stray top-level value is no section: [plan] is still missing.
  test::LoadResult stray = load_text(R"(plam = "x"
[model]
params = "7B"
[training]
tokens = "1T"
[cluster]
gpu = "h100-sxm"
count = 8
)");
  CHECK(rules_of(stray.diagnostics) == std::vector<std::string>{"unknown-key", "missing-required"});
}

TEST_CASE("a quantity of the wrong dimension names both dimensions", "[loader][bad-quantity]") {
  test::LoadResult result = load_text(R"([plan]
name = "x"
kind = "training"
[model]
params = "7B"
[training]
tokens = "1T"
[cluster]
gpu = "h100-sxm"
count = 8
hbm = "80 Gbps"
)");
  REQUIRE(rules_of(result.diagnostics) == std::vector<std::string>{"bad-quantity"});
  const Diagnostic& d = result.diagnostics[0];
  CHECK_THAT(d.message, Catch::Contains("expected bytes") && Catch::Contains("found bits per second"));
  CHECK(d.primary.span.begin == Position{11, 7});
}

TEST_CASE("a malformed quantity points at the column inside the string", "[loader][bad-quantity]") {
  test::LoadResult result = load_text(R"([plan]
name = "x"
kind = "training"
[model]
params = "7B"
[training]
tokens = "1T"
[cluster]
gpu = "h100-sxm"
count = 8
hbm = "80 GB/"
)");
  REQUIRE(rules_of(result.diagnostics) == std::vector<std::string>{"bad-quantity"});
  // `hbm = "80 GB/"`: the string starts at column 7, its text at 8; the error is past the '/'.
  CHECK(result.diagnostics[0].primary.span.begin.line == 11);
  CHECK(result.diagnostics[0].primary.span.begin.column >= 13);
}

TEST_CASE("values outside their physical range are bad-quantity", "[loader][bad-quantity]") {
  auto plan_with = [](std::string_view training_line) {
    return load_text(fmt::format(R"([plan]
name = "x"
kind = "training"
[model]
params = "7B"
[training]
tokens = "1T"
{}
[cluster]
gpu = "h100-sxm"
count = 8
)", training_line));
  };
  for (std::string_view line : {"mfu = \"140%\"", "mfu = 0", "goodput = -0.5", "zero = 4",
                                "tp = 0", "seq_len = -4096", "activation_memory = \"-1 GB\"",
                                "tp = 2.5", "schedule_margin = 0.8"}) {
    INFO(line);
    CHECK(rules_of(plan_with(line).diagnostics) == std::vector<std::string>{"bad-quantity"});
  }
  CHECK(rules_of(plan_with("mfu = \"100%\"").diagnostics).empty());
  // A batch counts whole sequences (1023.5 printed as "1.02K sequences");
  // in tokens it need not be whole sequences, and "4M tokens" is whole anyway.
  for (std::string_view line : {"global_batch = 1023.5", "global_batch = \"2.5 seq\"", "micro_batch = 1.5"}) {
    INFO(line);
    const test::LoadResult result = plan_with(line);
    REQUIRE(rules_of(result.diagnostics) == std::vector<std::string>{"bad-quantity"});
    CHECK_THAT(result.diagnostics[0].message, Catch::EndsWith("must be a whole number of sequences"));
  }
  CHECK(rules_of(plan_with("global_batch = \"4M tokens\"").diagnostics).empty());
  CHECK(rules_of(plan_with("global_batch = 1024").diagnostics).empty());
  // An assumption's plausible range for the key need not be whole.
  CHECK(rules_of(plan_with("global_batch = 1024\n[[assumptions]]\nid = \"b\"\nkey = \"training.global_batch\"\n"
                           "value = 1024\nlow = 1000.5\nhigh = 2048\nsource = \"s\"\nupdated = 2026-11-01")
                    .diagnostics)
            .empty());
  CHECK(rules_of(plan_with("mfu = nan").diagnostics) == std::vector<std::string>{"bad-quantity"});
  CHECK(rules_of(plan_with("tokens2 = 1").diagnostics) == std::vector<std::string>{"unknown-key"});
}

TEST_CASE("an assumption's key names one plan value, not a field of every [[targets]] entry", "[loader][bad-value]") {
  constexpr std::string_view plan = R"([plan]
name = "x"
kind = "training"
[model]
params = "7B"
[training]
tokens = "1T"
[cluster]
gpu = "h100-sxm"
count = 8
[[targets]]
name = "deadline"
metric = "train.days"
max = "30 d"
[[assumptions]]
id = "deadline"
key = "{}"
value = "30 d"
source = "the program plan"
updated = 2026-11-01
)";
  test::LoadResult field = load_text(fmt::format(fmt::runtime(plan), "targets.max"));
  REQUIRE(rules_of(field.diagnostics) == std::vector<std::string>{"bad-value"});
  CHECK(field.diagnostics[0].message ==
        "assumptions[0].key = \"targets.max\" names the max field of every [[targets]] entry, not one plan value");
  CHECK(field.diagnostics[0].primary.span.begin == Position{17, 7});
  // A misspelt key still gets its did-you-mean, among the keys an assumption may name.
  test::LoadResult misspelt = load_text(fmt::format(fmt::runtime(plan), "training.mfuu"));
  REQUIRE(rules_of(misspelt.diagnostics) == std::vector<std::string>{"bad-value"});
  CHECK(misspelt.diagnostics[0].help == "did you mean \"training.mfu\"?");
}

TEST_CASE("a GPU id not in the catalog is unknown-gpu with a did-you-mean", "[loader][unknown-gpu]") {
  test::LoadResult result = load_text(R"([plan]
name = "x"
kind = "inference"
[model]
params = "7B"
[cluster]
gpu = "h100-sxn"
count = 8
)");
  REQUIRE(rules_of(result.diagnostics) == std::vector<std::string>{"unknown-gpu"});
  const Diagnostic& d = result.diagnostics[0];
  CHECK(d.help == "did you mean 'h100-sxm'?");
  CHECK(d.primary.span.begin == Position{7, 7});
  REQUIRE(d.fixes.size() == 1);
  CHECK(d.fixes[0].replacement == "\"h100-sxm\"");
}

TEST_CASE("required sections and keys are reported where they belong", "[loader][missing-required]") {
  SECTION("an empty file lacks every required section") {
    test::LoadResult result = load_text("");
    CHECK(rules_of(result.diagnostics) ==
          std::vector<std::string>{"missing-required", "missing-required", "missing-required"});
  }
  SECTION("a training plan needs [training] with tokens") {
    test::LoadResult result = load_text(R"([plan]
name = "x"
kind = "training"
[model]
params = "7B"
[training]
mfu = "40%"
[cluster]
gpu = "h100-sxm"
count = 8
)");
    REQUIRE(rules_of(result.diagnostics) == std::vector<std::string>{"missing-required"});
    CHECK(result.diagnostics[0].message == "missing required key 'tokens' in [training]");
    CHECK(result.diagnostics[0].primary.span.begin == Position{6, 1});
  }
  SECTION("a target needs a bound and an moe model its active parameters") {
    test::LoadResult result = load_text(R"([plan]
name = "x"
kind = "inference"
[model]
params = "7B"
architecture = "moe"
[cluster]
gpu = "h100-sxm"
count = 8
[[targets]]
name = "t"
metric = "infer.ttft"
)");
    CHECK(rules_of(result.diagnostics) ==
          std::vector<std::string>{"missing-required", "missing-required"});
  }
}

TEST_CASE("wrong types, unknown choices and unknown metrics are bad-value", "[loader][bad-value]") {
  test::LoadResult result = load_text(R"([plan]
name = 5
kind = "trainig"
[model]
params = "7B"
[cluster]
gpu = "h100-sxm"
count = 8
[[targets]]
name = "t"
metric = "train.dayz"
max = "14 d"
)");
  auto rules = rules_of(result.diagnostics);
  CHECK(std::count(rules.begin(), rules.end(), "bad-value") == 3);
  bool suggested = false;
  for (const Diagnostic& d : result.diagnostics)
    if (d.help == "did you mean \"training\"?" || d.help == "did you mean \"train.days\"?") suggested = true;
  CHECK(suggested);
}

TEST_CASE("a GPU count that does not divide into the model-parallel degree is reported",
          "[loader][bad-value]") {
  test::LoadResult result = load_text(R"([plan]
name = "x"
kind = "training"
[model]
params = "7B"
[training]
tokens = "1T"
tp = 8
pp = 3
[cluster]
gpu = "h100-sxm"
count = 128
)");
  REQUIRE(rules_of(result.diagnostics) == std::vector<std::string>{"bad-value"});
  CHECK_THAT(result.diagnostics[0].message, Catch::Contains("tp · pp · cp = 24"));
}

TEST_CASE("invalid TOML is one toml-syntax finding at the parser's position", "[loader][toml-syntax]") {
  test::LoadResult result = load_text("[plan]\nname = \"x\nkind = 1\n");
  CHECK_FALSE(result.plan.has_value());
  REQUIRE(rules_of(result.diagnostics) == std::vector<std::string>{"toml-syntax"});
  CHECK(result.diagnostics[0].primary.span.begin.line == 2);
  CHECK(result.diagnostics[0].primary.span.begin.column > 0);
}

TEST_CASE("a [plan] table marks a TOML file as a plan", "[loader]") {
  CHECK(looks_like_plan("[plan]\nname = 'x'\n"));
  CHECK_FALSE(looks_like_plan("[tool]\nname = 'x'\n"));
  CHECK_FALSE(looks_like_plan("plan = 3\n"));
  CHECK_FALSE(looks_like_plan("[plan\n"));
}
