#include "planlint/expr/value.hpp"

#include <fmt/format.h>

#include "planlint/expr/syntax.hpp"

namespace planlint::expr {

std::string describe(const Type& type) {
  switch (type.kind) {
    case Type::Kind::number:
      if (!type.dim) return "a number";
      if (type.dim->dimensionless()) return "a dimensionless number (a fraction or count)";
      return units::describe(*type.dim);
    case Type::Kind::string: return "a string";
    case Type::Kind::boolean: return "true or false";
    case Type::Kind::date: return "a date";
    case Type::Kind::list: return "a list";
    case Type::Kind::any: return "a value";
  }
  return "a value";
}

ValueRef view_of(const Value& value) {
  if (auto q = value.quantity()) return ValueRef::of(*q);
  if (auto s = value.text()) return ValueRef::of_text(*s);
  if (auto b = value.boolean()) return ValueRef::of(*b);
  if (auto d = value.date()) return ValueRef::of(*d);
  return ValueRef::of_list(value.list());
}

Value value_of(const ValueRef& value) {
  switch (value.kind) {
    case ValueRef::Kind::quantity: return Value{value.quantity};
    case ValueRef::Kind::string: return Value{std::string(value.text)};
    case ValueRef::Kind::boolean: return Value{value.boolean};
    case ValueRef::Kind::date: return Value{value.date};
    case ValueRef::Kind::list: break;
  }
  return Value{value.list ? *value.list : List{}};
}

std::string format_value(const Value& value) {
  if (auto q = value.quantity()) return units::format(q->value, q->dim);
  if (auto s = value.text()) return *s;
  if (auto b = value.boolean()) return *b ? "true" : "false";
  if (auto d = value.date()) return fmt::format("{:04}-{:02}-{:02}", d->year, d->month, d->day);
  std::string out = "[";
  for (const Value& item : *value.list()) {
    if (out.size() > 1) out += ", ";
    out += format_value(item);
  }
  return out + "]";
}

std::string_view to_string(Op op) {
  switch (op) {
    case Op::add: return "+";
    case Op::sub: return "-";
    case Op::mul: return "*";
    case Op::div: return "/";
    case Op::pow: return "^";
    case Op::neg: return "-";
    case Op::eq: return "==";
    case Op::ne: return "!=";
    case Op::lt: return "<";
    case Op::le: return "<=";
    case Op::gt: return ">";
    case Op::ge: return ">=";
    case Op::and_: return "and";
    case Op::or_: return "or";
    case Op::not_: return "not";
    case Op::in: return "in";
    case Op::not_in: return "not in";
  }
  return "?";
}

}  // namespace planlint::expr
