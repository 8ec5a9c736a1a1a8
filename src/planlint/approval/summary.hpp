#pragma once
/// What an approver reads off a set of plans beside the portfolio (docs/report.md): per plan
/// who owns it, its review state and the assumption that moves its cost most; over all plans
/// the grand total of training cost and of serving cost. Every figure is a metric of the plans'
/// estimates (cost.total, infer.cost_per_month) or a sum of them; nothing is recomputed.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "planlint/estimate/estimates.hpp"
#include "planlint/estimate/portfolio.hpp"
#include "planlint/estimate/sensitivity.hpp"
#include "planlint/plan/plan.hpp"

namespace planlint {

/// A figure and its range at the [[assumptions]] ends (the value at both ends without one).
struct RangedFigure {
  double value = 0, low = 0, high = 0;
};

/// The assumption whose range moves a plan's cost most: the widest bar of the cost metric's
/// sensitivity (sensitivity.hpp).
struct CostDriver {
  const MetricSpec* metric = nullptr;  ///< cost.total, or infer.cost_per_month for a serving plan
  SensitivityBar bar;
};

/// One plan as an approver reads it.
struct PlanApproval {
  std::string owner;   ///< plan.owner, "" when not stated
  std::string status;  ///< plan.status ("draft", "review", "approved"), "" when not stated
  std::optional<Date> last_review;              ///< plan.updated
  std::optional<Date> start;                    ///< plan.start: when its GPUs are first needed
  std::optional<RangedFigure> training_cost;     ///< cost.total
  std::optional<RangedFigure> serving_per_month;  ///< infer.cost_per_month
  std::optional<CostDriver> cost_driver;
};

/// `plan`'s approval facts from its estimates and their sensitivity (null: no driver).
PlanApproval plan_approval(const Plan& plan, const Estimates& estimates, const Sensitivity* sensitivity);

/// Months in a year: serving cost per year is infer.cost_per_month's 730.5 hours twelve times
/// (8766 hours, a Julian year), the month the metric is defined over.
inline constexpr double months_per_year = 12;

/// The sums over every plan: what the portfolio commits to.
struct GrandTotal {
  std::size_t training_plans = 0;  ///< plans with a training cost
  std::size_t serving_plans = 0;   ///< plans with a serving cost
  RangedFigure training_cost;      ///< the sum of cost.total, and of its ends
  RangedFigure serving_per_month;  ///< the sum of infer.cost_per_month, and of its ends
  RangedFigure serving_per_year() const {
    return {serving_per_month.value * months_per_year, serving_per_month.low * months_per_year,
            serving_per_month.high * months_per_year};
  }
};

GrandTotal grand_total(const std::vector<PlanApproval>& plans);

/// The GPUs of one type the plans need at once. A plan holds its GPUs from its `plan.start`
/// for its wall-clock days (the portfolio's days), a serving plan from its start on; when every
/// plan of the type states its start, `gpus` is the most that are held on one day, else the
/// sum of their counts (every plan at the same time).
struct GpuPeak {
  std::string gpu;
  double gpus = 0;
  bool dated = false;        ///< every plan of the type states its start: `gpus` is a peak
  std::optional<Date> from;  ///< the first day of the peak, when dated
  std::vector<std::string> plans;  ///< the plans that hold the peak (dated), by name
};

/// The peak of each GPU type of `rows` (the portfolio's, by GPU type as its totals), with
/// `approvals[i]` the facts of `rows[i]`.
std::vector<GpuPeak> gpu_peaks(const std::vector<PortfolioPlan>& rows, const std::vector<PlanApproval>& approvals);

}  // namespace planlint
