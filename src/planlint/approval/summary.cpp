#include "planlint/approval/summary.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <map>

namespace planlint {

namespace {

std::optional<RangedFigure> ranged(const Estimates& estimates, Metric metric) {
  const MetricValue* found = estimates.find(metric);
  if (!found) return std::nullopt;
  return RangedFigure{found->value, found->low.value_or(found->value), found->high.value_or(found->value)};
}

/// Days since 1970-01-01.
double day_number(const Date& date) {
  using namespace std::chrono;
  const sys_days days{year{date.year} / month{static_cast<unsigned>(date.month)} / day{static_cast<unsigned>(date.day)}};
  return static_cast<double>(days.time_since_epoch().count());
}

Date date_of(double day_number) {
  using namespace std::chrono;
  const year_month_day date{sys_days{days{static_cast<long>(day_number)}}};
  return {static_cast<int>(date.year()), static_cast<int>(static_cast<unsigned>(date.month())),
          static_cast<int>(static_cast<unsigned>(date.day()))};
}

void add(RangedFigure& total, const RangedFigure& figure) {
  total.value += figure.value;
  total.low += figure.low;
  total.high += figure.high;
}

}  // namespace

PlanApproval plan_approval(const Plan& plan, const Estimates& estimates, const Sensitivity* sensitivity) {
  PlanApproval approval;
  approval.owner = plan.text("plan.owner").value_or("");
  approval.status = plan.text("plan.status").value_or("");
  if (const PlanValue* updated = plan.find("plan.updated"); updated && updated->date())
    approval.last_review = *updated->date();
  if (const PlanValue* start = plan.find("plan.start"); start && start->date()) approval.start = *start->date();
  approval.training_cost = ranged(estimates, Metric::cost_total);
  approval.serving_per_month = ranged(estimates, Metric::infer_cost_per_month);
  if (sensitivity) {
    // The bars come widest first.
    for (const Metric metric : {Metric::cost_total, Metric::infer_cost_per_month}) {
      const MetricSensitivity* entry = sensitivity->find(metric_spec(metric).name);
      if (!entry || entry->bars.empty()) continue;
      approval.cost_driver = CostDriver{&metric_spec(metric), entry->bars.front()};
      break;
    }
  }
  return approval;
}

GrandTotal grand_total(const std::vector<PlanApproval>& plans) {
  GrandTotal total;
  for (const PlanApproval& plan : plans) {
    if (plan.training_cost) {
      ++total.training_plans;
      add(total.training_cost, *plan.training_cost);
    }
    if (plan.serving_per_month) {
      ++total.serving_plans;
      add(total.serving_per_month, *plan.serving_per_month);
    }
  }
  return total;
}

std::vector<GpuPeak> gpu_peaks(const std::vector<PortfolioPlan>& rows, const std::vector<PlanApproval>& approvals) {
  struct Held {
    double from = 0, to = 0;  // day numbers; a serving plan's `to` is open
    double gpus = 0;
    const std::string* name = nullptr;
  };
  std::map<std::string, GpuPeak> peaks;
  std::map<std::string, std::vector<Held>> held;
  for (std::size_t i = 0; i < rows.size() && i < approvals.size(); ++i) {
    const PortfolioPlan& row = rows[i];
    auto [found, first] = peaks.try_emplace(row.gpu);
    GpuPeak& peak = found->second;
    if (first) peak.dated = true;
    peak.gpu = row.gpu;
    peak.gpus += row.gpus.value_or(0);
    // A plan without a start, or a training plan without its days, has no place in time.
    const bool serving = !approvals[i].training_cost && row.kind == "inference";
    if (!approvals[i].start || (!serving && !row.days)) {
      peak.dated = false;
      continue;
    }
    const double from = day_number(*approvals[i].start);
    const double to = serving ? std::numeric_limits<double>::infinity() : from + *row.days / 86400;
    held[row.gpu].push_back({from, to, row.gpus.value_or(0), &row.name});
  }
  std::vector<GpuPeak> out;
  for (auto& [gpu, peak] : peaks) {
    if (peak.dated) {
      // A sweep over the plans' first and last days, a plan that ends on the day another
      // starts not overlapping it: the most held at once, and from when.
      std::vector<std::pair<double, double>> changes;  // (day, GPUs taken or given back)
      for (const Held& plan : held[gpu]) {
        changes.emplace_back(plan.from, plan.gpus);
        changes.emplace_back(plan.to, -plan.gpus);
      }
      std::sort(changes.begin(), changes.end());
      double at_once = 0, most = 0, most_from = 0;
      for (const auto& [day, change] : changes) {
        at_once += change;
        if (at_once > most) {
          most = at_once;
          most_from = day;
        }
      }
      peak.gpus = most;
      peak.from = date_of(most_from);
      for (const Held& plan : held[gpu])
        if (plan.from <= most_from && most_from < plan.to) peak.plans.push_back(*plan.name);
    }
    out.push_back(std::move(peak));
  }
  return out;
}

}  // namespace planlint
