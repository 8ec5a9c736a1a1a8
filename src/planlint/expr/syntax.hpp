#pragma once
/// The syntax tree of a rule expression, as plain data (no Spirit): what the X3 grammar in
/// src/planlint/grammar/expr_grammar.cpp produces and the checker and evaluator consume.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "planlint/expr/functions.hpp"
#include "planlint/units/quantity.hpp"

namespace planlint::expr {

enum class Op {
  add, sub, mul, div, pow, neg,
  eq, ne, lt, le, gt, ge,
  and_, or_, not_, in, not_in,
};

std::string_view to_string(Op op);

struct Node;
using NodePtr = std::shared_ptr<const Node>;

/// What a path names, resolved once when its node is built (the resolver parse_expression is
/// given; for the built-in rules, at build time) so that a read indexes a slot instead of
/// looking the name up: a plan key (plan_keys()[index]), a metric or an end of its range
/// (the metric table's Metric(index)), a field of the `each` element (it.FIELD) or a rule option. A
/// path left `unresolved` is looked up by its text, with the same result.
struct PathRef {
  enum class Space : std::uint8_t { unresolved, plan_key, metric, metric_low, metric_high, element, option };
  Space space = Space::unresolved;
  std::uint16_t index = 0;
};

/// Resolves a dotted path's text to a PathRef.
using PathResolver = PathRef (*)(std::string_view path);

/// One node of a tree. Plain data that views the rest of its tree: a parsed tree's nodes, texts
/// and child lists are owned together by the NodePtr that parse_expression returns (each node
/// lives as long as its root does), and the built-in rules' trees are constant data compiled
/// into the binary (src/gen/planlint_gen.cpp), which is why a Node can be a constant: no
/// allocation and no construction at start.
struct Node {
  enum class Kind { quantity, string, boolean, path, call, unary, binary, conditional, list };
  Kind kind = Kind::quantity;
  std::size_t begin = 0, end = 0;  ///< byte offsets of the node in the expression text
  units::Quantity quantity;         ///< Kind::quantity (value in base units)
  std::string_view text;            ///< string literal, dotted path, or function name
  Function function = Function::unknown;  ///< Kind::call: find_function(text)
  bool boolean = false;
  Op op = Op::add;                  ///< unary and binary
  std::span<const Node* const> children;  ///< operands, call arguments, list items, cond/then/else
  PathRef ref;                      ///< Kind::path: what the path names
};

struct SyntaxError {
  std::size_t offset = 0;  ///< byte offset in the expression text
  std::string message;     ///< "expected an operand", "unknown unit 'GBs'"
};

using ParseResult = std::variant<NodePtr, SyntaxError>;

/// Parses an expression (Boost.Spirit X3; defined in planlint_grammar). Bounded: deeper
/// nesting than `max_depth` or longer text than `max_length` is a syntax error, not a crash.
/// `resolve`, when given, resolves each path's PathRef (the rule loader passes the plan
/// environment's resolve_path).
ParseResult parse_expression(std::string_view text, PathResolver resolve = nullptr);

inline constexpr std::size_t max_expression_depth = 64;
inline constexpr std::size_t max_expression_length = 4096;

/// The offset of the first byte of `stops` at or after `from` that lies outside the
/// expression language's quoted strings ('…' or "…", without escapes, as the grammar reads
/// them), or the text's size: what a scan of a rule's template for the '}' that ends a
/// placeholder, or for a keyword, must pass over. `from` lies outside a string. Defined with
/// the grammar (grammar/expr_grammar.cpp), which reads the strings.
std::size_t find_outside_strings(std::string_view text, std::size_t from, std::string_view stops);

}  // namespace planlint::expr
