#include "planlint/plan/stage_findings.hpp"

#include <algorithm>
#include <charconv>
#include <optional>
#include <utility>
#include <string_view>
#include <unordered_map>

#include <fmt/format.h>

namespace planlint {

void merge_stage_findings(std::span<const std::string> stage_names, std::span<std::vector<Diagnostic>> found,
                          std::vector<Diagnostic>& out) {
  auto key_of = [](const Diagnostic& d) {
    const Span& at = d.primary.span;
    return fmt::format("{}\x1f{}:{}-{}:{}\x1f{}", d.rule, at.begin.line, at.begin.column, at.end.line, at.end.column,
                       d.message);
  };
  struct Seen {
    std::size_t at;              ///< in `out`
    std::vector<bool> in_stage;  ///< empty: a finding of the whole run or the loader's
  };
  std::unordered_map<std::string, Seen> seen;
  const std::size_t stages = found.size() - 1;
  // A finding of the whole run that every stage makes at its place is the stages' to report:
  // the run's estimates hold its totals only, so its text lacks the figures a stage's has (the
  // dense peak sparse-peak names).
  if (stages > 0)
    std::erase_if(found.front(), [&](const Diagnostic& d) {
      return std::all_of(found.begin() + 1, found.end(), [&](const std::vector<Diagnostic>& stage) {
        return std::any_of(stage.begin(), stage.end(), [&](const Diagnostic& s) {
          return s.rule == d.rule && s.primary.span == d.primary.span;
        });
      });
    });
  std::vector<Diagnostic> kept;
  for (Diagnostic& d : out) {
    if (seen.emplace(key_of(d), Seen{kept.size(), {}}).second) kept.push_back(std::move(d));
  }
  for (std::size_t e = 0; e < found.size(); ++e)
    for (Diagnostic& d : found[e]) {
      auto [it, added] = seen.emplace(key_of(d), Seen{kept.size(), {}});
      if (added) {
        kept.push_back(std::move(d));
        if (e > 0) it->second.in_stage.assign(stages, false);
      }
      if (e > 0 && !it->second.in_stage.empty()) it->second.in_stage[e - 1] = true;
    }
  for (const auto& [key, where] : seen) {
    const std::vector<bool>& in = where.in_stage;
    const auto count = static_cast<std::size_t>(std::count(in.begin(), in.end(), true));
    if (in.empty() || count == stages) continue;
    std::vector<std::string_view> names;
    for (std::size_t s = 0; s < stages; ++s)
      if (in[s]) names.push_back(stage_names[s]);
    std::string joined;
    for (std::size_t n = 0; n < names.size(); ++n)
      joined += fmt::format("{}'{}'", n == 0 ? "" : n + 1 == names.size() ? " and " : ", ", names[n]);
    Diagnostic& d = kept[where.at];
    d.message = fmt::format("stage{} {}: {}", count > 1 ? "s" : "", joined, d.message);
  }
  out = std::move(kept);
}

namespace {

/// "assumptions[3].source" of `section` → (3, ".source"); nullopt for another key.
std::optional<std::pair<std::size_t, std::string_view>> element_of(std::string_view key, std::string_view section) {
  if (!key.starts_with(section) || key.size() <= section.size() || key[section.size()] != '[') return std::nullopt;
  key.remove_prefix(section.size() + 1);
  std::size_t index = 0;
  const auto [end, error] = std::from_chars(key.data(), key.data() + key.size(), index);
  if (error != std::errc() || end == key.data() || end == key.data() + key.size() || *end != ']') return std::nullopt;
  return std::pair{index, key.substr(static_cast<std::size_t>(end - key.data()) + 1)};
}

}  // namespace

void name_stage_elements(std::vector<Diagnostic>& found, const Plan& plan, std::size_t stage) {
  if (stage >= plan.stages.size()) return;
  const Plan& own = *plan.stages[stage].plan;
  // An element is the plan's when it is written where one of the plan's is.
  const auto rename = [&](Diagnostic& d, std::string_view section, const std::vector<PlanTable>& in_stage,
                          const std::vector<PlanTable>& in_plan) {
    const auto element = element_of(d.key_path, section);
    if (!element || element->first >= in_stage.size()) return false;
    const auto inherited = [&](const PlanTable& table) {
      return std::any_of(in_plan.begin(), in_plan.end(), [&](const PlanTable& p) { return p.header == table.header; });
    };
    const PlanTable& table = in_stage[element->first];
    if (inherited(table)) {
      const auto at = std::find_if(in_plan.begin(), in_plan.end(), [&](const PlanTable& p) { return p.header == table.header; });
      d.key_path = fmt::format("{}[{}]{}", section, at - in_plan.begin(), element->second);
      return true;
    }
    const auto before = std::count_if(in_stage.begin(), in_stage.begin() + static_cast<std::ptrdiff_t>(element->first),
                                      [&](const PlanTable& t) { return !inherited(t); });
    d.key_path = fmt::format("stages[{}].{}[{}]{}", stage, section, before, element->second);
    return true;
  };
  for (Diagnostic& d : found)
    if (!rename(d, "targets", own.targets, plan.targets)) rename(d, "assumptions", own.assumptions, plan.assumptions);
}

void merge_run_findings(const Plan& plan, std::span<std::vector<Diagnostic>> found, std::vector<Diagnostic>& out) {
  if (found.size() == 1) {
    for (Diagnostic& d : found.front()) out.push_back(std::move(d));
    return;
  }
  std::vector<std::string> names;
  for (const Stage& stage : plan.stages) names.push_back(stage.name);
  // A stage's findings name its elements as the plan's, or as its own.
  for (std::size_t s = 0; s + 1 < found.size(); ++s) name_stage_elements(found[s + 1], plan, s);
  merge_stage_findings(names, found, out);
}

}  // namespace planlint
