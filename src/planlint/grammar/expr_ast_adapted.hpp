#pragma once
#include <boost/fusion/include/adapt_struct.hpp>

#include "planlint/grammar/expr_ast.hpp"

BOOST_FUSION_ADAPT_STRUCT(planlint::grammar::expr_ast::quantity_literal, text)
BOOST_FUSION_ADAPT_STRUCT(planlint::grammar::expr_ast::string_literal, text)
BOOST_FUSION_ADAPT_STRUCT(planlint::grammar::expr_ast::bool_literal, text)
BOOST_FUSION_ADAPT_STRUCT(planlint::grammar::expr_ast::path, text)
BOOST_FUSION_ADAPT_STRUCT(planlint::grammar::expr_ast::operation, op, right)
BOOST_FUSION_ADAPT_STRUCT(planlint::grammar::expr_ast::expression, first, rest)
BOOST_FUSION_ADAPT_STRUCT(planlint::grammar::expr_ast::unary, op, operand_)
BOOST_FUSION_ADAPT_STRUCT(planlint::grammar::expr_ast::call, name, arguments)
BOOST_FUSION_ADAPT_STRUCT(planlint::grammar::expr_ast::conditional, condition, then_branch,
                          else_branch)
BOOST_FUSION_ADAPT_STRUCT(planlint::grammar::expr_ast::list, items)
