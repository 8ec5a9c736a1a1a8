// textDocument/hover: what planlint knows of the key or value under the cursor. A plan value
// with its unit and line, and every metric that reads it with its formula and arithmetic as
// `planlint report` shows them; on `gpu` (and the figures it supplies) the catalog entry; on a
// claim of [estimates] the recomputed value and its tolerance. Everything comes from the
// analysis: nothing is computed here.
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

/// A value as the plan's arithmetic shows it ("128 GPUs", "40%", "\"h100-sxm\"").
std::string value_text(std::string_view path, const PlanValue& value) {
  if (const units::Quantity* q = value.quantity()) return detail::show_plan_value(path, q->value, q->dim);
  if (const std::string* text = value.text()) return fmt::format("\"{}\"", *text);
  if (const bool* flag = value.boolean()) return *flag ? "true" : "false";
  if (const Date* date = value.date()) return fmt::format("{:04}-{:02}-{:02}", date->year, date->month, date->day);
  return {};
}

/// A metric as a line of `planlint report`: value, range, formula, arithmetic and notes.
void metric_lines(HoverText& out, const MetricValue& metric) {
  out.code(metric.name).line(" = ").bold(detail::value_text(metric));
  if (const std::string range = detail::range_text(metric); !range.empty()) out.line(" (").text(range).line(")");
  if (!metric.formula.empty()) out.line_break().line("formula: ").code(metric.formula);
  out.line_break().code(metric.arithmetic.str());
  for (const std::string& note : metric.notes) out.line_break().text(note);
  out.paragraph();
}

/// The metrics whose inputs include `path` (or, for `cluster.gpu`, the catalog's figures).
void used_by(HoverText& out, const Estimates& estimates, std::string_view path) {
  bool any = false;
  for (const MetricValue& metric : estimates.values()) {
    const bool reads = std::any_of(metric.inputs.begin(), metric.inputs.end(), [&](const MetricInput& input) {
      return !input.is_metric && (input.name == path || (path == "cluster.gpu" && input.origin == Origin::catalog));
    });
    if (!reads) continue;
    if (!any) out.bold("Used by").paragraph();
    any = true;
    metric_lines(out, metric);
  }
}

/// The catalog entry: peaks per precision (dense and with 2:4 sparsity), memory, bandwidths,
/// sources and notes.
void catalog_entry(HoverText& out, const GpuSpec& gpu) {
  out.line("catalog ").code(gpu.id).line(": ").text(gpu.name).paragraph();
  if (out.markdown()) out.line("| precision | dense peak | sparse peak (2:4) |\n|---|---|---|\n");
  for (const Precision precision : all_precisions) {
    const auto dense = gpu.dense_peak(precision);
    const auto sparse = gpu.sparse_peak(precision);
    if (!dense && !sparse) continue;
    const std::string dense_text = dense ? units::format(*dense, units::dims::flop_per_second) : "–";
    const std::string sparse_text = sparse ? units::format(*sparse, units::dims::flop_per_second) : "–";
    if (out.markdown()) out.line(fmt::format("| {} | {} | {} |\n", to_string(precision), dense_text, sparse_text));
    else out.line(fmt::format("{}: dense {}, sparse {}", to_string(precision), dense_text, sparse_text)).line_break();
  }
  out.paragraph();
  out.line("HBM ").line(units::format(gpu.hbm_bytes, units::dims::bytes));
  out.line(", HBM bandwidth ").line(units::format(gpu.hbm_bandwidth_bytes_per_s, units::dims::bytes_per_second));
  if (gpu.link_bandwidth_bytes_per_s)
    out.line(", GPU link ").line(units::format(*gpu.link_bandwidth_bytes_per_s, units::dims::bytes_per_second));
  out.line(fmt::format(", scale-out {}", to_string(gpu.scale_out))).paragraph();
  if (!gpu.notes.empty()) out.text(gpu.notes).paragraph();
  for (const std::string& source : gpu.sources) out.line("source: ").text(source).line_break();
  out.paragraph();
}

/// The cluster keys that the catalog entry supplies or is compared with.
bool shows_catalog(std::string_view path) {
  return path == "cluster.gpu" || path == "cluster.peak" || path == "cluster.hbm" || path == "cluster.hbm_bandwidth" ||
         path == "cluster.intra_node_bandwidth";
}

void value_hover(HoverText& out, const Analysis& analysis, const DocumentPlan& plan, const KeySpec& key,
                 const PlanValue& value) {
  const std::string path = fmt::format("{}.{}", key.section, key.key);
  out.code(path).line(" = ").bold(value_text(path, value)).line(": ").line(key.reference()).paragraph();
  out.source_line(analysis.source->line(value.span.begin.line));
  if (shows_catalog(path))
    if (auto id = plan.plan->text("cluster.gpu"))
      if (const GpuSpec* gpu = analysis.catalog().find(*id)) catalog_entry(out, *gpu);
  if (plan.estimates) used_by(out, *plan.estimates, path);
}

void metric_hover(HoverText& out, const DocumentPlan& plan, std::string_view name) {
  const MetricSpec* spec = find_metric(name);
  if (!spec) return;
  out.code(spec->name).line(": ").text(spec->summary).paragraph();
  if (!plan.estimates) return;
  if (const MetricValue* metric = plan.estimates->find(spec->id)) {
    metric_lines(out, *metric);
  } else if (auto absent = plan.estimates->absent().find(spec->name); absent != plan.estimates->absent().end()) {
    out.line("planlint cannot compute it for this plan: it needs ");
    for (std::size_t i = 0; i < absent->second.size(); ++i) out.line(i ? ", " : "").code(absent->second[i]);
    out.paragraph();
  }
}

void claim_hover(HoverText& out, const Analysis& analysis, const DocumentPlan& plan, const Claim& claim) {
  const MetricSpec* spec = find_metric(claim.metric);
  metric_hover(out, plan, claim.metric);
  if (!spec || !plan.estimates || !claim.value || !claim.value->quantity()) return;
  const MetricValue* metric = plan.estimates->find(spec->id);
  if (!metric) return;
  const double claimed = claim.value->quantity()->value;
  out.line("claimed ").bold(detail::show_metric_value(*metric, claimed));
  if (metric->value != 0) out.line(fmt::format(", {:+.1f}% from planlint's value", (claimed / metric->value - 1) * 100));
  const std::map<std::string, double>* configured = analysis.settings ? &analysis.settings->lint.tolerances : nullptr;
  if (spec->tier == Tier::latency) {
    out.line("; a latency is a bound, compared with the SLA only, not within a tolerance");
  } else if (auto tolerance = tier_tolerance(*plan.plan, *spec, configured ? *configured : std::map<std::string, double>{})) {
    out.line(fmt::format("; {} tier, tolerance ", to_string(spec->tier))).bold(detail::show_percent(*tolerance));
  }
  out.paragraph();
}

}  // namespace

json hover(const Analysis& analysis, LspPosition at, const ClientSupport& client) {
  if (!analysis.source) return nullptr;
  const Positions positions(analysis.text, *analysis.source);
  const Position place = positions.source_position(at);
  const DocumentPlan* plan = analysis.plan_at(place.line);
  if (!plan || !plan->plan) return nullptr;
  HoverText out(client.markdown_hover);
  std::optional<Span> over;
  for (const KeySpec& key : plan_keys()) {
    const SectionSpec* section = find_section(key.section);
    auto check = [&](const PlanTable& table) {
      const PlanValue* value = table.values.find(key);
      if (!value || value->origin != Origin::plan) return false;
      if (!contains(value->key_span, place) && !contains(value->span, place)) return false;
      over = contains(value->key_span, place) ? value->key_span : value->span;
      if (key.kind == ValueKind::metric && value->text()) metric_hover(out, *plan, *value->text());
      else if (key.kind == ValueKind::plan_key && value->text() && find_value_key(*value->text())) {
        const KeySpec& justified = *find_value_key(*value->text());
        if (const PlanValue* stated = plan->plan->find(justified); stated && stated->origin == Origin::plan)
          value_hover(out, analysis, *plan, justified, *stated);
      } else {
        value_hover(out, analysis, *plan, key, *value);
      }
      return true;
    };
    if (!section->array) {
      if (check(plan->plan->sections.of(key))) break;
      continue;
    }
    const std::vector<PlanTable>& elements = key.section == "targets" ? plan->plan->targets
                                             : key.section == "assumptions" ? plan->plan->assumptions
                                                                            : plan->plan->benchmarks;
    if (std::any_of(elements.begin(), elements.end(), check)) break;
  }
  if (!over)
    for (const Claim& claim : plan->plan->estimates) {
      for (const Span& span : {claim.key_span, claim.value ? claim.value->span : Span{},
                               claim.low ? claim.low->span : Span{}, claim.high ? claim.high->span : Span{}})
        if (contains(span, place)) over = span;
      if (!over) continue;
      claim_hover(out, analysis, *plan, claim);
      break;
    }
  if (!over || out.empty()) return nullptr;
  return {{"contents", {{"kind", client.markdown_hover ? "markdown" : "plaintext"}, {"value", out.str()}}},
          {"range", to_json(positions.range(*over))}};
}

}  // namespace planlint::lsp
