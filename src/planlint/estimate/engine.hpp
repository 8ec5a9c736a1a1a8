#pragma once
/// Internals of the estimation engine: reading a metric's inputs with their provenance,
/// recording the ones that are missing, and writing the formula and arithmetic of the result.
/// The formulas themselves live in training_compute.cpp, training_memory.cpp,
/// training_comm.cpp and inference.cpp; compute.cpp runs them and adds the ranges.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "planlint/estimate/estimates.hpp"

namespace planlint::detail {

/// Plan values replaced for one evaluation of the ranges: key → value in base units
/// (`training.mfu` → 0.5).
using Overrides = std::map<std::string, double, std::less<>>;

/// One evaluation of every metric: the plan, the catalog, the overridden assumptions, and the
/// metrics computed so far (formulas read earlier metrics from it).
class EstimateContext {
 public:
  EstimateContext(const Plan& plan, const Catalog& catalog, const Overrides& overrides)
      : plan_(plan), catalog_(catalog), overrides_(overrides) {}

  const Plan& plan() const { return plan_; }
  const Catalog& catalog() const { return catalog_; }
  Estimates& estimates() { return estimates_; }
  Estimates take() { return std::move(estimates_); }

  /// The value of `path` for this evaluation: the override, else the plan's (defaults
  /// included); nullopt when the plan has no quantity there.
  std::optional<double> number(std::string_view path) const;

  /// How a missing plan key is named in `Estimates::absent()`: the key, with the reason when
  /// the catalog should have supplied it ("cluster.peak (the catalog has no bf16 peak for
  /// v100-sxm2)").
  std::string missing_name(std::string_view path) const;

 private:
  const Plan& plan_;
  const Catalog& catalog_;
  const Overrides& overrides_;
  Estimates estimates_;
};

/// A number inside a formula and how it reads in the arithmetic ("989 TFLOPS", "40%").
struct Term {
  double value = 0;
  std::string text;
};

/// Builds one metric: collects its inputs (or the names of the missing ones), then sets the
/// metric with its formula and arithmetic, or records it as absent. A missing input reads as
/// NaN so that the formula code runs straight through; finish() discards the result then.
///
///     MetricBuilder m(context, "train.flops");
///     Term n = m.plan("model.active_params"), d = m.plan("training.tokens");
///     m.finish(6 * n.value * d.value, "6 · N_a · D", fmt::format("6 × {} × {}", n.text, d.text));
class MetricBuilder {
 public:
  MetricBuilder(EstimateContext& context, std::string_view name);

  /// A quantity of the plan (stated, defaulted or from the catalog).
  Term plan(std::string_view path);
  /// A quantity of the plan that the formula can do without; nothing is recorded when absent.
  std::optional<Term> optional_plan(std::string_view path);
  /// A string or boolean of the plan ("selective", "true"), recorded as an input; nullopt
  /// (and missing) when absent. `used_value` is what the formula takes from it, if anything.
  std::optional<std::string> choice(std::string_view path, double used_value = 0,
                                    std::string note = {});
  /// Another metric; when it is absent, its missing inputs become this metric's.
  Term metric(std::string_view name);

  /// Records a missing input by name (a plan key, possibly with a reason).
  void missing(std::string name);
  bool complete() const { return missing_.empty(); }
  /// Adds a note on what the formula leaves out or bounds for this plan.
  void note(std::string text);
  /// Adds a description to the input already recorded as `name`.
  void describe_input(std::string_view name, std::string note);

  /// Sets the metric when every input is there, else records it as absent. " = <value>" is
  /// appended to `arithmetic`.
  void finish(double value, std::string formula, std::string arithmetic);

 private:
  void add_input(MetricInput input);

  EstimateContext& context_;
  MetricValue value_;
  std::vector<std::string> missing_;
};

/// A value as the arithmetic shows it: readable units (units::format), fractions as percent
/// for the keys whose base unit is a fraction.
std::string show_plan_value(std::string_view path, double value, units::Dimension dim);
/// A metric value as reports show it: readable units; fractions (comm.fraction, pipeline
/// bubble) as percent.
std::string show_metric_value(std::string_view name, double value, units::Dimension dim);
/// A plain number ("4096", "7B", "0.6").
std::string show_count(double value);
/// A fraction as percent ("40%", "16.7%").
std::string show_percent(double fraction);

/// The metric groups, each a function that adds its metrics to the context.
void estimate_training_compute(EstimateContext& context);
void estimate_training_memory(EstimateContext& context);
void estimate_training_comm(EstimateContext& context);
void estimate_inference(EstimateContext& context);

}  // namespace planlint::detail
