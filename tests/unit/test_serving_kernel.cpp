// The serving kernel (estimate/serving_kernel.hpp) against the metric table: for every inference
// plan of the examples, the rule cases and the estimates' fixtures, the kernel's figures of the
// plan's own layout equal the metrics estimate() computes, so that the solver's search and the
// findings read one formula.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "planlint/estimate/serving_kernel.hpp"
#include "planlint/source/source_file.hpp"
#include "support.hpp"

using namespace planlint;

namespace {

std::vector<std::string> plan_files() {
  std::vector<std::string> files;
  const std::string root = PLANLINT_SOURCE_DIR;
  for (const std::string& file : test::project_toml_files()) {
    const std::string relative = std::filesystem::relative(file, root).string();
    if (relative.starts_with("examples/") || relative.starts_with("tests/rules/") ||
        relative.starts_with("tests/data/estimates/"))
      files.push_back(file);
  }
  return files;
}

/// A layout key written as something other than a whole number (a bad-value case) makes a layout
/// the kernel's integers cannot hold.
bool whole_layout(const Plan& plan) {
  for (const char* key : {"inference.tp", "inference.pp", "inference.dp_attention"}) {
    const std::optional<double> value = plan.number(key);
    if (value && (std::floor(*value) != *value || *value < 1 || *value > 1e9)) return false;
  }
  return true;
}

bool stated(const Plan& plan, std::string_view path) {
  const PlanValue* value = plan.find(path);
  return value && value->origin == Origin::plan;
}

}  // namespace

TEST_CASE("the serving kernel's figures equal the metrics of every inference example and rule case",
          "[serving][estimates]") {
  std::size_t plans = 0, compared = 0;
  for (const std::string& file : plan_files()) {
    Result<std::string> text = read_file(file);
    REQUIRE(text);
    test::LoadResult loaded = test::load_text(*std::move(text), file);
    if (!loaded.plan || loaded.plan->is_training() || !whole_layout(*loaded.plan)) continue;
    const Plan& plan = *loaded.plan;
    const Estimates estimates = estimate(plan, Catalog::builtin(), EstimateScope{false, false});
    const serving::ServingInputs inputs = serving::read_serving_inputs(plan, Catalog::builtin(), estimates);
    serving::ReplicaLayout l = serving::plan_replica_layout(plan);
    const serving::ServingFigures f = serving::evaluate(inputs, l);
    ++plans;
    std::vector<std::pair<Metric, double>> figures = {
        {Metric::infer_max_concurrency, f.max_concurrency},
        {Metric::infer_decode_tokens_per_s, f.decode_tokens_per_s},
        {Metric::infer_itl, f.itl},
        {Metric::infer_itl_at_concurrency, f.itl_at_concurrency},
        {Metric::infer_ttft, f.ttft},
        {Metric::infer_ttft_with_attention, f.ttft_with_attention},
        {Metric::infer_memory_one_sequence, f.memory_one_sequence},
    };
    // memory.total and kv_cache are the stated concurrency's.
    if (stated(plan, "inference.concurrency")) figures.emplace_back(Metric::infer_memory_total, f.memory_total);
    // The replica's GPUs are tp · pp when the plan states tp (else a sketch's guess).
    if (stated(plan, "inference.tp")) figures.emplace_back(Metric::infer_memory_weights_alone, f.memory_weights_alone);
    // The service: the plan's replicas on the GPUs it books.
    if (!std::isnan(l.replicas)) {
      figures.emplace_back(Metric::infer_service_gpus, f.service_gpus);
      figures.emplace_back(Metric::infer_service_concurrency, f.service_concurrency);
      if (f.service_gpus == inputs.count) figures.emplace_back(Metric::infer_cost_per_month, f.cost_per_month);
    }
    // The replicas the peak needs.
    if (!std::isnan(inputs.peak_concurrency)) figures.emplace_back(Metric::infer_peak_replicas, f.peak_replicas);
    for (const auto& [metric, figure] : figures) {
      const MetricValue* value = estimates.find(metric);
      if (!value) continue;
      INFO(file << ": " << metric_spec(metric).name << " = " << value->value << ", the kernel's " << figure);
      CHECK(figure == value->value);
      ++compared;
    }
  }
  // Enough plans of every kind (dense, MoE, MLA, pipelined, attention ranks, disaggregated) that
  // the comparison means something.
  CHECK(plans >= 40);
  CHECK(compared >= 300);
}
