#pragma once
/// `planlint report --format html`: one self-contained XHTML file (inline CSS and SVG, no
/// script, nothing fetched) for a governance review, printable: a portfolio table of the plans
/// with totals per GPU type, then per plan its findings (as `check` prints them), targets, a
/// memory bar against the HBM, a tornado of the cost's and the days' drivers, and the metric
/// table with ranges. Shows figures computed by estimate/ and the lint run; computes none.
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "planlint/change/model.hpp"
#include "planlint/emit/report.hpp"
#include "planlint/estimate/portfolio.hpp"

namespace planlint {

struct HtmlPlan {
  ReportInput report;  ///< the plan, its estimates with ranges, its sensitivity
  std::string anchor;  ///< the section's id ("plan-1"), what the portfolio links to
  /// The plan's findings as `planlint check` prints them (text format, no colour), empty when
  /// it has none; nullopt: not linted (no Findings heading).
  std::optional<std::string> findings;
  std::optional<MemoryBar> memory;
  std::vector<TargetResult> targets;
};

struct HtmlReport {
  std::vector<HtmlPlan> plans;  ///< in the portfolio's order
  Portfolio portfolio;          ///< shown when there is more than one plan
  /// `--compare-to BASE`: what changed since BASE (planlint diff), shown after the portfolio.
  const DiffReport* comparison = nullptr;
};

namespace detail {
/// The comparison's section (report_html_compare.cpp).
void render_comparison(std::string& html, const DiffReport& diff);
}  // namespace detail

void render_html_report(std::ostream& out, const HtmlReport& report);

}  // namespace planlint
