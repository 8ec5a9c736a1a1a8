#pragma once
/// Calendar dates: a plan's `updated`, an assumption's, and the day staleness rules compare
/// them with (--today, PLANLINT_TODAY).
#include <compare>
#include <optional>
#include <string_view>

namespace planlint {

struct Date {
  int year = 0, month = 0, day = 0;
  auto operator<=>(const Date&) const = default;
};

/// Parses "2026-11-01": YYYY-MM-DD, a real calendar date (no 2026-02-29); nullopt otherwise.
std::optional<Date> parse_date(std::string_view text);

/// Today's date (UTC): what staleness is measured against unless --today says otherwise.
Date real_today();

}  // namespace planlint
