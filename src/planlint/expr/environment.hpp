#pragma once
/// What an expression can see: the names it may use (checked when a rule loads) and their
/// values (when it is evaluated against a plan). Evaluation is pure: an Environment reads a
/// plan and its estimates and nothing else.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "planlint/expr/value.hpp"

namespace planlint::expr {

/// Static knowledge for the checker.
class TypeEnvironment {
 public:
  virtual ~TypeEnvironment() = default;
  /// The type of a dotted path, or nullopt with `error` set ("unknown plan key 'cluster.hmb';
  /// did you mean 'cluster.hbm'?").
  virtual std::optional<Type> path_type(std::string_view path, std::string& error) const = 0;
};

/// Run-time values for the evaluator.
class Environment {
 public:
  virtual ~Environment() = default;
  /// The value of a dotted path; nullopt when absent (the rule then does not apply).
  virtual std::optional<Value> lookup(std::string_view path) const = 0;
  /// lookup() of a path node, read through its PathRef where it has one; a string it returns
  /// views the plan or the rule, or a value kept in `keep`. The default looks the text up.
  virtual std::optional<ValueRef> lookup_path(const Node& path, ValueStore& keep) const;
  /// Whether the plan file states `path` itself (not a default, not the catalog).
  virtual bool stated(std::string_view path) const = 0;
  /// stated() of a path node, through its PathRef where it has one.
  virtual bool stated_path(const Node& path) const;
  /// Whether the plan states a key with a value that is not valid (a bad-quantity or bad-value
  /// finding): the metrics that need it are not computed.
  virtual bool has_invalid_values() const = 0;
  /// Whether the plan writes `path` (a key or a section) in a way planlint cannot read: a value
  /// that is not valid, or a misspelt name (`goodpt`, `[clutser]`), each reported on its own.
  /// Whether such a key exists is then not known, rather than "no": exists() of it is absent,
  /// as are assumed(), claimed() and benchmarked() when their section is misspelt, so that no
  /// rule repeats that one error as "the plan has no ...".
  virtual bool unread(std::string_view path) const {
    (void)path;
    return false;
  }
  /// Whether `metric` is not computed for want of an unread() key: computed() of it is absent.
  virtual bool blocked(std::string_view metric) const {
    (void)metric;
    return false;
  }
  /// Whether the plan file states `path` in a unit of bits ("400 Gbps"): a bandwidth is kept
  /// in bytes per second, and only the text says which unit its author thought in.
  virtual bool stated_in_bits(std::string_view path) const = 0;
  /// A metric by name (metric(it.metric)); records that the finding used it.
  virtual std::optional<Value> metric(std::string_view name) const = 0;
  /// The low or high end of a metric's range (metric_low(it.metric)): the metric at its
  /// assumptions' low and high (cost-tier metrics only); nullopt when it has none.
  virtual std::optional<Value> metric_bound(std::string_view name, bool high) const = 0;
  /// The plan value at a plan key named at run time (value(it.key)).
  virtual std::optional<Value> plan_value(std::string_view key) const = 0;
  /// Whether the plan claims the metric: an [estimates] entry or a [[targets]] bound on it.
  virtual bool claimed(std::string_view metric) const = 0;
  /// Whether a [[benchmarks]] entry of the plan measures the metric.
  virtual bool benchmarked(std::string_view metric) const = 0;
  /// The [estimates] claims whose value (a range's `value`) is `ratio` times the metric
  /// planlint computes, within `tolerance` of `ratio`: their metric names, in plan order.
  /// Claims of a metric planlint does not compute are not among them.
  virtual std::vector<std::string> claims_with_ratio(double ratio, double tolerance) const = 0;
  /// The plan keys the file states, as quantities, that every one of `metrics` is computed
  /// from: directly, through the metrics it reads, or through a default derived from them
  /// (model.active_params from model.params); in the plan format's key order.
  virtual std::vector<std::string> shared_inputs(const std::vector<std::string>& metrics) const = 0;
  /// Whether planlint could compute the metric from the plan.
  virtual bool computed(std::string_view metric) const = 0;
  /// Whether the metric, as planlint computed it for this plan, reads the plan key: directly
  /// or through the metrics it reads (train.days reads training.mfu; train.flops does not).
  virtual bool computed_from(std::string_view metric, std::string_view key) const = 0;
  /// The inputs `metric` lacks, traced to the plan keys ("model.layers", "cluster.peak (the
  /// catalog has no bf16 peak for v100-sxm2)"); empty when it is computed or not of the plan's
  /// kind.
  virtual std::vector<std::string> missing_inputs(std::string_view metric) const = 0;
  /// Whether an [[assumptions]] entry justifies the plan key.
  virtual bool assumed(std::string_view key) const = 0;
  /// The key of the field `field` of an `each` rule's element when the element states it and no
  /// [[assumptions]] entry justifies it: a [[capacity]] slice's "capacity[kind=preemptible].price"
  /// (unassumed(['it.price'])); nullopt otherwise, and for an element of another array.
  virtual std::optional<std::string> unassumed_field(std::string_view field) const {
    (void)field;
    return std::nullopt;
  }
  /// The tolerance of the metric's tier (plan [tolerances], config, or the default).
  virtual std::optional<double> tolerance(std::string_view metric) const = 0;
  /// A catalog figure: catalog('h100-sxm', 'dense_peak', 'bf16').
  virtual std::optional<Value> catalog(std::string_view gpu, std::string_view field,
                                       std::string_view precision) const = 0;
  /// The precision the plan computes in (training.precision; for inference fp8 when the weights
  /// are fp8, else bf16): the precision whose catalog peak applies.
  virtual std::optional<Value> compute_precision() const = 0;
  /// Days since `date` as of the run's today (seconds, so it compares with `180 d`).
  virtual double seconds_since(const Date& date) const = 0;
};

}  // namespace planlint::expr
