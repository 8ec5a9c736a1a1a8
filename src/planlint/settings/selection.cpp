#include "planlint/settings/selection.hpp"

#include <algorithm>

#include "planlint/diag/native_rules.hpp"

namespace planlint {

namespace {

bool names(const std::vector<std::string>& list, std::string_view rule, std::string_view group) {
  return std::any_of(list.begin(), list.end(), [&](const std::string& entry) {
    return entry == "all" || entry == rule || entry == group;
  });
}

}  // namespace

std::optional<Severity> RuleSelection::level(std::string_view rule, std::string_view group,
                                             Severity default_level) const {
  // The structure group says the plan could not be read as written (not valid TOML, a key or
  // unit planlint does not know, a GPU not in the catalog): a narrowed --select must not turn
  // a broken plan into "no problems" (ruff reports syntax errors whatever is selected). Only
  // an ignore or "off" by name, group or "all" silences them.
  if (!select.empty() && group != native_rules::structure_group && !names(select, rule, group)) return std::nullopt;
  if (names(ignore, rule, group)) return std::nullopt;
  if (severity.empty()) return default_level;  // the usual case: no strings built
  auto level = severity.find(std::string(rule));
  if (level == severity.end()) level = severity.find(std::string(group));
  if (level == severity.end()) level = severity.find("all");
  if (level == severity.end()) return default_level;
  if (level->second == "off") return std::nullopt;
  return parse_severity(level->second).value_or(default_level);
}

}  // namespace planlint
