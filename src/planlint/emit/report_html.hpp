#pragma once
/// `planlint report --format html`: one self-contained XHTML file (inline CSS and SVG, no
/// script, nothing fetched) for a governance review, printable: the grand total, a portfolio
/// table of the plans (owner, status, main cost driver) with totals per GPU type, then per plan
/// its findings (as `check` prints them), targets, a memory bar against the HBM, a tornado of
/// the cost's and the days' drivers with the hard targets on it, its assumptions with their
/// sources, and the metric table with ranges. Shows figures computed by estimate/, approval/
/// and the lint run; computes none.
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "planlint/approval/summary.hpp"
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
  PlanApproval approval;  ///< owner, status, last review, costs and the main cost driver
};

struct HtmlReport {
  std::vector<HtmlPlan> plans;  ///< in the portfolio's order
  Portfolio portfolio;          ///< shown when there is more than one plan
  GrandTotal total;             ///< over `plans`, shown with the portfolio
  std::vector<GpuPeak> peaks;   ///< the GPUs of each type needed at once, shown in its total
  /// `--compare-to BASE`: what changed since BASE (planlint diff), shown after the portfolio.
  const DiffReport* comparison = nullptr;
};

namespace detail {
/// The comparison's section (report_html_compare.cpp).
void render_comparison(std::string& html, const DiffReport& diff);
/// The grand total and the portfolio table (report_html_portfolio.cpp).
void render_portfolio(std::string& html, const HtmlReport& report);
/// Money as the whole page shows it: three significant figures, with K, M, B or T ("$596",
/// "$98.3K", "$1.40M").
std::string show_money(double usd);
/// "$275 – $1.40K"; one figure when the ends are equal.
std::string show_money_range(double low, double high);
/// A metric's value as the page shows it: money by show_money, else as every report shows it.
std::string show_on_page(const MetricSpec& spec, double value);
/// A plan's name in a table cell: at most `width` characters, ending in "…" when shortened.
std::string short_name(std::string_view name, std::size_t width = 30);
}  // namespace detail

void render_html_report(std::ostream& out, const HtmlReport& report);

}  // namespace planlint
