#pragma once
/// The display unit of a message placeholder (`{cluster.hbm:GB}`, `{x:GB up}`), checked when the
/// rule loads: a misspelt unit or rounding word says which it is, not that the unit "does not
/// fit" the value.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "planlint/units/dimension.hpp"

namespace planlint {

/// Why `unit`, the text after a placeholder's last ':' once a valid rounding word is taken off
/// ("GB", "GBB", "GB upp", "TFLOPS"), cannot print a number of `dim`; empty when it can. The
/// problems, in order: "unknown rounding 'upp' ...; did you mean 'up'?" (a word after a unit
/// that is neither a unit nor up/down), "unknown unit 'GBB' (did you mean 'GB'?)", "unit 'TFLOPS'
/// does not fit bytes". Without a dimension (known only at run time: metric(it.metric)), only
/// the spelling is checked. `offset` is set to the byte offset in `unit` of the word at fault.
std::string display_unit_problem(std::string_view unit, std::optional<units::Dimension> dim,
                                 std::size_t& offset);

}  // namespace planlint
