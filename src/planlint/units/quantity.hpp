#pragma once
/// Quantities: a number in planlint's base units with its dimension, parsed from the quantity
/// syntax of plan-format.md ("80 GB", "400 Gbps", "$3/GPU/h", "7B", "40%").
#include <cstddef>
#include <string>
#include <string_view>
#include <variant>

#include "planlint/units/dimension.hpp"

namespace planlint::units {

struct Quantity {
  double value = 0;  ///< in base units: B, bit, FLOP, s, USD, token, GPU, request, sequence
  Dimension dim;
  /// True when the text was a number directly followed by a lone `B` ("7B", "512B"): billion
  /// for a key that counts things, bytes for a key that holds bytes. See resolve().
  bool bare_b = false;
  /// True when the unit was `%` alone ("40%"): a fraction, which resolve() does not turn into a
  /// key's base unit ("hbm = '10%'" stays dimensionless and is reported).
  bool percent = false;
};

/// A malformed quantity string.
struct QuantityError {
  std::size_t column = 1;  ///< 1-based byte column inside the quantity text
  std::string message;     ///< what was expected there, e.g. "expected a unit after '/'"
};

using QuantityResult = std::variant<Quantity, QuantityError>;

/// Parses the quantity syntax (Boost.Spirit X3; defined in planlint_grammar).
QuantityResult parse_quantity(std::string_view text);

/// Resolves a parsed quantity for a key whose base unit is `expected`:
///  - a bare `B` means billion unless `expected` holds bytes;
///  - a dimensionless number takes the key's base unit ("1T" for tokens is 1e12 tokens), except
///    a percentage.
/// The result has bare_b = false. The caller still checks that its dimension is `expected`.
Quantity resolve(Quantity quantity, Dimension expected);

/// Formats a value in a readable unit for its dimension: "127.4 GB", "989 TFLOPS", "9.6 d",
/// "4.42M GPU·h", "$1.3M", "524.3 kB". Three significant figures unless more are needed.
std::string format(double value, Dimension dimension);

/// One of `unit` ("GB" as "1 GB"), as format_in reads a display unit: one written with `$` is an
/// amount of money, the count suffix included ("$M" as "$1M", "$/GPU/h" as "$1/GPU/h"), else as
/// "1 $..."; when neither reads, the error of the first reading.
QuantityResult parse_unit(std::string_view unit);

/// Formats `value` (base units) in the unit named by `unit_text` ("GB", "TFLOPS", "d", "$M");
/// the unit's dimension must match. Up to four significant figures in that unit, except that
/// dollars and GPU-hours written without a count suffix ("$", "USD", "GPU*h") print the scaled
/// form format() prints: "$1.82M", "589.8K GPU*h". Returns an empty string when `unit_text` is
/// not a unit of that dimension.
std::string format_in(double value, Dimension dimension, std::string_view unit_text);

}  // namespace planlint::units
