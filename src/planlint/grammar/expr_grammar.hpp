#pragma once
/// The expression grammar's rule declaration and parse configuration (X3 tutorial layout).
/// Only expr_grammar.cpp includes this file; everything else calls expr::parse_expression().
#include <functional>

#include <boost/spirit/home/x3.hpp>

#include "planlint/grammar/error_sink.hpp"
#include "planlint/grammar/expr_ast.hpp"

namespace planlint::grammar::expr_parser {

namespace x3 = boost::spirit::x3;

using iterator_type = const char*;

using grammar::error_sink;

using skipper_type = x3::ascii::space_type;
using context_type = x3::context<
    x3::error_handler_tag, std::reference_wrapper<error_sink>,
    x3::phrase_parse_context<skipper_type>::type>;

struct expression_class;
using expression_type = x3::rule<expression_class, expr_ast::expression>;
BOOST_SPIRIT_DECLARE(expression_type)

}  // namespace planlint::grammar::expr_parser

namespace planlint::grammar {
/// The whole expression rule.
const expr_parser::expression_type& expression();
}  // namespace planlint::grammar
