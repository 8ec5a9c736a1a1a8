#include "planlint/plan/stage_findings.hpp"

#include <algorithm>
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

}  // namespace planlint
