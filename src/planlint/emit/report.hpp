#pragma once
/// `planlint report`: a plan's estimates as a capacity engineer reads them (compute → time →
/// cost → memory → communication; for inference memory → compute → latency), one line per
/// metric with its value, range and arithmetic, then the metrics that could not be computed
/// and what they need. Renders what estimate() computed; computes nothing itself.
///
///     render_report(std::cout, {&plan, &estimates, "plan.toml"}, ReportFormat::markdown);
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>

#include "planlint/estimate/estimates.hpp"
#include "planlint/estimate/sensitivity.hpp"

namespace planlint {

enum class ReportFormat { text, markdown, json };

/// "text" → text, "markdown" / "md" → markdown, "json" → json.
std::optional<ReportFormat> parse_report_format(std::string_view name);

struct ReportInput {
  const Plan* plan = nullptr;  ///< nullptr when the file is not valid TOML
  const Estimates* estimates = nullptr;
  std::string path;  ///< the file as named on the command line
  /// The metrics' sensitivity to the plan's assumptions (sensitivity()); nullptr: not shown.
  const Sensitivity* sensitivity = nullptr;
};

/// Writes the report. JSON values are in base units (FLOP, FLOP/s, B, B/s, s, USD, tokens),
/// except GPU time in GPU-hours and prices in USD per GPU-hour; every metric carries its unit.
void render_report(std::ostream& out, const ReportInput& input, ReportFormat format);

}  // namespace planlint
