#pragma once
/// The HTML report's two charts, drawn with the SVG writer from figures the caller has
/// computed and worded: a stacked bar of parts against a capacity line (memory per GPU against
/// HBM) and a tornado (a metric at each end of each assumption, around its value).
#include <span>
#include <string>
#include <string_view>

namespace planlint::svg {

/// One part of a stacked bar: its value and how it reads ("train.memory.states 28.7 GB").
struct BarPart {
  double value = 0;
  std::string label;
};

/// A horizontal bar of `parts` end to end, with a line at `capacity` (labelled `capacity_label`)
/// when it is above 0; the scale takes the larger of the parts' sum and the capacity. Each part
/// has its own CSS class, part-0, part-1, ... and a legend entry.
std::string stacked_bar(std::span<const BarPart> parts, double capacity, std::string_view capacity_label,
                        std::string_view title);

/// One bar of a tornado: the metric at the assumption's low end and at its high end.
struct TornadoBar {
  std::string label;      ///< "training.mfu 30% → 50%"
  double at_low = 0, at_high = 0;
  std::string low_label, high_label;  ///< the metric at each end, as it reads ("12.8 d")
};

/// A line across a tornado at a value (a hard target's bound), labelled under the bars.
struct TornadoMarker {
  double value = 0;
  std::string label;  ///< "budget: at most $1.50M"
};

/// Bars around a centre line at `value` (labelled `value_label`), the widest first as given:
/// each bar spans its two ends; the low end's side is of class low-end, the high end's
/// high-end. Each of `markers` is a dashed line of class target across the bars, within the
/// scale, its label under them.
std::string tornado(std::span<const TornadoBar> bars, double value, std::string_view value_label,
                    std::string_view title, std::span<const TornadoMarker> markers = {});

}  // namespace planlint::svg
