/// The price and the goodput of the capacity a plan buys: its one cluster.price and
/// training.goodput, or with [[capacity]] the share-weighted means of its slices'
/// (docs/estimates.md, "Capacity mixes").
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "planlint/estimate/engine.hpp"

namespace planlint::detail {

namespace {

/// One slice's share and the figure the blend weighs by it.
struct Weighted {
  Term share, figure;
};

/// Σ shareᵢ · figureᵢ over the slices, each slice's figure its own `field` or, where it states
/// none, the plan's `fallback` key; recorded on `m`.
double blend(EstimateContext& context, MetricBuilder& m, std::string_view shown_as, std::string_view fallback,
             std::vector<Weighted>& terms) {
  const std::vector<PlanTable>& slices = context.plan().capacity;
  terms.reserve(slices.size());
  double sum = 0;
  for (std::size_t i = 0; i < slices.size(); ++i) {
    const std::string prefix = context.with_provenance() ? fmt::format("capacity[{}]", i) : std::string();
    std::optional<Term> share = m.optional_element(slices[i], "capacity.share", prefix + ".share");
    if (!share) {
      m.missing(prefix + ".share");
      share = Term{std::numeric_limits<double>::quiet_NaN(), "?"};
    }
    std::string field = prefix;
    field += shown_as.substr(shown_as.find('.'));
    std::optional<Term> figure = m.optional_element(slices[i], shown_as, std::move(field));
    if (!figure) figure = m.plan(fallback);
    sum += share->value * figure->value;
    terms.push_back({*share, *figure});
  }
  return sum;
}

/// "60% × $2.1/GPU/h + 40% × $1.2/GPU/h".
std::string weighted_text(const std::vector<Weighted>& terms) {
  std::string text;
  for (const Weighted& term : terms) {
    if (!text.empty()) text += " + ";
    text += fmt::format("{} × {}", term.share.text, term.figure.text);
  }
  return text;
}

// The slices' shares of the job's GPUs; a mix that covers the job sums to 100% (capacity-shares).
void capacity_share(EstimateContext& context) {
  const std::vector<PlanTable>& slices = context.plan().capacity;
  if (slices.empty()) return;
  MetricBuilder m(context, Metric::cost_capacity_share);
  std::vector<Term> shares;
  shares.reserve(slices.size());
  double sum = 0;
  for (std::size_t i = 0; i < slices.size(); ++i) {
    const std::string name = context.with_provenance() ? fmt::format("capacity[{}].share", i) : std::string();
    if (std::optional<Term> share = m.optional_element(slices[i], "capacity.share", name)) {
      sum += share->value;
      shares.push_back(*share);
    } else {
      m.missing(name);
    }
  }
  m.finish(sum, "Σ capacity.share", [shares] {
    std::string text;
    for (const Term& share : shares) text += (text.empty() ? "" : " + ") + share.text.str();
    return text;
  });
}

/// `metric`: the plan's `plan_key`, or with [[capacity]] Σ share · the slices' `slice_key`
/// (a slice without one: `plan_key`).
void blended(EstimateContext& context, Metric metric, std::string_view slice_key, std::string_view plan_key) {
  MetricBuilder m(context, metric);
  if (context.plan().capacity.empty()) {
    const Term value = m.plan(plan_key);
    m.finish(value.value, plan_key, [=] { return value.text.str(); });
    return;
  }
  std::vector<Weighted> terms;
  const double value = blend(context, m, slice_key, plan_key, terms);
  const std::string_view field = slice_key.substr(slice_key.find('.') + 1);
  m.finish(value, fmt::format("Σ capacity.share · {} (a slice without a {}: {})", slice_key, field, plan_key),
           [terms = std::move(terms)] { return weighted_text(terms); });
}

}  // namespace

void estimate_capacity(EstimateContext& context) {
  capacity_share(context);
  // A slice of share s bills s of the job's GPU-hours at its own price.
  blended(context, Metric::cost_price, "capacity.price", "cluster.price");
  // A synchronous job stops when any of its nodes is interrupted, and interruptions arrive in
  // proportion to the nodes a capacity holds: a slice of share s whose capacity alone would run
  // at goodput g adds s · (1 − g) to the job's lost time, to first order in the losses.
  if (context.plan().is_training()) blended(context, Metric::train_goodput, "capacity.goodput", "training.goodput");
}

}  // namespace planlint::detail
