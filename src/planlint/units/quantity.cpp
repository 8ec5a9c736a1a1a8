/// resolve(), format() and format_in(); parse_quantity() lives in the grammar library
/// (src/planlint/grammar/quantity_grammar.cpp). The format choices are documented in
/// docs/quantities.md, "How planlint prints quantities".
#include "planlint/units/quantity.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <variant>

#include <fmt/format.h>

#include "planlint/units/fixed.hpp"
#include "planlint/units/unit_atoms.hpp"

namespace planlint::units {

namespace detail {

/// fmt::format("{:.{}f}", x, decimals), byte for byte, without fmt's general float formatting
/// (about ten times the cost; every number a message or estimate shows goes through here). The
/// shortcut scales to an integer exactly: 10^decimals is exact up to 10^22, one rounding of
/// the product is far below the 1e-6 margin kept around a tie, and ties and large values take
/// fmt's exact path.
std::string fixed(double x, int decimals) {
  static constexpr double powers[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                      1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                      1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  if (decimals < 0 || decimals > 22 || !std::isfinite(x)) return fmt::format("{:.{}f}", x, decimals);
  const double scaled = std::fabs(x) * powers[decimals];
  if (!(scaled < 1e9)) return fmt::format("{:.{}f}", x, decimals);
  const double whole = std::floor(scaled);
  const double fraction = scaled - whole;
  if (std::fabs(fraction - 0.5) < 1e-6) return fmt::format("{:.{}f}", x, decimals);
  const auto rounded = static_cast<std::uint64_t>(whole) + (fraction > 0.5 ? 1 : 0);
  char digits[24];
  const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, rounded);
  std::string_view number(digits, static_cast<std::size_t>(end - digits));
  const auto width = static_cast<std::size_t>(decimals) + 1;
  std::string out;
  out.reserve(width + 3);
  if (std::signbit(x)) out += '-';  // fmt keeps the sign of what rounds to zero: "-0.00"
  if (number.size() < width) out.append(width - number.size(), '0');
  out += number;
  if (decimals > 0) out.insert(out.size() - static_cast<std::size_t>(decimals), 1, '.');
  return out;
}

}  // namespace detail

namespace {

using detail::fixed;

std::string trim_zeros(std::string text) {
  if (text.find('.') == std::string::npos) return text;
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  if (text == "-0") text = "0";
  return text;
}

int decimal_exponent(double x) { return static_cast<int>(std::floor(std::log10(std::fabs(x)))); }

/// `x` rounded to `significant` figures in fixed notation, trailing zeros trimmed:
/// (127.44, 4) → "127.4", (1234567, 3) → "1230000".
std::string fixed_significant(double x, int significant) {
  if (x == 0) return "0";
  const int exponent = decimal_exponent(x);
  if (exponent >= significant) {
    const double unit = std::pow(10.0, exponent - significant + 1);
    return fixed(std::round(x / unit) * unit, 0);
  }
  return trim_zeros(fixed(x, significant - 1 - exponent));
}

double text_value(const std::string& text) {
  double value = 0;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

/// Mantissa and power of ten: "4.2e22". fmt rounds in decimal, so a subnormal value (where
/// x / 10^exponent would underflow to 0) and the largest doubles format too.
std::string scientific(double x, int significant = 3) {
  if (x == 0) return "0";
  if (!std::isfinite(x)) return fmt::format("{}", x);
  const std::string text = fmt::format("{:.{}e}", x, significant - 1);  // "4.200e+22"
  const std::size_t e = text.find('e');
  int exponent = 0;
  const char* digits = text.data() + e + 1;
  if (*digits == '+') ++digits;
  std::from_chars(digits, text.data() + text.size(), exponent);
  return trim_zeros(text.substr(0, e)) + "e" + std::to_string(exponent);
}

/// Three significant figures, four from 100 up ("127.4", "989", "3.35", "9.6"): rounding 127.4
/// to 127 or 524.3 to 524 reads as an exact figure and hides a 0.3% difference.
std::string readable(double x) {
  if (x == 0) return "0";
  // 0.00001234 is hard to read, and 5e-324 in fixed notation is 327 characters; so is
  // 9600000000000000000 d (a plan with a unit slip upstream): from 1e15, as up_to_four.
  if (std::fabs(x) < 1e-4 || std::fabs(x) >= 1e15 || !std::isfinite(x)) return scientific(x);
  return fixed_significant(x, decimal_exponent(x) >= 2 ? 4 : 3);
}

/// Up to four significant figures, for values in a unit the reader chose (format_in).
std::string up_to_four(double x) {
  if (!std::isfinite(x)) return fmt::format("{}", x);  // "inf", "-inf", "nan"
  const double magnitude = std::fabs(x);
  // A whole number below a million reads best exactly: 32768 tokens, not 32770 tokens.
  if (magnitude < 1e6 && x == std::round(x)) return fixed(x, 0);
  if (x == 0 || (magnitude >= 1e-4 && magnitude < 1e15)) return fixed_significant(x, 4);
  return scientific(x, 4);
}

struct Scale {
  double factor;
  std::string_view symbol;
};

constexpr Scale si_scales[] = {{1, ""},     {1e3, "k"},  {1e6, "M"}, {1e9, "G"},
                               {1e12, "T"}, {1e15, "P"}, {1e18, "E"}};
constexpr Scale flop_scales[] = {{1, ""},     {1e3, "k"},  {1e6, "M"},  {1e9, "G"}, {1e12, "T"},
                                 {1e15, "P"}, {1e18, "E"}, {1e21, "Z"}, {1e24, "Y"}};
constexpr Scale count_scales[] = {{1, ""}, {1e3, "K"}, {1e6, "M"}, {1e9, "B"}, {1e12, "T"}};

struct Scaled {
  std::string number;
  std::string_view symbol;
};

/// Whether the number `readable` printed is 1000 or more in magnitude. Fixed notation is read
/// from its digits; anything else ("1.5e-5", "inf") is parsed.
bool reads_at_least_1000(std::string_view number) {
  std::size_t i = number.starts_with('-') ? 1 : 0;
  const std::size_t first_digit = i;
  while (i < number.size() && number[i] >= '0' && number[i] <= '9') ++i;
  if (i > first_digit && (i == number.size() || number[i] == '.'))
    return i - first_digit >= 4 && number[first_digit] != '0';
  return std::fabs(text_value(std::string(number))) >= 1000;
}

/// Picks the largest scale not above |x|, moving up one when rounding reaches 1000
/// (999.96 GB prints as "1 TB", not "1000 GB").
Scaled scaled(double x, std::span<const Scale> scales) {
  std::size_t i = 0;
  while (i + 1 < scales.size() && std::fabs(x) >= scales[i + 1].factor) ++i;
  std::string number = readable(x / scales[i].factor);
  if (reads_at_least_1000(number) && i + 1 < scales.size()) {
    ++i;
    number = readable(x / scales[i].factor);
  }
  return {number, scales[i].symbol};
}

std::string with_si_prefix(double x, std::string_view unit) {
  auto s = scaled(x, si_scales);
  s.number += ' ';
  s.number += s.symbol;
  s.number += unit;
  return std::move(s.number);
}

/// Counts: exact below 10 000 when whole ("4096", "128"), else K/M/B/T ("7B", "93.5K"), and
/// a power of ten from 1e15 up.
std::string count_text(double x) {
  const double magnitude = std::fabs(x);
  if (magnitude < 1e4 && x == std::round(x)) return fixed(x, 0);
  if (magnitude < 1000) return readable(x);
  if (magnitude >= 1e15) return scientific(x);
  const auto s = scaled(x, count_scales);
  return s.number + std::string(s.symbol);
}

std::string counted(double x, std::string_view singular, std::string_view plural) {
  return count_text(x) + " " + std::string(x == 1 ? singular : plural);
}

std::string time_text(double seconds) {
  const double magnitude = std::fabs(seconds);
  if (magnitude == 0) return "0 s";
  if (magnitude < 1e-3) return readable(seconds * 1e6) + " \u00B5s";
  if (magnitude < 1) return readable(seconds * 1e3) + " ms";
  if (magnitude < 120) return readable(seconds) + " s";
  if (magnitude < 2 * 3600) return readable(seconds / 60) + " min";
  if (magnitude < 2 * 86400) return readable(seconds / 3600) + " h";
  return readable(seconds / 86400) + " d";
}

std::string money_text(double usd) {
  const std::string sign = usd < 0 ? "-$" : "$";
  const double magnitude = std::fabs(usd);
  if (magnitude < 1000) return sign + fixed(magnitude, 2);
  if (magnitude >= 1e15) return sign + scientific(magnitude);
  const auto s = scaled(magnitude, count_scales);
  return sign + s.number + std::string(s.symbol);
}

std::string flop_rate_text(double flop_per_s) {
  // Accelerator peaks are quoted in TFLOPS up to four digits ("1979 TFLOPS" on spec sheets).
  const double magnitude = std::fabs(flop_per_s);
  if (magnitude >= 1e12 && magnitude < 1e16) {
    const auto number = readable(flop_per_s / 1e12);
    if (std::fabs(text_value(number)) < 10000) return number + " TFLOPS";
  }
  const auto s = scaled(flop_per_s, flop_scales);
  return s.number + " " + std::string(s.symbol) + "FLOPS";
}

std::string generic_text(double x, Dimension dimension) {
  const double magnitude = std::fabs(x);
  const bool plain = x == 0 || (magnitude >= 1e-3 && magnitude < 1e6);
  return (plain ? readable(x) : scientific(x)) + " " + unit_symbol(dimension);
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

}  // namespace

Quantity resolve(Quantity quantity, Dimension expected) {
  if (quantity.bare_b && expected[Base::byte] == 0) {
    quantity.value *= 1e9;
    quantity.dim = dims::none;
  }
  quantity.bare_b = false;
  if (quantity.dim.dimensionless() && !expected.dimensionless() && !quantity.percent)
    quantity.dim = expected;
  return quantity;
}

std::string format(double value, Dimension dimension) {
  if (!std::isfinite(value)) return fmt::format("{} {}", value, unit_symbol(dimension));
  if (dimension == dims::none) return count_text(value);
  if (dimension == dims::bytes) return with_si_prefix(value, "B");
  if (dimension == dims::bits) return with_si_prefix(value, "b");
  if (dimension == dims::bytes_per_second) return with_si_prefix(value, "B/s");
  if (dimension == dims::bits_per_second) return with_si_prefix(value, "b/s");
  if (dimension == dims::bytes_per_token) return with_si_prefix(value, "B/token");
  if (dimension == dims::flop)
    return (std::fabs(value) < 1e4 ? readable(value) : scientific(value)) + " FLOP";
  if (dimension == dims::flop_per_second) return flop_rate_text(value);
  if (dimension == dims::seconds) return time_text(value);
  if (dimension == dims::per_second) return readable(value) + "/s";
  if (dimension == dims::usd) return money_text(value);
  if (dimension == dims::usd_per_gpu_second) {
    const double per_hour = value * 3600;
    if (!std::isfinite(per_hour)) return fmt::format("{} USD/GPU\u00B7h", per_hour);
    return (per_hour < 0 ? "-$" : "$") + readable(std::fabs(per_hour)) + "/GPU\u00B7h";
  }
  if (dimension == dims::gpu_seconds) return count_text(value / 3600) + " GPU\u00B7h";
  if (dimension == dims::tokens) return counted(value, "token", "tokens");
  if (dimension == dims::tokens_per_second) return count_text(value) + " tokens/s";
  if (dimension == dims::gpus) return counted(value, "GPU", "GPUs");
  if (dimension == dims::requests) return counted(value, "request", "requests");
  if (dimension == dims::requests * dims::per_second) return count_text(value) + " requests/s";
  if (dimension == dims::sequences) return counted(value, "sequence", "sequences");
  return generic_text(value, dimension);
}

QuantityResult parse_unit(std::string_view unit) {
  // A unit written with `$` is read as the quantity syntax writes an amount of money, the
  // count suffix included: "$M" as "$1M" (a million dollars), "$/GPU/h" as "$1/GPU/h".
  if (unit.empty() || unit.front() != '$') return parse_quantity("1 " + std::string(unit));
  QuantityResult money = parse_quantity("$1" + std::string(unit.substr(1)));
  if (std::holds_alternative<Quantity>(money)) return money;
  QuantityResult plain = parse_quantity("1 " + std::string(unit));
  return std::holds_alternative<Quantity>(plain) ? plain : money;
}

std::string format_in(double value, Dimension dimension, std::string_view unit_text) {
  const auto unit = trim(unit_text);
  if (unit.empty()) return dimension.dimensionless() ? up_to_four(value) : "";
  if (dimension.dimensionless()) {
    if (const auto suffix = count_suffix(unit))
      return up_to_four(value / *suffix) + std::string(unit);
    if (unit == "%") return up_to_four(value * 100) + "%";
  }
  const bool dollars = unit.front() == '$';
  const QuantityResult parsed = parse_unit(unit);
  const auto* one = std::get_if<Quantity>(&parsed);
  if (one == nullptr || one->dim != dimension || one->value == 0) return "";
  // Dollars and GPU-hours without a count suffix leave the scale to the number, as their
  // default forms do: `$` prints "$1.82M" and `GPU*h` "589.8K GPU*h", where four figures in
  // full would be "$1824000" and "589800 GPU*h". A suffix names the scale ("$M": "$1.824M").
  if (dimension == dims::usd && one->value == 1) {
    const std::string money = money_text(value);  // "$1.82M", "-$450.00"
    if (dollars) return money;
    const std::size_t sign = money.find('$');
    return money.substr(0, sign) + money.substr(sign + 1) + " " + std::string(unit);  // "1.82M USD"
  }
  if (dimension == dims::gpu_seconds && one->value == 3600) return count_text(value / 3600) + " " + std::string(unit);
  // A count in its own unit ("tokens", "GPUs", "requests/s") is exact below a million, as
  // up_to_four prints it, and from a million scaled as its default form is:
  // {training.tokens:tokens} printed "15000000000000 tokens".
  const bool count = dimension == dims::tokens || dimension == dims::gpus || dimension == dims::requests ||
                     dimension == dims::sequences || dimension == dims::tokens_per_second ||
                     dimension == dims::requests * dims::per_second;
  if (count && one->value == 1 && std::fabs(value) >= 1e6) return count_text(value) + " " + std::string(unit);
  const auto number = up_to_four(value / one->value);
  if (unit.front() == '$') return "$" + number + std::string(unit.substr(1));  // "$3/GPU/h"
  return number + " " + std::string(unit);
}

}  // namespace planlint::units
