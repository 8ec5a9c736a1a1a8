/// The report as JSON, for scripts and dashboards:
///
///     {"plan": "llama-7b-pretrain", "kind": "training", "file": "plan.toml",
///      "metrics": {"train.flops": {"value": 4.2e22, "unit": "FLOP", "low": null, "high": null,
///                                  "tier": "cost", "formula": "6 · N_a · D", "arithmetic": "...",
///                                  "readable": "4.2e22 FLOP", "inputs": {...}, "notes": []}},
///      "absent": {"train.memory.activations": ["model.layers"]},
///      "ranges": [{"key": "training.mfu", "assumption": "mfu", "low": 0.3, "high": 0.5, ...}],
///      "target_breaks": [{"target": "training time", "metric": "train.days", "key": "training.mfu",
///                         "end": "low", ...}]}
///
/// Each metric's "sensitivity" holds its bars (one assumption from its low to its high end:
/// "key_low", "key_high", the metric "at_low", "at_high", "swing") and "unranged".
///
/// Each value is in the unit its "unit" field names: a metric's in the unit its name says
/// (train.days in d, train.gpu_hours in GPU·h, train.gpu_seconds in GPU·s, the metric table's
/// plain-number unit), a plan value's in base units except prices (USD per GPU-hour, as the
/// plan format writes them).
#include <nlohmann/json.hpp>

#include "planlint/emit/json_text.hpp"

#include "planlint/emit/report_common.hpp"

namespace planlint::detail {

namespace {

using json = nlohmann::ordered_json;

JsonValue json_unit(units::Dimension dim) {
  using namespace units::dims;
  if (dim == gpu_seconds) return {1.0 / 3600, "GPU·h"};
  if (dim == usd_per_gpu_second) return {3600, "USD/GPU·h"};
  if (dim == none) return {1, ""};
  if (dim == flop) return {1, "FLOP"};
  if (dim == flop_per_second) return {1, "FLOP/s"};
  if (dim == flop / tokens) return {1, "FLOP/token"};
  if (dim == bytes) return {1, "B"};
  if (dim == bytes_per_second) return {1, "B/s"};
  if (dim == bytes_per_token) return {1, "B/token"};
  if (dim == seconds) return {1, "s"};
  if (dim == usd) return {1, "USD"};
  if (dim == tokens) return {1, "tokens"};
  if (dim == tokens_per_second) return {1, "tokens/s"};
  if (dim == gpus) return {1, "GPUs"};
  if (dim == sequences) return {1, "sequences"};
  return {1, units::unit_symbol(dim)};
}

std::string_view origin_name(Origin origin) {
  switch (origin) {
    case Origin::plan: return "plan";
    case Origin::default_: return "default";
    case Origin::catalog: return "catalog";
  }
  return "plan";
}

json optional_number(const std::optional<double>& value, double scale) {
  if (!value) return nullptr;
  return *value * scale;
}

json input_json(const MetricInput& input) {
  json out = json::object();
  if (!input.text.empty()) {
    out["value"] = input.text;
    if (input.value != 0) out["used"] = input.value;  // optimizer → bytes per parameter
  } else {
    const JsonValue unit = input.is_metric ? metric_unit(find_metric(input.name), input.dim) : json_unit(input.dim);
    out["value"] = input.value * unit.scale;
    out["unit"] = unit.unit;
  }
  if (input.is_metric) {
    out["metric"] = true;
  } else {
    out["origin"] = origin_name(input.origin);
    if (input.span.known()) {
      out["line"] = input.span.begin.line;
      out["column"] = input.span.begin.column;
    } else {
      out["line"] = nullptr;
      out["column"] = nullptr;
    }
  }
  if (!input.note.empty()) out["note"] = input.note;
  return out;
}

/// A metric's sensitivity: its bars, largest swing first, each with the assumption's ends (in
/// the key's JSON unit) and the metric at each (in the metric's), and the assumptions with no
/// range.
json sensitivity_json(const MetricSensitivity* entry, const JsonValue& unit) {
  json out = json::object();
  json bars = json::array();
  json unranged = json::array();
  if (entry) {
    for (const SensitivityBar& bar : entry->bars) {
      const JsonValue key_unit = json_unit(bar.key_dim);
      json item = json::object();
      item["key"] = bar.key;
      item["assumption"] = bar.assumption;
      item["key_low"] = bar.key_low * key_unit.scale;
      item["key_high"] = bar.key_high * key_unit.scale;
      item["key_unit"] = key_unit.unit;
      item["at_low"] = bar.at_low * unit.scale;
      item["at_high"] = bar.at_high * unit.scale;
      item["swing"] = bar.swing() * unit.scale;
      bars.push_back(std::move(item));
    }
    unranged = entry->unranged;
  }
  out["bars"] = std::move(bars);
  out["unranged"] = std::move(unranged);
  return out;
}

json metric_json(const MetricValue& metric, const Sensitivity* sensitivity) {
  const JsonValue unit = metric_unit(metric.spec, metric.dim);
  json out = json::object();
  out["value"] = metric.value * unit.scale;
  out["unit"] = unit.unit;
  out["low"] = optional_number(metric.low, unit.scale);
  out["high"] = optional_number(metric.high, unit.scale);
  if (const MetricSpec* known = metric.spec) out["tier"] = to_string(known->tier);
  out["readable"] = value_text(metric);
  out["formula"] = metric.formula;
  out["arithmetic"] = metric.arithmetic.str();
  json inputs = json::object();
  for (const MetricInput& input : metric.inputs) inputs[input.name] = input_json(input);
  out["inputs"] = std::move(inputs);
  out["notes"] = metric.notes;
  out["range_keys"] = metric.range_keys;
  if (sensitivity) out["sensitivity"] = sensitivity_json(sensitivity->find(metric.name), unit);
  return out;
}

/// "metrics" and "absent" of `estimates`, in report order (the metric table's), so a reader
/// sees compute first.
void add_metrics_json(json& report, const Estimates& estimates, const Sensitivity* sensitivity, bool stage = false) {
  json metrics = json::object();
  for (const MetricSpec& spec : metric_table())
    // A stage holds the run's totals too, which the run's "metrics" give.
    if (const MetricValue* metric = estimates.find(spec.id); metric && !(stage && spec.section == ReportSection::run))
      metrics[std::string(spec.name)] = metric_json(*metric, sensitivity);
  report["metrics"] = std::move(metrics);

  json absent = json::object();
  for (const MetricSpec& spec : metric_table())
    if (const std::vector<std::string>* missing = estimates.missing_inputs(spec.id))
      absent[std::string(spec.name)] = *missing;
  report["absent"] = std::move(absent);
}

}  // namespace

/// The unit a metric's value is reported in: the one its name says, which is the unit a claim
/// written as a plain number is read in (the metric table's `plain`: days, GPU-hours), else the
/// base unit of its dimension (GPU·s for GPU time).
JsonValue metric_unit(const MetricSpec* spec, units::Dimension dim) {
  if (spec && spec->plain.scale != 1) {
    if (spec->plain.unit == "days") return {1 / spec->plain.scale, "d"};
    if (spec->plain.unit == "GPU-hours") return {1 / spec->plain.scale, "GPU·h"};
  }
  if (dim == units::dims::gpu_seconds) return {1, "GPU·s"};
  return json_unit(dim);
}

void render_json(std::ostream& out, const ReportInput& input) {
  const Estimates& estimates = *input.estimates;
  json report = json::object();
  if (input.plan && input.plan->text("plan.name")) report["plan"] = *input.plan->text("plan.name");
  else report["plan"] = nullptr;
  report["kind"] = kind_name(input);
  report["file"] = input.path;
  // The plan's errors before its numbers: a script reading "metrics" of a plan that does not
  // hold can tell.
  json errors = json::array();
  for (const ReportError& error : input.errors) {
    json entry = json::object();
    entry["rule"] = error.rule;
    entry["line"] = error.line ? json(error.line) : json(nullptr);
    entry["column"] = error.line ? json(error.column) : json(nullptr);
    entry["message"] = error.message;
    errors.push_back(std::move(entry));
  }
  report["errors"] = std::move(errors);
  // The inputs the figures are computed with in place of the plan's: what the plan's findings'
  // fixes write.
  json corrections = json::array();
  for (const InputCorrection& correction : input.corrections)
    corrections.push_back(json{{"key", correction.key}, {"value", correction.value}, {"rule", correction.rule}});
  report["corrected_inputs"] = std::move(corrections);

  add_metrics_json(report, estimates, input.sensitivity);
  if (!input.stages.empty()) {
    // A run in stages: "metrics" are the run's totals (run.*), each stage's its own.
    json stages = json::array();
    for (const ReportStage& stage : input.stages) {
      json entry = json::object();
      entry["name"] = stage.name;
      add_metrics_json(entry, *stage.estimates, nullptr, true);
      stages.push_back(std::move(entry));
    }
    report["stages"] = std::move(stages);
  }

  json ranges = json::array();
  for (const RangeSource& source : estimates.range_sources()) {
    const JsonValue unit = json_unit(source.dim);
    json range = json::object();
    range["key"] = source.key;
    range["assumption"] = source.assumption;
    range["low"] = source.low * unit.scale;
    range["high"] = source.high * unit.scale;
    range["unit"] = unit.unit;
    range["line"] = source.span.known() ? json(source.span.begin.line) : json(nullptr);
    ranges.push_back(std::move(range));
  }
  report["ranges"] = std::move(ranges);
  if (input.sensitivity) {
    json breaks = json::array();
    for (const TargetBreak& broken : input.sensitivity->target_breaks) {
      const JsonValue unit = metric_unit(broken.metric, broken.metric->dim);
      const JsonValue key_unit = json_unit(broken.key_dim);
      json item = json::object();
      item["target"] = broken.target;
      item["metric"] = broken.metric->name;
      item[broken.is_max ? "max" : "min"] = broken.bound * unit.scale;
      item["key"] = broken.key;
      item["assumption"] = broken.assumption;
      item["end"] = broken.at_high ? "high" : "low";
      item["key_value"] = broken.key_value * key_unit.scale;
      item["value"] = broken.metric_value * unit.scale;
      item["broken_at_value"] = broken.broken_at_value;
      breaks.push_back(std::move(item));
    }
    report["target_breaks"] = std::move(breaks);
  }
  out << json_text(report) << '\n';
}

}  // namespace planlint::detail
