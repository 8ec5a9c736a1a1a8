#include "planlint/expr/bindings.hpp"

#include <algorithm>
#include <deque>
#include <memory>
#include <optional>

#include <fmt/format.h>

namespace planlint::expr {

namespace {

/// The copied nodes and child lists of a substituted tree; the texts they view stay in the
/// trees they were copied from, which `kept` owns.
struct SubstitutedTree {
  std::deque<Node> nodes;
  std::deque<std::vector<const Node*>> child_lists;
  std::vector<NodePtr> kept;
};

const Binding* bound(const Node& node, std::span<const Binding> bindings) {
  if (node.kind != Node::Kind::path) return nullptr;
  for (const Binding& binding : bindings)
    if (binding.name == node.text) return &binding;
  return nullptr;
}

bool uses_any(const Node& node, std::span<const Binding> bindings) {
  if (bound(node, bindings)) return true;
  return std::any_of(node.children.begin(), node.children.end(),
                     [&](const Node* child) { return uses_any(*child, bindings); });
}

/// Thrown out of a copy that cannot finish; an empty message is the use of a let that failed.
struct too_large {
  std::size_t offset;
  std::string message;
};

class Copier {
 public:
  Copier(SubstitutedTree& tree, std::span<const Binding> bindings, NodeBudget* budget)
      : tree_(tree), bindings_(bindings), budget_(budget) {}

  /// Copies `node` at `depth`; inside a substituted binding, `at` is the use's node, whose
  /// offsets every copied node takes.
  const Node* copy(const Node& node, std::size_t depth, const Node* at) {
    const std::size_t where = (at ? *at : node).begin;
    if (depth > max_substituted_depth)
      throw too_large{where, fmt::format("the expression nests deeper than {} once its lets are written out",
                                         max_substituted_depth)};
    // A name is replaced by its binding's tree: it is not a node of the copy.
    if (const Binding* binding = bound(node, bindings_)) {
      if (!binding->tree) throw too_large{node.begin, ""};
      return copy(*binding->tree, depth, at ? at : &node);
    }
    if (++count_ > max_substituted_nodes)
      throw too_large{where, fmt::format("the expression grows past {} nodes once its lets are written out "
                                         "(a let that uses another twice doubles it)",
                                         max_substituted_nodes)};
    if (budget_) {
      if (budget_->left == 0) throw too_large{where, budget_->exhausted};
      --budget_->left;
    }
    Node& out = tree_.nodes.emplace_back(node);
    if (at) {
      out.begin = at->begin;
      out.end = at->end;
    }
    if (!node.children.empty()) {
      std::vector<const Node*>& children = tree_.child_lists.emplace_back();
      children.reserve(node.children.size());
      for (const Node* child : node.children) children.push_back(copy(*child, depth + 1, at));
      out.children = children;
    }
    return &out;
  }

 private:
  SubstitutedTree& tree_;
  std::span<const Binding> bindings_;
  NodeBudget* budget_;
  std::size_t count_ = 0;
};

}  // namespace

std::variant<NodePtr, SubstitutionError> substitute(const NodePtr& tree, std::span<const Binding> bindings,
                                                    NodeBudget* budget) {
  if (!tree || bindings.empty() || !uses_any(*tree, bindings)) return tree;
  auto substituted = std::make_shared<SubstitutedTree>();
  substituted->kept.push_back(tree);
  for (const Binding& binding : bindings)
    if (binding.tree) substituted->kept.push_back(binding.tree);
  try {
    const Node* root = Copier(*substituted, bindings, budget).copy(*tree, 1, nullptr);
    return NodePtr(std::move(substituted), root);
  } catch (const too_large& error) {
    return SubstitutionError{error.offset, error.message};
  }
}

const Node* find_name(const Node& tree, std::string_view name) {
  if (tree.kind == Node::Kind::path && tree.text == name) return &tree;
  for (const Node* child : tree.children)
    if (const Node* found = find_name(*child, name)) return found;
  return nullptr;
}

}  // namespace planlint::expr
