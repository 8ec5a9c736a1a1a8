#pragma once
/// The unit slips a claimed figure can carry against the figure planlint computes: the
/// heuristics behind the rule language's slip() (unit-slip, estimate-mismatch).
#include <string>

#include "planlint/units/dimension.hpp"

namespace planlint::units {

/// Describes a claim that is off from the recomputed value by a classic unit slip (a power of
/// 1000, or 3.6 / 3600 from seconds and hours), within 3%; empty when there is none. The
/// seconds-vs-hours slips count only for quantities derived from time (a dimension with
/// seconds or USD in it: GPU-hours, days, cost), so a FLOP claim 3.6× off stays a mismatch. A
/// time 1000× off is not called a prefix slip of its own unit (days have none): the 1000
/// slipped in a figure it was computed from.
///
/// A time-derived claim may also count the plan's goodput G and schedule margin M otherwise than
/// planlint does (a cost worked out from the ideal GPU time, without / G, or over the committed
/// schedule, × M): with `goodput` < 1 or `margin` > 1 given, the time slips are also looked for
/// at those factors (3600 · G, 3.6 · M, ...), and the description names the accounting.
std::string describe_slip(double claimed, double computed, Dimension dim, double goodput = 1, double margin = 1);

}  // namespace planlint::units
