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

}  // namespace planlint::expr
