/// `planlint report --format html PATH... [-o FILE]`: the governance report of a set of plans
/// (docs/report.md). The findings are `check`'s own run over the paths (configs, inline
/// suppressions, the folder search); each plan is then estimated as `report` estimates it, with
/// its sensitivity, memory parts, targets and portfolio row, and the page rendered from those.
#include <map>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/commands.hpp"
#include "planlint/config/config.hpp"
#include "planlint/diff/diff.hpp"
#include "planlint/files/output_file.hpp"
#include "planlint/emit/report_html.hpp"
#include "planlint/emit/text.hpp"
#include "planlint/estimate/sensitivity.hpp"
#include "planlint/lint/inputs.hpp"
#include "planlint/lint/lint.hpp"
#include "planlint/lint/run.hpp"
#include "planlint/markdown/markdown.hpp"
#include "planlint/rules/rule_set.hpp"

namespace planlint::cli {

namespace {

/// The GPU catalog `check` uses for `path`: the built-in one with its config's catalogs over
/// it. The run has loaded every config already, so a config here loads.
Catalog catalog_for(const std::string& path, const std::string& config) {
  Catalog catalog = Catalog::builtin();
  const std::optional<std::string> found = config.empty() ? discover_config(path) : std::optional<std::string>(config);
  if (!found) return catalog;
  DiagnosticSink problems;
  if (Result<Config> loaded = load_config(*found, problems)) (void)catalog.load_files(loaded->catalogs, problems);
  return catalog;
}

/// One plan of the report with what its estimates, sensitivity and findings rest on.
struct Held {
  FileResult result;
  Catalog catalog;
  std::optional<CorrectedInputs> corrected;
  std::optional<Sensitivity> sensitivity;
  HtmlPlan html;
  PortfolioPlan row;
};

}  // namespace

int run_html_report(const ReportOptions& options, std::ostream& out, std::ostream& err) {
  RunOptions run;
  run.paths = options.paths;
  if (!options.config.empty()) run.config = options.config;
  if (!options.output.empty()) run.output = options.output;
  run.list_rules = false;
  const RunResult checked = run_lint(run);
  if (!checked.errors.empty()) {
    for (const Error& e : checked.errors) err << error_line(e) << '\n';
    return exit_failure;
  }

  const RuleSet no_rules;
  std::vector<std::unique_ptr<Held>> held;
  for (const std::shared_ptr<const SourceFile>& source : checked.report.files) {
    const std::string& path = source->path();
    std::vector<PlanBlock> blocks;
    if (is_markdown_path(path)) blocks = plan_blocks(source->text());
    else if (toml_holds_plan(source->text())) blocks.push_back({});
    for (const PlanBlock& block : blocks) {
      auto plan = std::make_unique<Held>();
      plan->catalog = catalog_for(path, options.config);
      LintOptions lint_options;
      lint_options.rules = &no_rules;
      lint_options.catalog = &plan->catalog;
      const bool markdown = block.first_line > 0;
      plan->result = lint_text(source, markdown ? block_text(source->text(), block) : source->text(), lint_options,
                               markdown ? block.first_line : 1);
      if (!plan->result.plan || !plan->result.estimates) continue;

      // The run's findings in this plan (a Markdown doc's: within its block), as check prints them.
      Report findings;
      findings.files.push_back(source);
      std::size_t errors = 0, warnings = 0;
      for (const Diagnostic& d : checked.report.diagnostics) {
        if (d.primary.file != path) continue;
        if (markdown && (d.primary.span.begin.line < block.first_line - 1 || d.primary.span.begin.line > block.last_line + 1))
          continue;
        findings.diagnostics.push_back(d);
        if (d.suppression) continue;
        if (d.severity == Severity::error) ++errors;
        else if (d.severity == Severity::warning) ++warnings;
      }
      std::ostringstream text;
      if (errors + warnings > 0 || std::any_of(findings.diagnostics.begin(), findings.diagnostics.end(),
                                                [](const Diagnostic& d) { return !d.suppression; }))
        emit_text(text, findings, TextStyle{});

      // The figures once the inputs the findings' fixes correct are in place (sparse-peak's
      // dense peak), as `report` computes them.
      plan->corrected = corrected_inputs(*plan->result.plan, plan->catalog, findings.diagnostics);
      const Plan& parsed = plan->corrected ? plan->corrected->plan : *plan->result.plan;
      const Estimates& estimates = plan->corrected ? plan->corrected->estimates : *plan->result.estimates;
      plan->sensitivity = sensitivity(parsed, plan->catalog, estimates);
      plan->html.anchor = fmt::format("plan-{}", held.size() + 1);
      plan->html.report = ReportInput{&parsed, &estimates, path, &*plan->sensitivity};
      const std::vector<Estimates>& stages =
          plan->corrected ? plan->corrected->stage_estimates : plan->result.stage_estimates;
      plan->html.report.stages = report_stages(parsed, stages);
      if (plan->corrected) plan->html.report.corrections = plan->corrected->corrections;
      plan->html.findings = text.str();
      plan->html.memory = memory_bar(parsed, estimates);
      // A run in stages: the bar of the stage that needs the most memory, which sizes the GPUs.
      std::size_t largest = stages.size();
      for (std::size_t s = 0; s < stages.size(); ++s)
        if (const MetricValue* total = stages[s].find(Metric::train_memory_total);
            total && (largest == stages.size() || total->value > stages[largest].find(Metric::train_memory_total)->value))
          largest = s;
      if (largest < stages.size()) plan->html.memory = memory_bar(*parsed.stages[largest].plan, stages[largest]);
      plan->html.targets = target_results(parsed, estimates);
      plan->html.approval = plan_approval(parsed, estimates, &*plan->sensitivity);
      plan->row = portfolio_plan(&parsed, estimates, path, plan->html.anchor, errors, warnings);
      held.push_back(std::move(plan));
    }
  }
  if (held.empty()) {
    err << "planlint: error: no plan found in the paths given\n";
    return exit_failure;
  }

  // The plans in the portfolio's order (dearest first), each section after the table.
  std::vector<PortfolioPlan> rows;
  for (const auto& plan : held) rows.push_back(plan->row);
  HtmlReport report;
  report.portfolio = make_portfolio(std::move(rows));
  std::map<std::string, const HtmlPlan*> by_anchor;
  for (const auto& plan : held) by_anchor.emplace(plan->html.anchor, &plan->html);
  for (const PortfolioPlan& row : report.portfolio.plans) report.plans.push_back(*by_anchor.at(row.anchor));
  std::vector<PlanApproval> approvals;
  for (const HtmlPlan& plan : report.plans) approvals.push_back(plan.approval);
  report.total = grand_total(approvals);
  report.peaks = gpu_peaks(report.portfolio.plans, approvals);

  // --compare-to BASE: the same paths compared with BASE, as `planlint diff BASE PATHS` does.
  DiffRun comparison;
  if (!options.compare_to.empty()) {
    Result<DiffSide> base = parse_diff_side(options.compare_to);
    if (!base) {
      err << error_line(Error("--compare-to " + base.error().message)) << '\n';
      return exit_failure;
    }
    DiffOptions diff;
    diff.base = *std::move(base);
    diff.head.paths = options.paths;
    diff.head.label = fmt::format("{}", fmt::join(options.paths, " "));
    if (!options.config.empty()) diff.config = options.config;
    diff.all_metrics = true;  // the page shows cost, days and GPUs on both sides, changed or not
    comparison = run_diff(diff);
    for (const Error& e : comparison.errors) err << error_line(e) << '\n';
    if (!comparison.errors.empty()) return exit_failure;
    for (const std::string& line : comparison.messages) print_line(err, line);
    report.comparison = &comparison.report;
  }

  std::ostringstream html;
  render_html_report(html, report);
  if (options.output.empty()) {
    out << html.str();
  } else if (Result<void> written = write_file_atomically(options.output, html.str()); !written) {
    err << error_line(written.error()) << '\n';
    return exit_failure;
  }
  return checked.failing > 0 ? exit_findings : exit_clean;
}

}  // namespace planlint::cli
