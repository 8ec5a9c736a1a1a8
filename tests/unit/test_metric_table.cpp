// The metric table (metrics/metric_table.hpp): every metric once, and the properties it
// declares agree with what the formulas compute; docs/estimates.md's metric list is generated
// from it (PLANLINT_UPDATE_GOLDEN=1 rewrites the list).
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>

#include <catch2/catch.hpp>

#include "planlint/metrics/metric_table.hpp"
#include "integration_support.hpp"
#include "test_estimates_support.hpp"

namespace fs = std::filesystem;
using namespace planlint;
using namespace planlint::test;

namespace {

/// Whether `metric` reads the plan key `key`, directly or through the metrics it uses.
bool reads_key(const Estimates& estimates, const MetricValue& metric, std::string_view key) {
  for (const MetricInput& input : metric.inputs) {
    if (!input.is_metric && input.name == key) return true;
    if (const MetricValue* used = input.is_metric ? estimates.find(input.name) : nullptr;
        used && reads_key(estimates, *used, key))
      return true;
  }
  return false;
}

/// A training plan that states every input of every training metric, and an inference plan.
const std::map<std::string, std::string> full_training = {
    {"training.schedule_margin", "1.2"},       {"cluster.price", "\"$2/GPU/h\""},
    {"training.checkpoint_write_time", "\"60 s\""}, {"cluster.node_mtbf", "\"1000 h\""}};

}  // namespace

TEST_CASE("the metric table lists every metric once, in report order", "[metric-table]") {
  std::set<std::string_view> names;
  const auto table = metric_table();
  ReportSection section = ReportSection::run;  // the first
  REQUIRE(table.size() == metric_count);
  for (std::size_t i = 0; i < table.size(); ++i) {
    const MetricSpec& metric = table[i];
    INFO(metric.name);
    CHECK(static_cast<std::size_t>(metric.id) == i);
    CHECK(&metric_spec(metric.id) == &metric);
    CHECK(find_metric(metric.name) == &metric);
    CHECK(names.insert(metric.name).second);
    // One section after another, as the report prints them.
    if (metric.section != ReportSection::json_only) {
      CHECK(section <= metric.section);
      section = metric.section;
    }
    // Only a cost-tier metric gets a range; a fraction is a share of something.
    if (metric.ranged_by != 0) CHECK(metric.tier == Tier::cost);
    if (metric.fraction) CHECK(metric.dim.dimensionless());
    CHECK_FALSE(metric.summary.empty());
  }
  CHECK(find_metric("train.dayz") == nullptr);
  CHECK(find_metric("") == nullptr);
  CHECK(find_metric("train") == nullptr);
}

TEST_CASE("a cost-tier metric's ranged keys are the ranged keys its formula reads", "[metric-table]") {
  const Estimated training = estimate_text(training_plan(full_training));
  std::size_t checked = 0;
  for (const MetricSpec& metric : metric_table()) {
    const MetricValue* value = training.estimates.find(metric.id);
    if (!value || metric.tier != Tier::cost) continue;
    for (const RangedKey key : ranged_keys) {
      INFO(metric.name << " and " << plan_key_of(key));
      CHECK(ranged_by(metric, key) == reads_key(training.estimates, *value, plan_key_of(key)));
    }
    ++checked;
  }
  // every training cost-tier metric but train.mfu.with_attention and cost.capacity_share (no mix) was computed
  CHECK(checked == 15);
}

TEST_CASE("a metric follows an MoE model's parameters as the table says", "[metric-table]") {
  // N_a doubled with N kept, and N doubled with N_a kept.
  const auto moe = [](std::map<std::string, std::string> plan, std::string_view params,
                      std::string_view active) {
    plan["model.architecture"] = "\"moe\"";
    plan["model.params"] = fmt::format("\"{}\"", params);
    plan["model.active_params"] = fmt::format("\"{}\"", active);
    return plan;
  };
  std::size_t checked = 0;
  for (bool training : {true, false}) {
    auto plan = [&](std::string_view params, std::string_view active) {
      return training ? estimate_text(training_plan(moe(full_training, params, active)))
                      : estimate_text(inference_plan(moe({}, params, active)));
    };
    const Estimated base = plan("140B", "20B"), more_active = plan("140B", "40B"), more_total = plan("280B", "20B");
    for (const MetricSpec& metric : metric_table()) {
      const MetricValue* value = base.estimates.find(metric.id);
      if (!value || value->value == 0) continue;
      INFO(metric.name);
      const double with_active = more_active[metric.name].value / value->value;
      const double with_total = more_total[metric.name].value / value->value;
      // In proportion to the parameter count, or to its inverse (tokens per parameter).
      const auto follows = [](double ratio) { return ratio == Approx(2) || ratio == Approx(0.5); };
      switch (metric.moe) {
        case MoeScaling::active_params:
          CHECK(follows(with_active));
          CHECK(with_total == Approx(1));
          break;
        case MoeScaling::total_params:
          CHECK(follows(with_total));
          CHECK(with_active == Approx(1));
          break;
        case MoeScaling::routed_experts:
          // With the routed experts' share of the weights.
          CHECK(with_active != Approx(1));
          break;
        case MoeScaling::none:
          CHECK_FALSE((follows(with_active) && with_total == Approx(1)));
          CHECK_FALSE((follows(with_total) && with_active == Approx(1)));
          break;
      }
      ++checked;
    }
  }
  CHECK(checked >= 25);
}

TEST_CASE("a plain number in a claim or target is read in the metric's plain unit", "[metric-table]") {
  for (const MetricSpec& metric : metric_table()) {
    INFO(metric.name);
    const std::string plan = training_plan() + fmt::format("[estimates]\n\"{}\" = 3\n", metric.name) +
                             fmt::format("\n[[targets]]\nname = \"t\"\nmetric = \"{}\"\nmax = 3\n", metric.name);
    const LoadResult loaded = load_text(plan);
    REQUIRE(loaded.plan.has_value());
    const double expected = 3 * metric.plain.scale;
    if (metric.fraction) continue;  // 3 is 300%: out of a fraction's range
    REQUIRE(loaded.plan->estimates.size() == 1);
    REQUIRE(loaded.plan->estimates[0].value.has_value());
    CHECK(loaded.plan->estimates[0].value->quantity()->value == Approx(expected));
    REQUIRE(loaded.plan->targets.size() == 1);
    const PlanValue* max = loaded.plan->targets[0].find("max");
    REQUIRE(max != nullptr);
    CHECK(max->quantity()->value == Approx(expected));
  }
  CHECK(plain_number_unit(metric_spec(Metric::train_days)) == "days");
  CHECK(plain_number_unit(metric_spec(Metric::cost_gpu_hours_billed)) == "GPU-hours");
  CHECK(plain_number_unit(metric_spec(Metric::train_comm_fraction)) == "fraction");
  CHECK(plain_number_unit(metric_spec(Metric::train_micro_batches)) == "plain numbers");
}

TEST_CASE("docs/estimates.md lists the metric table as it is", "[metric-table][docs]") {
  const std::string generated = metric_table_markdown();
  INFO("docs/estimates.md's metric table is out of date: PLANLINT_UPDATE_GOLDEN=1 build/tests/planlint_tests "
       "\"[metric-table]\" rewrites it");
  CHECK(planlint::test::generated_region(fs::path(PLANLINT_SOURCE_DIR) / "docs/estimates.md",
                                         "<!-- metric table: generated from src/planlint/metrics/metric_table.cpp -->\n",
                                         "<!-- end of the metric table -->\n", generated) == generated);
}
