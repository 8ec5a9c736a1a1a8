#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "integration_support.hpp"
#include "planlint/estimate/sensitivity.hpp"
#include "test_estimates_support.hpp"

using namespace planlint;
using namespace planlint::test;
using nlohmann::json;

namespace {

std::string example(std::string_view name) {
  return std::string(PLANLINT_SOURCE_DIR) + "/examples/" + std::string(name);
}

Estimated estimate_example(std::string_view name) {
  return estimate_loaded(load_text(read_text(example(name)), example(name)));
}

/// A training example's cost by hand: 6 · N_a · D FLOPs at the H100's dense BF16 peak (989
/// TFLOPS) and the MFU, over the goodput, at the price per GPU-hour.
struct HandCost {
  double active_params, tokens, mfu, goodput, price_per_hour;
  double at(double m, double g, double p) const {
    const double gpu_hours = 6 * active_params * tokens / (989e12 * m) / 3600;
    return gpu_hours / g * p;
  }
};

const SensitivityBar& bar_of(const MetricSensitivity& entry, std::string_view key) {
  for (const SensitivityBar& bar : entry.bars)
    if (bar.key == key) return bar;
  FAIL("no bar for " << key);
  throw;
}

}  // namespace

TEST_CASE("the examples' cost sensitivity to MFU, goodput and price is the hand computation, one end at a time",
          "[sensitivity]") {
  struct Case {
    std::string_view file;
    HandCost cost;
    double mfu_low, mfu_high, goodput_low, goodput_high, price_low, price_high;
  };
  // The plans' values and their [[assumptions]] ends, as the example files write them.
  const Case cases[] = {
      {"llama-70b-pretrain.toml", {70e9, 15e12, 0.40, 0.85, 3}, 0.30, 0.50, 0.80, 0.92, 2, 4},
      {"moe-pretrain.toml", {39e9, 12e12, 0.35, 0.85, 3}, 0.25, 0.45, 0.80, 0.92, 2, 4},
  };
  for (const Case& c : cases) {
    INFO(c.file);
    const Estimated e = estimate_example(c.file);
    const HandCost& hand = c.cost;
    REQUIRE(e["cost.total"].value == Approx(hand.at(hand.mfu, hand.goodput, hand.price_per_hour)).epsilon(1e-9));

    const Sensitivity s = sensitivity(e.plan(), Catalog::builtin(), e.estimates);
    const MetricSensitivity* cost = s.find("cost.total");
    REQUIRE(cost != nullptr);
    REQUIRE(cost->bars.size() == 3);
    CHECK(cost->unranged.empty());

    const SensitivityBar& mfu = bar_of(*cost, "training.mfu");
    CHECK(mfu.assumption == "mfu");
    CHECK(mfu.key_low == Approx(c.mfu_low));
    CHECK(mfu.key_high == Approx(c.mfu_high));
    CHECK(mfu.at_low == Approx(hand.at(c.mfu_low, hand.goodput, hand.price_per_hour)).epsilon(1e-9));
    CHECK(mfu.at_high == Approx(hand.at(c.mfu_high, hand.goodput, hand.price_per_hour)).epsilon(1e-9));

    const SensitivityBar& goodput = bar_of(*cost, "training.goodput");
    CHECK(goodput.at_low == Approx(hand.at(hand.mfu, c.goodput_low, hand.price_per_hour)).epsilon(1e-9));
    CHECK(goodput.at_high == Approx(hand.at(hand.mfu, c.goodput_high, hand.price_per_hour)).epsilon(1e-9));

    // Price in the plan's units is per GPU-hour; the key's base unit is per GPU-second.
    const SensitivityBar& price = bar_of(*cost, "cluster.price");
    CHECK(price.key_low * 3600 == Approx(c.price_low));
    CHECK(price.at_low == Approx(hand.at(hand.mfu, hand.goodput, c.price_low)).epsilon(1e-9));
    CHECK(price.at_high == Approx(hand.at(hand.mfu, hand.goodput, c.price_high)).epsilon(1e-9));

    // Sorted by swing, largest first: the price (×2), then MFU (×5/3), then goodput (×1.15).
    CHECK(cost->bars[0].key == "cluster.price");
    CHECK(cost->bars[1].key == "training.mfu");
    CHECK(cost->bars[2].key == "training.goodput");
    for (std::size_t i = 1; i < cost->bars.size(); ++i) CHECK(cost->bars[i - 1].swing() >= cost->bars[i].swing());

    // The ideal days move with the MFU alone; the point estimates of the compute move with none.
    const MetricSensitivity* days = s.find("train.days");
    REQUIRE(days != nullptr);
    REQUIRE(days->bars.size() == 1);
    CHECK(days->bars[0].key == "training.mfu");
    CHECK(days->bars[0].at_low / e["train.days"].value == Approx(hand.mfu / c.mfu_low));
    CHECK(s.find("train.flops") == nullptr);
    // One key at a time stays inside the range of every key at once.
    CHECK(*e["cost.total"].low <= std::min(price.at_low, price.at_high));
    CHECK(*e["cost.total"].high >= std::max(mfu.at_low, mfu.at_high));
  }
}

TEST_CASE("sensitivity names the assumptions a metric rests on that have no range", "[sensitivity]") {
  // cluster-plan.toml ranges its MFU only: goodput and price are point estimates.
  const Estimated e = estimate_example("cluster-plan.toml");
  const Sensitivity s = sensitivity(e.plan(), Catalog::builtin(), e.estimates);
  const MetricSensitivity* cost = s.find("cost.total");
  REQUIRE(cost != nullptr);
  REQUIRE(cost->bars.size() == 1);
  CHECK(cost->bars[0].key == "training.mfu");
  CHECK(cost->unranged == std::vector<std::string>{"training.goodput", "cluster.price"});
  const MetricSensitivity* days = s.find("train.days");
  REQUIRE(days != nullptr);
  CHECK(days->unranged.empty());
  // train.days ≤ 14 d holds at both ends of the MFU (12.8 d at 30%).
  CHECK(s.target_breaks.empty());
}

TEST_CASE("sensitivity covers a capacity metric's assumption and says which end breaks a hard target",
          "[sensitivity]") {
  // ZeRO-3 over 128 GPUs: 0.875 GB of model states, 18.3 GB of activations at a micro-batch of 1.
  std::string toml = training_plan({{"training.zero", "3"}});
  toml += R"(
[[targets]]
name = "memory"
metric = "train.memory.total"
max = "30 GB"

[[assumptions]]
id = "micro-batch"
key = "training.micro_batch"
value = 1
low = 1
high = 2
source = "the framework's default; 2 if the memory allows"
)";
  const Estimated e = estimate_text(toml);
  const Sensitivity s = sensitivity(e.plan(), Catalog::builtin(), e.estimates);
  const MetricSensitivity* activations = s.find("train.memory.activations");
  REQUIRE(activations != nullptr);
  REQUIRE(activations->bars.size() == 1);
  // Activations are linear in the micro-batch: twice as many at its high end.
  CHECK(activations->bars[0].at_low == Approx(e["train.memory.activations"].value));
  CHECK(activations->bars[0].at_high == Approx(2 * e["train.memory.activations"].value));
  // The cost does not move with it; its MFU, goodput and price have no [[assumptions]] range.
  const MetricSensitivity* cost = s.find("cost.total");
  if (cost) CHECK(cost->bars.empty());

  // 21.1 GB at a micro-batch of 1 (10% reserve); at 2 the activations double, 41.1 GB.
  REQUIRE(s.target_breaks.size() == 1);
  const TargetBreak& broken = s.target_breaks[0];
  CHECK(broken.target == "memory");
  CHECK(broken.key == "training.micro_batch");
  CHECK(broken.at_high);
  CHECK(broken.key_value == 2);
  CHECK(broken.metric_value == Approx(1.1 * (16 * 7e9 / 128 + 2 * e["train.memory.activations"].value)));
  CHECK_FALSE(broken.broken_at_value);
}

TEST_CASE("report shows the sensitivity in text, Markdown and JSON", "[sensitivity][report]") {
  const std::string plan = example("llama-70b-pretrain.toml");
  CliRun text = run_cli({"report", plan});
  INFO(text.out << text.err);
  CHECK_THAT(text.out, Catch::Contains("\nSensitivity: each assumption from its low to its high end"));
  CHECK_THAT(text.out, Catch::Contains("cluster.price $2/GPU·h → $4/GPU·h (assumption price)"));
  // The hard target of 100 ideal days breaks at the MFU's low end (120 d at 30%).
  CHECK_THAT(text.out, Catch::Contains("'ideal training time' (train.days at most 100 d) breaks at training.mfu 30%, "
                                       "its low end (assumption mfu): 120 d"));

  CliRun markdown = run_cli({"report", "--format", "markdown", plan});
  CHECK_THAT(markdown.out, Catch::Contains("| metric | assumption | low end → high end | metric at low → at high | swing |"));
  CHECK_THAT(markdown.out, Catch::Contains("| `cost.total` | `cluster.price` (price) | $2/GPU·h → $4/GPU·h |"));

  CliRun run = run_cli({"report", "--format", "json", plan});
  REQUIRE(run.status == 0);
  const json report = json::parse(run.out);
  const json& bars = report["metrics"]["cost.total"]["sensitivity"]["bars"];
  REQUIRE(bars.size() == 3);
  CHECK(bars[0]["key"] == "cluster.price");
  CHECK(bars[0]["key_low"].get<double>() == Approx(2));
  CHECK(bars[0]["key_unit"] == "USD/GPU·h");
  CHECK(bars[0]["swing"].get<double>() ==
        Approx(bars[0]["at_high"].get<double>() - bars[0]["at_low"].get<double>()));
  CHECK(report["metrics"]["train.flops"]["sensitivity"]["bars"].empty());
  REQUIRE(report["target_breaks"].size() == 1);
  CHECK(report["target_breaks"][0]["end"] == "low");
  CHECK(report["target_breaks"][0]["key"] == "training.mfu");
}
