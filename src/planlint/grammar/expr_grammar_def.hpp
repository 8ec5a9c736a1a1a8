#pragma once
/// The rule expression grammar (docs/writing-rules.md, "The expression language"), lowest
/// precedence first:
///
///   expression := or
///   or         := and { 'or' and }
///   and        := not { 'and' not }
///   not        := 'not' not | comparison
///   comparison := additive { ('=='|'!='|'<='|'>='|'<'|'>') additive | ['not'] 'in' list }
///   additive   := multiplicative { ('+'|'-') multiplicative }
///   multiplicative := unary { ('*'|'/') unary }
///   unary      := '-' unary | power
///   power      := primary [ '^' unary ]
///   primary    := 'if' expression 'then' expression 'else' expression
///               | quantity | string | 'true' | 'false' | call | path | list | '(' expression ')'
///   quantity   := ['$'] number [ unit ]          (80GB, 10%, 14 d, 989 TFLOPS, 3.35 TB/s)
///   call       := name '(' [ expression { ',' expression } ] ')'
///   path       := name { '.' name }              (cluster.hbm, est.train.days, it.max)
#include <boost/spirit/home/x3.hpp>
#include <boost/spirit/home/x3/support/utility/annotate_on_success.hpp>

#include "planlint/grammar/expr_ast.hpp"
#include "planlint/grammar/expr_ast_adapted.hpp"
#include "planlint/grammar/expr_grammar.hpp"

namespace planlint::grammar::expr_parser {

/// Records the first expectation failure in the error_sink instead of printing it.
struct error_reporter {
  template <typename Iterator, typename Exception, typename Context>
  x3::error_handler_result on_error(Iterator&, const Iterator&, const Exception& x,
                                    const Context& context) {
    auto& sink = x3::get<x3::error_handler_tag>(context).get();
    sink.fail(x.where(), "expected " + x.which());
    return x3::error_handler_result::fail;
  }
};

struct expression_class : error_reporter, x3::annotate_on_success {};
struct or_class : x3::annotate_on_success {};
struct and_class : x3::annotate_on_success {};
struct not_class;
struct negation_class : x3::annotate_on_success {};
struct logical_not_class : x3::annotate_on_success {};
struct comparison_class : x3::annotate_on_success {};
struct comparison_op_class : x3::annotate_on_success {};
struct additive_class : x3::annotate_on_success {};
struct additive_op_class : x3::annotate_on_success {};
struct multiplicative_class : x3::annotate_on_success {};
struct multiplicative_op_class : x3::annotate_on_success {};
struct or_op_class : x3::annotate_on_success {};
struct and_op_class : x3::annotate_on_success {};
struct unary_class;
struct power_class : x3::annotate_on_success {};
struct power_op_class : x3::annotate_on_success {};
struct primary_class;
struct quantity_class : x3::annotate_on_success {};
struct string_class : x3::annotate_on_success {};
struct bool_class : x3::annotate_on_success {};
struct path_class : x3::annotate_on_success {};
struct call_class : x3::annotate_on_success {};
struct conditional_class : x3::annotate_on_success {};
struct list_class : x3::annotate_on_success {};

namespace ast = expr_ast;

// Rule names double as the "expected ..." text of error messages.
const expression_type expression = "an expression";
const x3::rule<or_class, ast::expression> or_expr = "an expression";
const x3::rule<and_class, ast::expression> and_expr = "an expression";
const x3::rule<not_class, ast::operand> not_expr = "an operand";
const x3::rule<logical_not_class, ast::unary> logical_not = "an operand";
const x3::rule<comparison_class, ast::expression> comparison = "an expression";
const x3::rule<comparison_op_class, ast::operation> comparison_op = "a comparison";
const x3::rule<additive_class, ast::expression> additive = "an expression";
const x3::rule<additive_op_class, ast::operation> additive_op = "an operand";
const x3::rule<multiplicative_class, ast::expression> multiplicative = "an expression";
const x3::rule<multiplicative_op_class, ast::operation> multiplicative_op = "an operand";
const x3::rule<or_op_class, ast::operation> or_op = "an operand";
const x3::rule<and_op_class, ast::operation> and_op = "an operand";
const x3::rule<unary_class, ast::operand> unary = "an operand";
const x3::rule<negation_class, ast::unary> negation = "an operand";
const x3::rule<power_class, ast::expression> power = "an operand";
const x3::rule<power_op_class, ast::operation> power_op = "an exponent";
const x3::rule<primary_class, ast::operand> primary = "an operand";
const x3::rule<quantity_class, ast::quantity_literal> quantity = "a number";
const x3::rule<string_class, ast::string_literal> string_literal = "a string";
const x3::rule<bool_class, ast::bool_literal> bool_literal = "true or false";
const x3::rule<path_class, ast::path> path = "a name";
const x3::rule<call_class, ast::call> call = "a function call";
const x3::rule<conditional_class, ast::conditional> conditional = "if ... then ... else ...";
const x3::rule<list_class, ast::list> list = "a list [ ... ]";
const x3::rule<struct then_class> then_keyword = "'then'";
const x3::rule<struct else_class> else_keyword = "'else'";

using x3::attr;
using x3::lexeme;
using x3::lit;
using x3::raw;
using x3::ascii::alnum;
using x3::ascii::alpha;
using x3::ascii::char_;
using x3::ascii::digit;
using x3::string;

const auto name_char = alnum | char_('_');
/// A keyword, not followed by a name character ("in" but not "index").
inline auto keyword(const char* word) { return lexeme[lit(word) >> !name_char]; }
const auto any_keyword = lexeme[(lit("and") | "or" | "not" | "in" | "if" | "then" | "else" |
                                 "true" | "false") >> !name_char];
const auto name = lexeme[(alpha | char_('_')) >> *name_char];

const auto digits = +digit >> *('_' >> +digit);
const auto number = -char_('$') >> ((digits >> -('.' >> +digit)) | ('.' >> +digit)) >>
                    -(char_("eE") >> -char_("+-") >> +digit);
const auto unit_start = alpha | char_('%') | char_('$');
const auto unit_char = alnum | char_('%') | char_('$') | (char_("/*-") >> &(alpha | char_('$')));
const auto unit = !any_keyword >> unit_start >> *unit_char;

// After a `$`, the unit may start with '/' ($3/GPU/h); elsewhere "10/x" stays a division.
const auto money_unit = char_('/') >> &alpha >> *unit_char;
const auto quantity_def = raw[lexeme[(&lit('$') >> number >> -(money_unit | (*lit(' ') >> unit))) |
                                     (number >> -(*lit(' ') >> unit))]];
// Strings hold any bytes but their quote (UTF-8 text such as '≤' included).
const auto string_literal_def = lexeme['\'' >> *(x3::standard::char_ - '\'') >> '\''] |
                                lexeme['"' >> *(x3::standard::char_ - '"') >> '"'];
// The quotes a string opens with: one that string_literal does not close runs to the text's end.
const auto string_quote = x3::standard::char_("'\"");
const auto bool_literal_def = lexeme[(string("true") | string("false")) >> !name_char];
const auto path_def = !any_keyword >> raw[lexeme[name >> *('.' >> name)]];
const auto call_def = lexeme[!any_keyword >> raw[name]] >> '(' >> -(expression % ',') > ')';
const auto list_def = '[' >> -(expression % ',') > ']';
const auto then_keyword_def = keyword("then");
const auto else_keyword_def = keyword("else");
const auto conditional_def = keyword("if") > expression > then_keyword > expression >
                             else_keyword > expression;
const auto primary_def = conditional | quantity | string_literal | bool_literal | call | path |
                         list | ('(' > expression > ')');

const auto power_op_def = string("^") > unary;
const auto power_def = primary >> -power_op;
const auto negation_def = string("-") > unary;
const auto unary_def = negation | power;
const auto multiplicative_op_def = (string("*") | string("/")) > unary;
const auto multiplicative_def = unary >> *multiplicative_op;
const auto additive_op_def = (string("+") | string("-")) > multiplicative;
const auto additive_def = multiplicative >> *additive_op;
const auto comparison_op_def =
    ((string("==") | string("!=") | string("<=") | string(">=") | string("<") | string(">")) >
     additive) |
    ((keyword("not") >> keyword("in") >> attr(std::string("not in"))) > list) |
    ((keyword("in") >> attr(std::string("in"))) > list);
const auto comparison_def = additive >> *comparison_op;
const auto logical_not_def = (keyword("not") >> attr(std::string("not"))) > not_expr;
const auto not_expr_def = logical_not | comparison;
const auto and_op_def = (keyword("and") >> attr(std::string("and"))) > not_expr;
const auto and_expr_def = not_expr >> *and_op;
const auto or_op_def = (keyword("or") >> attr(std::string("or"))) > and_expr;
const auto or_expr_def = and_expr >> *or_op;
const auto expression_def = or_expr;

BOOST_SPIRIT_DEFINE(expression, or_expr, and_expr, not_expr, logical_not, comparison,
                    comparison_op, additive, additive_op, multiplicative, multiplicative_op,
                    or_op, and_op, unary, negation, power, power_op, primary, quantity,
                    string_literal, bool_literal, path, call, conditional, list, then_keyword,
                    else_keyword)

}  // namespace planlint::grammar::expr_parser

namespace planlint::grammar {
const expr_parser::expression_type& expression() { return expr_parser::expression; }
}  // namespace planlint::grammar
