#pragma once
/// The X3 attribute tree of rule expressions. Only the expression grammar files include it;
/// expr_grammar.cpp converts it into the plain expr::Node tree.
#include <string>
#include <vector>

#include <boost/spirit/home/x3/support/ast/position_tagged.hpp>
#include <boost/spirit/home/x3/support/ast/variant.hpp>

namespace planlint::grammar::expr_ast {

namespace x3 = boost::spirit::x3;

struct nil {};
struct call;
struct unary;
struct expression;
struct conditional;
struct list;

struct quantity_literal : x3::position_tagged {
  std::string text;
};
struct string_literal : x3::position_tagged {
  std::string text;
};
struct bool_literal : x3::position_tagged {
  std::string text;  // "true" | "false"
};
struct path : x3::position_tagged {
  std::string text;  // "est.train.days"
};

struct operand : x3::variant<nil, quantity_literal, string_literal, bool_literal, path,
                             x3::forward_ast<call>, x3::forward_ast<unary>,
                             x3::forward_ast<expression>, x3::forward_ast<conditional>,
                             x3::forward_ast<list>> {
  using base_type::base_type;
  using base_type::operator=;
};

struct operation : x3::position_tagged {
  std::string op;
  operand right;
};

/// `first op right op right ...` at one precedence level (left-associative).
struct expression : x3::position_tagged {
  operand first;
  std::vector<operation> rest;
};

struct unary : x3::position_tagged {
  std::string op;  // "-" | "not"
  operand operand_;
};

struct call : x3::position_tagged {
  std::string name;
  std::vector<expression> arguments;
};

struct conditional : x3::position_tagged {
  expression condition, then_branch, else_branch;
};

struct list : x3::position_tagged {
  std::vector<expression> items;
};

}  // namespace planlint::grammar::expr_ast
