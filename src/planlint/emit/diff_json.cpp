/// The diff as JSON (docs/review.md, "JSON"; schemas/diff.schema.json): every plan of the change
/// with its figures before and after (each in the unit its "unit" names, as the report's JSON),
/// inputs, assumptions, findings with their fingerprints, targets and guardrails, and the totals.
#include <nlohmann/json.hpp>

#include "planlint/emit/diff_common.hpp"
#include "planlint/emit/json_text.hpp"
#include "planlint/emit/report_common.hpp"

namespace planlint::detail {

namespace {

using json = nlohmann::ordered_json;

json number(const std::optional<double>& value, double scale = 1) {
  if (!value) return nullptr;
  return *value * scale;
}

json side_value(const FigureChange& figure, bool head, double scale) {
  const std::optional<double>& value = head ? figure.head : figure.base;
  if (!value) return nullptr;
  json out = {{"value", *value * scale},
              {"low", number(head ? figure.head_low : figure.base_low, scale)},
              {"high", number(head ? figure.head_high : figure.base_high, scale)},
              {"readable", figure_side(figure, head)}};
  if (figure.base_hbm || figure.head_hbm) out["hbm_bytes"] = number(head ? figure.head_hbm : figure.base_hbm);
  return out;
}

json figure_json(const FigureChange& figure) {
  const JsonValue unit = figure.spec ? metric_unit(figure.spec, figure.dim) : JsonValue{1, "GPUs"};
  return {{"name", figure.name},
          {"label", figure.label},
          {"unit", unit.unit},
          {"headline", figure.headline},
          {"base", side_value(figure, false, unit.scale)},
          {"head", side_value(figure, true, unit.scale)},
          {"change", number(figure.change(), unit.scale)},
          {"change_fraction", number(figure.change_fraction())}};
}

json place(const std::optional<std::string>& text, std::uint32_t line) {
  if (!text) return nullptr;
  return {{"text", *text}, {"line", line}};
}

json finding_json(const Diagnostic& d, const std::string* fingerprint) {
  json out = {{"rule", d.rule},
              {"level", std::string(to_string(d.severity))},
              {"message", d.message},
              {"file", d.primary.file},
              {"line", d.primary.span.begin.line},
              {"column", d.primary.span.begin.column},
              {"key", d.key_path}};
  if (fingerprint) out["fingerprint"] = *fingerprint;
  else {
    out["suppressed"] = d.suppression.has_value();
    out["justification"] = d.suppression ? json(d.suppression->justification) : json(nullptr);
  }
  return out;
}

json findings_json(const std::vector<DiffFinding>& findings) {
  json out = json::array();
  for (const DiffFinding& f : findings) out.push_back(finding_json(f.diagnostic, &f.fingerprint));
  return out;
}

json total_json(const PortfolioTotal& total) {
  return {{"plans", total.plans}, {"gpus", total.gpus}, {"gpu_hours", total.gpu_hours / 3600}, {"cost", total.cost}};
}

/// A side's place: its file, line and GPU, and the inputs its figures are computed with once its
/// findings' fixes are applied (as `report --format json` names them).
json side_json(const std::string& file, std::uint32_t line, const std::string& gpu,
               const std::vector<InputCorrection>& corrections) {
  if (file.empty()) return nullptr;
  json corrected = json::array();
  for (const InputCorrection& c : corrections)
    corrected.push_back({{"key", c.key}, {"value", c.value}, {"rule", c.rule}});
  return {{"file", file}, {"line", line}, {"gpu", gpu}, {"corrected_inputs", std::move(corrected)}};
}

json plan_json(const PlanDiff& plan) {
  json out = {{"name", plan.name},
              {"kind", plan.kind},
              {"status", std::string(to_string(plan.status))},
              {"base", side_json(plan.base_file, plan.base_line, plan.base_gpu, plan.base_corrections)},
              {"head", side_json(plan.head_file, plan.head_line, plan.head_gpu, plan.head_corrections)}};
  json& figures = out["figures"] = json::array();
  for (const FigureChange& figure : plan.figures) figures.push_back(figure_json(figure));
  json& inputs = out["inputs"] = json::array();
  for (const InputChange& input : plan.inputs)
    inputs.push_back({{"key", input.key},
                      {"base", place(input.base_text, input.base_line)},
                      {"head", place(input.head_text, input.head_line)}});
  json& assumptions = out["assumptions"] = json::array();
  for (const AssumptionChange& a : plan.assumptions)
    assumptions.push_back({{"id", a.id},
                           {"key", a.key},
                           {"change", std::string(to_string(a.kind))},
                           {"fields", a.fields},
                           {"base", a.base_range ? json{{"range", *a.base_range}, {"line", a.base_line}} : json(nullptr)},
                           {"head", a.head_range ? json{{"range", *a.head_range}, {"line", a.head_line}} : json(nullptr)}});
  out["findings"] = {{"introduced", findings_json(plan.introduced)},
                     {"resolved", findings_json(plan.resolved)},
                     {"unchanged", findings_json(plan.unchanged)}};
  json& targets = out["targets"] = json::array();
  for (const TargetFlip& t : plan.targets) {
    const JsonValue unit = metric_unit(t.spec, t.spec ? t.spec->dim : units::dims::none);
    auto met = [](const std::optional<bool>& value) { return value ? json(*value) : json(nullptr); };
    targets.push_back({{"name", t.name},
                       {"metric", t.metric},
                       {"hard", t.hard},
                       {"bound", {{"kind", t.is_max ? "max" : "min"}, {"value", number(t.bound, unit.scale)}}},
                       {"unit", unit.unit},
                       {"base_met", met(t.base_met)},
                       {"head_met", met(t.head_met)},
                       {"base_value", number(t.base_value, unit.scale)},
                       {"head_value", number(t.head_value, unit.scale)}});
  }
  json& guardrails = out["guardrails"] = json::array();
  for (const Diagnostic& d : plan.guardrails) guardrails.push_back(finding_json(d, nullptr));
  return out;
}

}  // namespace

void render_diff_json(std::ostream& out, const DiffReport& report) {
  std::size_t counts[4] = {}, introduced = 0, resolved = 0, exceeded = 0, approved = 0;
  for (const PlanDiff& plan : report.plans) {
    ++counts[static_cast<int>(plan.status)];
    introduced += plan.introduced.size();
    resolved += plan.resolved.size();
    for (const Diagnostic& d : plan.guardrails) (d.suppression ? approved : exceeded)++;
  }
  json doc = {{"version", 1}, {"base", report.base_label}, {"head", report.head_label}};
  doc["summary"] = {{"changed", counts[static_cast<int>(PlanStatus::changed)]},
                    {"added", counts[static_cast<int>(PlanStatus::added)]},
                    {"renamed", counts[static_cast<int>(PlanStatus::renamed)]},
                    {"removed", counts[static_cast<int>(PlanStatus::removed)]},
                    {"unchanged", report.unchanged_plans},
                    {"findings_introduced", introduced},
                    {"findings_resolved", resolved},
                    {"guardrails_exceeded", exceeded},
                    {"guardrails_approved", approved},
                    {"cost_rose", report.cost_rose()},
                    {"failing", report.failing}};
  json by_gpu = json::array();
  for (const TotalChange& total : report.totals)
    by_gpu.push_back({{"gpu", total.gpu}, {"base", total_json(total.base)}, {"head", total_json(total.head)}});
  doc["totals"] = {{"by_gpu", by_gpu},
                   {"all", {{"base", total_json(report.overall.base)}, {"head", total_json(report.overall.head)}}}};
  json& plans = doc["plans"] = json::array();
  for (const PlanDiff& plan : report.plans) plans.push_back(plan_json(plan));
  out << json_text(doc) << '\n';
}

}  // namespace planlint::detail
