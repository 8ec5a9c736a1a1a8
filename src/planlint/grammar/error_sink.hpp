#pragma once
/// What an X3 parse of planlint's grammars learns about positions, shared by the quantity and
/// the expression grammar. Only the two grammar translation units include it.
#include <optional>
#include <string>
#include <vector>

#include <boost/container/small_vector.hpp>
#include <boost/range/iterator_range_core.hpp>
#include <boost/spirit/home/x3.hpp>
#include <boost/spirit/home/x3/support/ast/position_tagged.hpp>

namespace planlint::grammar {

namespace x3 = boost::spirit::x3;

/// Collects AST node spans (for errors found after the parse) and the first syntax error.
/// Installed under x3::error_handler_tag, which is where x3::annotate_on_success looks for a
/// tag() function and where the grammars' error handlers report.
class error_sink {
 public:
  using iterator_type = const char*;

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
  /// Keeps the first failure: later ones follow from it.
  void fail(iterator_type where, std::string message) {
    if (!failure_) failure_ = failure{where, std::move(message)};
  }
  const std::optional<failure>& failed() const { return failure_; }
  /// The text parsed.
  iterator_type first() const { return positions_.first(); }
  iterator_type last() const { return positions_.last(); }

 private:
  /// Two positions for each annotated node; inline for the few nodes of a quantity or a short
  /// expression, where a vector grew four times.
  x3::position_cache<boost::container::small_vector<iterator_type, 16>> positions_;
  std::optional<failure> failure_;
};

}  // namespace planlint::grammar
