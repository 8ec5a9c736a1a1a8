#include "planlint/expr/eval.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "planlint/expr/check.hpp"

namespace planlint::expr {

namespace {

using Quantity = units::Quantity;

Value number(double value, units::Dimension dim) { return Value{Quantity{value, dim}}; }

bool equal(const Value& a, const Value& b) {
  if (a.quantity() && b.quantity())
    return a.quantity()->value == b.quantity()->value;
  if (a.text() && b.text()) return *a.text() == *b.text();
  if (a.boolean() && b.boolean()) return *a.boolean() == *b.boolean();
  if (a.date() && b.date()) return *a.date() == *b.date();
  return false;
}

}  // namespace

namespace {

class Evaluator {
 public:
  explicit Evaluator(const Environment& environment) : environment_(environment) {}

  std::optional<Value> operator()(const Node& node) const {
    switch (node.kind) {
      case Node::Kind::quantity: return Value{node.quantity};
      case Node::Kind::string: return Value{std::string(node.text)};
      case Node::Kind::boolean: return Value{node.boolean};
      case Node::Kind::path: return environment_.lookup(node.text);
      case Node::Kind::list: {
        List items;
        for (const Node* child : node.children) {
          auto item = (*this)(*child);
          if (!item) return std::nullopt;
          items.push_back(std::move(*item));
        }
        return Value{std::move(items)};
      }
      case Node::Kind::conditional: {
        const Node* picked = chosen_branch(node, environment_);
        if (!picked) return std::nullopt;
        return (*this)(*picked);
      }
      case Node::Kind::unary: {
        if (node.op == Op::not_) {
          auto operand = boolean(*node.children[0]);
          if (!operand) return std::nullopt;
          return Value{!*operand};
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

 private:
  std::optional<bool> boolean(const Node& node) const {
    auto value = (*this)(node);
    if (!value || !value->boolean()) return std::nullopt;
    return *value->boolean();
  }
  std::optional<Quantity> quantity(const Node& node) const {
    auto value = (*this)(node);
    if (!value || !value->quantity() || !std::isfinite(value->quantity()->value)) return std::nullopt;
    return *value->quantity();
  }
  std::optional<std::string> text(const Node& node) const {
    auto value = (*this)(node);
    if (!value || !value->text()) return std::nullopt;
    return *value->text();
  }
  static std::optional<Value> finite(double value, units::Dimension dim) {
    if (!std::isfinite(value)) return std::nullopt;
    return number(value, dim);
  }
  /// Dimensions only known at run time still have to agree; a dimensionless 0 fits any.
  static bool compatible(const Quantity& a, const Quantity& b) {
    return a.dim == b.dim || (a.value == 0 && a.dim.dimensionless()) ||
           (b.value == 0 && b.dim.dimensionless());
  }

  std::optional<Value> binary(const Node& node) const {
    const Node& left = *node.children[0];
    const Node& right = *node.children[1];
    switch (node.op) {
      case Op::and_: {
        auto a = boolean(left);
        if (a && !*a) return Value{false};
        auto b = boolean(right);
        if (b && !*b) return Value{false};
        if (!a || !b) return std::nullopt;
        return Value{true};
      }
      case Op::or_: {
        auto a = boolean(left);
        if (a && *a) return Value{true};
        auto b = boolean(right);
        if (b && *b) return Value{true};
        if (!a || !b) return std::nullopt;
        return Value{false};
      }
      case Op::in:
      case Op::not_in: {
        auto item = (*this)(left);
        auto list = (*this)(right);
        if (!item || !list || !list->list()) return std::nullopt;
        const bool found = std::any_of(list->list()->begin(), list->list()->end(),
                                       [&](const Value& v) { return equal(v, *item); });
        return Value{node.op == Op::in ? found : !found};
      }
      case Op::eq:
      case Op::ne: {
        auto a = (*this)(left), b = (*this)(right);
        if (!a || !b) return std::nullopt;
        if (a->quantity() && b->quantity() && !compatible(*a->quantity(), *b->quantity()))
          return std::nullopt;
        const bool same = equal(*a, *b);
        return Value{node.op == Op::eq ? same : !same};
      }
      case Op::lt:
      case Op::le:
      case Op::gt:
      case Op::ge: {
        auto a = (*this)(left), b = (*this)(right);
        if (!a || !b) return std::nullopt;
        int order;
        if (a->quantity() && b->quantity()) {
          if (!compatible(*a->quantity(), *b->quantity())) return std::nullopt;
          const double x = a->quantity()->value, y = b->quantity()->value;
          order = x < y ? -1 : x > y ? 1 : 0;
        } else if (a->date() && b->date()) {
          order = *a->date() < *b->date() ? -1 : *a->date() > *b->date() ? 1 : 0;
        } else {
          return std::nullopt;
        }
        const bool result = node.op == Op::lt   ? order < 0
                            : node.op == Op::le ? order <= 0
                            : node.op == Op::gt ? order > 0
                                                : order >= 0;
        return Value{result};
      }
      default: break;
    }
    auto a = quantity(left), b = quantity(right);
    if (!a || !b) return std::nullopt;
    switch (node.op) {
      case Op::add:
      case Op::sub: {
        if (!compatible(*a, *b)) return std::nullopt;
        const units::Dimension dim = a->value == 0 && a->dim.dimensionless() ? b->dim : a->dim;
        return finite(node.op == Op::add ? a->value + b->value : a->value - b->value, dim);
      }
      case Op::mul: return finite(a->value * b->value, a->dim * b->dim);
      case Op::div:
        if (b->value == 0) return std::nullopt;
        return finite(a->value / b->value, a->dim / b->dim);
      case Op::pow: {
        if (!b->dim.dimensionless()) return std::nullopt;
        if (a->dim.dimensionless()) return finite(std::pow(a->value, b->value), a->dim);
        // A quantity with a unit takes only a small whole power (GB^2): the dimension's
        // exponents are small integers, and a cast of 2^45 to int is undefined.
        if (!(std::fabs(b->value) <= 16) || b->value != std::trunc(b->value)) return std::nullopt;
        const int whole = static_cast<int>(b->value);
        return finite(std::pow(a->value, b->value), a->dim.pow(whole));
      }
      default: break;
    }
    return std::nullopt;
  }

  std::optional<Value> call(const Node& node) const {
    const auto& args = node.children;
    const Function f = node.function;
    switch (f) {
      case Function::exists: return Value{environment_.lookup(args[0]->text).has_value()};
      case Function::given: return Value{environment_.stated(args[0]->text)};
      case Function::in_bits: return Value{environment_.stated_in_bits(args[0]->text)};
      // Never absent itself: what lets a rule ask about a figure that may not exist (a GPU
      // without an FP4 peak) without that absence making the whole check absent.
      case Function::known: return Value{(*this)(*args[0]).has_value()};
      case Function::compute_precision: return environment_.compute_precision();
      case Function::has_invalid_values: return Value{environment_.has_invalid_values()};
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
        return Value{*best};
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
      case Function::within: {
        auto x = quantity(*args[0]), y = quantity(*args[1]), tolerance = quantity(*args[2]);
        if (!x || !y || !tolerance || !compatible(*x, *y)) return std::nullopt;
        return Value{std::abs(x->value - y->value) <= tolerance->value * std::abs(y->value)};
      }
      case Function::ratio: {
        auto x = quantity(*args[0]), y = quantity(*args[1]);
        if (!x || !y || !compatible(*x, *y) || y->value == 0) return std::nullopt;
        return finite(x->value / y->value, units::dims::none);
      }
      case Function::slip: {
        auto x = quantity(*args[0]), y = quantity(*args[1]);
        if (!x || !y || !compatible(*x, *y)) return std::nullopt;
        return Value{describe_slip(x->value, y->value, x->dim)};
      }
      case Function::days_since: {
        auto date = (*this)(*args[0]);
        if (!date || !date->date()) return std::nullopt;
        return number(environment_.seconds_since(*date->date()), units::dims::seconds);
      }
      case Function::tier:
      case Function::tolerance:
      case Function::metric:
      case Function::metric_low:
      case Function::metric_high:
      case Function::value:
      case Function::assumed:
      case Function::claimed:
      case Function::computed: {
        auto name = text(*args[0]);
        if (!name) return std::nullopt;
        if (f == Function::metric) return environment_.metric(*name);
        if (f == Function::metric_low || f == Function::metric_high)
          return environment_.metric_bound(*name, f == Function::metric_high);
        if (f == Function::value) return environment_.plan_value(*name);
        if (f == Function::assumed) return Value{environment_.assumed(*name)};
        if (f == Function::claimed) return Value{environment_.claimed(*name)};
        if (f == Function::computed) return Value{environment_.computed(*name)};
        if (f == Function::tolerance) {
          auto tolerance = environment_.tolerance(*name);
          if (!tolerance) return std::nullopt;
          return number(*tolerance, units::dims::none);
        }
        return tier_name(*name);
      }
      case Function::catalog: {
        auto gpu = text(*args[0]), field = text(*args[1]);
        std::optional<std::string> precision;
        if (args.size() > 2) precision = text(*args[2]);
        if (!gpu || !field || (args.size() > 2 && !precision)) return std::nullopt;
        return environment_.catalog(*gpu, *field, precision.value_or(""));
      }
      case Function::unknown: break;
    }
    return std::nullopt;
  }

  std::optional<Value> tier_name(const std::string& metric) const;

  const Environment& environment_;
};

}  // namespace
}  // namespace planlint::expr

#include "planlint/plan/metric_names.hpp"

namespace planlint::expr {
namespace {

std::optional<Value> Evaluator::tier_name(const std::string& metric) const {
  const MetricName* m = find_metric(metric);
  if (!m) return std::nullopt;
  return Value{std::string(to_string(m->tier))};
}

}  // namespace

std::optional<Value> evaluate(const Node& node, const Environment& environment) {
  return Evaluator(environment)(node);
}

const Node* chosen_branch(const Node& node, const Environment& environment) {
  const Node* picked = &node;
  while (picked->kind == Node::Kind::conditional) {
    const std::optional<Value> condition = evaluate(*picked->children[0], environment);
    if (!condition || !condition->boolean()) return nullptr;
    picked = picked->children[*condition->boolean() ? 1 : 2];
  }
  return picked;
}

std::string describe_slip(double claimed, double computed, units::Dimension dim) {
  if (claimed <= 0 || computed <= 0) return {};
  const double ratio = claimed / computed;
  auto near = [&](double target) { return std::abs(ratio / target - 1) <= 0.03; };
  // The slips of a time conversion only for a figure derived from a time: bytes or FLOPs 3.6×
  // off are an ordinary mismatch, not hours multiplied by 1000.
  const bool from_time = dim[units::Base::second] != 0 || dim[units::Base::usd] != 0;
  if (from_time) {
    if (near(3.6)) return "3.6× too large: seconds divided by 1000 instead of 3600 (the s → h conversion)";
    if (near(1 / 3.6)) return "3.6× too small: hours multiplied by 1000 instead of 3600 (the h → s conversion)";
    if (near(3600)) return "3600× too large: seconds given as hours";
    if (near(1 / 3600.0)) return "3600× too small: hours given as seconds";
    if (near(24)) return "24× too large: hours given as days";
    if (near(1 / 24.0)) return "24× too small: days given as hours";
  }
  for (int k = 1; k <= 4; ++k) {
    const double factor = std::pow(1000.0, k);
    const std::string prefix = k == 1 ? "1000×" : fmt::format("1000^{}×", k);
    if (near(factor))
      return fmt::format("{} too large: an SI prefix slip (k/M/G/T/P/E/Z differ by 1000)", prefix);
    if (near(1 / factor))
      return fmt::format("{} too small: an SI prefix slip (k/M/G/T/P/E/Z differ by 1000)", prefix);
  }
  return {};
}

}  // namespace planlint::expr
