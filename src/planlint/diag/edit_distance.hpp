#pragma once
/// The edit distance every did-you-mean uses (keys, GPU ids, metric names, unit spellings).
/// Header-only so that the grammar library (planlint_grammar), which suggests units, shares it
/// without a link cycle.
#include <algorithm>
#include <array>
#include <cstddef>
#include <string_view>
#include <utility>
#include <vector>

namespace planlint {

/// Optimal-string-alignment edit distance (a transposition counts as one edit: hmb → hbm is 1).
inline std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Three rolling rows of the dynamic-programming table (the transposition looks two rows
  // back), so a long hostile word costs memory in the candidate's length only; on the stack
  // for the short words every did-you-mean compares, which a file of a million misspelt keys
  // asks for once a key and a candidate.
  const std::size_t m = b.size();
  constexpr std::size_t on_stack = 64;
  std::array<std::size_t, 3 * (on_stack + 1)> small;
  std::vector<std::size_t> large;
  std::size_t* rows = small.data();
  if (m > on_stack) {
    large.resize(3 * (m + 1));
    rows = large.data();
  }
  std::size_t* before = rows;
  std::size_t* previous = rows + (m + 1);
  std::size_t* current = rows + 2 * (m + 1);
  for (std::size_t j = 0; j <= m; ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        current[j] = std::min(current[j], before[j - 2] + 1);
    }
    std::swap(before, previous);
    std::swap(previous, current);
  }
  return previous[m];
}

}  // namespace planlint
