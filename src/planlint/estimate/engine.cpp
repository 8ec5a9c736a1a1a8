#include "planlint/estimate/engine.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "planlint/plan/assumed_keys.hpp"
#include "planlint/plan/defaults.hpp"
#include "planlint/plan/schema.hpp"

namespace planlint::detail {

namespace {

constexpr double missing_value = std::numeric_limits<double>::quiet_NaN();

bool is_fraction_key(std::string_view path) {
  // A slice's field ("capacity[1].goodput") is its section's key ("capacity.goodput").
  const KeySpec* spec = find_key(path);
  if (!spec) spec = slice_field_spec(path);
  return spec && spec->base_unit == "fraction";
}

}  // namespace

std::string show_count(double value) { return units::format(value, units::dims::none); }

std::string show_percent(double fraction) {
  return units::format(fraction * 100, units::dims::none) + "%";
}

std::string show_plan_value(std::string_view path, double value, units::Dimension dim) {
  if (dim.dimensionless() && is_fraction_key(path)) return show_percent(value);
  return units::format(value, dim);
}

namespace {

std::string show_in(units::Dimension dim, double value) {
  if (dim == units::dims::flop / units::dims::tokens) return units::format(value, units::dims::flop) + "/token";
  return units::format(value, dim);
}

}  // namespace

std::string show_metric_value(const MetricSpec& metric, double value) {
  return metric.fraction ? show_percent(value) : show_in(metric.dim, value);
}

std::string show_metric_value(const MetricValue& metric, double value) {
  return metric.spec ? show_metric_value(*metric.spec, value) : show_in(metric.dim, value);
}

std::string TermText::str() const {
  switch (kind_) {
    case Kind::text: return std::string(text_);
    case Kind::plan_value: return show_plan_value(key_, value_, dim_);
    case Kind::metric_value: return show_metric_value(metric_spec(metric_), value_);
    case Kind::count: return show_count(value_);
    case Kind::quantity: return units::format(value_, dim_);
    case Kind::deferred: return recipe_->render();
  }
  return std::string(text_);
}

const std::string& EstimateContext::catalog_note(std::string_view path) {
  std::optional<std::string>& note = path == "cluster.peak" ? peak_note_ : catalog_note_;
  if (!note) {
    note.emplace();
    if (auto gpu = plan_.text("cluster.gpu"))
      *note = path == "cluster.peak" ? fmt::format("catalog {} dense {} peak", *gpu, compute_precision(plan_, catalog_))
                                     : fmt::format("catalog {}", *gpu);
  }
  return *note;
}

Override override_at(std::string_view key, double value) {
  if (const std::optional<SliceField> slice = slice_field_by_place(key)) return Override{slice->field, value, slice->slice};
  return Override{find_key(key), value};
}

std::optional<double> EstimateContext::number(std::string_view path) const {
  if (!overrides_.empty())
    if (auto value = override_of(find_key(path))) return value;
  return plan_.number(path);
}

std::string EstimateContext::missing_name(std::string_view path) const {
  const std::string key(path);
  if (plan_.states_invalid(path)) return key + " (its value is not valid)";
  if (const Plan::Misspelling* misspelling = plan_.misspelt(path))
    return misspelling->path == path ? fmt::format("{} (written as '{}')", key, misspelling->written)
                                     : fmt::format("{} (its section is written as [{}])", key, misspelling->written);
  if (path == "model.active_params") return "model.params";
  const bool from_catalog = path == "cluster.peak" || path == "cluster.hbm" ||
                            path == "cluster.hbm_bandwidth" ||
                            path == "cluster.intra_node_bandwidth";
  if (!from_catalog) return key;
  const std::optional<std::string> gpu_id = plan_.text("cluster.gpu");
  if (!gpu_id) return key;
  const GpuSpec* gpu = catalog_.find(*gpu_id);
  if (!gpu) return fmt::format("{} (cluster.gpu \"{}\" is not in the catalog)", key, *gpu_id);
  if (path == "cluster.peak")
    return fmt::format("{} (the catalog has no {} peak for {})", key, compute_precision(plan_, catalog_),
                       gpu->id);
  if (path == "cluster.intra_node_bandwidth")
    return fmt::format("{} (the catalog has no NVLink-class figure for {})", key, gpu->id);
  return key;
}

std::optional<Term> counted_attention(EstimateContext& context, MetricBuilder& m) {
  if (!context.find("training.mfu_counts_attention") || m.choice("training.mfu_counts_attention") != "true")
    return std::nullopt;
  return m.metric(Metric::train_attention_flops_per_token);
}

CountedRecompute counted_recompute(EstimateContext& context, MetricBuilder& m) {
  if (!context.find("training.mfu_counts_recompute") || m.choice("training.mfu_counts_recompute") != "true")
    return {};
  if (m.choice("training.recompute") != "full") return {};
  return {4.0 / 3.0, "4/3 · ", "4/3 × "};
}

MetricBuilder::MetricBuilder(EstimateContext& context, Metric metric) : context_(context), metric_(metric) {
  if (!context_.with_text()) return;
  const MetricSpec& spec = metric_spec(metric);
  value_.emplace();
  value_->spec = &spec;  // the name is copied only when the metric is computed (set_value)
  value_->dim = spec.dim;
}

void MetricBuilder::add_input(MetricInput input) {
  if (!context_.with_provenance()) return;
  for (const MetricInput& existing : value_->inputs)
    if (existing.name == input.name) return;
  // Most metrics have two to four inputs: one allocation instead of growing 1, 2, 4.
  if (value_->inputs.empty()) value_->inputs.reserve(4);
  value_->inputs.push_back(std::move(input));
}

void MetricBuilder::missing(std::string name) {
  // Values only: that something is missing is all that is read.
  if (!context_.with_text()) {
    if (missing_.empty()) missing_.push_back(std::move(name));
    return;
  }
  if (std::find(missing_.begin(), missing_.end(), name) != missing_.end()) return;
  if (missing_.empty()) missing_.reserve(4);  // most absent metrics lack one to three inputs
  missing_.push_back(std::move(name));
}

void MetricBuilder::note(std::string text) {
  if (context_.with_provenance()) value_->notes.push_back(std::move(text));
}

void MetricBuilder::describe_input(std::string_view name, std::string note) {
  if (!value_) return;
  for (MetricInput& input : value_->inputs)
    if (input.name == name) input.note = std::move(note);
}

std::optional<Term> MetricBuilder::optional_plan(std::string_view path) {
  const KeySpec* spec = find_key(path);
  const PlanValue* found = spec ? context_.plan().find(*spec) : nullptr;
  if (!found || !found->quantity()) return std::nullopt;
  // number(path) without looking the key up a second time.
  const std::optional<double> number = context_.override_of(spec).value_or(found->quantity()->value);
  const units::Dimension dim = found->quantity()->dim;
  if (context_.with_provenance()) {
    MetricInput input;
    input.name = std::string(path);
    input.value = *number;
    input.dim = dim;
    input.origin = found->origin;
    input.span = found->span;
    if (found->origin == Origin::catalog) input.note = context_.catalog_note(path);
    add_input(std::move(input));
  }
  return Term{*number, TermText::plan_value(path, *number, dim)};
}

std::optional<Term> MetricBuilder::optional_element(const PlanTable& element, std::string_view shown_as,
                                                   std::string name) {
  const PlanValue* found = element.find(shown_as.substr(shown_as.find('.') + 1));
  if (!found || !found->quantity()) return std::nullopt;
  double number = found->quantity()->value;
  // A slice's field an assumption ranges: its low or high in the ranges' evaluations.
  if (context_.has_overrides()) {
    const std::vector<PlanTable>& slices = context_.plan().capacity;
    if (!slices.empty() && &element >= slices.data() && &element < slices.data() + slices.size())
      number = context_.override_of(find_key(shown_as), static_cast<std::size_t>(&element - slices.data()))
                   .value_or(number);
  }
  const units::Dimension dim = found->quantity()->dim;
  if (context_.with_provenance()) {
    MetricInput input;
    input.name = std::move(name);
    input.value = number;
    input.dim = dim;
    input.origin = found->origin;
    input.span = found->span;
    add_input(std::move(input));
  }
  return Term{number, TermText::plan_value(shown_as, number, dim)};
}

Term MetricBuilder::plan(std::string_view path) {
  if (auto term = optional_plan(path)) return *term;
  missing(context_.missing_name(path));
  return Term{missing_value, "?"};
}

std::optional<std::string> MetricBuilder::choice(std::string_view path, double used_value, std::string note) {
  const PlanValue* found = context_.find(path);
  std::optional<std::string> text;
  if (found && found->text()) text = *found->text();
  if (found && found->boolean()) text = *found->boolean() ? "true" : "false";
  if (!text) {
    missing(context_.missing_name(path));
    return std::nullopt;
  }
  if (context_.with_provenance()) {
    MetricInput input;
    input.name = std::string(path);
    input.value = used_value;
    input.text = *text;
    input.origin = found->origin;
    input.span = found->span;
    input.note = std::move(note);
    add_input(std::move(input));
  }
  return text;
}

Term MetricBuilder::metric_terms(Metric metric) {
  Term term = this->metric(metric);
  const MetricValue* found = context_.with_text() ? context_.estimates().find(metric) : nullptr;
  if (!found || found->arithmetic.empty()) return term;
  term.text = TermText::deferred([arithmetic = found->arithmetic] {
    std::string text = arithmetic.str();
    if (const std::size_t at = text.rfind(" = "); at != std::string::npos) text.resize(at);
    return text;
  });
  return term;
}

Term MetricBuilder::metric(Metric metric) {
  if (!context_.with_text()) {
    const double value = context_.values()[static_cast<std::size_t>(metric)];
    if (std::isnan(value)) missing(std::string());
    return Term{value, "?"};
  }
  const std::string_view name = metric_spec(metric).name;
  const Estimates& estimates = context_.estimates();
  if (const MetricValue* found = estimates.find(metric)) {
    if (context_.with_provenance()) {
      MetricInput input;
      input.name = std::string(name);
      input.value = found->value;
      input.dim = found->dim;
      input.is_metric = true;
      add_input(std::move(input));
    }
    return Term{found->value, TermText::metric_value(metric, found->value)};
  }
  if (const std::vector<std::string>* inputs = estimates.missing_inputs(metric)) {
    for (const std::string& name_missing : *inputs) missing(name_missing);
  } else {
    missing(std::string(name));
  }
  return Term{missing_value, "?"};
}

void MetricBuilder::set_absent() {
  if (!context_.with_text()) return;  // NaN in values() already
  context_.estimates().set_absent(std::string(), value_->spec, std::move(missing_));
}

void MetricBuilder::set_value(double value, std::string_view formula, LazyText arithmetic) {
  if (!context_.with_text()) {
    context_.values()[static_cast<std::size_t>(metric_)] = value;
    return;
  }
  value_->name = std::string(value_->spec->name);
  value_->value = value;
  if (context_.with_provenance()) value_->formula = std::string(formula);
  value_->arithmetic = std::move(arithmetic);
  context_.estimates().set(std::move(*value_), &metric_spec(metric_));
}

}  // namespace planlint::detail
