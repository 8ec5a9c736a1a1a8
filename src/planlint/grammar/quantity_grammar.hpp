#pragma once
/// The quantity grammar's rule declaration and parse configuration (X3 tutorial layout). Only
/// quantity_grammar.cpp includes this file; everything else calls units::parse_quantity().
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <boost/range/iterator_range_core.hpp>
#include <boost/spirit/home/x3.hpp>
#include <boost/spirit/home/x3/support/ast/position_tagged.hpp>

#include "planlint/grammar/quantity_ast.hpp"

namespace planlint::grammar::quantity_parser {

namespace x3 = boost::spirit::x3;

using iterator_type = const char*;

/// Collects what the parse learns about positions: AST node spans (for semantic errors after
/// the parse) and the first syntax error. Installed under x3::error_handler_tag, which is where
/// x3::annotate_on_success looks for a tag() function.
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
