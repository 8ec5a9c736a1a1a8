#pragma once
/// What evaluating an expression may cost, known before it runs: the rule budget
/// (rules/rule_cost.hpp) multiplies it by the elements an `each` rule walks.
#include <cstddef>

#include "planlint/expr/syntax.hpp"

namespace planlint::expr {

/// The nodes of `tree`: the most one evaluation visits (both branches of a conditional, every
/// argument of a call). Every function of the language costs a bounded amount beyond its
/// arguments (a lookup, or a walk over the metric table), so this is the cost in proportion.
std::size_t node_count(const Node& tree);

}  // namespace planlint::expr
