#pragma once
/// The syntax tree of one quantity string ("$3/GPU/h", "1.5M tokens", "80 GB"). It records what
/// was written; the meaning (count suffix or unit, the bare `B`) is decided when it is evaluated
/// in quantity_grammar.cpp. Nodes are position-tagged so errors point at the exact characters.
#include <optional>
#include <string>
#include <vector>

#include <boost/container/small_vector.hpp>
#include <boost/fusion/include/adapt_struct.hpp>
#include <boost/spirit/home/x3/support/ast/position_tagged.hpp>

namespace planlint::grammar::ast {

namespace x3 = boost::spirit::x3;

/// The number as written, e.g. sign '-' and magnitude "1_000.5e3".
struct number : x3::position_tagged {
  std::optional<char> sign;
  std::string magnitude;
};

/// One word of a unit with the operator before it: '\0' for the first word of a group, '*'
/// (also written `·`) or '/'. A group may begin with '/' ("$3/GPU/h").
struct unit_term : x3::position_tagged {
  char op = '\0';
  std::string word;
};

/// Words joined by operators, e.g. "GPU*h" or "B/s". Groups are separated by spaces: in
/// "1.5M tokens" the groups are "M" and "tokens". Held inline, as the groups are: a plan's
/// quantities have one or two groups of one to three words, and a vector each cost two of the
/// allocations of every quantity read.
using unit_group = boost::container::small_vector<unit_term, 3>;

struct quantity : x3::position_tagged {
  bool money = false;  ///< a `$` before the number
  ast::number number;
  boost::container::small_vector<unit_group, 2> groups;
};

}  // namespace planlint::grammar::ast

BOOST_FUSION_ADAPT_STRUCT(planlint::grammar::ast::number, sign, magnitude)
BOOST_FUSION_ADAPT_STRUCT(planlint::grammar::ast::unit_term, op, word)
BOOST_FUSION_ADAPT_STRUCT(planlint::grammar::ast::quantity, money, number, groups)
