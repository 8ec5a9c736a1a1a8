#include "planlint/expr/check.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "planlint/catalog/catalog.hpp"
#include "planlint/diag/suggest.hpp"
#include "planlint/metrics/metric_table.hpp"
#include "planlint/plan/schema.hpp"

namespace planlint::expr {

namespace {

using Kind = Type::Kind;

struct failure {
  CheckError error;
};

[[noreturn]] void fail(const Node& node, std::string message) {
  throw failure{{node.begin, std::move(message)}};
}

bool same_dimension(const Type& a, const Type& b) {
  if (!a.dim || !b.dim) return true;  // known only at run time
  if (a.zero_literal || b.zero_literal) return true;
  return *a.dim == *b.dim;
}

bool is_empty_text(const Node& node) { return node.kind == Node::Kind::string && node.text.empty(); }

/// `type` without what only the name it was read from knows (Type::vocabulary, fraction_max):
/// the type of a value computed from that name.
Type computed(Type type) {
  type.vocabulary = {};
  type.fraction_max = 0;
  return type;
}

/// Whether `node` is how a date written in an expression parses: `2026-01-01` is the
/// subtraction 2026 - 1 - 1 (there are no date literals).
bool reads_as_date(const Node& node) {
  auto whole = [](const Node& n) {
    return n.kind == Node::Kind::quantity && n.quantity.dim.dimensionless() && !n.quantity.percent &&
           n.quantity.value >= 0 && n.quantity.value == std::trunc(n.quantity.value);
  };
  if (node.kind != Node::Kind::binary || node.op != Op::sub || !whole(*node.children[1])) return false;
  const Node& first = *node.children[0];
  return first.kind == Node::Kind::binary && first.op == Op::sub && whole(*first.children[0]) &&
         whole(*first.children[1]);
}

/// Why a date cannot be compared with `other`, when it looks like a date written as a literal
/// (2026-01-01, '2026-01-01'); empty otherwise. `date` names the date operand.
std::string date_literal_help(const Node& other, std::string_view date) {
  std::string read_as;
  if (reads_as_date(other)) {
    const Node& first = *other.children[0];
    read_as = fmt::format(" (this one is read as {:g} - {:g} - {:g})", first.children[0]->quantity.value,
                          first.children[1]->quantity.value, other.children[1]->quantity.value);
  } else if (other.kind != Node::Kind::string) {
    return {};
  }
  return fmt::format(": there are no date literals{}; compare an age in days instead, such as "
                     "days_since({}) > 180 d",
                     read_as, date.empty() ? "plan.updated" : date);
}

/// What a message calls the operand `node`: its name, or its function's.
std::string operand_name(const Node& node) {
  if (node.kind != Node::Kind::call) return std::string(node.text);
  if (node.children.size() == 1 && node.children[0]->kind == Node::Kind::string)
    return fmt::format("{}('{}')", node.text, node.children[0]->text);
  return fmt::format("{}()", node.text);
}

class Checker {
 public:
  /// `placeholder`: the tree of a message placeholder, whose conditional chain may pair a
  /// value with '' (check_placeholder).
  Checker(const TypeEnvironment& environment, const Node* placeholder)
      : environment_(environment), text_chain_(placeholder) {}

  Type operator()(const Node& node) {
    switch (node.kind) {
      case Node::Kind::quantity: {
        Type type = Type::number(node.quantity.dim);
        type.zero_literal = node.quantity.value == 0 && node.quantity.dim.dimensionless();
        return type;
      }
      case Node::Kind::string: return Type::of(Kind::string);
      case Node::Kind::boolean: return Type::of(Kind::boolean);
      case Node::Kind::path: {
        std::string error;
        if (auto type = environment_.path_type(node.text, error)) return *type;
        fail(node, error);
      }
      case Node::Kind::list: {
        std::optional<Type> item;
        for (const Node* child : node.children) {
          Type type = (*this)(*child);
          if (item && (item->kind != type.kind || !same_dimension(*item, type)))
            fail(*child, fmt::format("list items differ: {} and {}", describe(*item), describe(type)));
          item = type;
        }
        return Type::of(Kind::list);
      }
      case Node::Kind::conditional: {
        expect(*node.children[0], Kind::boolean, "the condition of if");
        // A placeholder prints its value, or nothing for a '' branch: a chain of a
        // placeholder's conditionals may pair a number with ''.
        const bool in_text_chain = &node == text_chain_;
        if (in_text_chain) text_chain_ = nullptr;
        const Node& then_node = *node.children[1];
        const Node& else_node = *node.children[2];
        if (in_text_chain && then_node.kind == Node::Kind::conditional) text_chain_ = &then_node;
        Type then_type = (*this)(then_node);
        if (in_text_chain && else_node.kind == Node::Kind::conditional) text_chain_ = &else_node;
        Type else_type = (*this)(else_node);
        // What a branch names is not what the conditional does: (if c then plan.kind else
        // 'other') == 'other' may hold.
        then_type = computed(then_type);
        else_type = computed(else_type);
        if (in_text_chain && (is_empty_text(then_node) || is_empty_text(else_node)))
          return is_empty_text(then_node) ? else_type : then_type;
        if (then_type.kind != else_type.kind && then_type.kind != Kind::any &&
            else_type.kind != Kind::any)
          fail(node, fmt::format("the branches of if differ: {} and {}", describe(then_type),
                                 describe(else_type)));
        if (then_type.kind == Kind::number && !same_dimension(then_type, else_type))
          fail(node, fmt::format("the branches of if differ: {} and {}", describe(then_type),
                                 describe(else_type)));
        return then_type.kind == Kind::any ? else_type : then_type;
      }
      case Node::Kind::unary: {
        if (node.op == Op::not_) {
          expect(*node.children[0], Kind::boolean, "the operand of not");
          return Type::of(Kind::boolean);
        }
        Type type = computed(expect(*node.children[0], Kind::number, "the operand of -"));
        type.zero_literal = false;
        return type;
      }
      case Node::Kind::binary: return binary(node);
      case Node::Kind::call: return call(node);
    }
    fail(node, "unknown expression");
  }

 private:
  Type expect(const Node& node, Kind kind, std::string_view what) {
    Type type = (*this)(node);
    if (type.kind != kind && type.kind != Kind::any)
      fail(node, fmt::format("{} must be {}, not {}", what, describe(Type::of(kind)), describe(type)));
    if (type.kind == Kind::any) type.kind = kind;
    return type;
  }

  Type binary(const Node& node) {
    const Node& left = *node.children[0];
    const Node& right = *node.children[1];
    switch (node.op) {
      case Op::and_:
      case Op::or_:
        expect(left, Kind::boolean, fmt::format("the left side of {}", to_string(node.op)));
        expect(right, Kind::boolean, fmt::format("the right side of {}", to_string(node.op)));
        return Type::of(Kind::boolean);
      case Op::in:
      case Op::not_in: {
        Type item = (*this)(left);
        (*this)(right);
        for (const Node* child : right.children) {
          Type type = (*this)(*child);
          if ((type.kind != item.kind && item.kind != Kind::any && type.kind != Kind::any) ||
              !same_dimension(type, item))
            fail(*child, fmt::format("cannot look for {} among {}", describe(item), describe(type)));
          check_word(*child, item.vocabulary, &left);
          check_fraction_bound(left, item, *child);
        }
        return Type::of(Kind::boolean);
      }
      case Op::eq:
      case Op::ne: {
        Type a = (*this)(left), b = (*this)(right);
        if (a.kind != b.kind && a.kind != Kind::any && b.kind != Kind::any)
          fail(node, fmt::format("cannot compare {} with {}{}", describe(a), describe(b), date_help(left, a, right, b)));
        if (a.kind == Kind::number && !same_dimension(a, b))
          fail(node, fmt::format("cannot compare {} with {}", describe(a), describe(b)));
        check_word(right, a.vocabulary, &left);
        check_word(left, b.vocabulary, &right);
        check_fraction_bound(left, a, right);
        check_fraction_bound(right, b, left);
        return Type::of(Kind::boolean);
      }
      case Op::lt:
      case Op::le:
      case Op::gt:
      case Op::ge: {
        Type a = (*this)(left), b = (*this)(right);
        const bool ordered = [&](const Type& t) {
          return t.kind == Kind::number || t.kind == Kind::date || t.kind == Kind::any;
        }(a) && (b.kind == Kind::number || b.kind == Kind::date || b.kind == Kind::any);
        if (!ordered || (a.kind != b.kind && a.kind != Kind::any && b.kind != Kind::any) ||
            !same_dimension(a, b))
          fail(node, fmt::format("cannot compare {} with {}{}", describe(a), describe(b), date_help(left, a, right, b)));
        check_fraction_bound(left, a, right);
        check_fraction_bound(right, b, left);
        return Type::of(Kind::boolean);
      }
      case Op::add:
      case Op::sub: {
        Type a = expect(left, Kind::number, "an operand of + and -");
        Type b = expect(right, Kind::number, "an operand of + and -");
        if (!same_dimension(a, b))
          fail(node, fmt::format("cannot {} {} and {}", node.op == Op::add ? "add" : "subtract",
                                 describe(a), describe(b)));
        Type result = Type::number(a.zero_literal ? b.dim : a.dim);
        if (!a.dim || !b.dim) result.dim = std::nullopt;
        return result;
      }
      case Op::mul:
      case Op::div: {
        Type a = expect(left, Kind::number, "an operand of * and /");
        Type b = expect(right, Kind::number, "an operand of * and /");
        if (!a.dim || !b.dim) return Type::number(std::nullopt);
        return Type::number(node.op == Op::mul ? *a.dim * *b.dim : *a.dim / *b.dim);
      }
      case Op::pow: {
        Type base = expect(left, Kind::number, "the base of ^");
        Type exponent = expect(right, Kind::number, "the exponent of ^");
        if (exponent.dim && !exponent.dim->dimensionless())
          fail(right, fmt::format("the exponent of ^ must be dimensionless, not {}", describe(exponent)));
        if (!base.dim || base.dim->dimensionless()) return computed(base);
        // A dimensioned base needs a small whole-number literal exponent: GB^2, not GB^x. The
        // bound is the evaluator's (a dimension's exponents are small integers), and comes before
        // the cast: a cast of 3.4e82 to int is undefined (found by fuzz_expression).
        if (right.kind != Node::Kind::quantity || !(std::fabs(right.quantity.value) <= 16) ||
            right.quantity.value != std::trunc(right.quantity.value))
          fail(right, "a quantity with a unit can only be raised to a whole-number literal of at most 16");
        return Type::number(base.dim->pow(static_cast<int>(right.quantity.value)));
      }
      default: break;
    }
    fail(node, "unknown operator");
  }

  void arity(const Node& node, std::size_t low, std::size_t high) {
    const std::size_t n = node.children.size();
    if (n < low || n > high)
      fail(node, low == high ? fmt::format("{}() takes {} argument{}", node.text, low, low == 1 ? "" : "s")
                             : fmt::format("{}() takes {} to {} arguments", node.text, low, high));
  }

  /// A string literal where a word of `vocabulary` belongs (metric('train.days'), it.metric ==
  /// 'train.days', plan.kind == 'training'): one that is none of its words names nothing, or is
  /// a value `compared` never has, and the rule would load and never fire. Anything but a
  /// literal (it.metric, a let) is only known at run time. '' is let be: `tier(it.metric) !=
  /// ''` asks whether there is a value at all, as the built-in rules do.
  void check_word(const Node& literal, const Vocabulary& vocabulary, const Node* compared = nullptr) {
    if (!vocabulary.words || literal.kind != Node::Kind::string || literal.text.empty()) return;
    const std::vector<std::string_view>& words = *vocabulary.words;
    if (std::find(words.begin(), words.end(), literal.text) != words.end()) return;
    if (vocabulary.refusal)
      if (std::string refusal = vocabulary.refusal(literal.text); !refusal.empty()) fail(literal, refusal);
    std::string message;
    if (!vocabulary.noun.empty()) {
      message = fmt::format("unknown {} '{}'", vocabulary.noun, literal.text);
    } else {
      // A few choices: name them, as the plan loader's bad-value does.
      std::string choices;
      for (std::string_view word : words) choices += fmt::format("{}{}", choices.empty() ? "" : ", ", word);
      const std::string name = !compared                            ? std::string("the value")
                               : compared->kind == Node::Kind::call ? fmt::format("{}()", compared->text)
                                                                    : std::string(compared->text);
      message = fmt::format("{} is never '{}' (it is one of {})", name, literal.text, choices);
    }
    if (auto suggestion = closest_match(literal.text, words))
      message += fmt::format("; did you mean '{}'?", *suggestion);
    fail(literal, message);
  }

  /// date_literal_help() for a comparison of `left` (of type `a`) with `right` that is refused.
  static std::string date_help(const Node& left, const Type& a, const Node& right, const Type& b) {
    if (a.kind == Kind::date) return date_literal_help(right, left.kind == Node::Kind::path ? left.text : "");
    if (b.kind == Kind::date) return date_literal_help(left, right.kind == Node::Kind::path ? right.text : "");
    return {};
  }

  /// A literal outside what the fraction `type` (of `named`) can be, set against it: the
  /// comparison is always true or always false, and the rule never changes its answer. A bare
  /// number above the fraction's largest value (`training.mfu <= 50`) is a percentage written
  /// without its '%' (the wording is the config loader's for [lint.options]); a percentage
  /// above it (`training.mfu <= 150%`) or a negative number (`training.mfu > -5%`) is outside
  /// the range the plan loader already holds the value to.
  void check_fraction_bound(const Node& named, const Type& type, const Node& literal) {
    if (type.fraction_max == 0) return;
    // A literal, or a negated one (-5% is neg(5%)).
    const bool negated = literal.kind == Node::Kind::unary && literal.op == Op::neg && literal.children.size() == 1;
    const Node& number = negated ? *literal.children[0] : literal;
    if (number.kind != Node::Kind::quantity || !number.quantity.dim.dimensionless()) return;
    const double value = negated ? -number.quantity.value : number.quantity.value;
    if (!number.quantity.percent && value > type.fraction_max)
      fail(literal, fmt::format("{} is a fraction: {:g} is {}; write {:g}% or {:g}", operand_name(named), value,
                                units::format_in(value, units::dims::none, "%"), value, value / 100));
    if (value < 0 || value > type.fraction_max)
      fail(literal, fmt::format("{} is a fraction from 0% to {}: {} is outside it, so the comparison never "
                                "changes and the rule never fires or always does",
                                operand_name(named), units::format_in(type.fraction_max, units::dims::none, "%"),
                                units::format_in(value, units::dims::none, "%")));
  }

  /// The metric a string-literal argument names (metric('train.days')), checked; null for an
  /// argument known only at run time (metric(it.metric)).
  const MetricSpec* metric_argument(const Node& argument) {
    check_word(argument, metric_vocabulary());
    return argument.kind == Node::Kind::string ? find_metric(argument.text) : nullptr;
  }

  const Node& path_argument(const Node& node) {
    arity(node, 1, 1);
    const Node& argument = *node.children[0];
    if (argument.kind != Node::Kind::path)
      fail(argument, fmt::format("{}() takes a name such as training.goodput", node.text));
    return argument;
  }

  Type call(const Node& node) {
    const std::string_view f = node.text;
    auto numbers = [&](std::size_t i) { return expect(*node.children[i], Kind::number, fmt::format("argument {} of {}()", i + 1, f)); };
    auto text = [&](std::size_t i) { expect(*node.children[i], Kind::string, fmt::format("argument {} of {}()", i + 1, f)); };
    switch (node.function) {
      case Function::min:
      case Function::max: {
        if (node.children.empty()) arity(node, 1, 64);
        Type first = numbers(0);
        for (std::size_t i = 1; i < node.children.size(); ++i) {
          Type t = numbers(i);
          if (!same_dimension(first, t))
            fail(*node.children[i], fmt::format("{}() of {} and {}", f, describe(first), describe(t)));
        }
        first.zero_literal = false;
        return computed(first);
      }
      case Function::abs:
      case Function::floor:
      case Function::ceil: {
        arity(node, 1, 1);
        Type t = computed(numbers(0));
        t.zero_literal = false;
        return t;
      }
      case Function::sqrt: {
        arity(node, 1, 1);
        Type t = numbers(0);
        if (!t.dim) return t;
        units::Dimension half;
        for (std::size_t i = 0; i < units::base_count; ++i) {
          if (t.dim->exponents[i] % 2 != 0)
            fail(node, fmt::format("sqrt() of {} has no dimension", describe(t)));
          half.exponents[i] = static_cast<std::int8_t>(t.dim->exponents[i] / 2);
        }
        return Type::number(half);
      }
      case Function::log10:
        arity(node, 1, 1);
        numbers(0);
        return Type::number(units::dims::none);
      case Function::divides:
      case Function::gcd: {
        // Whole numbers of one dimension: divides(tp, model.heads), gcd(tp, model.heads).
        arity(node, 2, 2);
        Type a = numbers(0), b = numbers(1);
        if (!same_dimension(a, b))
          fail(node, fmt::format("{}() of {} and {}", f, describe(a), describe(b)));
        if (node.function == Function::divides) return Type::of(Kind::boolean);
        a.zero_literal = false;
        return computed(a);
      }
      case Function::within: {
        arity(node, 3, 3);
        Type a = numbers(0), b = numbers(1), tol = numbers(2);
        if (!same_dimension(a, b))
          fail(node, fmt::format("within() compares {} with {}", describe(a), describe(b)));
        check_fraction_bound(*node.children[0], a, *node.children[1]);
        check_fraction_bound(*node.children[1], b, *node.children[0]);
        if (tol.dim && !tol.dim->dimensionless())
          fail(*node.children[2], fmt::format("the tolerance of within() is a fraction, not {}", describe(tol)));
        return Type::of(Kind::boolean);
      }
      case Function::ratio:
      case Function::slip: {
        // slip(claimed, computed[, goodput[, schedule_margin]]): the two plain numbers it may
        // look for time slips at.
        arity(node, 2, node.function == Function::slip ? 4 : 2);
        Type a = numbers(0), b = numbers(1);
        if (!same_dimension(a, b))
          fail(node, fmt::format("{}() of {} and {}", f, describe(a), describe(b)));
        for (std::size_t i = 2; i < node.children.size(); ++i)
          if (Type factor = numbers(i); factor.dim && !factor.dim->dimensionless())
            fail(*node.children[i], fmt::format("slip()'s goodput and schedule margin are plain numbers, not {}",
                                                describe(factor)));
        return node.function == Function::ratio ? Type::number(units::dims::none) : Type::of(Kind::string);
      }
      case Function::days_since:
        arity(node, 1, 1);
        if (std::string help = date_literal_help(*node.children[0], ""); !help.empty())
          fail(*node.children[0], "days_since() takes a date such as plan.updated" + help);
        expect(*node.children[0], Kind::date, "the argument of days_since()");
        return Type::number(units::dims::seconds);
      case Function::tier: {
        arity(node, 1, 1);
        text(0);
        metric_argument(*node.children[0]);
        static const std::vector<std::string_view> tiers = {to_string(Tier::capacity), to_string(Tier::cost),
                                                            to_string(Tier::latency)};
        Type type = Type::of(Kind::string);
        type.vocabulary.words = &tiers;
        return type;
      }
      case Function::ranged:
        arity(node, 1, 1);
        text(0);
        metric_argument(*node.children[0]);
        return Type::of(Kind::boolean);
      case Function::ranged_by: {
        arity(node, 2, 2);
        text(0);
        text(1);
        metric_argument(*node.children[0]);
        static const std::vector<std::string_view> keys = {plan_key_of(RangedKey::mfu), plan_key_of(RangedKey::goodput),
                                                           plan_key_of(RangedKey::price)};
        check_word(*node.children[1], Vocabulary{"ranged key", &keys});
        return Type::of(Kind::boolean);
      }
      case Function::moe_scaling: {
        arity(node, 1, 1);
        text(0);
        metric_argument(*node.children[0]);
        static const std::vector<std::string_view> scalings = {
            to_string(MoeScaling::none), to_string(MoeScaling::active_params), to_string(MoeScaling::total_params),
            to_string(MoeScaling::routed_experts)};
        Type type = Type::of(Kind::string);
        type.vocabulary.words = &scalings;
        return type;
      }
      case Function::computed_from:
        arity(node, 2, 2);
        text(0);
        text(1);
        metric_argument(*node.children[0]);
        check_word(*node.children[1], plan_key_vocabulary());
        return Type::of(Kind::boolean);
      case Function::ranged_keys:
      case Function::missing_inputs:
        arity(node, 1, 1);
        text(0);
        metric_argument(*node.children[0]);
        return Type::of(Kind::string);
      case Function::tolerance: {
        arity(node, 1, 1);
        text(0);
        metric_argument(*node.children[0]);
        Type type = Type::number(units::dims::none);
        type.fraction_max = max_tolerance;
        return type;
      }
      case Function::metric:
      case Function::metric_low:
      case Function::metric_high: {
        arity(node, 1, 1);
        text(0);
        // A metric named by a literal has its dimension: metric('train.days') is a time.
        const MetricSpec* metric = metric_argument(*node.children[0]);
        if (!metric) return Type::number(std::nullopt);
        Type type = Type::number(metric->dim);
        if (metric->fraction) type.fraction_max = 1;
        return type;
      }
      case Function::value:
        arity(node, 1, 1);
        text(0);
        check_word(*node.children[0], plan_key_vocabulary());
        return Type::of(Kind::any);
      case Function::assumed:
      case Function::stated:
        arity(node, 1, 1);
        text(0);
        check_word(*node.children[0], plan_key_vocabulary());
        return Type::of(Kind::boolean);
      case Function::unassumed: {
        // unassumed(['training.mfu', 'cluster.price']): a list literal of plan keys, or of a
        // [[capacity]] slice's fields ('it.price', 'it.goodput').
        arity(node, 1, 1);
        const Node& keys = *node.children[0];
        if (keys.kind != Node::Kind::list)
          fail(keys, "unassumed() takes a list of plan keys, such as ['training.mfu', 'cluster.price']");
        for (const Node* key : keys.children) {
          if (key->kind != Node::Kind::string) fail(*key, "unassumed() lists plan keys as strings ('training.mfu')");
          // 'it.price': the field of an `each = "capacity"` rule's slice.
          if (key->text == "it.price" || key->text == "it.goodput") continue;
          check_word(*key, plan_key_vocabulary());
        }
        return Type::of(Kind::string);
      }
      case Function::claimed:
      case Function::computed:
      case Function::benchmarked:
        arity(node, 1, 1);
        text(0);
        metric_argument(*node.children[0]);
        return Type::of(Kind::boolean);
      case Function::claims_with_ratio:
      case Function::shared_inputs: {
        arity(node, 2, 2);
        Type r = numbers(0), tol = numbers(1);
        if (r.dim && !r.dim->dimensionless())
          fail(*node.children[0], fmt::format("the ratio of {}() is dimensionless (ratio(a, b)), not {}", f, describe(r)));
        if (tol.dim && !tol.dim->dimensionless())
          fail(*node.children[1], fmt::format("the tolerance of {}() is a fraction, not {}", f, describe(tol)));
        return node.function == Function::claims_with_ratio ? Type::number(units::dims::none)
                                                            : Type::of(Kind::string);
      }
      case Function::peak_precision: {
        arity(node, 3, 3);
        text(0);
        const Type peak = numbers(1), tolerance = numbers(2);
        if (peak.dim && *peak.dim != units::dims::flop_per_second)
          fail(*node.children[1], fmt::format("peak_precision() compares a peak (FLOP/s), not {}", describe(peak)));
        if (tolerance.dim && !tolerance.dim->dimensionless())
          fail(*node.children[2], fmt::format("the tolerance of peak_precision() is a fraction, not {}", describe(tolerance)));
        Type type = Type::of(Kind::string);
        type.vocabulary.words = &peak_precisions();
        return type;
      }
      case Function::placeholder:
        arity(node, 1, 1);
        text(0);
        return Type::of(Kind::boolean);
      case Function::catalog: {
        arity(node, 2, 3);
        for (std::size_t i = 0; i < node.children.size(); ++i) text(i);
        const Node& field = *node.children[1];
        if (field.kind == Node::Kind::string) {
          // The text fields: how the GPU's hosts connect, "nic" or "ici"; the scale-up link's
          // kind ("nvlink") and the name messages give it ("NVLink").
          if (field.text == "scale_out") {
            static const std::vector<std::string_view> scale_outs = {"nic", "ici"};
            Type type = Type::of(Kind::string);
            type.vocabulary.words = &scale_outs;
            return type;
          }
          if (field.text == "scale_up_link") {
            static const std::vector<std::string_view> links = [] {
              std::vector<std::string_view> names;
              for (ScaleUpLink link : all_scale_up_links) names.push_back(to_string(link));
              return names;
            }();
            Type type = Type::of(Kind::string);
            type.vocabulary.words = &links;
            return type;
          }
          if (field.text == "scale_up_link_name" || field.text == "price_reference") return Type::of(Kind::string);
          auto dim = catalog_field_dimension(field.text);
          if (!dim)
            fail(field, fmt::format("catalog() has no field '{}': use dense_peak, sparse_peak, hbm, "
                                    "hbm_bandwidth, link_bandwidth, scale_up_domain, gpus_per_node, price_low, price_high, "
                                    "price_high_reference, price_reference, scale_out, scale_up_link or "
                                    "scale_up_link_name",
                                    field.text));
          if ((field.text == "dense_peak" || field.text == "sparse_peak") && node.children.size() < 3)
            fail(node, "catalog() needs a precision for a peak: catalog(gpu, 'dense_peak', 'bf16')");
          return Type::number(*dim);
        }
        return Type::number(std::nullopt);
      }
      case Function::compute_precision: {
        arity(node, 0, 0);
        // One of training.precision's choices (fp8 or bf16 for inference).
        Type type = Type::of(Kind::string);
        type.vocabulary.words = &find_key("training.precision")->choices;
        return type;
      }
      case Function::has_invalid_values:
        arity(node, 0, 0);
        return Type::of(Kind::boolean);
      case Function::known:
        arity(node, 1, 1);
        (*this)(*node.children[0]);
        return Type::of(Kind::boolean);
      case Function::exists:
      case Function::given:
      case Function::in_bits: {
        const Node& argument = path_argument(node);
        std::string error;
        if (!environment_.path_type(argument.text, error)) fail(argument, error);
        return Type::of(Kind::boolean);
      }
      case Function::unknown: break;
    }
    std::string message = fmt::format("unknown function '{}'", f);
    if (auto suggestion = closest_match(f, function_names()))
      message += fmt::format("; did you mean '{}'?", *suggestion);
    fail(node, message);
  }

  const TypeEnvironment& environment_;
  /// The conditional of a placeholder's chain being checked next, if any (check_placeholder).
  const Node* text_chain_ = nullptr;
};

}  // namespace

std::optional<units::Dimension> catalog_field_dimension(std::string_view field) {
  if (field == "dense_peak" || field == "sparse_peak") return units::dims::flop_per_second;
  if (field == "hbm") return units::dims::bytes;
  if (field == "hbm_bandwidth" || field == "link_bandwidth") return units::dims::bytes_per_second;
  if (field == "price_low" || field == "price_high" || field == "price_high_reference")
    return units::dims::usd_per_gpu_second;
  if (field == "scale_up_domain" || field == "gpus_per_node") return units::dims::gpus;
  return std::nullopt;
}

const std::vector<std::string_view>& peak_precisions() {
  static const std::vector<std::string_view> precisions = {"fp32", "tf32", "fp8", "fp4", "fp6", "bf16"};
  return precisions;
}

const std::vector<std::string_view>& function_names() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> all;
    for (const FunctionName& entry : function_table) all.push_back(entry.name);
    return all;
  }();
  return names;
}

const Vocabulary& metric_vocabulary() {
  static const std::vector<std::string_view> names = metric_name_list();
  static const Vocabulary vocabulary{"metric", &names};
  return vocabulary;
}

const Vocabulary& plan_key_vocabulary() {
  // The keys that name one value (find_value_key): value('targets.max') reads nothing, and no
  // assumption may name it.
  const std::vector<std::string>& keys = value_key_paths();
  static const std::vector<std::string_view> views(keys.begin(), keys.end());
  // A key of an element of [[targets]], [[assumptions]] or [[benchmarks]]: no one value.
  constexpr auto refusal = [](std::string_view word) -> std::string {
    const std::string why = element_field_refusal(word);
    if (why.empty()) return why;
    return fmt::format("'{}' is {}: value() reads and an assumption justifies a key of a table, such as "
                       "'training.mfu'",
                       word, why);
  };
  static const Vocabulary vocabulary{"plan key", &views, +refusal};
  return vocabulary;
}

std::variant<Type, CheckError> check(const Node& node, const TypeEnvironment& environment) {
  try {
    return Checker(environment, nullptr)(node);
  } catch (const failure& f) {
    return f.error;
  }
}

std::variant<Type, CheckError> check_placeholder(const Node& node, const TypeEnvironment& environment) {
  try {
    return Checker(environment, node.kind == Node::Kind::conditional ? &node : nullptr)(node);
  } catch (const failure& f) {
    return f.error;
  }
}

}  // namespace planlint::expr
