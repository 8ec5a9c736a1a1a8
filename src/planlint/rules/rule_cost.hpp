#pragma once
/// The time budget of rules, known before they run: what evaluating a rule on one plan may cost,
/// in expression nodes visited, and the budget that the rules of one run share, as the node
/// budgets bound what a rule's lets copy (expr/bindings.hpp; docs/hardening.md, "Input
/// limits"). A pack whose rules would cross it is refused at load, naming the rule.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "planlint/rules/compiled_rule.hpp"

namespace planlint {

/// The most elements a rule walks on one plan: 1 without `each`; an array of tables' limit
/// (max_array_entries, plan/loader.hpp) for targets, assumptions and benchmarks; one claim per
/// metric for estimates.
std::size_t max_elements(std::string_view each);

/// The nodes evaluating `rule` on one plan may visit: those of its expressions (applies and
/// check, and the templates rendered for each finding: message, help, `at`, fix), times
/// max_elements(rule.each).
std::uint64_t evaluation_cost(const CompiledRule& rule);

/// What the rules of one run (the built-in rules and every pack) may cost together on one plan,
/// in expression nodes: at about 100 ns a node, under two seconds of evaluation on a plan that
/// fills its arrays of tables (20 million nodes took 2.7 s on a loaded 2-core machine). The
/// built-in rules take about a quarter of it; a pack's `each` rule of 50 nodes takes 3%.
inline constexpr std::uint64_t max_rules_evaluation_cost = std::uint64_t{1} << 24;

}  // namespace planlint
