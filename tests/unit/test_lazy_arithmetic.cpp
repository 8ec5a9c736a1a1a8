// estimate() keeps every metric's numbers but writes its arithmetic only when something reads
// it (LazyText): the text is the same on every read, in copies, and after the plan is gone.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "planlint/estimate/engine.hpp"
#include "test_estimates_support.hpp"

using namespace planlint;
using namespace planlint::test;

namespace {

std::string example_text(std::string_view name) {
  auto text = read_file(std::string(PLANLINT_SOURCE_DIR) + "/examples/" + std::string(name));
  if (!text) INFO(text.error().message);
  REQUIRE(text.has_value());
  return *text;
}

}  // namespace

TEST_CASE("LazyText reads like the string it makes", "[estimates][lazy]") {
  LazyText empty;
  CHECK(empty.empty());
  CHECK(empty.str().empty());
  LazyText eager = std::string("4 × 2 = 8");
  CHECK_FALSE(eager.empty());
  CHECK(eager == "4 × 2 = 8");
  int renders = 0;
  LazyText deferred = LazyText::deferred([&renders] {
    ++renders;
    return std::string("6 × 7B");
  });
  CHECK(renders == 0);  // nothing made until read
  CHECK_FALSE(deferred.empty());
  CHECK(renders == 0);
  CHECK(deferred.str() == "6 × 7B");
  CHECK(fmt::format("[{}]", deferred) == "[6 × 7B]");
  LazyText copy = deferred;
  CHECK(copy == "6 × 7B");
  std::ostringstream out;
  out << copy;
  CHECK(out.str() == "6 × 7B");
  CHECK(static_cast<std::string>(copy) == "6 × 7B");
  CHECK(renders == 5);
}

TEST_CASE("every metric's arithmetic outlives the plan and reads the same each time", "[estimates][lazy]") {
  for (const char* name : {"llama-70b-pretrain.toml", "moe-pretrain.toml", "inference-serving.toml",
                           "finetune-qlora.toml", "cluster-plan.toml"}) {
    INFO(name);
    std::map<std::string, std::string> first;
    Estimates copy;
    {
      Estimated e = estimate_text(example_text(name));
      REQUIRE_FALSE(e.estimates.values().empty());
      for (const MetricValue& value : e.estimates.values()) {
        const std::string& metric = value.name;
        INFO(metric);
        const std::string text = value.arithmetic.str();
        // A metric that is one term (a catalog figure, a dense model's weights read) reads as its
        // value; any other shows its terms and " = value".
        if (text.find(" = ") == std::string::npos) CHECK(text == detail::show_metric_value(value, value.value));
        CHECK(value.arithmetic.str() == text);
        CHECK_FALSE(value.formula.empty());
        first[metric] = text;
      }
      copy = e.estimates;
    }  // the plan and its source are gone
    for (const MetricValue& value : copy.values()) {
      const std::string& metric = value.name;
      INFO(metric);
      CHECK(value.arithmetic.str() == first[metric]);
    }
  }
}

TEST_CASE("the arithmetic shows each input as the eager text did", "[estimates][lazy]") {
  const Estimated e = estimate_text(example_text("llama-70b-pretrain.toml"));
  // Spot checks of each kind of term: plan values (with percent for fractions), metrics,
  // counts, catalog values, and the formulas built of several terms.
  CHECK_THAT(e["train.gpu_hours"].arithmetic.str(), Catch::Contains("FLOPS × "));
  CHECK_THAT(e["train.gpu_hours"].arithmetic.str(), Catch::Contains("%) = "));
  CHECK_THAT(e["train.memory.total"].arithmetic.str(), Catch::Matches(".+B \\+ .+B \\+ .+B = .+B"));
  CHECK_THAT(e["train.step_seconds"].arithmetic.str(), Catch::StartsWith("6 × "));
}
