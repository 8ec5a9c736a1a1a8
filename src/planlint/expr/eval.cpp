#include "planlint/expr/eval.hpp"

#include <cctype>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "planlint/metrics/metric_table.hpp"
#include "planlint/expr/check.hpp"
#include "planlint/units/unit_slip.hpp"

namespace planlint::expr {

std::optional<ValueRef> Environment::lookup_path(const Node& path, ValueStore& keep) const {
  std::optional<Value> value = lookup(path.text);
  if (!value) return std::nullopt;
  keep.push_front(std::move(*value));
  return view_of(keep.front());
}

bool Environment::stated_path(const Node& path) const { return stated(path.text); }

namespace {

using Quantity = units::Quantity;
using Kind = ValueRef::Kind;

ValueRef number(double value, units::Dimension dim) { return ValueRef::of(Quantity{value, dim}); }

/// Whether `text` stands in for a value rather than giving one: blank, only punctuation ("?",
/// "--", "..."), or a placeholder word ("TBD", "n/a", "todo"), up to case, spaces and a
/// closing mark. Assumption sources and owners are filled in so to pass a "not empty" check.
bool is_placeholder(std::string_view text) {
  // A text with more characters than the longest placeholder word ("placeholder") besides the
  // closing marks that are dropped is a value, decided without reading the rest (a source's
  // citation runs to a line or more).
  constexpr std::size_t longest = 11;
  std::size_t kept = 0;
  std::string word;
  bool only_marks = true;
  constexpr std::string_view ellipsis = "\u2026";
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text.substr(i).starts_with(ellipsis)) {
      i += ellipsis.size() - 1;
      continue;
    }
    const auto u = static_cast<unsigned char>(text[i]);
    if (u == ' ' || (u >= '\t' && u <= '\r')) continue;
    // Any letter or digit, and any other character outside ASCII (a source in another script).
    const bool letter = (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9');
    if (letter || u >= 0x80) only_marks = false;
    if (u != '.' && u != '!' && u != '?' && u != ':') ++kept;
    if (!only_marks && kept > longest) return false;
    word += static_cast<char>(u >= 'A' && u <= 'Z' ? u - 'A' + 'a' : u);
  }
  if (only_marks) return true;  // "", "?", "???", "-", "...", "…"
  while (!word.empty() && (word.back() == '.' || word.back() == '!' || word.back() == '?' || word.back() == ':'))
    word.pop_back();
  static constexpr std::string_view words[] = {"tbd", "tba", "tbc", "todo", "fixme", "na", "n/a", "none", "unknown",
                                               "xxx", "placeholder", "source", "later", "null", "nil"};
  return std::find(std::begin(words), std::end(words), word) != std::end(words);
}

bool equal(const ValueRef& a, const ValueRef& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case Kind::quantity: return a.quantity.value == b.quantity.value;
    case Kind::string: return a.text == b.text;
    case Kind::boolean: return a.boolean == b.boolean;
    case Kind::date: return a.date == b.date;
    case Kind::list: return false;
  }
  return false;
}

bool is_literal(const Node& node) {
  return node.kind == Node::Kind::quantity || node.kind == Node::Kind::string ||
         node.kind == Node::Kind::boolean;
}

/// Evaluates over ValueRefs, which copy no strings: a text views the plan, the rule or
/// `keep_`, which lives as long as the Evaluator.
class Evaluator {
 public:
  explicit Evaluator(const Environment& environment) : environment_(environment) {}

  std::optional<ValueRef> operator()(const Node& node) const {
    switch (node.kind) {
      case Node::Kind::quantity: return ValueRef::of(node.quantity);
      case Node::Kind::string: return ValueRef::of_text(node.text);
      case Node::Kind::boolean: return ValueRef::of(node.boolean);
      case Node::Kind::path: return environment_.lookup_path(node, keep_);
      case Node::Kind::list: {
        // A list is absent when an item is; its items are read again where the list is used
        // (evaluation is pure), so that it is never built.
        for (const Node* child : node.children)
          if (!is_literal(*child) && !(*this)(*child)) return std::nullopt;
        return ValueRef::of_list_literal(&node);
      }
      case Node::Kind::conditional: {
        const Node* picked = pick(node);
        if (!picked) return std::nullopt;
        return (*this)(*picked);
      }
      case Node::Kind::unary: {
        if (node.op == Op::not_) {
          auto operand = boolean(*node.children[0]);
          if (!operand) return std::nullopt;
          return ValueRef::of(!*operand);
        }
        auto operand = quantity(*node.children[0]);
        if (!operand) return std::nullopt;
        return number(-operand->value, operand->dim);
      }
      case Node::Kind::binary: return binary(node);
      case Node::Kind::call: return call(node);
    }
    return std::nullopt;
  }

  /// The branch a chain of conditionals picks (chosen_branch).
  const Node* pick(const Node& node) const {
    const Node* picked = &node;
    while (picked->kind == Node::Kind::conditional) {
      const std::optional<bool> condition = boolean(*picked->children[0]);
      if (!condition) return nullptr;
      picked = picked->children[*condition ? 1 : 2];
    }
    return picked;
  }

  /// The owned form of a result.
  Value to_value(const ValueRef& value) const {
    if (value.kind != Kind::list || !value.list_node) return value_of(value);
    List items;
    for (const Node* child : value.list_node->children) items.push_back(to_value(*(*this)(*child)));
    return Value{std::move(items)};
  }

  /// A condition's value, without making a ValueRef for the nodes that are conditions
  /// themselves (and, or, not, comparisons, exists, given, known): most nodes of a rule's
  /// applies and check.
  std::optional<bool> boolean(const Node& node) const {
    switch (node.kind) {
      case Node::Kind::boolean: return node.boolean;
      case Node::Kind::unary:
        if (node.op == Op::not_) {
          const std::optional<bool> operand = boolean(*node.children[0]);
          if (!operand) return std::nullopt;
          return !*operand;
        }
        break;
      case Node::Kind::binary:
        if (is_predicate(node.op)) return predicate(node);
        break;
      case Node::Kind::call:
        switch (node.function) {
          case Function::exists: return exists(*node.children[0]);
          case Function::given: return environment_.stated_path(*node.children[0]);
          case Function::known: return (*this)(*node.children[0]).has_value();
          default: break;
        }
        break;
      default: break;
    }
    auto value = (*this)(node);
    if (!value || value->kind != Kind::boolean) return std::nullopt;
    return value->boolean;
  }

 private:
  /// exists(path): whether it has a value (defaults count); absent for a key the plan states
  /// but planlint cannot read, whose existence is its own error's question.
  std::optional<bool> exists(const Node& path) const {
    if (environment_.lookup_path(path, keep_)) return true;
    if (environment_.unread(path.text)) return std::nullopt;
    return false;
  }

  /// A number's value, without making a ValueRef for a literal or an arithmetic node.
  std::optional<Quantity> quantity(const Node& node) const {
    switch (node.kind) {
      case Node::Kind::quantity:
        if (!std::isfinite(node.quantity.value)) return std::nullopt;
        return node.quantity;
      case Node::Kind::binary:
        if (!is_predicate(node.op)) return arithmetic(node);
        break;
      default: break;
    }
    auto value = (*this)(node);
    if (!value || value->kind != Kind::quantity || !std::isfinite(value->quantity.value)) return std::nullopt;
    return value->quantity;
  }
  std::optional<std::string_view> text(const Node& node) const {
    auto value = (*this)(node);
    if (!value || value->kind != Kind::string) return std::nullopt;
    return value->text;
  }
  static std::optional<Quantity> finite_quantity(double value, units::Dimension dim) {
    if (!std::isfinite(value)) return std::nullopt;
    return Quantity{value, dim};
  }
  static std::optional<ValueRef> finite(double value, units::Dimension dim) {
    if (!std::isfinite(value)) return std::nullopt;
    return number(value, dim);
  }
  /// Dimensions only known at run time still have to agree; a dimensionless 0 fits any.
  static bool compatible(const Quantity& a, const Quantity& b) {
    return a.dim == b.dim || (a.value == 0 && a.dim.dimensionless()) ||
           (b.value == 0 && b.dim.dimensionless());
  }
  /// A value an environment function returned, its text or list kept for the evaluation.
  std::optional<ValueRef> kept(std::optional<Value>&& value) const {
    if (!value) return std::nullopt;
    if (const Quantity* q = value->quantity()) return ValueRef::of(*q);
    keep_.push_front(std::move(*value));
    return view_of(keep_.front());
  }
  std::optional<ValueRef> kept_text(std::string&& text) const {
    // Empty, as slip() is for nearly every claim: nothing to keep, no list node to allocate.
    if (text.empty()) return ValueRef::of_text({});
    keep_.push_front(Value{std::move(text)});
    return ValueRef::of_text(*keep_.front().text());
  }

  /// Whether `item` is in `list` (absent when an item of a list literal is).
  std::optional<bool> contains(const ValueRef& list, const ValueRef& item) const {
    if (list.list)
      return std::any_of(list.list->begin(), list.list->end(),
                         [&](const Value& v) { return equal(view_of(v), item); });
    bool found = false;
    for (const Node* child : list.list_node->children) {
      auto value = (*this)(*child);
      if (!value) return std::nullopt;
      found = found || equal(*value, item);
    }
    return found;
  }

  /// The operators whose value is true or false.
  static bool is_predicate(Op op) {
    switch (op) {
      case Op::and_:
      case Op::or_:
      case Op::in:
      case Op::not_in:
      case Op::eq:
      case Op::ne:
      case Op::lt:
      case Op::le:
      case Op::gt:
      case Op::ge: return true;
      default: return false;
    }
  }

  /// A predicate operator's value (is_predicate); nullopt when absent.
  std::optional<bool> predicate(const Node& node) const {
    const Node& left = *node.children[0];
    const Node& right = *node.children[1];
    switch (node.op) {
      case Op::and_: {
        auto a = boolean(left);
        if (a && !*a) return false;
        auto b = boolean(right);
        if (b && !*b) return false;
        if (!a || !b) return std::nullopt;
        return true;
      }
      case Op::or_: {
        auto a = boolean(left);
        if (a && *a) return true;
        auto b = boolean(right);
        if (b && *b) return true;
        if (!a || !b) return std::nullopt;
        return false;
      }
      case Op::in:
      case Op::not_in: {
        auto item = (*this)(left);
        auto list = (*this)(right);
        if (!item || !list || list->kind != Kind::list) return std::nullopt;
        const std::optional<bool> found = contains(*list, *item);
        if (!found) return std::nullopt;
        return node.op == Op::in ? *found : !*found;
      }
      case Op::eq:
      case Op::ne: {
        auto a = (*this)(left), b = (*this)(right);
        if (!a || !b) return std::nullopt;
        if (a->kind == Kind::quantity && b->kind == Kind::quantity && !compatible(a->quantity, b->quantity))
          return std::nullopt;
        const bool same = equal(*a, *b);
        return node.op == Op::eq ? same : !same;
      }
      case Op::lt:
      case Op::le:
      case Op::gt:
      case Op::ge: {
        auto a = (*this)(left), b = (*this)(right);
        if (!a || !b) return std::nullopt;
        int order;
        if (a->kind == Kind::quantity && b->kind == Kind::quantity) {
          if (!compatible(a->quantity, b->quantity)) return std::nullopt;
          const double x = a->quantity.value, y = b->quantity.value;
          order = x < y ? -1 : x > y ? 1 : 0;
        } else if (a->kind == Kind::date && b->kind == Kind::date) {
          order = a->date < b->date ? -1 : a->date > b->date ? 1 : 0;
        } else {
          return std::nullopt;
        }
        const bool result = node.op == Op::lt   ? order < 0
                            : node.op == Op::le ? order <= 0
                            : node.op == Op::gt ? order > 0
                                                : order >= 0;
        return result;
      }
      default: break;
    }
    return std::nullopt;
  }

  std::optional<ValueRef> binary(const Node& node) const {
    if (is_predicate(node.op)) {
      const std::optional<bool> result = predicate(node);
      if (!result) return std::nullopt;
      return ValueRef::of(*result);
    }
    const std::optional<Quantity> result = arithmetic(node);
    if (!result) return std::nullopt;
    return ValueRef::of(*result);
  }

  /// An arithmetic operator's value, finite; nullopt when absent or not finite.
  std::optional<Quantity> arithmetic(const Node& node) const {
    const Node& left = *node.children[0];
    const Node& right = *node.children[1];
    auto a = quantity(left), b = quantity(right);
    if (!a || !b) return std::nullopt;
    switch (node.op) {
      case Op::add:
      case Op::sub: {
        if (!compatible(*a, *b)) return std::nullopt;
        const units::Dimension dim = a->value == 0 && a->dim.dimensionless() ? b->dim : a->dim;
        return finite_quantity(node.op == Op::add ? a->value + b->value : a->value - b->value, dim);
      }
      case Op::mul: return finite_quantity(a->value * b->value, a->dim * b->dim);
      case Op::div:
        if (b->value == 0) return std::nullopt;
        return finite_quantity(a->value / b->value, a->dim / b->dim);
      case Op::pow: {
        if (!b->dim.dimensionless()) return std::nullopt;
        if (a->dim.dimensionless()) return finite_quantity(std::pow(a->value, b->value), a->dim);
        // A quantity with a unit takes only a small whole power (GB^2): the dimension's
        // exponents are small integers, and a cast of 2^45 to int is undefined.
        if (!(std::fabs(b->value) <= 16) || b->value != std::trunc(b->value)) return std::nullopt;
        const int whole = static_cast<int>(b->value);
        return finite_quantity(std::pow(a->value, b->value), a->dim.pow(whole));
      }
      default: break;
    }
    return std::nullopt;
  }

  std::optional<ValueRef> call(const Node& node) const {
    const auto& args = node.children;
    const Function f = node.function;
    switch (f) {
      case Function::exists: {
        const std::optional<bool> found = exists(*args[0]);
        if (!found) return std::nullopt;
        return ValueRef::of(*found);
      }
      case Function::given: return ValueRef::of(environment_.stated_path(*args[0]));
      case Function::in_bits: return ValueRef::of(environment_.stated_in_bits(args[0]->text));
      // Never absent itself: what lets a rule ask about a figure that may not exist (a GPU
      // without an FP4 peak) without that absence making the whole check absent.
      case Function::known: return ValueRef::of((*this)(*args[0]).has_value());
      case Function::compute_precision: return kept(environment_.compute_precision());
      case Function::has_invalid_values: return ValueRef::of(environment_.has_invalid_values());
      case Function::min:
      case Function::max: {
        const bool is_min = f == Function::min;
        auto best = quantity(*args[0]);
        if (!best) return std::nullopt;
        for (std::size_t i = 1; i < args.size(); ++i) {
          auto next = quantity(*args[i]);
          if (!next || !compatible(*best, *next)) return std::nullopt;
          if (is_min ? next->value < best->value : next->value > best->value) best = next;
        }
        return ValueRef::of(*best);
      }
      case Function::abs:
      case Function::floor:
      case Function::ceil:
      case Function::sqrt:
      case Function::log10: {
        auto x = quantity(*args[0]);
        if (!x) return std::nullopt;
        if (f == Function::abs) return number(std::abs(x->value), x->dim);
        if (f == Function::floor) return number(std::floor(x->value), x->dim);
        if (f == Function::ceil) return number(std::ceil(x->value), x->dim);
        if (f == Function::log10) {
          if (x->value <= 0) return std::nullopt;
          return number(std::log10(x->value), units::dims::none);
        }
        if (x->value < 0) return std::nullopt;
        units::Dimension half;
        for (std::size_t i = 0; i < units::base_count; ++i) {
          if (x->dim.exponents[i] % 2 != 0) return std::nullopt;
          half.exponents[i] = static_cast<std::int8_t>(x->dim.exponents[i] / 2);
        }
        return number(std::sqrt(x->value), half);
      }
      case Function::divides:
      case Function::gcd: {
        auto a = quantity(*args[0]), b = quantity(*args[1]);
        if (!a || !b || !compatible(*a, *b)) return std::nullopt;
        if (f == Function::divides) {
          // b / a a whole number, to the rounding of the figures' doubles.
          if (a->value == 0) return std::nullopt;
          const double quotient = b->value / a->value;
          if (!std::isfinite(quotient)) return std::nullopt;
          return ValueRef::of(std::abs(quotient - std::round(quotient)) <= 1e-9 * std::max(1.0, std::abs(quotient)));
        }
        // Whole positive numbers up to 2^53, which doubles hold exactly.
        const auto whole = [](double x) { return x >= 1 && x <= 9007199254740992.0 && x == std::trunc(x); };
        if (!whole(a->value) || !whole(b->value)) return std::nullopt;
        std::uint64_t m = static_cast<std::uint64_t>(a->value), n = static_cast<std::uint64_t>(b->value);
        return number(static_cast<double>(std::gcd(m, n)), a->dim);
      }
      case Function::within: {
        auto x = quantity(*args[0]), y = quantity(*args[1]), tolerance = quantity(*args[2]);
        if (!x || !y || !tolerance || !compatible(*x, *y)) return std::nullopt;
        return ValueRef::of(std::abs(x->value - y->value) <= tolerance->value * std::abs(y->value));
      }
      case Function::ratio: {
        auto x = quantity(*args[0]), y = quantity(*args[1]);
        if (!x || !y || !compatible(*x, *y) || y->value == 0) return std::nullopt;
        return finite(x->value / y->value, units::dims::none);
      }
      case Function::slip: {
        auto x = quantity(*args[0]), y = quantity(*args[1]);
        if (!x || !y || !compatible(*x, *y)) return std::nullopt;
        // The optional goodput and schedule margin: 1 when absent or not a number.
        auto factor = [&](std::size_t i) {
          if (args.size() <= i) return 1.0;
          auto value = quantity(*args[i]);
          return value ? value->value : 1.0;
        };
        return kept_text(units::describe_slip(x->value, y->value, x->dim, factor(2), factor(3)));
      }
      case Function::days_since: {
        auto date = (*this)(*args[0]);
        if (!date || date->kind != Kind::date) return std::nullopt;
        return number(environment_.seconds_since(date->date), units::dims::seconds);
      }
      case Function::stated: {
        // The plan key named by a text (an assumption's it.key), as given() is for a path.
        auto name = text(*args[0]);
        if (!name) return std::nullopt;
        return ValueRef::of(environment_.stated(*name));
      }
      case Function::tier:
      case Function::tolerance:
      case Function::metric:
      case Function::metric_low:
      case Function::metric_high:
      case Function::value:
      case Function::assumed:
      case Function::claimed:
      case Function::computed:
      case Function::benchmarked: {
        auto name = text(*args[0]);
        if (!name) return std::nullopt;
        if (f == Function::metric) return kept(environment_.metric(*name));
        if (f == Function::metric_low || f == Function::metric_high)
          return kept(environment_.metric_bound(*name, f == Function::metric_high));
        if (f == Function::value) return kept(environment_.plan_value(*name));
        // "No" only when the answer is known: not for a section the plan misspells, nor for a
        // metric that wants a key the plan states unreadably (Environment::unread).
        const auto answer = [&](bool yes, bool unknown) -> std::optional<ValueRef> {
          if (!yes && unknown) return std::nullopt;
          return ValueRef::of(yes);
        };
        if (f == Function::assumed)
          return answer(environment_.assumed(*name), environment_.unread("assumptions"));
        if (f == Function::claimed)
          return answer(environment_.claimed(*name),
                        environment_.unread("estimates") || environment_.unread("targets"));
        if (f == Function::computed) return answer(environment_.computed(*name), environment_.blocked(*name));
        if (f == Function::benchmarked)
          return answer(environment_.benchmarked(*name), environment_.unread("benchmarks"));
        if (f == Function::tolerance) {
          auto tolerance = environment_.tolerance(*name);
          if (!tolerance) return std::nullopt;
          return number(*tolerance, units::dims::none);
        }
        return tier_name(*name);
      }
      case Function::unassumed: {
        // The keys stated with a value that no assumption names; not known while the
        // [[assumptions]] section is written under a name planlint cannot read.
        std::string joined;
        for (const Node* key : args[0]->children) {
          // An `each` rule's element's field: a [[capacity]] slice's, by the key that names it.
          if (key->text.starts_with("it.")) {
            if (environment_.unread("assumptions")) return std::nullopt;
            if (std::optional<std::string> field = environment_.unassumed_field(std::string_view(key->text).substr(3))) {
              if (!joined.empty()) joined += ", ";
              joined += *field;
            }
            continue;
          }
          if (!environment_.stated(key->text) || !environment_.plan_value(key->text)) continue;
          if (environment_.unread("assumptions")) return std::nullopt;
          if (environment_.assumed(key->text)) continue;
          if (!joined.empty()) joined += ", ";
          joined += key->text;
        }
        return kept_text(std::move(joined));
      }
      case Function::ranged: {
        auto name = text(*args[0]);
        const MetricSpec* m = name ? find_metric(*name) : nullptr;
        if (!m) return std::nullopt;
        return ValueRef::of(m->ranged_by != 0);
      }
      case Function::ranged_by: {
        auto name = text(*args[0]), key = text(*args[1]);
        const MetricSpec* m = name ? find_metric(*name) : nullptr;
        if (!m || !key) return std::nullopt;
        for (const RangedKey ranged : ranged_keys)
          if (plan_key_of(ranged) == *key) return ValueRef::of(planlint::ranged_by(*m, ranged));
        return ValueRef::of(false);
      }
      case Function::ranged_keys: {
        auto name = text(*args[0]);
        const MetricSpec* m = name ? find_metric(*name) : nullptr;
        if (!m) return std::nullopt;
        std::string joined;
        for (const RangedKey ranged : ranged_keys)
          if (planlint::ranged_by(*m, ranged)) {
            if (!joined.empty()) joined += ", ";
            joined += plan_key_of(ranged);
          }
        return kept_text(std::move(joined));
      }
      case Function::moe_scaling: {
        auto name = text(*args[0]);
        const MetricSpec* m = name ? find_metric(*name) : nullptr;
        if (!m) return std::nullopt;
        return ValueRef::of_text(to_string(m->moe));
      }
      case Function::computed_from: {
        auto name = text(*args[0]), key = text(*args[1]);
        if (!name || !key) return std::nullopt;
        return ValueRef::of(environment_.computed_from(*name, *key));
      }
      case Function::missing_inputs: {
        auto name = text(*args[0]);
        if (!name) return std::nullopt;
        std::string joined;
        for (const std::string& input : environment_.missing_inputs(*name))
          joined += (joined.empty() ? "" : ", ") + input;
        return kept_text(std::move(joined));
      }
      case Function::claims_with_ratio:
      case Function::shared_inputs: {
        auto r = quantity(*args[0]), tolerance = quantity(*args[1]);
        if (!r || !tolerance || !r->dim.dimensionless() || !tolerance->dim.dimensionless()) return std::nullopt;
        const std::vector<std::string> claims = environment_.claims_with_ratio(r->value, tolerance->value);
        if (f == Function::claims_with_ratio)
          return number(static_cast<double>(claims.size()), units::dims::none);
        std::string joined;
        if (!claims.empty())
          for (const std::string& key : environment_.shared_inputs(claims)) {
            if (!joined.empty()) joined += ", ";
            joined += key;
          }
        return kept_text(std::move(joined));
      }
      case Function::peak_precision: {
        auto gpu = text(*args[0]);
        auto peak = quantity(*args[1]), tolerance = quantity(*args[2]);
        if (!gpu || !peak || !tolerance) return std::nullopt;
        for (std::string_view precision : peak_precisions())
          if (const std::optional<Value> dense = environment_.catalog(*gpu, "dense_peak", precision))
            if (const units::Quantity* q = dense->quantity();
                q && std::abs(peak->value - q->value) <= tolerance->value * std::abs(q->value))
              return ValueRef::of_text(precision);
        return ValueRef::of_text("");
      }
      case Function::placeholder: {
        auto written = text(*args[0]);
        if (!written) return std::nullopt;
        return ValueRef::of(is_placeholder(*written));
      }
      case Function::catalog: {
        auto gpu = text(*args[0]), field = text(*args[1]);
        std::optional<std::string_view> precision;
        if (args.size() > 2) precision = text(*args[2]);
        if (!gpu || !field || (args.size() > 2 && !precision)) return std::nullopt;
        return kept(environment_.catalog(*gpu, *field, precision.value_or("")));
      }
      case Function::unknown: break;
    }
    return std::nullopt;
  }

  static std::optional<ValueRef> tier_name(std::string_view metric) {
    const MetricSpec* m = find_metric(metric);
    if (!m) return std::nullopt;
    return ValueRef::of_text(to_string(m->tier));
  }

  const Environment& environment_;
  mutable ValueStore keep_;
};

}  // namespace

std::optional<Value> evaluate(const Node& node, const Environment& environment) {
  const Evaluator evaluator(environment);
  const std::optional<ValueRef> value = evaluator(node);
  if (!value) return std::nullopt;
  return evaluator.to_value(*value);
}

std::optional<bool> evaluate_condition(const Node& node, const Environment& environment) {
  return Evaluator(environment).boolean(node);
}

const Node* chosen_branch(const Node& node, const Environment& environment) {
  return Evaluator(environment).pick(node);
}

}  // namespace planlint::expr
