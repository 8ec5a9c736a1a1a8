#pragma once
/// Values and static types of the rule expression language.
#include <cstdint>
#include <forward_list>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
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

struct Node;

/// A value as the evaluator computes with it: trivially copied, its text or list viewing
/// storage that outlives the evaluation (the plan, the rule, the catalog, or the evaluation's
/// ValueStore), so that reading a plan string or comparing with a literal copies nothing.
/// evaluate() turns the result into a Value.
struct ValueRef {
  enum class Kind : std::uint8_t { quantity, string, boolean, date, list };
  Kind kind = Kind::boolean;
  bool boolean = false;
  /// The value of `kind`, and only that member may be read: a union, since the evaluator
  /// returns a ValueRef for every node it evaluates (48 bytes with its optional, where one
  /// member of each kind took 88 to copy).
  union {
    units::Quantity quantity;
    std::string_view text;
    Date date;
    /// Kind::list: a list value (a rule option's); null for a list literal (list_node).
    const List* list;
  };
  const Node* list_node = nullptr;  ///< Kind::list without `list`: a list literal, whose items are read in place

  constexpr ValueRef() : quantity() {}

  static ValueRef of(const units::Quantity& q) {
    ValueRef v;
    v.kind = Kind::quantity;
    v.quantity = q;
    return v;
  }
  static ValueRef of_text(std::string_view text) {
    ValueRef v;
    v.kind = Kind::string;
    v.text = text;
    return v;
  }
  static ValueRef of(bool b) {
    ValueRef v;
    v.boolean = b;
    return v;
  }
  static ValueRef of(const Date& d) {
    ValueRef v;
    v.kind = Kind::date;
    v.date = d;
    return v;
  }
  /// A list value, which must outlive the view.
  static ValueRef of_list(const List* items) {
    ValueRef v;
    v.kind = Kind::list;
    v.list = items;
    return v;
  }
  /// A list literal, its items read in place.
  static ValueRef of_list_literal(const Node* literal) {
    ValueRef v = of_list(nullptr);
    v.list_node = literal;
    return v;
  }
};

/// Values an evaluation made that a ValueRef views (a string an environment computed): kept
/// until the evaluation ends. A forward_list, whose elements never move.
using ValueStore = std::forward_list<Value>;

/// A view of `value`, which must outlive it.
ValueRef view_of(const Value& value);
/// A view of a plan value, which must outlive it.
inline ValueRef view_of(const Scalar& scalar) {
  // Inline: the rules read a plan value this way for nearly every path they name.
  switch (scalar.index()) {
    case 0: return ValueRef::of(*std::get_if<units::Quantity>(&scalar));
    case 1: return ValueRef::of_text(*std::get_if<std::string>(&scalar));
    case 2: return ValueRef::of(*std::get_if<bool>(&scalar));
    default: return ValueRef::of(std::get<Date>(scalar));  // throws for a valueless one, as std::visit did
  }
}
static_assert(std::is_same_v<std::variant_alternative_t<0, Scalar>, units::Quantity> &&
              std::is_same_v<std::variant_alternative_t<1, Scalar>, std::string> &&
              std::is_same_v<std::variant_alternative_t<2, Scalar>, bool> &&
              std::is_same_v<std::variant_alternative_t<3, Scalar>, Date>);
/// The owned form of a view. A list literal's items (list_node) are the evaluator's to read:
/// it is an empty list here.
Value value_of(const ValueRef& value);

/// The strings a text can only be, where they are a fixed set: the metric names (it.metric of
/// a claim), the plan keys (it.key of an assumption), a choice key's choices (plan.kind). A
/// literal compared with such a text that is none of them never equals it, and its rule never
/// fires: the checker rejects it.
struct Vocabulary {
  /// What one word is, for messages: "metric", "plan key"; empty for a few choices, which a
  /// message lists.
  std::string_view noun;
  const std::vector<std::string_view>* words = nullptr;  ///< null: any text
  /// Why a word outside `words` names nothing, where something better than "unknown NOUN" can
  /// be said ("'targets.max' is the max field of every [[targets]] entry, ..."); an empty
  /// string, or no function, for the usual message.
  std::string (*refusal)(std::string_view word) = nullptr;
};

/// A static type, checked when a rule loads.
struct Type {
  enum class Kind { number, string, boolean, date, list, any };
  Kind kind = Kind::any;
  /// The dimension of a number; nullopt when it is only known at run time (metric(it.metric)).
  std::optional<units::Dimension> dim;
  /// A dimensionless literal 0, which compares with a number of any dimension.
  bool zero_literal = false;
  /// A string that names one of a fixed set (Vocabulary): set for a name, not for what is
  /// computed from it.
  Vocabulary vocabulary = {};
  /// A fraction's largest value (1 for training.mfu; 10 for a tolerance, which config may set
  /// up to 1000%), 0 for anything else: a bare number above it compared with the fraction
  /// (`training.mfu <= 50`) is a percentage without its '%', and the comparison never changes.
  double fraction_max = 0;

  static Type number(std::optional<units::Dimension> dim) { return {Kind::number, dim}; }
  static Type of(Kind kind) { return {kind, std::nullopt}; }
};

/// "bytes", "a string", "a number of unknown dimension".
std::string describe(const Type& type);

/// The readable form of a value for messages: units::format for quantities.
std::string format_value(const Value& value);

}  // namespace planlint::expr
