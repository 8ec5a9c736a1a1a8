#pragma once
/// The quantity grammar's rule declaration and parse configuration (X3 tutorial layout). Only
/// quantity_grammar.cpp includes this file; everything else calls units::parse_quantity().
#include <functional>

#include <boost/spirit/home/x3.hpp>

#include "planlint/grammar/error_sink.hpp"
#include "planlint/grammar/quantity_ast.hpp"

namespace planlint::grammar::quantity_parser {

namespace x3 = boost::spirit::x3;

using iterator_type = const char*;

using grammar::error_sink;

using context_type =
    x3::context<x3::error_handler_tag, std::reference_wrapper<error_sink>, x3::unused_type>;

struct quantity_class;
using quantity_type = x3::rule<quantity_class, ast::quantity>;
BOOST_SPIRIT_DECLARE(quantity_type)

}  // namespace planlint::grammar::quantity_parser

namespace planlint::grammar {
/// The whole-string quantity rule: optional spaces, `$`, number, unit groups, spaces, end.
const quantity_parser::quantity_type& quantity();
}  // namespace planlint::grammar
