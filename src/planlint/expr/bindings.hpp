#pragma once
/// The names a rule file binds in its `[let]` table (writing-rules.md, "Naming a
/// sub-expression"): each name stands for its expression wherever the rule's other expressions
/// and placeholders use it, as if its text were written there in parentheses. The trees are
/// substituted when the rule loads, so the checker and the evaluator see one ordinary tree and
/// the language's semantics stay in one place.
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "planlint/expr/syntax.hpp"

namespace planlint::expr {

struct Binding {
  std::string name;
  NodePtr tree;  ///< already substituted: it uses only the bindings before it; null for a let
                 ///< that did not load (its error is reported, its uses are not again)
};

/// What substitution refuses: a tree that would grow past the bounds the evaluator relies on
/// (lets that use each other twice over double at each step). `offset` is the byte offset of
/// the name's use in the expression text. An empty message is the use of a binding whose tree is
/// null: its own error was reported, and the use needs no second one.
struct SubstitutionError {
  std::size_t offset = 0;
  std::string message;
};

/// Bounds of a tree after substitution: a parsed expression's own bounds (syntax.hpp) times the
/// chain of lets a rule may reasonably write.
inline constexpr std::size_t max_substituted_depth = 4 * max_expression_depth;
inline constexpr std::size_t max_substituted_nodes = 16384;
/// The nodes all of one rule's substituted expressions may copy together: without it, a rule
/// file of many short placeholders that each name a large let would grow without bound. And
/// all the rules one RuleSet loads: a pack of many such files would (each node ~120 bytes;
/// the built-in rules copy about 5,000).
inline constexpr std::size_t max_substituted_rule_nodes = 262144;
inline constexpr std::size_t max_substituted_pack_nodes = 524288;

/// Nodes a substitution may still copy, and the error when it runs out.
struct NodeBudget {
  std::size_t left = 0;
  std::string exhausted;
};

/// `tree` with every path that names one of `bindings` replaced by that binding's tree (its
/// nodes placed at the name's offsets, so that a checker error inside it points at the use).
/// Returns `tree` itself when it uses none. The nodes copied are taken from `budget` when it
/// is given (what is left of the rule's and its pack's bounds).
std::variant<NodePtr, SubstitutionError> substitute(const NodePtr& tree, std::span<const Binding> bindings,
                                                    NodeBudget* budget = nullptr);

/// The first path in `tree` whose text is `name`, or null.
const Node* find_name(const Node& tree, std::string_view name);

}  // namespace planlint::expr
