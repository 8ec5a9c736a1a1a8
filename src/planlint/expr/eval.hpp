#pragma once
/// Evaluation of checked rule expressions against a plan. Pure and bounded: no I/O, no loops,
/// depth limited by the parser; a value that is absent makes the whole expression absent (the
/// rule does not apply), and so does a division by zero or a non-finite result.
#include <optional>
#include <string>

#include "planlint/expr/environment.hpp"
#include "planlint/expr/syntax.hpp"

namespace planlint::expr {

std::optional<Value> evaluate(const Node& node, const Environment& environment);

/// evaluate() of a condition: its boolean, or nullopt when it is absent or not a boolean.
std::optional<bool> evaluate_condition(const Node& node, const Environment& environment);

/// The node a chain of conditionals picks (`node` itself when it is none), or nullptr when a
/// condition is absent or not a boolean: what evaluate() evaluates for a conditional, so that
/// a caller can take a picked string literal's text without copying it into a Value.
const Node* chosen_branch(const Node& node, const Environment& environment);

/// Describes a claim that is off from the recomputed value by a classic unit slip (a power of
/// 1000, or 3.6 / 3600 from seconds and hours), within 3%; empty when there is none. The
/// seconds-vs-hours slips count only for quantities derived from time (a dimension with
/// seconds or USD in it: GPU-hours, days, cost), so a FLOP claim 3.6× off stays a mismatch. A
/// time 1000× off is not called a prefix slip of its own unit (days have none): the 1000
/// slipped in a figure it was computed from.
std::string describe_slip(double claimed, double computed, units::Dimension dim);

}  // namespace planlint::expr
