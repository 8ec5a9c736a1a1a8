/// Capacity mixes ([[capacity]]): the job's price and goodput are the slices' share-weighted
/// means (docs/estimates.md, "Capacity mixes"), which the time and cost metrics read.
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "planlint/lint/lint.hpp"
#include "planlint/plan/loader.hpp"
#include "test_estimates_support.hpp"

using namespace planlint;
using namespace planlint::test;

namespace {

constexpr double hour = 3600;

/// 60% reserved at $2.10, 40% preemptible at `spot_price` with `spot_goodput`.
std::string slices(std::string_view spot_price, std::string_view spot_goodput) {
  return fmt::format(R"(
[[capacity]]
kind = "reserved"
share = "60%"
price = "$2.10/GPU/h"

[[capacity]]
kind = "preemptible"
share = 0.4
price = "{}"
goodput = "{}"
)",
                     spot_price, spot_goodput);
}
const std::string mix = slices("$1.20/GPU/h", "75%");

FileResult lint(std::string text) {
  LintOptions options;
  options.today = Date{2026, 12, 1};
  return lint_source(std::make_shared<const SourceFile>("plan.toml", std::move(text)), options);
}

bool has_rule(const FileResult& result, std::string_view rule) {
  for (const Diagnostic& d : result.diagnostics)
    if (d.rule == rule) return true;
  return false;
}

}  // namespace

TEST_CASE("a mix's price and goodput are the shares' weighted means", "[estimates][capacity]") {
  const Estimated mixed = estimate_text(training_plan({{"cluster.price", "\"$3/GPU/h\""}}) + mix);
  const MetricValue& price = mixed["cost.price"];
  CHECK(price.value * hour == Approx(0.6 * 2.10 + 0.4 * 1.20));
  CHECK(price.arithmetic.str() == "60% × $2.1/GPU·h + 40% × $1.2/GPU·h = $1.74/GPU·h");
  const MetricValue& goodput = mixed["train.goodput"];
  CHECK(goodput.value == Approx(0.6 * 0.90 + 0.4 * 0.75));  // the reserved slice takes training.goodput
  CHECK(goodput.arithmetic.str() == "60% × 90% + 40% × 75% = 84%");
  CHECK(mixed["cost.capacity_share"].value == Approx(1.0));

  // The time and cost read them: the same figures as one price and one goodput at the blends.
  const Estimated single =
      estimate_text(training_plan({{"cluster.price", "\"$1.74/GPU/h\""}, {"training.goodput", "\"84%\""}}));
  for (const char* metric : {"train.wall_days", "cost.gpu_hours_billed", "cost.total"}) {
    INFO(metric);
    CHECK(mixed[metric].value == Approx(single[metric].value));
  }
  // The provenance names each slice's value.
  bool slice_input = false;
  for (const MetricInput& input : price.inputs) slice_input |= input.name == "capacity[1].price";
  CHECK(slice_input);
}

TEST_CASE("a slice without a price or goodput takes the plan's", "[estimates][capacity]") {
  const std::string partial = R"(
[[capacity]]
kind = "reserved"
share = "50%"
price = "$2/GPU/h"

[[capacity]]
kind = "on-demand"
share = "50%"
)";
  const Estimated mixed = estimate_text(training_plan({{"cluster.price", "\"$4/GPU/h\""}}) + partial);
  CHECK(mixed["cost.price"].value * hour == Approx(0.5 * 2 + 0.5 * 4));
  CHECK(mixed["train.goodput"].value == Approx(0.9));
  // Without [[capacity]], the plan's keys themselves; no share sum.
  const Estimated plain = estimate_text(training_plan({{"cluster.price", "\"$4/GPU/h\""}}));
  CHECK(plain["cost.price"].value * hour == Approx(4));
  CHECK(plain["train.goodput"].value == Approx(0.9));
  CHECK(plain.estimates.find("cost.capacity_share") == nullptr);
  // Without a price anywhere, no cost.price and no cost.total.
  const Estimated unpriced = estimate_text(training_plan() + partial);
  CHECK(unpriced.estimates.find("cost.price") == nullptr);
  CHECK(unpriced.estimates.find("cost.total") == nullptr);
}

TEST_CASE("a slice's node price is read per GPU with a node-price note", "[loader][capacity]") {
  const LoadResult loaded = load_text(training_plan() + R"(
[[capacity]]
kind = "reserved"
share = "100%"
price = "$16.80/node/h"
)");
  REQUIRE(loaded.plan);
  REQUIRE(loaded.plan->capacity.size() == 1);
  CHECK(loaded.plan->capacity[0].find("price")->quantity()->value * hour == Approx(16.80 / 8));
  bool noted = false;
  for (const Diagnostic& d : loaded.diagnostics)
    noted |= d.rule == "node-price" && d.key_path == "capacity[0].price" && d.help == "write one GPU's price: price = \"$2.1/GPU/h\"";
  CHECK(noted);
}

TEST_CASE("[[capacity]] keys are checked as their rows say", "[loader][capacity]") {
  const LoadResult bad = load_text(training_plan() + R"(
[[capacity]]
kind = "spot"
share = "140%"
)");
  std::string rules;
  for (const Diagnostic& d : bad.diagnostics) rules += std::string(d.rule) + " " + d.key_path + "\n";
  CHECK_THAT(rules, Catch::Contains("bad-value capacity[0].kind"));
  CHECK_THAT(rules, Catch::Contains("bad-quantity capacity[0].share"));
  const LoadResult missing = load_text(training_plan() + "\n[[capacity]]\nprice = 2\n");
  std::string messages;
  for (const Diagnostic& d : missing.diagnostics) messages += d.message + "\n";
  CHECK_THAT(messages, Catch::Contains("missing required key 'kind' in [[capacity]] #1"));
  CHECK_THAT(messages, Catch::Contains("missing required key 'share' in [[capacity]] #1"));
}

TEST_CASE("[[capacity]] holds at most max_capacity_slices slices", "[loader][capacity][hostile]") {
  std::string many = training_plan();
  for (std::size_t i = 0; i <= max_capacity_slices; ++i) many += "[[capacity]]\nkind = \"reserved\"\nshare = 0.01\n";
  const LoadResult loaded = load_text(many);
  REQUIRE(loaded.plan);
  CHECK(loaded.plan->capacity.empty());
  bool refused = false;
  for (const Diagnostic& d : loaded.diagnostics) refused |= d.rule == "bad-value" && d.key_path == "capacity";
  CHECK(refused);
}

TEST_CASE("a stage runs on the plan's mix with its own goodput", "[estimates][capacity][stages]") {
  const FileResult staged = lint(training_plan({{"cluster.price", "\"$3/GPU/h\""}}) + mix + R"(
[[stages]]
name = "pre-training"

[[stages]]
name = "long-context"
training.goodput = "80%"
)");
  REQUIRE(staged.plan);
  REQUIRE(staged.stage_estimates.size() == 2);
  const MetricValue* first = staged.stage_estimates[0].find("train.goodput");
  const MetricValue* second = staged.stage_estimates[1].find("train.goodput");
  REQUIRE(first);
  REQUIRE(second);
  CHECK(first->value == Approx(0.6 * 0.90 + 0.4 * 0.75));
  CHECK(second->value == Approx(0.6 * 0.80 + 0.4 * 0.75));
  const MetricValue* price = staged.stage_estimates[1].find("cost.price");
  REQUIRE(price);
  CHECK(price->value * hour == Approx(1.74));
}

TEST_CASE("the ranges move the slices that take the plan's goodput and price", "[estimates][capacity][ranges]") {
  const std::string assumption = R"(
[[assumptions]]
id = "goodput"
key = "training.goodput"
value = "90%"
low = "80%"
high = "95%"
source = "fleet log"
)";
  const Estimated mixed = estimate_text(training_plan({{"cluster.price", "\"$3/GPU/h\""}}) + mix + assumption);
  const MetricValue& goodput = mixed["train.goodput"];
  REQUIRE(goodput.low);
  REQUIRE(goodput.high);
  // Only the reserved 60% follows training.goodput; the preemptible slice keeps its 75%.
  CHECK(*goodput.low == Approx(0.6 * 0.80 + 0.4 * 0.75));
  CHECK(*goodput.high == Approx(0.6 * 0.95 + 0.4 * 0.75));
  CHECK(mixed["cost.total"].high.has_value());
  // cluster.price prices no slice here: it moves nothing.
  CHECK_FALSE(mixed["cost.price"].low.has_value());
}

TEST_CASE("an assumption of a slice's price or goodput, by name or by place, ranges the mix", "[estimates][capacity][ranges]") {
  const std::string assumptions = R"(
[[assumptions]]
id = "spot-price"
key = "capacity[kind=preemptible].price"
value = "$1.20/GPU/h"
low = "$0.90/GPU/h"
high = "$2.00/GPU/h"
source = "spot price history"

[[assumptions]]
id = "spot-goodput"
key = "capacity[1].goodput"
value = "75%"
low = "60%"
high = "85%"
source = "fleet preemption log"
)";
  const Estimated mixed = estimate_text(training_plan({{"cluster.price", "\"$3/GPU/h\""}}) + mix + assumptions);
  const MetricValue& price = mixed["cost.price"];
  REQUIRE(price.low);
  REQUIRE(price.high);
  CHECK(*price.low * hour == Approx(0.6 * 2.10 + 0.4 * 0.90));
  CHECK(*price.high * hour == Approx(0.6 * 2.10 + 0.4 * 2.00));
  const MetricValue& goodput = mixed["train.goodput"];
  REQUIRE(goodput.low);
  CHECK(*goodput.low == Approx(0.6 * 0.90 + 0.4 * 0.60));
  CHECK(*goodput.high == Approx(0.6 * 0.90 + 0.4 * 0.85));
  // The cost's ends are the corners: the cheap price with the high goodput, and the reverse.
  const MetricValue& cost = mixed["cost.total"];
  REQUIRE(cost.low);
  const Estimated cheap =
      estimate_text(training_plan({{"cluster.price", "\"$3/GPU/h\""}}) + slices("$0.90/GPU/h", "85%"));
  CHECK(*cost.low == Approx(cheap["cost.total"].value));
  CHECK(std::find(cost.range_keys.begin(), cost.range_keys.end(), "capacity[1].price") != cost.range_keys.end());
  CHECK(std::find(cost.range_keys.begin(), cost.range_keys.end(), "capacity[1].goodput") != cost.range_keys.end());
}

TEST_CASE("an assumption's key names a slice the plan has, and a slice's price or goodput only", "[loader][capacity]") {
  const auto bad_values = [](const FileResult& result) {
    std::vector<const Diagnostic*> found;
    for (const Diagnostic& d : result.diagnostics)
      if (d.rule == "bad-value") found.push_back(&d);
    return found;
  };
  const auto with_key = [](std::string_view key) {
    return training_plan({{"cluster.price", "\"$3/GPU/h\""}}) + mix +
           fmt::format("\n[[assumptions]]\nid = \"a\"\nkey = \"{}\"\nvalue = \"$1/GPU/h\"\nsource = \"s\"\n", key);
  };
  CHECK(bad_values(lint(with_key("capacity[kind=preemptible].price"))).empty());
  CHECK(bad_values(lint(with_key("capacity[0].price"))).empty());
  const FileResult missing = lint(with_key("capacity[kind=on-demand].price"));
  REQUIRE(bad_values(missing).size() == 1);
  CHECK(bad_values(missing).front()->message ==
        "assumptions[0].key = \"capacity[kind=on-demand].price\" names no [[capacity]] slice of the plan");
  CHECK_THAT(bad_values(missing).front()->help.value_or(""),
             Catch::Contains("capacity[kind=reserved], capacity[kind=preemptible]"));
  CHECK(bad_values(lint(with_key("capacity[2].goodput"))).size() == 1);
  // A slice's share is the plan's choice, not an assumption; every slice's price no one value.
  CHECK(bad_values(lint(with_key("capacity[0].share"))).size() == 1);
  CHECK(bad_values(lint(with_key("capacity.price"))).size() == 1);
  // The assumption rules read the slice's value: orphan and value mismatch as for a table's key.
  const FileResult mismatched = lint(with_key("capacity[kind=preemptible].price"));
  CHECK_FALSE(has_rule(mismatched, "assumption-orphan"));
  CHECK(has_rule(mismatched, "assumption-value-mismatch"));
}

TEST_CASE("an inference plan's monthly cost reads the blended price", "[estimates][capacity][serving]") {
  const Estimated mixed = estimate_text(inference_plan() + mix);
  const Estimated single = estimate_text(inference_plan({{"cluster.price", "\"$1.74/GPU/h\""}}));
  CHECK(mixed["infer.cost_per_month"].value == Approx(single["infer.cost_per_month"].value));
  CHECK(mixed.estimates.find("train.goodput") == nullptr);
}

TEST_CASE("the capacity rules judge the mix", "[rules][capacity]") {
  const std::string plan = training_plan({{"cluster.price", "\"$3/GPU/h\""}});
  CHECK_FALSE(has_rule(lint(plan + mix), "capacity-shares"));
  CHECK_FALSE(has_rule(lint(plan + mix), "preemptible-goodput"));
  std::string short_mix = mix;
  short_mix.replace(short_mix.find("share = 0.4"), 11, "share = 0.3");
  CHECK(has_rule(lint(plan + short_mix), "capacity-shares"));
  std::string spot_as_reserved = mix;
  spot_as_reserved.replace(spot_as_reserved.find("goodput = \"75%\""), 15, "goodput = \"95%\"");
  CHECK(has_rule(lint(plan + spot_as_reserved), "preemptible-goodput"));
  // Every slice priced: cluster.price is unused, and said so.
  CHECK(has_rule(lint(plan + mix), "capacity-price-unused"));
  CHECK_FALSE(has_rule(lint(training_plan() + mix), "capacity-price-unused"));
}

TEST_CASE("report --format json shows the blended price and goodput", "[report][capacity]") {
  const FileResult result = lint(training_plan({{"cluster.price", "\"$3/GPU/h\""}}) + mix);
  REQUIRE(result.estimates);
  const MetricValue* total = result.estimates->find("cost.total");
  REQUIRE(total);
  bool reads_blend = false;
  for (const MetricInput& input : total->inputs) reads_blend |= input.is_metric && input.name == "cost.price";
  CHECK(reads_blend);
}
