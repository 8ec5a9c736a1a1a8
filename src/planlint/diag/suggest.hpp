#pragma once
/// Did-you-mean suggestions for misspelt keys, GPU ids and metric names.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace planlint {

/// The closest candidate within a distance that still reads as a typo (at most a third of the
/// word, at least 1, at most 3), or nullopt. Ties keep the first candidate.
std::optional<std::string> closest_match(std::string_view word,
                                         const std::vector<std::string_view>& candidates);

}  // namespace planlint
