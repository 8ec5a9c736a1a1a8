#include "planlint/search/layout_edits.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "planlint/estimate/engine.hpp"
#include "planlint/search/search.hpp"

namespace planlint::solve {

namespace {

std::string value_text(LayoutKey key, const layout::TrainingLayout& l) {
  switch (key) {
    case LayoutKey::tp: return std::to_string(l.tp);
    case LayoutKey::pp: return std::to_string(l.pp);
    case LayoutKey::virtual_stages: return std::to_string(l.virtual_stages);
    case LayoutKey::cp: return std::to_string(l.cp);
    case LayoutKey::ep: return std::to_string(l.ep);
    case LayoutKey::micro_batch: return std::to_string(l.micro_batch);
    case LayoutKey::zero: return std::to_string(l.zero);
    case LayoutKey::recompute: return fmt::format("\"{}\"", layout::recompute_name(l.recompute));
    case LayoutKey::sequence_parallel: return l.sequence_parallel ? "true" : "false";
    case LayoutKey::offload: return fmt::format("\"{}\"", layout::offload_name(l.offload));
  }
  return {};
}

}  // namespace

std::size_t insert_offset(const SourceFile& source, const Plan& plan, std::string_view table) {
  const PlanTable& training = plan.section(table);
  const std::string& text = source.text();
  std::uint32_t line = training.header.begin.line, last = line;
  for (std::uint32_t at = line + 1; at <= source.line_count(); ++at) {
    const std::size_t begin = source.offset(Position{at, 1});
    const std::size_t end = at < source.line_count() ? source.offset(Position{at + 1, 1}) : text.size();
    std::string_view row(text.data() + begin, end - begin);
    const std::size_t first = row.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos || row[first] == '#') continue;
    if (row[first] == '[' || row.starts_with("```")) break;
    last = at;
  }
  return last < source.line_count() ? source.offset(Position{last + 1, 1}) : text.size();
}

void sort_edits(std::vector<fix::TextEdit>& edits) {
  std::sort(edits.begin(), edits.end(), [](const fix::TextEdit& a, const fix::TextEdit& b) { return a.begin < b.begin; });
}

std::vector<fix::TextEdit> layout_edits(const SourceFile& source, const Plan& plan, const layout::TrainingLayout& from,
                                        const layout::TrainingLayout& to, std::vector<std::string>& changes) {
  std::vector<fix::TextEdit> edits;
  std::string inserted;
  for (std::size_t i = 0; i < layout_key_count; ++i) {
    const auto key = static_cast<LayoutKey>(i);
    const std::string before = value_text(key, from), after = value_text(key, to);
    const PlanValue* stated = plan.find(plan_key(key));
    const bool written = stated && stated->origin == Origin::plan && stated->span.known();
    // sequence_parallel defaults to tp > 1: a plan that leaves it out gets the new tp's default.
    const std::string default_after =
        key == LayoutKey::sequence_parallel ? (to.tp > 1 ? "true" : "false") : before;
    if (written) {
      if (before == after) continue;
      edits.push_back({source.offset(stated->span.begin), source.offset(stated->span.end), after});
    } else {
      if (after == default_after) continue;
      inserted += fmt::format("{} = {}\n", short_name(key), after);
    }
    if (before != after) changes.push_back(fmt::format("{} = {} (was {})", short_name(key), after, before));
  }
  // A stated dp follows tp · pp · cp; a derived one derives itself.
  if (const PlanValue* dp = plan.find("training.dp"); dp && dp->origin == Origin::plan && from.dp != to.dp) {
    edits.push_back({source.offset(dp->span.begin), source.offset(dp->span.end), std::to_string(to.dp)});
    changes.push_back(fmt::format("dp = {} (was {})", to.dp, from.dp));
  }
  if (!inserted.empty()) {
    const std::size_t at = insert_offset(source, plan, "training");
    if (at == source.text().size() && !source.text().empty() && source.text().back() != '\n')
      inserted.insert(0, "\n");
    edits.push_back({at, at, inserted});
  }
  sort_edits(edits);
  return edits;
}

std::vector<fix::TextEdit> claim_edits(const SourceFile& source, const Plan& plan, const FigureOf& before,
                                       const FigureOf& after, std::vector<std::string>& changes,
                                       bool (*layout_metric)(Metric)) {
  std::vector<fix::TextEdit> edits;
  for (const Claim& claim : plan.estimates) {
    const MetricSpec* spec = find_metric(claim.metric);
    if (!spec || !layout_metric(spec->id) || claim.is_range() || !claim.value || !claim.value->span.known()) continue;
    const double old_value = before(spec->id), new_value = after(spec->id);
    if (std::isnan(new_value) || old_value == new_value) continue;
    const std::string shown = detail::show_metric_value(*spec, new_value);
    edits.push_back({source.offset(claim.value->span.begin), source.offset(claim.value->span.end),
                     fmt::format("\"{}\"", shown)});
    changes.push_back(fmt::format("[estimates] \"{}\" = \"{}\"", claim.metric, shown));
  }
  return edits;
}

}  // namespace planlint::solve
