#include "planlint/diag/suggest.hpp"

#include <algorithm>
#include <cctype>

#include "planlint/diag/edit_distance.hpp"

namespace planlint {

std::optional<std::string> closest_match(std::string_view word,
                                         const std::vector<std::string_view>& candidates) {
  if (word.empty() || word.size() > 64) return std::nullopt;
  std::string lowered(word);
  for (char& c : lowered) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const std::size_t limit = std::clamp<std::size_t>(word.size() / 3, 1, 3);
  std::optional<std::string> best;
  std::size_t best_distance = limit + 1;
  for (std::string_view candidate : candidates) {
    // The distance is at least the difference in length: a candidate that cannot come closer
    // than the best is not measured (a file of a million unknown keys asks this of each).
    const std::size_t shorter = std::min(word.size(), candidate.size());
    if (std::max(word.size(), candidate.size()) - shorter >= best_distance) continue;
    const std::size_t distance = edit_distance(lowered, candidate);
    if (distance < best_distance) {
      best_distance = distance;
      best = std::string(candidate);
    }
  }
  return best;
}

}  // namespace planlint
