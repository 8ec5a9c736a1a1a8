#pragma once
/// The quantity grammar (quantities.md). It accepts the shape of a quantity:
///
///   quantity := ws ['$'] ws number { ws group } ws end
///   number   := ['+'|'-'] (digits ['.' digits] | '.' digits) [('e'|'E') ['+'|'-'] digit+]
///   digits   := digit+ { '_' digit+ }
///   group    := ['/'] word { ws op ws word }        op := '*' | '/' | '·'
///   word     := (letter | '$' | '%' | 'µ') { letter | digit | '-' letter }
///
/// Whether a word is a count suffix ("1.5M tokens") or a unit ("512KB"), and what each word
/// means, is decided afterwards from the position-tagged AST (quantity_grammar.cpp): that keeps
/// the grammar small and lets errors name the unknown word.
#include <string>

#include <boost/spirit/home/x3.hpp>
#include <boost/spirit/home/x3/support/utility/annotate_on_success.hpp>

#include "planlint/grammar/quantity_ast.hpp"
#include "planlint/grammar/quantity_grammar.hpp"

namespace planlint::grammar::quantity_parser {

namespace detail {

inline bool is_blank(char c) { return c == ' ' || c == '\t'; }

/// The message for an expectation failure at `where`: "expected <rule name>", made concrete.
inline std::string expectation_message(const std::string& which, iterator_type first,
                                       iterator_type where, iterator_type last) {
  if (which == "the end of the quantity") {
    auto token_end = where;
    while (token_end != last && !is_blank(*token_end)) ++token_end;
    const std::string token(where, token_end);
    if (!token.empty() && token.front() == ',')
      return "unexpected ','; write 1000 or 1_000 (no thousands separators)";
    return "unexpected '" + token + "'";
  }
  if (which == "a unit") {
    // Name the operator the unit should follow: "expected a unit after '/'".
    auto before = where;
    while (before != first && is_blank(*(before - 1))) --before;
    if (before != first && (*(before - 1) == '/' || *(before - 1) == '*'))
      return "expected a unit after '" + std::string(1, *(before - 1)) + "'";
    if (before - first >= 2 && *(before - 2) == '\xC2' && *(before - 1) == '\xB7')
      return "expected a unit after '\xC2\xB7'";
  }
  return "expected " + which;
}

}  // namespace detail

/// An expectation point that does not throw: `a >> expect(b)` parses as X3's `a > b`
/// (x3::expect[b], whose attribute is b's), but where x3::expect throws an expectation_failure,
/// this records "expected <b's name>" in the error_sink and fails. A value that is not a
/// quantity ("TBD", "1,000 GB") is an ordinary finding, and the first exception a static
/// executable throws costs more than a whole lint (libgcc sorts the program's unwind tables
/// then). The sink keeps the first failure, where the throw would have ended the parse, and
/// parse_quantity reports it whatever the rest of the parse did.
template <typename Subject>
struct recorded_expect : x3::unary_parser<Subject, recorded_expect<Subject>> {
  static constexpr bool is_pass_through_unary = true;

  constexpr explicit recorded_expect(const Subject& subject)
      : x3::unary_parser<Subject, recorded_expect<Subject>>(subject) {}

  template <typename Iterator, typename Context, typename RContext, typename Attribute>
  bool parse(Iterator& first, const Iterator& last, const Context& context, RContext& rcontext,
             Attribute& attribute) const {
    if (this->subject.parse(first, last, context, rcontext, attribute)) return true;
    error_sink& sink = x3::get<x3::error_handler_tag>(context).get();
    sink.fail(first, detail::expectation_message(x3::what(this->subject), sink.first(), first, sink.last()));
    return false;
  }
};

template <typename Subject>
constexpr recorded_expect<Subject> expect(const Subject& subject) {
  return recorded_expect<Subject>(subject);
}

struct quantity_class : x3::annotate_on_success {};
struct number_class : x3::annotate_on_success {};
struct first_term_class : x3::annotate_on_success {};
struct next_term_class : x3::annotate_on_success {};
struct unit_group_class;
struct unit_word_class;
struct operator_class;
struct digits_after_underscore_class;
struct digits_after_point_class;
struct end_class;

// Rule names double as the "expected ..." text of error messages.
const quantity_type quantity = "quantity";
const x3::rule<number_class, ast::number> number = "a number";
const x3::rule<first_term_class, ast::unit_term> first_term = "a unit";
const x3::rule<next_term_class, ast::unit_term> next_term = "a unit";
const x3::rule<unit_group_class, ast::unit_group> unit_group = "a unit";
const x3::rule<unit_word_class, std::string> unit_word = "a unit";
const x3::rule<operator_class, char> unit_operator = "an operator";
const x3::rule<digits_after_underscore_class> digits_after_underscore = "a digit after '_'";
const x3::rule<digits_after_point_class> digits_after_point = "a digit after '.'";
const x3::rule<end_class> end = "the end of the quantity";

using x3::lit;
using x3::ascii::char_;
using x3::ascii::digit;

const auto ws = *(lit(' ') | lit('\t'));
const auto digit_run = +digit >> *('_' >> expect(digits_after_underscore));
const auto exponent = char_("eE") >> -char_("+-") >> +digit;
const auto micro_sign = lit("\xC2\xB5");
const auto word_start = x3::ascii::alpha | char_('$') | char_('%') | micro_sign;
const auto word_char = x3::ascii::alnum | (char_('-') >> &x3::ascii::alpha);

const auto digits_after_underscore_def = +digit;
const auto digits_after_point_def = digit_run;
const auto number_def =
    -char_("+-") >>
    x3::raw[((digit_run >> -('.' >> expect(digits_after_point))) | ('.' >> expect(digits_after_point))) >>
            -exponent];
const auto unit_word_def = x3::raw[word_start >> *word_char];
const auto unit_operator_def = char_('*') | char_('/') | (lit("\xC2\xB7") >> x3::attr('*'));
const auto first_term_def = (char_('/') >> ws >> expect(unit_word)) | (x3::attr('\0') >> unit_word);
const auto next_term_def = ws >> unit_operator >> ws >> expect(unit_word);
const auto unit_group_def = first_term >> *next_term;
const auto end_def = x3::eoi;
const auto quantity_def = (ws >> x3::matches[lit('$')] >> ws >> expect(number)) >> *(ws >> unit_group) >>
                          (ws >> expect(end));

BOOST_SPIRIT_DEFINE(quantity, number, first_term, next_term, unit_group, unit_word, unit_operator,
                    digits_after_underscore, digits_after_point, end)

}  // namespace planlint::grammar::quantity_parser

namespace planlint::grammar {
const quantity_parser::quantity_type& quantity() { return quantity_parser::quantity; }
}  // namespace planlint::grammar
