#pragma once
/// The expression grammar's rule declaration and parse configuration (X3 tutorial layout).
/// Only expr_grammar.cpp includes this file; everything else calls expr::parse_expression().
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <boost/range/iterator_range_core.hpp>
#include <boost/spirit/home/x3.hpp>
#include <boost/spirit/home/x3/support/ast/position_tagged.hpp>

#include "planlint/grammar/expr_ast.hpp"

namespace planlint::grammar::expr_parser {

namespace x3 = boost::spirit::x3;

using iterator_type = const char*;

/// Positions of the AST nodes (for errors found after the parse) and the first syntax error.
/// Installed under x3::error_handler_tag, where x3::annotate_on_success looks for tag().
class error_sink {
 public:
  struct failure {
    iterator_type where;
    std::string message;
  };

  error_sink(iterator_type first, iterator_type last) : positions_(first, last) {}

  template <typename Node>
  void tag(Node& node, iterator_type first, iterator_type last) {
    positions_.annotate(node, first, last);
  }
  boost::iterator_range<iterator_type> position_of(const x3::position_tagged& node) const {
    return positions_.position_of(node);
  }
  void fail(iterator_type where, std::string message) {
    if (!failure_) failure_ = failure{where, std::move(message)};
  }
  const std::optional<failure>& failed() const { return failure_; }

 private:
  x3::position_cache<std::vector<iterator_type>> positions_;
  std::optional<failure> failure_;
};

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
