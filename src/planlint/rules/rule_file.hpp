#pragma once
/// Loading one rule file (docs/writing-rules.md, "The fields") into a CompiledRule: fields
/// validated, expressions parsed and dimension-checked, errors at the rule file's line and
/// column.
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <variant>
#include <vector>

#include "planlint/diag/diagnostic.hpp"
#include "planlint/expr/bindings.hpp"
#include "planlint/expr/environment.hpp"
#include "planlint/rules/compiled_rule.hpp"

namespace planlint {

/// Where a rule file comes from: planlint's own rules/ (whose `native` rules are checked in
/// C++), or a user's pack, which cannot declare a native rule.
enum class RuleOrigin { builtin, pack };

/// Ends the error of a rule whose lets the run's packs have no nodes left for: RuleSet::load
/// reports it once, not once for each let of every rule after the limit.
inline constexpr std::string_view pack_node_limit_note = "(no more than that in all the packs of a run)";

/// Nullopt after appending the problems to `errors` (problem_kinds::invalid_rule). `pack_nodes_left`,
/// when given, is what the rules loaded before have left of expr::max_substituted_pack_nodes:
/// the nodes this rule's lets copy are taken from it.
std::optional<CompiledRule> load_rule_file(std::shared_ptr<const SourceFile> file,
                                           std::vector<Diagnostic>& errors,
                                           std::size_t* pack_nodes_left = nullptr,
                                           RuleOrigin origin = RuleOrigin::builtin);

/// Whether `id` is a valid rule id: kebab-case, `[a-z][a-z0-9]*(-[a-z0-9]+)*` ("memory-fit").
bool is_rule_id(std::string_view id);

/// Compiles a message template against the rule's names; problems go to `error` with the
/// byte offset in `text`.
struct TemplateError {
  std::size_t offset = 0;
  std::string message;
};
/// `lets` are the rule's `[let]` names, written out where the placeholders use them; the nodes
/// copied are taken from `let_budget` (expr::substitute) when it is given.
std::variant<MessageTemplate, TemplateError> compile_template(std::string_view text,
                                                               const expr::TypeEnvironment& names,
                                                               std::span<const expr::Binding> lets = {},
                                                               expr::NodeBudget* let_budget = nullptr);

}  // namespace planlint
