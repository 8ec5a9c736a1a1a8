#include "planlint/plan/date.hpp"

#include <charconv>
#include <chrono>

namespace planlint {

std::optional<Date> parse_date(std::string_view text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return std::nullopt;
  auto number = [&](std::size_t at, std::size_t length) -> std::optional<int> {
    int value = 0;
    auto [end, ec] = std::from_chars(text.data() + at, text.data() + at + length, value);
    if (ec != std::errc() || end != text.data() + at + length) return std::nullopt;
    return value;
  };
  auto year = number(0, 4), month = number(5, 2), day = number(8, 2);
  if (!year || !month || !day) return std::nullopt;
  const std::chrono::year_month_day date{std::chrono::year(*year),
                                         std::chrono::month(static_cast<unsigned>(*month)),
                                         std::chrono::day(static_cast<unsigned>(*day))};
  if (!date.ok()) return std::nullopt;
  return Date{*year, *month, *day};
}

Date real_today() {
  using namespace std::chrono;
  const year_month_day today{floor<days>(system_clock::now())};
  return Date{static_cast<int>(today.year()), static_cast<int>(static_cast<unsigned>(today.month())),
              static_cast<int>(static_cast<unsigned>(today.day()))};
}

}  // namespace planlint
