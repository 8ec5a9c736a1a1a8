#include "planlint/svg/charts.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "planlint/svg/svg.hpp"

namespace planlint::svg {

namespace {
constexpr double chart_width = 720;
constexpr double margin = 8;
}  // namespace

std::string stacked_bar(std::span<const BarPart> parts, double capacity, std::string_view capacity_label,
                        std::string_view title) {
  double sum = 0;
  for (const BarPart& part : parts) sum += std::max(part.value, 0.0);
  const double scale_max = std::max(sum, capacity);
  const double bar_width = chart_width - 2 * margin;
  const double bar_y = 24, bar_height = 28;
  const double legend_y = bar_y + bar_height + 22, legend_step = 18;
  Document chart(chart_width, legend_y + legend_step * static_cast<double>(parts.size()) + 4, title);
  const auto x_of = [&](double value) { return margin + (scale_max > 0 ? value / scale_max * bar_width : 0); };

  chart.rect(margin, bar_y, bar_width, bar_height, "track");
  double at = 0;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const double value = std::max(parts[i].value, 0.0);
    const std::string css = fmt::format("part-{}", i % 6);
    chart.rect(x_of(at), bar_y, x_of(at + value) - x_of(at), bar_height, css, parts[i].label);
    at += value;
    const double y = legend_y + legend_step * static_cast<double>(i);
    chart.rect(margin, y - 11, 12, 12, css);
    chart.text(margin + 18, y, parts[i].label, "legend");
  }
  if (capacity > 0) {
    chart.line(x_of(capacity), bar_y - 6, x_of(capacity), bar_y + bar_height + 6, "capacity");
    chart.text(x_of(capacity), bar_y - 9, capacity_label, "axis",
               x_of(capacity) > chart_width / 2 ? Anchor::end : Anchor::start);
  }
  return chart.str();
}

std::string tornado(std::span<const TornadoBar> bars, double value, std::string_view value_label,
                    std::string_view title, std::span<const TornadoMarker> markers) {
  double lowest = value, highest = value;
  for (const TornadoBar& bar : bars) {
    lowest = std::min({lowest, bar.at_low, bar.at_high});
    highest = std::max({highest, bar.at_low, bar.at_high});
  }
  for (const TornadoMarker& marker : markers) {
    lowest = std::min(lowest, marker.value);
    highest = std::max(highest, marker.value);
  }
  const double label_width = 260, value_width = 70;
  const double plot_left = label_width + value_width, plot_right = chart_width - value_width;
  const double row = 30, top = 26, marker_row = 16;
  const double bars_bottom = top + row * static_cast<double>(bars.size());
  Document chart(chart_width, bars_bottom + 8 + marker_row * static_cast<double>(markers.size()), title);
  const double span = highest - lowest;
  const auto x_of = [&](double at) {
    return span > 0 ? plot_left + (at - lowest) / span * (plot_right - plot_left) : (plot_left + plot_right) / 2;
  };
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const TornadoBar& bar = bars[i];
    const double y = top + row * static_cast<double>(i);
    chart.text(margin, y + row / 2 + 2, bar.label, "legend");
    // Each end's side of the value: the bar from the value to the end.
    for (const bool high : {false, true}) {
      const double end = high ? bar.at_high : bar.at_low;
      const double from = std::min(end, value), to = std::max(end, value);
      chart.rect(x_of(from), y + 5, std::max(x_of(to) - x_of(from), 1.0), row - 10, high ? "high-end" : "low-end",
                 fmt::format("{}: {}", high ? "high end" : "low end", high ? bar.high_label : bar.low_label));
    }
    const bool low_left = bar.at_low <= bar.at_high;
    chart.text(x_of(std::min(bar.at_low, bar.at_high)) - 4, y + row / 2 + 2,
               low_left ? bar.low_label : bar.high_label, "axis", Anchor::end);
    chart.text(x_of(std::max(bar.at_low, bar.at_high)) + 4, y + row / 2 + 2,
               low_left ? bar.high_label : bar.low_label, "axis", Anchor::start);
  }
  chart.line(x_of(value), top - 6, x_of(value), bars_bottom, "centre");
  chart.text(x_of(value), top - 10, value_label, "axis", Anchor::middle);
  for (std::size_t i = 0; i < markers.size(); ++i) {
    const double x = x_of(markers[i].value);
    const double label_y = bars_bottom + marker_row * static_cast<double>(i + 1);
    chart.line(x, top - 2, x, label_y - 11, "target");
    // The label on the side of the line with room for it.
    const bool right_half = x > (plot_left + plot_right) / 2;
    chart.text(right_half ? x - 4 : x + 4, label_y, markers[i].label, "target-label", right_half ? Anchor::end : Anchor::start);
  }
  return chart.str();
}

}  // namespace planlint::svg
