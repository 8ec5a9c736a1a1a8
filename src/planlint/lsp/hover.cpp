// textDocument/hover: what planlint knows of the key or value under the cursor, shortest first.
// A plan value with its unit, then the metrics that read it, each with its arithmetic as
// `planlint report` shows it (the first few; the others by name), then what the key means and,
// on `gpu` and the figures it supplies, the catalog entry in two lines. On a claim of
// [estimates] the recomputed value and its arithmetic, the claim against it and its tolerance,
// then what the metric is. Everything comes from the analysis: nothing is computed here.
#include <algorithm>

#include <fmt/format.h>

#include "planlint/catalog/catalog.hpp"
#include "planlint/estimate/engine.hpp"
#include "planlint/emit/report_common.hpp"
#include "planlint/estimate/tolerance.hpp"
#include "planlint/lsp/features.hpp"
#include "planlint/lsp/hover_text.hpp"
#include "planlint/lsp/params.hpp"
#include "planlint/lsp/positions.hpp"
#include "planlint/settings/settings.hpp"

namespace planlint::lsp {

namespace {

bool contains(const Span& span, Position at) { return span.known() && span.begin <= at && at <= span.end; }

/// The plan a hover reads: a document's plan, or one stage of a run in stages (its plan and
/// estimates).
struct HoverPlan {
  const Plan& plan;
  const Estimates* estimates;
  std::string_view stage;  ///< the stage's name; empty for the document's plan
  std::string once = {};   ///< the corrected inputs the estimates hold ("cluster.peak is 989 TFLOPS")
};

/// A value as the plan's arithmetic shows it ("128 GPUs", "40%", "\"h100-sxm\"").
std::string value_text(std::string_view path, const PlanValue& value) {
  if (const units::Quantity* q = value.quantity()) return detail::show_plan_value(path, q->value, q->dim);
  if (const std::string* text = value.text()) return fmt::format("\"{}\"", *text);
  if (const bool* flag = value.boolean()) return *flag ? "true" : "false";
  if (const Date* date = value.date()) return fmt::format("{:04}-{:02}-{:02}", date->year, date->month, date->day);
  return {};
}

/// The most metrics a value's hover lists with their arithmetic; the others are named.
constexpr std::size_t max_metrics_shown = 3;

/// A metric's value in the unit its name says: `train.gpu_seconds` in GPU-seconds, where the
/// readable form of its dimension is GPU-hours.
std::string own_unit_text(const MetricValue& metric, double value) {
  if (metric.spec && metric.spec->plain.unit == "GPU-seconds") return fmt::format("{} GPU·s", detail::show_count(value));
  return detail::show_metric_value(metric, value);
}

/// "`train.days` = **4.8 d** (3.8–6.1 d): `14.7K GPU·h / 128 GPUs / 24 = 4.8 d`": the value first,
/// then its arithmetic, on one line.
void metric_line(HoverText& out, const MetricValue& metric) {
  out.code(metric.name).line(" = ").bold(own_unit_text(metric, metric.value));
  if (metric.low && metric.high)
    out.line(" (").text(own_unit_text(metric, *metric.low)).line(" – ").text(own_unit_text(metric, *metric.high)).line(")");
  out.line(": ").code(metric.arithmetic.str());
}

/// A metric's context, after its value: what it is, its formula, and its notes.
void metric_context(HoverText& out, const MetricSpec& spec, const MetricValue* metric) {
  out.text(spec.summary);
  if (metric && !metric->formula.empty()) out.line("; formula ").code(metric->formula);
  out.paragraph();
  if (metric)
    for (const std::string& note : metric->notes) out.text(note).line_break();
}

/// The metrics whose inputs include `path` (or, for `cluster.gpu`, the catalog's figures): the
/// first few with their arithmetic, the others by name.
void used_by(HoverText& out, const Estimates& estimates, std::string_view path) {
  std::vector<const MetricValue*> readers;
  for (const MetricValue& metric : estimates.values()) {
    if (metric.spec && metric.spec->section == ReportSection::json_only) continue;
    const bool reads = std::any_of(metric.inputs.begin(), metric.inputs.end(), [&](const MetricInput& input) {
      return !input.is_metric && (input.name == path || (path == "cluster.gpu" && input.origin == Origin::catalog));
    });
    if (reads) readers.push_back(&metric);
  }
  for (std::size_t i = 0; i < readers.size() && i < max_metrics_shown; ++i) metric_line(out, *readers[i]), out.line_break();
  if (readers.size() > max_metrics_shown) {
    out.line("also read by ");
    const std::size_t named = std::min(readers.size(), 2 * max_metrics_shown);
    for (std::size_t i = max_metrics_shown; i < named; ++i) out.line(i > max_metrics_shown ? ", " : "").code(readers[i]->name);
    if (readers.size() > named) out.line(fmt::format(" and {} more", readers.size() - named));
  }
  if (!readers.empty()) out.paragraph();
}

/// The catalog entry in two lines: the GPU, its peaks at the plan's precision, its memory; then
/// its first source.
void catalog_entry(HoverText& out, const GpuSpec& gpu, std::optional<Precision> precision) {
  out.line("catalog ").code(gpu.id).line(": ").text(gpu.name);
  if (precision) {
    const auto dense = gpu.dense_peak(*precision);
    const auto sparse = gpu.sparse_peak(*precision);
    if (dense) out.line(fmt::format("; {} dense {}", to_string(*precision), units::format(*dense, units::dims::flop_per_second)));
    if (sparse) out.line(fmt::format(", sparse (2:4) {}", units::format(*sparse, units::dims::flop_per_second)));
  }
  out.line("; HBM ").line(units::format(gpu.hbm_bytes, units::dims::bytes));
  out.line(" at ").line(units::format(gpu.hbm_bandwidth_bytes_per_s, units::dims::bytes_per_second));
  if (gpu.link_bandwidth_bytes_per_s)
    out.line(", GPU link ").line(units::format(*gpu.link_bandwidth_bytes_per_s, units::dims::bytes_per_second));
  if (gpu.scale_up_link) out.line(fmt::format(", scale-up link {}", display_name(*gpu.scale_up_link)));
  if (gpu.scale_up_domain) out.line(fmt::format(", scale-up domain {:g} GPUs", *gpu.scale_up_domain));
  if (!gpu.sources.empty()) out.line_break().line("source: ").text(gpu.sources.front());
  out.paragraph();
}

/// The cluster keys that the catalog entry supplies or is compared with.
bool shows_catalog(std::string_view path) {
  return path == "cluster.gpu" || path == "cluster.peak" || path == "cluster.hbm" || path == "cluster.hbm_bandwidth" ||
         path == "cluster.intra_node_bandwidth";
}

void value_hover(HoverText& out, const Analysis& analysis, const HoverPlan& plan, const KeySpec& key,
                 const PlanValue& value) {
  const std::string path = fmt::format("{}.{}", key.section, key.key);
  out.code(path).line(" = ").bold(value_text(path, value)).paragraph();
  if (!plan.stage.empty()) out.line(fmt::format("in stage '{}':", plan.stage)).paragraph();
  if (!plan.once.empty()) out.line(fmt::format("once {}:", plan.once)).paragraph();
  if (plan.estimates) used_by(out, *plan.estimates, path);
  out.line(key.reference()).paragraph();
  if (shows_catalog(path))
    if (auto id = plan.plan.text("cluster.gpu"))
      if (const GpuSpec* gpu = analysis.catalog().find(*id)) {
        std::optional<Precision> precision;
        if (auto stated = plan.plan.text("training.precision")) precision = parse_precision(*stated);
        catalog_entry(out, *gpu, precision);
      }
}

/// A metric named in a claim or target: its value and arithmetic, then `after` (a claim's
/// comparison), then what it is.
template <typename After>
void metric_hover(HoverText& out, const HoverPlan& plan, std::string_view name, After after) {
  const MetricSpec* spec = find_metric(name);
  if (!spec) return;
  const MetricValue* metric = plan.estimates ? plan.estimates->find(spec->id) : nullptr;
  if (metric) {
    metric_line(out, *metric);
    if (!plan.once.empty()) out.line(fmt::format(" (once {})", plan.once));
    out.paragraph();
    after(*spec, *metric);
  } else {
    out.code(spec->name).paragraph();
    if (plan.estimates)
      if (const std::vector<std::string>* missing = plan.estimates->missing_inputs(spec->id)) {
        out.line("planlint cannot compute it for this plan: it needs ");
        for (std::size_t i = 0; i < missing->size(); ++i) out.line(i ? ", " : "").code((*missing)[i]);
        out.paragraph();
      }
  }
  metric_context(out, *spec, metric);
}

void claim_hover(HoverText& out, const Analysis& analysis, const HoverPlan& plan, const Claim& claim) {
  metric_hover(out, plan, claim.metric, [&](const MetricSpec& spec, const MetricValue& metric) {
    if (!claim.value || !claim.value->quantity()) return;
    const double claimed = claim.value->quantity()->value;
    out.line("claimed ").bold(own_unit_text(metric, claimed));
    if (metric.value != 0) out.line(fmt::format(", {:+.1f}% from planlint's value", (claimed / metric.value - 1) * 100));
    const std::map<std::string, double>* configured = analysis.settings ? &analysis.settings->lint.tolerances : nullptr;
    if (spec.tier == Tier::latency) {
      out.line("; a latency is a bound, compared with the SLA only, not within a tolerance");
    } else if (auto tolerance = tier_tolerance(plan.plan, spec, configured ? *configured : std::map<std::string, double>{})) {
      out.line(fmt::format("; {} tier, tolerance ", to_string(spec.tier))).bold(detail::show_percent(*tolerance));
    }
    out.paragraph();
  });
}

/// The hover of the value, entry or claim of `plan` under `place`, into `out`; its span, or
/// nullopt when `plan` states none there. `tables`: look in its tables ([training], [cluster],
/// ...), else in its arrays of tables and its claims.
std::optional<Span> hover_in(HoverText& out, const Analysis& analysis, const HoverPlan& plan, Position place,
                             bool tables) {
  std::optional<Span> over;
  for (const KeySpec& key : plan_keys()) {
    const SectionSpec* section = find_section(key.section);
    if (section->array == tables) continue;
    auto check = [&](const PlanTable& table) {
      const PlanValue* value = table.values.find(key);
      if (!value || value->origin != Origin::plan) return false;
      if (!contains(value->key_span, place) && !contains(value->span, place)) return false;
      over = contains(value->key_span, place) ? value->key_span : value->span;
      if (key.kind == ValueKind::metric && value->text())
        metric_hover(out, plan, *value->text(), [](const MetricSpec&, const MetricValue&) {});
      else if (key.kind == ValueKind::plan_key && value->text() && find_value_key(*value->text())) {
        const KeySpec& justified = *find_value_key(*value->text());
        if (const PlanValue* stated = plan.plan.find(justified); stated && stated->origin == Origin::plan)
          value_hover(out, analysis, plan, justified, *stated);
      } else {
        value_hover(out, analysis, plan, key, *value);
      }
      return true;
    };
    if (!section->array) {
      if (check(plan.plan.sections.of(key))) return over;
      continue;
    }
    const std::vector<PlanTable>& elements = key.section == "targets"       ? plan.plan.targets
                                             : key.section == "assumptions" ? plan.plan.assumptions
                                             : key.section == "capacity"    ? plan.plan.capacity
                                                                            : plan.plan.benchmarks;
    if (std::any_of(elements.begin(), elements.end(), check)) return over;
  }
  if (tables) return std::nullopt;
  for (const Claim& claim : plan.plan.estimates) {
    for (const Span& span : {claim.key_span, claim.value ? claim.value->span : Span{},
                             claim.low ? claim.low->span : Span{}, claim.high ? claim.high->span : Span{}})
      if (contains(span, place)) over = span;
    if (!over) continue;
    claim_hover(out, analysis, plan, claim);
    return over;
  }
  return std::nullopt;
}

}  // namespace

json hover(const Analysis& analysis, LspPosition at, const ClientSupport& client) {
  if (!analysis.source) return nullptr;
  const Positions positions(analysis.text, *analysis.source);
  const Position place = positions.source_position(at);
  const DocumentPlan* plan = analysis.plan_at(place.line);
  if (!plan || !plan->plan) return nullptr;
  HoverText out(client.markdown_hover);
  // A run in stages: the plan's [training] and [cluster] values are read by its stages, whose
  // figures the hover shows (of the first stage that holds the value: the plan's are inherited
  // at their own place), and a stage's own values, entries and claims are the stage's. The
  // plan's entries and claims are the whole run's.
  // The figures are those once the inputs the findings' fixes correct are in place, as the
  // findings' and `planlint report`'s are (the values shown stay the plan's as written).
  const CorrectedInputs* corrected = plan->corrected ? &*plan->corrected : nullptr;
  const std::string once = corrected ? once_text(corrected->corrections) : std::string();
  const HoverPlan document{*plan->plan,
                           corrected ? &corrected->estimates : plan->estimates ? &*plan->estimates : nullptr, {}, once};
  const std::vector<Estimates>& stage_estimates = corrected ? corrected->stage_estimates : plan->stage_estimates;
  std::vector<HoverPlan> stages;
  for (std::size_t s = 0; s < plan->plan->stages.size(); ++s)
    stages.push_back(HoverPlan{*plan->plan->stages[s].plan, s < stage_estimates.size() ? &stage_estimates[s] : nullptr,
                               plan->plan->stages[s].name, once});
  std::optional<Span> over;
  for (const HoverPlan& stage : stages)
    if (!over) over = hover_in(out, analysis, stage, place, true);
  if (!over) over = hover_in(out, analysis, document, place, true);
  if (!over) over = hover_in(out, analysis, document, place, false);
  for (const HoverPlan& stage : stages)
    if (!over) over = hover_in(out, analysis, stage, place, false);
  if (!over || out.empty()) return nullptr;
  return {{"contents", {{"kind", client.markdown_hover ? "markdown" : "plaintext"}, {"value", out.str()}}},
          {"range", to_json(positions.range(*over))}};
}

}  // namespace planlint::lsp
