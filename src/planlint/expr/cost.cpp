#include "planlint/expr/cost.hpp"

namespace planlint::expr {

std::size_t node_count(const Node& tree) {
  // Recursion as deep as the tree, which substitution bounds (max_substituted_depth).
  std::size_t count = 1;
  for (const Node* child : tree.children) count += node_count(*child);
  return count;
}

}  // namespace planlint::expr
