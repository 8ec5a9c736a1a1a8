#pragma once
/// CLI11 validators whose messages say what an option takes: "--jobs: expected a whole number,
/// 0 (one per core) or more, got '-1'" rather than CLI11's range of doubles.
#include <charconv>
#include <cstdint>
#include <limits>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

namespace planlint::cli {

/// A value that must not be empty: `--baseline ''` (an unset $VAR in CI) is an error, not the
/// option left out. `what` is what the option takes: "a file path".
inline CLI::Validator non_empty(const std::string& what) {
  return CLI::Validator(
      [what](std::string& value) -> std::string {
        return value.empty() ? fmt::format("expected {}, got an empty string", what) : std::string();
      },
      "");
}

/// A whole number in [minimum, maximum], written in decimal digits only. `what` describes it:
/// "a whole number, 1 or more".
inline CLI::Validator whole_number(std::uintmax_t minimum, std::uintmax_t maximum, const std::string& what) {
  return CLI::Validator(
      [=](std::string& value) -> std::string {
        std::uintmax_t number = 0;
        const char* end = value.data() + value.size();
        const auto [stop, ec] = std::from_chars(value.data(), end, number);
        if (value.empty() || ec != std::errc() || stop != end || number < minimum || number > maximum)
          return fmt::format("expected {}, got '{}'", what, value);
        return std::string();
      },
      "");
}

template <typename T>
CLI::Validator whole_number(std::uintmax_t minimum, const std::string& what) {
  return whole_number(minimum, std::numeric_limits<T>::max(), what);
}

}  // namespace planlint::cli
