#pragma once
/// The figures the HTML report draws and tabulates, computed here so that its renderer only
/// shows them (docs/report.md): a plan's memory per GPU in parts against its HBM and a
/// portfolio of plans with totals per GPU type (its targets: targets.hpp).
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "planlint/estimate/estimates.hpp"
#include "planlint/estimate/targets.hpp"

namespace planlint {

/// Memory per GPU as the parts of the memory group's total: the metrics of the plan kind's
/// memory section that the total adds up (its metric inputs there), in the table's order.
struct MemoryBar {
  const MetricSpec* total = nullptr;   ///< train.memory.total, infer.memory.total
  double total_bytes = 0;
  struct Part {
    const MetricSpec* metric = nullptr;
    double bytes = 0;
  };
  std::vector<Part> parts;
  std::optional<double> hbm_bytes;  ///< cluster.hbm (stated or the catalog's)
};

/// The plan's memory bar, or nullopt when its total is not computed or its parts do not add up
/// to it (an inference plan's total holds per-GPU shares of whole-model figures).
std::optional<MemoryBar> memory_bar(const Plan& plan, const Estimates& estimates);

/// One plan of a portfolio.
struct PortfolioPlan {
  std::string name;       ///< plan.name, else the file
  std::string kind;       ///< "training", "finetune", "inference"
  std::string file;
  std::string anchor;     ///< the id of the plan's section in the report ("plan-1")
  std::string gpu;        ///< cluster.gpu, "" when not stated
  std::optional<double> gpus;       ///< cluster.count
  std::optional<double> days;       ///< train.wall_days (seconds), else train.days
  std::optional<double> gpu_hours;  ///< cost.gpu_hours_billed (GPU-seconds), else train.gpu_hours
  std::optional<double> cost, cost_low, cost_high;  ///< cost.total (USD) and its range
  std::size_t errors = 0, warnings = 0;
  std::optional<Date> last_reviewed;  ///< plan.updated
};

/// The sums of one GPU type's plans (a figure a plan lacks adds nothing).
struct PortfolioTotal {
  std::string gpu;
  std::size_t plans = 0;
  std::size_t costed_plans = 0;  ///< plans with a cost (inference plans have none)
  double gpus = 0, gpu_hours = 0, cost = 0, cost_low = 0, cost_high = 0;
};

struct Portfolio {
  std::vector<PortfolioPlan> plans;    ///< by cost, dearest first; plans without a cost last
  std::vector<PortfolioTotal> totals;  ///< by GPU type
};

/// A plan's row: its figures from `estimates` and the findings counted by the lint run.
PortfolioPlan portfolio_plan(const Plan* plan, const Estimates& estimates, std::string file, std::string anchor,
                             std::size_t errors, std::size_t warnings);

/// The plans ordered and totalled.
Portfolio make_portfolio(std::vector<PortfolioPlan> plans);

}  // namespace planlint
