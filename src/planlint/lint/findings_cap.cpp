#include "planlint/lint/findings_cap.hpp"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

namespace planlint {

std::size_t total(const DroppedFindings& dropped) { return dropped[0] + dropped[1] + dropped[2]; }

std::size_t cap_findings(std::vector<Diagnostic>& findings, std::size_t max, DroppedFindings* dropped_by_severity) {
  if (max == 0 || findings.size() <= max) return 0;
  // The rank of a finding: 0 for an error that is not suppressed ... 5 for a suppressed note.
  auto rank = [&](std::size_t i) {
    const Diagnostic& d = findings[i];
    return (d.suppression ? 3 : 0) + 2 - static_cast<int>(d.severity);
  };
  std::vector<std::size_t> order(findings.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  // The first `max` by rank, then by position: linear on average, and stable among equals.
  std::nth_element(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(max - 1), order.end(),
                   [&](std::size_t a, std::size_t b) { return std::pair(rank(a), a) < std::pair(rank(b), b); });
  std::vector<bool> kept(findings.size(), false);
  for (std::size_t i = 0; i < max; ++i) kept[order[i]] = true;
  std::size_t next = 0;
  for (std::size_t i = 0; i < findings.size(); ++i) {
    if (kept[i]) {
      if (next != i) findings[next] = std::move(findings[i]);
      ++next;
    } else if (dropped_by_severity) {
      ++(*dropped_by_severity)[static_cast<std::size_t>(findings[i].severity)];
    }
  }
  const std::size_t dropped = findings.size() - next;
  findings.resize(next);  // its capacity stays, for a caller that adds more
  return dropped;
}

std::string findings_cap_note(std::size_t dropped, std::size_t max) {
  return fmt::format("{} more {} not shown: only the {} most severe are (--max-findings-per-file {}; 0 shows all)",
                     dropped, dropped == 1 ? "finding is" : "findings are", max, max);
}

}  // namespace planlint
