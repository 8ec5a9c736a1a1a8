#include "planlint/rules/placeholder_units.hpp"

#include <variant>
#include <vector>

#include <fmt/format.h>

#include "planlint/diag/edit_distance.hpp"
#include "planlint/diag/suggest.hpp"
#include "planlint/expr/value.hpp"
#include "planlint/units/quantity.hpp"
#include "planlint/units/unit_atoms.hpp"

namespace planlint {

namespace {

/// `unit` as format_in() reads it (units::parse_unit): the quantity one of it is, or the
/// parser's error with its offset in `unit`.
std::variant<units::Quantity, units::QuantityError> read_unit(std::string_view unit) {
  const bool dollars = !unit.empty() && unit.front() == '$';
  units::QuantityResult parsed = units::parse_unit(unit);
  if (auto* error = std::get_if<units::QuantityError>(&parsed)) {
    // Columns are 1-based in "$1M" (the '$' is the unit's) and in "1 GB" (two characters not).
    const std::size_t before = dollars ? 1 : 2;
    error->column = error->column > before + 1 ? error->column - before - 1 : 0;
  }
  return parsed;
}

/// Whether `unit` prints a number of `dim` (any dimension when it has none).
bool fits(std::string_view unit, std::optional<units::Dimension> dim) {
  if (unit == "%") return !dim || dim->dimensionless();
  if (dim) return !units::format_in(1.0, *dim, unit).empty();
  return std::holds_alternative<units::Quantity>(read_unit(unit));
}

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  return text;
}

}  // namespace

std::string display_unit_problem(std::string_view unit, std::optional<units::Dimension> dim,
                                 std::size_t& offset) {
  offset = 0;
  if (fits(unit, dim)) return {};
  // "GB upp": the last word after a unit that fits is a rounding word misspelt; "upp" alone
  // too when it reads as up or down.
  const std::string_view text = trimmed(unit);
  const std::size_t space = text.rfind(' ');
  const std::string_view last = space == std::string_view::npos ? text : text.substr(space + 1);
  const std::string_view rest = space == std::string_view::npos ? std::string_view() : trimmed(text.substr(0, space));
  static const std::vector<std::string_view> roundings = {"up", "down"};
  const std::optional<std::string> rounding = closest_match(last, roundings);
  if ((rest.empty() && rounding) || (!rest.empty() && fits(rest, dim))) {
    offset = static_cast<std::size_t>(last.data() - unit.data());
    std::string message = fmt::format(
        "unknown rounding '{}': a placeholder rounds up or down (`{{x:GB up}}`, `{{x:down}}`), or to the "
        "nearest without a word",
        last);
    if (rounding) message += fmt::format("; did you mean '{}'?", *rounding);
    return message;
  }
  auto read = read_unit(unit);
  if (auto* error = std::get_if<units::QuantityError>(&read)) {
    offset = error->column;
    std::string message = error->message;
    // A misspelling the parser has no hint for ("GBB"): a unit one edit away. A unit's case
    // matters (MB, mb), where closest_match() reads a key's without it.
    if (message.starts_with("unknown unit '") && message.ends_with("'") && message.size() >= 14 + 3 + 1) {
      const std::string word = message.substr(14, message.size() - 15);
      for (const std::string& spelling : units::unit_atom_spellings())
        if (edit_distance(word, spelling) == 1) {
          message += fmt::format(" (did you mean '{}'?)", spelling);
          break;
        }
    }
    return message;
  }
  return fmt::format("unit '{}' does not fit {}", unit, expr::describe(expr::Type::number(dim)));
}

}  // namespace planlint
