#pragma once
/// The metrics of estimates.md computed from a plan, each with its provenance (formula and
/// inputs with their plan locations) and, for cost-tier metrics, the low/high range implied by
/// the assumptions behind MFU, goodput and price. A metric whose inputs are missing is absent,
/// with the names of the missing inputs.
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "planlint/catalog/catalog.hpp"
#include "planlint/metrics/metric_table.hpp"
#include "planlint/plan/plan.hpp"

namespace planlint {

/// How a deferred text is made: a callable returning the text, kept with its captures in the
/// one allocation that copies of the text share (a std::function inside a shared_ptr took two,
/// for every metric of every plan).
class TextRecipe {
 public:
  virtual ~TextRecipe() = default;
  virtual std::string render() const = 0;
};

namespace detail {
template <typename Render>
class TextRecipeOf final : public TextRecipe {
 public:
  explicit TextRecipeOf(Render render) : render_(std::move(render)) {}
  std::string render() const override { return std::string(render_()); }

 private:
  Render render_;
};
}  // namespace detail

/// The recipe of `render`, a callable returning the text.
template <typename Render>
std::shared_ptr<const TextRecipe> make_text_recipe(Render render) {
  return std::make_shared<const detail::TextRecipeOf<Render>>(std::move(render));
}

/// Text made only when something reads it: estimate() keeps every metric's numbers but
/// writes its arithmetic ("6 × 7B × 1T tokens = 4.2e22 FLOP") only for the findings, reports and
/// JSON that show it (formatting every metric's arithmetic was a quarter of a folder run).
/// Reads like a string: str(), comparison, fmt and ostream output. Copies share the recipe.
class LazyText {
 public:
  LazyText() = default;
  LazyText(std::string text) : text_(std::move(text)) {}  // NOLINT: reads as a string
  LazyText(const char* text) : text_(text) {}             // NOLINT
  /// Renders with `render` (a callable returning the text) on each read; `render` must not
  /// depend on anything that can change or go away (it captures values, and views of string
  /// literals only).
  template <typename Render>
  static LazyText deferred(Render render) {
    LazyText text;
    text.recipe_ = make_text_recipe(std::move(render));
    return text;
  }

  std::string str() const { return recipe_ ? recipe_->render() : text_; }
  operator std::string() const { return str(); }  // NOLINT: reads as a string
  /// Without rendering: a deferred text counts as not empty.
  bool empty() const { return !recipe_ && text_.empty(); }

  friend bool operator==(const LazyText& a, std::string_view b) { return a.str() == b; }
  friend std::ostream& operator<<(std::ostream& out, const LazyText& text) { return out << text.str(); }

 private:
  std::string text_;
  std::shared_ptr<const TextRecipe> recipe_;
};

/// One input of a metric: a plan value (stated or defaulted), a catalog figure, or another
/// metric.
struct MetricInput {
  std::string name;  ///< a plan key ("training.mfu", "cluster.peak": catalog defaults keep their key) or a metric ("train.flops")
  double value = 0;  ///< base units
  units::Dimension dim;
  Origin origin = Origin::plan;
  Span span;         ///< where it is in the plan (catalog values: cluster.gpu); unknown for metrics
  bool is_metric = false;  ///< the input is another metric (its own inputs are in its MetricValue)
  /// The value as written when it is not a number (`recompute = "selective"`, `true`); empty
  /// for quantities. `value` then holds what the formula used, if anything (optimizer: k).
  std::string text;
  /// What the value stands for when the name alone does not say it: "adamw: 2 weights + 2
  /// gradients + 12 optimizer bytes per parameter", "catalog h100-sxm dense bf16 peak"; may be empty.
  std::string note;
};

struct MetricValue {
  std::string name;  ///< "train.days"
  /// Its row of the metric table; null for a name outside it (a test's). Estimates::set
  /// finds it by name when it is not given.
  const MetricSpec* spec = nullptr;
  double value = 0;  ///< base units (seconds for days, GPU·s for GPU-hours, ...)
  units::Dimension dim;
  std::optional<double> low, high;  ///< the range at the assumptions' low/high (cost tier)
  std::string formula;      ///< symbolic: "train.gpu_hours / n / 24"
  LazyText arithmetic;      ///< substituted: "4.42M GPU·h / 2048 / 24 = 90.0 d", made when read
  std::vector<MetricInput> inputs;
  /// What the formula leaves out or bounds, for this plan ("upper bound: ep = 8 also splits the
  /// experts"); may be empty.
  std::vector<std::string> notes;
  /// The plan keys whose [[assumptions]] low/high produced `low`/`high` ("training.mfu").
  std::vector<std::string> range_keys;

  bool has_range() const { return low.has_value() && high.has_value(); }
};

/// An assumption whose low/high the cost-tier ranges were computed over.
struct RangeSource {
  std::string key;         ///< the plan key it justifies: "training.mfu"
  std::string assumption;  ///< the assumption's id: "mfu"
  double low = 0, high = 0;  ///< base units of the key
  units::Dimension dim;
  Span span;               ///< the [[assumptions]] element's header
};

class Estimates {
 public:
  Estimates() = default;
  Estimates(const Estimates&) = default;
  Estimates& operator=(const Estimates&) = default;
  /// A moved-from Estimates is empty, and finds nothing.
  Estimates(Estimates&& other) noexcept;
  Estimates& operator=(Estimates&& other) noexcept;
  ~Estimates() = default;

  const MetricValue* find(std::string_view name) const;
  const MetricValue* find(Metric metric) const {
    const std::uint16_t held = by_metric_[static_cast<std::size_t>(metric)];
    return held ? &values_[held - 1u] : nullptr;
  }
  /// Computed metrics, each once, in the order they were first computed.
  const std::vector<MetricValue>& values() const { return values_; }
  /// The inputs a metric that could not be computed lacks ("model.layers"); nullptr when the
  /// metric was computed, or never tried.
  const std::vector<std::string>* missing_inputs(std::string_view name) const;
  /// The names of the metrics that could not be computed, in the order they were found absent.
  std::vector<std::string_view> absent_names() const;
  const std::vector<std::string>* missing_inputs(Metric metric) const {
    const std::uint16_t held = absent_by_metric_[static_cast<std::size_t>(metric)];
    return held ? &absent_[held - 1u].missing : nullptr;
  }

  /// The assumptions the ranges (MetricValue::low/high) were computed over, in key order
  /// training.mfu, training.goodput, cluster.price.
  const std::vector<RangeSource>& range_sources() const { return range_sources_; }

  void set(MetricValue&& value);
  /// set() of a metric whose entry of the metric table the caller has found (nullptr: none).
  void set(MetricValue&& value, const MetricSpec* known);
  void set_absent(std::string name, std::vector<std::string> missing);
  /// set_absent() of a metric whose entry of the metric table the caller has found (nullptr: none).
  void set_absent(std::string name, const MetricSpec* known, std::vector<std::string> missing);
  void add_range_source(RangeSource source) { range_sources_.push_back(std::move(source)); }

 private:
  std::vector<RangeSource> range_sources_;
  /// One array, not a map by name: a set() walked the map comparing names and allocated a node
  /// for each metric, and freeing a batch's estimates walked every plan's nodes again, long
  /// out of the caches (a tenth of a corpus run's cache misses). A copy's indexes stay valid.
  std::vector<MetricValue> values_;
  /// A metric that could not be computed. Kept as values_ are, with no map by name: a sketch
  /// of a plan leaves half the metrics absent, and a node and a name for each cost a third of
  /// an estimate's allocations.
  struct Absent {
    const MetricSpec* spec = nullptr;  ///< null for a name outside the table (a test's)
    std::string name;                  ///< only for a name outside the table
    std::vector<std::string> missing;
  };
  std::vector<Absent> absent_;
  /// 1 + the place in values_ of each metric of the metric table, 0 for one not computed. A
  /// name outside the table (a test's) is found by a scan of values_.
  std::array<std::uint16_t, metric_count> by_metric_{};
  /// 1 + the place in absent_ of each metric of the table that is absent, else 0.
  std::array<std::uint16_t, metric_count> absent_by_metric_{};
  void forget_absent(const MetricSpec* known, std::string_view name);
};

/// What estimate() records besides each metric's value and arithmetic. `planlint report` shows
/// all of it; a check reads only values and arithmetic (the findings' notes), plus the ranges
/// when a rule reads one (est.NAME.low / .high).
struct EstimateScope {
  /// MetricValue::formula, inputs and notes.
  bool provenance = true;
  /// The cost-tier metrics' low/high and range_keys, and Estimates::range_sources: two more
  /// evaluations of the compute group (RangeEvaluations). Computing them needs the provenance (a metric's
  /// range keys are found through its inputs), which they then bring along.
  bool ranges = true;
};

/// Computes every metric of estimates.md that the plan's inputs allow.
Estimates estimate(const Plan& plan, const Catalog& catalog, EstimateScope scope = {});

/// One end and the other of a metric's range.
struct MetricRange {
  double low = 0, high = 0;
};

/// Which evaluations give the ranges: the two corners of the assumptions' lows and highs
/// (every key at its cheaper end: MFU and goodput high, price low; and every key at its dearer
/// end), which hold each cost-tier metric's lowest and highest value, or every combination of
/// the ends, which the corners stand for (a test compares the two).
enum class RangeEvaluations { corners, every_combination };

/// The ranges of the cost-tier metrics of `estimates` (the plan's estimate() without ranges),
/// by name: the low and high that estimate() with ranges sets (MetricValue::low, high), from
/// the values of the same evaluations, without the provenance that estimate() finds each
/// range's keys through. A metric the assumptions do not move has none. What metric_low() and
/// metric_high() read in a check.
std::map<std::string, MetricRange, std::less<>> metric_ranges(const Plan& plan, const Catalog& catalog,
                                                              const Estimates& estimates,
                                                              RangeEvaluations how = RangeEvaluations::corners);

}  // namespace planlint

template <>
struct fmt::formatter<planlint::LazyText> : fmt::formatter<std::string_view> {
  template <typename Context>
  auto format(const planlint::LazyText& text, Context& context) const {
    const std::string rendered = text.str();
    return fmt::formatter<std::string_view>::format(rendered, context);
  }
};
