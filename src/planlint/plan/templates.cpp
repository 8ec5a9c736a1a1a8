#include "planlint/plan/templates.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "planlint/embed/embedded_files.hpp"

namespace planlint {

namespace {

constexpr std::array<std::string_view, 2> kinds = {"training", "inference"};

/// What the stored templates write for every review date (they stay valid TOML, and a date
/// left unreplaced would show at once: plan-stale).
constexpr std::string_view placeholder_date = "2000-01-01";

}  // namespace

std::span<const std::string_view> template_kinds() { return kinds; }

std::optional<std::string> plan_template(std::string_view kind, Date today) {
  if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) return std::nullopt;
  const std::string_view stored = embed::find(fmt::format("templates/{}.toml", kind));
  if (stored.empty()) return std::nullopt;
  const std::string date = fmt::format("{:04}-{:02}-{:02}", today.year, today.month, today.day);
  std::string text;
  text.reserve(stored.size());
  for (std::size_t at = 0;;) {
    const std::size_t found = stored.find(placeholder_date, at);
    text.append(stored, at, found == std::string_view::npos ? std::string_view::npos : found - at);
    if (found == std::string_view::npos) break;
    text += date;
    at = found + placeholder_date.size();
  }
  return text;
}

}  // namespace planlint
