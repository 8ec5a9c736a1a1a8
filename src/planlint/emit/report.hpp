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
#include <vector>
#include <cstdint>

#include "planlint/estimate/corrected.hpp"
#include "planlint/estimate/estimates.hpp"
#include "planlint/estimate/sensitivity.hpp"

namespace planlint {

enum class ReportFormat { text, markdown, json, html };

/// A format of `planlint report --format`: one table, which the command line reads for its
/// choices and for how many plans a format takes.
struct ReportFormatSpec {
  std::string_view name;  ///< --format NAME
  ReportFormat format;
  /// Takes any number of files and folders (a portfolio); the others take one plan.
  bool many_plans = false;
};

/// Every format, in the order `--help` lists them; the first is the default.
std::span<const ReportFormatSpec> report_formats();
/// The formats' names (the CLI's choices).
std::vector<std::string> report_format_names();
/// The format named `name` ("md": markdown), or nullptr.
const ReportFormatSpec* find_report_format(std::string_view name);
/// find_report_format(name)'s format.
std::optional<ReportFormat> parse_report_format(std::string_view name);

/// An error `planlint check` reports for the plan, which the report states above its numbers.
struct ReportError {
  std::string rule;     ///< "memory-fit"
  std::uint32_t line = 0, column = 0;  ///< 0 when the finding has no place in the file
  std::string message;
};

/// One stage of a run in stages: its plan and estimates (FileResult::stage_estimates).
struct ReportStage {
  std::string name;
  const Plan* plan = nullptr;
  const Estimates* estimates = nullptr;
};

struct ReportInput {
  const Plan* plan = nullptr;  ///< nullptr when the file is not valid TOML
  /// The plan's; for a plan of [[stages]], the whole run's (run.*), each stage's in `stages`.
  const Estimates* estimates = nullptr;
  std::string path;  ///< the file as named on the command line
  /// The metrics' sensitivity to the plan's assumptions (sensitivity()); nullptr: not shown.
  const Sensitivity* sensitivity = nullptr;
  /// The plan's errors, in file order: the numbers below them come from a plan that does not
  /// hold as written, and every format says so first.
  std::vector<ReportError> errors = {};
  /// The stages of a run in stages, in order, which every format shows after the run's totals;
  /// empty for a plan of one stage.
  std::vector<ReportStage> stages = {};
  /// The inputs the plan's findings' fixes correct (corrected.hpp): when there are any, `plan`
  /// and `estimates` are the corrected ones, and every format says so before the numbers.
  std::vector<InputCorrection> corrections = {};
};

/// The stages of `plan` with their estimates (FileResult::stage_estimates), for ReportInput.
std::vector<ReportStage> report_stages(const Plan& plan, const std::vector<Estimates>& stage_estimates);

/// Writes the report of one plan, the plan's errors first. Every JSON value carries its unit: a
/// metric's is the one its name says (train.days in d, train.gpu_hours in GPU·h), prices in USD
/// per GPU-hour. ReportFormat::html writes the one plan's page without findings, memory bar or
/// targets: the command line gives render_html_report() those (report_html.hpp).
void render_report(std::ostream& out, const ReportInput& input, ReportFormat format);

}  // namespace planlint
