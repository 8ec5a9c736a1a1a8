#pragma once
/// Values and static types of the rule expression language.
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "planlint/plan/plan.hpp"
#include "planlint/units/quantity.hpp"

namespace planlint::expr {

struct Value;
using List = std::vector<Value>;

/// A runtime value: a quantity (numbers are quantities; value in base units), a string, a
/// boolean, a date or a list.
struct Value {
  std::variant<units::Quantity, std::string, bool, Date, List> data;

  const units::Quantity* quantity() const { return std::get_if<units::Quantity>(&data); }
  const std::string* text() const { return std::get_if<std::string>(&data); }
  const bool* boolean() const { return std::get_if<bool>(&data); }
  const Date* date() const { return std::get_if<Date>(&data); }
  const List* list() const { return std::get_if<List>(&data); }
};

/// A static type, checked when a rule loads.
struct Type {
  enum class Kind { number, string, boolean, date, list, any };
  Kind kind = Kind::any;
  /// The dimension of a number; nullopt when it is only known at run time (metric(it.metric)).
  std::optional<units::Dimension> dim;
  /// A dimensionless literal 0, which compares with a number of any dimension.
  bool zero_literal = false;

  static Type number(std::optional<units::Dimension> dim) { return {Kind::number, dim}; }
  static Type of(Kind kind) { return {kind, std::nullopt}; }
};

/// "bytes", "a string", "a number of unknown dimension".
std::string describe(const Type& type);

/// The readable form of a value for messages: units::format for quantities.
std::string format_value(const Value& value);

}  // namespace planlint::expr
