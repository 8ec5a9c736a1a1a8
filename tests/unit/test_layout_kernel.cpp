// The layout kernel (estimate/layout_kernel.hpp) against the metric table: for every training
// plan of the examples, the rule cases and the estimates' fixtures, the kernel's figures of the
// plan's own layout equal the metrics estimate() computes, so that the solver's search and the
// findings read one formula.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "planlint/estimate/layout_kernel.hpp"
#include "planlint/source/source_file.hpp"
#include "support.hpp"

using namespace planlint;

namespace {

/// The training plans whose figures the kernel must reproduce.
std::vector<std::string> training_plan_files() {
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

/// A layout key the plan writes as something other than a whole number (a bad-value case) makes
/// a layout the kernel's integers cannot hold.
bool whole_layout(const Plan& plan) {
  for (const char* key : {"training.tp", "training.pp", "training.virtual_stages", "training.dp", "training.cp",
                          "training.ep", "training.micro_batch", "training.zero"}) {
    const std::optional<double> value = plan.number(key);
    if (value && (std::floor(*value) != *value || *value > 1e9)) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("the layout kernel's figures equal the metrics of every example and rule case", "[layout][estimates]") {
  std::size_t plans = 0, compared = 0;
  for (const std::string& file : training_plan_files()) {
    Result<std::string> text = read_file(file);
    REQUIRE(text);
    test::LoadResult loaded = test::load_text(*std::move(text), file);
    if (!loaded.plan || !loaded.plan->is_training() || !whole_layout(*loaded.plan)) continue;
    const Plan& plan = *loaded.plan;
    const Estimates estimates = estimate(plan, Catalog::builtin(), EstimateScope{false, false});
    const layout::TrainingInputs inputs = layout::read_training_inputs(plan, Catalog::builtin(), estimates);
    const layout::TrainingFigures f = layout::evaluate(inputs, layout::plan_layout(plan));
    ++plans;
    const std::pair<Metric, double> figures[] = {
        {Metric::train_memory_states, f.states},
        {Metric::train_memory_activations, f.activations},
        {Metric::train_memory_reserve, f.reserve},
        {Metric::train_memory_total, f.total},
        {Metric::train_step_seconds, f.step_seconds},
        {Metric::train_gpu_seconds, f.gpu_seconds},
        {Metric::train_days, f.days},
        {Metric::train_wall_days, f.wall_days},
        {Metric::train_schedule_days, f.schedule_days},
        {Metric::cost_gpu_hours_billed, f.billed},
        {Metric::cost_total, f.cost},
        {Metric::train_comm_allreduce_bytes, f.allreduce_bytes},
        {Metric::train_comm_dp_group_domains, f.dp_group_domains},
        {Metric::train_comm_seconds, f.comm_seconds},
        {Metric::train_comm_fraction, f.comm_fraction},
        {Metric::train_comm_fraction_lower_bound, f.comm_fraction_lower_bound},
        {Metric::train_micro_batches, f.micro_batches},
        {Metric::train_pipeline_bubble, f.bubble},
        {Metric::train_comm_ep_group_domains, f.ep_group_domains},
        {Metric::train_comm_alltoall_bytes, f.alltoall_bytes},
        {Metric::train_comm_alltoall_seconds, f.alltoall_seconds},
        {Metric::train_comm_alltoall_fraction, f.alltoall_fraction},
    };
    for (const auto& [metric, figure] : figures) {
      const MetricValue* value = estimates.find(metric);
      if (!value) continue;
      INFO(file << ": " << metric_spec(metric).name << " = " << value->value << ", the kernel's " << figure);
      CHECK(figure == value->value);
      ++compared;
    }
    // memory-fit's bound, where the kernel sizes the activations (it searches only such plans).
    if (const MetricValue* bound = estimates.find(Metric::train_memory_lower_bound);
        bound && estimates.find(Metric::train_memory_activations)) {
      INFO(file << ": train.memory.lower_bound = " << bound->value << ", the kernel's " << f.lower_bound);
      CHECK(f.lower_bound == bound->value);
      ++compared;
    }
  }
  // Enough plans of every kind (dense, MoE, pipelined, ZeRO stages) that the comparison means something.
  CHECK(plans >= 100);
  CHECK(compared >= 1000);
}
