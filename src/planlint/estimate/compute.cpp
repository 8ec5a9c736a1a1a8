#include "planlint/estimate/estimates.hpp"

namespace planlint {

// Placeholder until the estimation engine lands: no metric is computed.
Estimates estimate(const Plan&, const Catalog&) { return Estimates{}; }

}  // namespace planlint
