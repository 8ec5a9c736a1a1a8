#pragma once
/// Fixed-point number text, as units::format prints numbers.
#include <string>

namespace planlint::units::detail {

/// fmt::format("{:.{}f}", x, decimals), the same bytes, faster for the usual small values.
std::string fixed(double x, int decimals);

}  // namespace planlint::units::detail
