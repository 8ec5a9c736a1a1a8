#include "planlint/rules/rule_cost.hpp"

#include "planlint/metrics/metric_table.hpp"
#include "planlint/expr/cost.hpp"
#include "planlint/plan/loader.hpp"

namespace planlint {

std::size_t max_elements(std::string_view each) {
  if (each.empty()) return 1;
  if (each == "estimates") return metric_count;
  if (each == "capacity") return max_capacity_slices;
  return max_array_entries;
}

namespace {

std::uint64_t template_nodes(const MessageTemplate& text) {
  std::uint64_t nodes = 0;
  for (const MessageTemplate::Part& part : text.parts)
    if (part.expression) nodes += expr::node_count(*part.expression);
  return nodes;
}

}  // namespace

std::uint64_t evaluation_cost(const CompiledRule& rule) {
  std::uint64_t nodes = template_nodes(rule.message) + template_nodes(rule.help);
  if (rule.applies) nodes += expr::node_count(*rule.applies);
  if (rule.check) nodes += expr::node_count(*rule.check);
  if (rule.error_when) nodes += expr::node_count(*rule.error_when);
  if (rule.at_template) nodes += template_nodes(*rule.at_template);
  if (rule.fix) nodes += template_nodes(*rule.fix);
  return nodes * max_elements(rule.each);
}

}  // namespace planlint
