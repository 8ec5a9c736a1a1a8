/// The diff's formats and the helpers its renderers share; `--format github`: an annotation for
/// each finding the change introduces (guardrails included), as `check --format github` writes.
#include "planlint/emit/diff_report.hpp"

#include <cmath>

#include <fmt/format.h>

#include "planlint/diag/printable.hpp"
#include "planlint/emit/diff_common.hpp"
#include "planlint/emit/format_rows.hpp"
#include "planlint/emit/github.hpp"
#include "planlint/estimate/engine.hpp"

namespace planlint {

namespace {

constexpr DiffFormatSpec format_table[] = {
    {"text", DiffFormat::text},
    {"markdown", DiffFormat::markdown},
    {"json", DiffFormat::json},
    {"github", DiffFormat::github},
};

void render_github(std::ostream& out, const DiffReport& report, const DiffStyle& style) {
  Report annotations;
  annotations.files = report.head_sources;
  for (const PlanDiff& plan : report.plans) {
    for (const DiffFinding& finding : plan.introduced) annotations.diagnostics.push_back(finding.diagnostic);
    for (const Diagnostic& d : plan.guardrails) annotations.diagnostics.push_back(d);
  }
  std::stable_sort(annotations.diagnostics.begin(), annotations.diagnostics.end(), diagnostic_less);
  // The diff names files from the repository root: so do the annotations, from any folder.
  emit_github(out, annotations, GithubPaths{style.repository_root, style.repository_root});
}

}  // namespace

std::span<const DiffFormatSpec> diff_formats() { return format_table; }

std::vector<std::string> diff_format_names() { return row_names<DiffFormatSpec>(format_table); }

const DiffFormatSpec* find_diff_format(std::string_view name) { return find_row<DiffFormatSpec>(format_table, name); }

void render_diff(std::ostream& out, const DiffReport& report, DiffFormat format, const DiffStyle& style) {
  switch (format) {
    case DiffFormat::text: return detail::render_diff_text(out, report, style);
    case DiffFormat::markdown: return detail::render_diff_markdown(out, report, style);
    case DiffFormat::json: return detail::render_diff_json(out, report);
    case DiffFormat::github: return render_github(out, report, style);
  }
}

namespace detail {

std::string figure_value(const FigureChange& figure, double value) {
  if (figure.spec) return show_metric_value(*figure.spec, value);
  return show_count(value);
}

std::string figure_side(const FigureChange& figure, bool head) {
  const std::optional<double>& value = head ? figure.head : figure.base;
  if (!value) return "—";
  std::string text = figure_value(figure, *value);
  const std::optional<double>& low = head ? figure.head_low : figure.base_low;
  const std::optional<double>& high = head ? figure.head_high : figure.base_high;
  if (low && high && (*low != *value || *high != *value))
    text += fmt::format(" ({}–{})", figure_value(figure, *low), figure_value(figure, *high));
  if (const std::optional<double>& hbm = head ? figure.head_hbm : figure.base_hbm)
    text += fmt::format(" of {}", units::format(*hbm, units::dims::bytes));
  return text;
}

namespace {

/// "+$1.41M", "−2.2 d": the sign, then the size of the change as its figure shows values.
std::string signed_amount(const FigureChange& figure, double change) {
  return (change < 0 ? "−" : "+") + figure_value(figure, std::fabs(change));
}

std::string signed_percent(double fraction) {
  return (fraction < 0 ? "−" : "+") + show_percent(std::fabs(fraction));
}

}  // namespace

std::string figure_change(const FigureChange& figure) {
  if (!figure.changed()) return "";
  if (!figure.base) return "new";
  if (!figure.head) return "gone";
  const double change = *figure.head - *figure.base;
  if (const std::optional<double> fraction = figure.change_fraction())
    return fmt::format("{} ({})", signed_amount(figure, change), signed_percent(*fraction));
  return signed_amount(figure, change);
}

std::string total_change(double base, double head, const FigureChange& like) {
  if (base == head) return "";
  if (base == 0) return signed_amount(like, head - base);
  return fmt::format("{} ({})", signed_amount(like, head - base), signed_percent((head - base) / base));
}

std::string total_transition(const FigureChange& like, double base, double head, bool counted,
                             std::string (*value)(std::string_view)) {
  if (!counted) return "—";
  auto side = [&](double v) {
    const std::string text = figure_value(like, v);
    return value ? value(text) : text;
  };
  std::string text = side(base) + " → " + side(head);
  if (const std::string change = total_change(base, head, like); !change.empty())
    text += " " + (value ? value(change) : change);
  return text;
}

FigureChange total_figure(std::string_view name) {
  FigureChange figure;
  figure.name = std::string(name);
  if (const MetricSpec* spec = find_metric(name)) {
    figure.spec = spec;
    figure.dim = spec->dim;
  } else {
    figure.dim = units::dims::gpus;
  }
  return figure;
}

std::string corrections_note(const PlanDiff& plan) {
  const auto said = [](const std::vector<InputCorrection>& corrections) {
    return corrections.empty() ? std::string()
                               : fmt::format("{} ({})", once_text(corrections), fixes_text(corrections));
  };
  const std::string before = said(plan.base_corrections), after = said(plan.head_corrections);
  if (before.empty() && after.empty()) return {};
  if (before == after) return "the figures are computed once " + after;
  if (before.empty()) return "the after figures are computed once " + after;
  if (after.empty()) return "the before figures are computed once " + before;
  return fmt::format("the before figures are computed once {}, the after figures once {}", before, after);
}

std::string plan_gist(const PlanDiff& plan) {
  std::vector<std::string> parts;
  if (plan.status == PlanStatus::added || plan.status == PlanStatus::removed) {
    // A plan on one side only: what it adds or takes away, its own headline figures.
    std::string figures;
    for (const FigureChange& figure : plan.figures) {
      const std::optional<double>& value = plan.status == PlanStatus::added ? figure.head : figure.base;
      if (!figure.headline || !value) continue;
      figures += fmt::format("{}{} {}", figures.empty() ? "" : ", ", figure.label, figure_value(figure, *value));
      if (figures.size() > 80) break;
    }
    if (!figures.empty()) parts.push_back(fmt::format("{}: {}", plan.status == PlanStatus::added ? "new" : "was", figures));
  }
  for (const FigureChange& figure : plan.figures) {
    if (!figure.headline || !figure.changed() || !figure.base || !figure.head) continue;
    parts.push_back(fmt::format("{} {}", figure.label, figure_change(figure)));
    if (parts.size() == 3) break;
  }
  std::size_t errors = 0;
  for (const DiffFinding& finding : plan.introduced)
    if (finding.diagnostic.severity == Severity::error) ++errors;
  if (errors > 0) parts.push_back(errors == 1 ? std::string("1 new error") : fmt::format("{} new errors", errors));
  if (plan.introduced.size() > errors)
    parts.push_back(fmt::format("{} new finding{}", plan.introduced.size() - errors,
                                plan.introduced.size() - errors == 1 ? "" : "s"));
  if (!plan.resolved.empty()) parts.push_back(fmt::format("{} fixed", plan.resolved.size()));
  std::size_t breaches = 0;
  for (const Diagnostic& d : plan.guardrails)
    if (!d.suppression) ++breaches;
  if (breaches > 0) parts.push_back(fmt::format("{} guardrail{} exceeded", breaches, breaches == 1 ? "" : "s"));
  if (parts.empty()) return plan.status == PlanStatus::renamed ? "renamed, no figure moved" : "no headline figure moved";
  std::string out;
  for (const std::string& part : parts) out += (out.empty() ? "" : ", ") + part;
  return out;
}

std::string change_count(const DiffReport& report) {
  if (report.plans.empty()) return "no change";
  std::size_t counts[4] = {};
  for (const PlanDiff& plan : report.plans) ++counts[static_cast<int>(plan.status)];
  std::vector<std::string> parts;
  for (const PlanStatus status : {PlanStatus::changed, PlanStatus::added, PlanStatus::renamed, PlanStatus::removed})
    if (const std::size_t n = counts[static_cast<int>(status)]) parts.push_back(fmt::format("{} {}", n, to_string(status)));
  std::string detail;
  for (const std::string& part : parts) detail += (detail.empty() ? "" : ", ") + part;
  return fmt::format("{} plan{} changed ({})", report.plans.size(), report.plans.size() == 1 ? "" : "s", detail);
}

std::string changed_fields(const AssumptionChange& change) {
  if (change.fields.empty()) return "";
  std::string out;
  for (const std::string& field : change.fields) out += (out.empty() ? "" : ", ") + printable(field);
  return " (" + out + ")";
}

std::string_view met_text(const std::optional<bool>& met) {
  if (!met) return "not computed";
  return *met ? "met" : "not met";
}

std::string target_text(const TargetFlip& target) {
  std::string bound;
  if (target.bound) {
    const std::string value = target.spec ? show_metric_value(*target.spec, *target.bound) : show_count(*target.bound);
    bound = fmt::format(" {} {}", target.is_max ? "at most" : "at least", value);
  }
  return fmt::format("'{}' ({}{}{})", target.name.empty() ? target.metric : target.name, target.metric, bound,
                     target.hard ? "" : ", soft");
}

}  // namespace detail

}  // namespace planlint
