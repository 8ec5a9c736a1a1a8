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
  // A file that is not valid TOML was checked for nothing else: a narrowed --select must not
  // turn it into "no problems" (ruff reports syntax errors whatever is selected). Only an
  // explicit ignore or "off" silences it.
  if (!select.empty() && !names(select, rule, group) && rule != native_rules::toml_syntax) return std::nullopt;
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
