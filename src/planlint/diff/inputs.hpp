#pragma once
/// The values two versions of a plan state differently, key by key, as each writes them: the
/// tables' keys, the `[[targets]]` and `[[benchmarks]]` entries' fields (named by what they are,
/// plan/element_keys.hpp) and the `[estimates]` claims; and the `[[assumptions]]` added,
/// removed or re-ranged. Values are compared by what they mean ("80 GB" and "80GB" are one).
#include <vector>

#include "planlint/change/model.hpp"
#include "planlint/plan/plan.hpp"

namespace planlint::detail {

/// In file order of the head version (a key only the base states: after, in its order).
std::vector<InputChange> changed_inputs(const Plan& base, const Plan& head);

std::vector<AssumptionChange> changed_assumptions(const Plan& base, const Plan& head);

}  // namespace planlint::detail
