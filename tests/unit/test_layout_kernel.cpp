// The layout kernel (estimate/layout_kernel.hpp) against the metric table: for every training
// plan of the examples, the rule cases and the estimates' fixtures, the kernel's figures of the
// plan's own layout equal the metrics estimate() computes, so that the solver's search and the
// findings read one formula.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "planlint/estimate/layout_kernel.hpp"
#include "planlint/lint/lint.hpp"
#include "planlint/source/source_file.hpp"
#include "support.hpp"
#include "test_estimates_support.hpp"

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
        {Metric::train_offload_state_bytes, f.offload_state_bytes},
        {Metric::train_offload_activation_bytes, f.offload_activation_bytes},
        {Metric::train_offload_bytes, f.offload_bytes},
        {Metric::train_offload_seconds, f.offload_seconds},
        {Metric::train_offload_fraction, f.offload_fraction},
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

TEST_CASE("the layout kernel's offload figures equal the metrics for each offload mode, and its host memory "
          "offload-host-memory's",
          "[layout][estimates][offload]") {
  // Dense and MoE, pipelined (1F1B, interleaved, a stated first stage), ZeRO 0 and 3, LoRA: each
  // with every offload mode written into the plan.
  const std::vector<std::map<std::string, std::string>> shapes = {
      {{"training.tp", "8"}, {"training.pp", "4"}, {"training.zero", "1"}},
      {{"training.tp", "4"}, {"training.pp", "4"}, {"training.virtual_stages", "2"}, {"training.zero", "0"},
       {"training.recompute", "\"full\""}},
      {{"training.tp", "2"}, {"training.pp", "4"}, {"training.first_stage_layers", "7"}, {"training.zero", "3"},
       {"training.cp", "2"}},
      {{"model.architecture", "\"moe\""}, {"model.params", "\"47B\""}, {"model.active_params", "\"13B\""},
       {"model.experts", "8"}, {"model.experts_per_token", "2"}, {"model.mlp", "\"swiglu\""},
       {"model.expert_ffn_hidden", "14336"}, {"model.moe_layers", "32"}, {"training.ep", "8"}, {"training.tp", "2"},
       {"training.zero", "1"}},
      {{"plan.kind", "\"finetune\""}, {"training.lora_rank", "16"}, {"training.tp", "8"}, {"training.zero", "2"},
       {"model.ffn_hidden", "11008"}},
  };
  std::size_t compared = 0;
  for (const auto& shape : shapes)
    for (const std::string_view mode : {"none", "optimizer", "activations", "optimizer+activations"})
      for (const std::string_view host_memory : {"\"128 GB\"", "\"4 TB\""}) {
        std::map<std::string, std::string> keys = shape;
        keys["training.offload"] = fmt::format("\"{}\"", mode);
        keys["cluster.host_memory"] = std::string(host_memory);
        const std::string toml = test::training_plan(keys);
        INFO(toml);
        test::LoadResult loaded = test::load_text(toml, "plan.toml");
        REQUIRE(loaded.plan);
        const Estimates estimates = estimate(*loaded.plan, Catalog::builtin(), EstimateScope{false, false});
        const layout::TrainingInputs inputs = layout::read_training_inputs(*loaded.plan, Catalog::builtin(), estimates);
        const layout::TrainingLayout l = layout::plan_layout(*loaded.plan);
        CHECK(layout::offload_name(l.offload) == mode);
        const layout::TrainingFigures f = layout::evaluate(inputs, l);
        const std::pair<Metric, double> figures[] = {
            {Metric::train_memory_states, f.states},
            {Metric::train_memory_activations, f.activations},
            {Metric::train_memory_total, f.total},
            {Metric::train_memory_lower_bound, f.lower_bound},
            {Metric::train_offload_state_bytes, f.offload_state_bytes},
            {Metric::train_offload_activation_bytes, f.offload_activation_bytes},
            {Metric::train_offload_bytes, f.offload_bytes},
            {Metric::train_offload_seconds, f.offload_seconds},
            {Metric::train_offload_fraction, f.offload_fraction},
        };
        for (const auto& [metric, figure] : figures) {
          const MetricValue* value = estimates.find(metric);
          INFO(metric_spec(metric).name << " = " << (value ? value->value : layout::absent) << ", the kernel's "
                                        << figure);
          // Present exactly where the metric is, and equal to it.
          CHECK(std::isnan(figure) == !value);
          if (value) {
            CHECK(figure == value->value);
            ++compared;
          }
        }
        // The same figures from a twin of another mode (what the search evaluates).
        layout::TrainingLayout none = l;
        none.offload = layout::Offload::none;
        layout::TrainingFigures twin = layout::evaluate(inputs, none);
        layout::evaluate_offload_twin(inputs, l, layout::memory_terms(inputs, l, true, true), twin);
        CHECK(twin.states == f.states);
        CHECK(twin.lower_bound == f.lower_bound);
        CHECK((twin.offload_bytes == f.offload_bytes || (std::isnan(twin.offload_bytes) && std::isnan(f.offload_bytes))));
        CHECK((twin.offload_fraction == f.offload_fraction || (std::isnan(twin.offload_fraction) && std::isnan(f.offload_fraction))));
        // offload-host-memory fires exactly where the kernel's node bytes exceed the host memory.
        auto source = std::make_shared<const SourceFile>("plan.toml", toml);
        const FileResult linted = lint_text(source, source->text(), LintOptions{});
        const bool fires = std::any_of(linted.diagnostics.begin(), linted.diagnostics.end(),
                                       [](const Diagnostic& d) { return d.rule == "offload-host-memory"; });
        INFO("node bytes " << f.offload_node_bytes << " of " << inputs.host_memory);
        CHECK(fires == (f.offload_node_bytes > inputs.host_memory));
      }
  CHECK(compared >= 150);
}
