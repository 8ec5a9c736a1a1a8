#pragma once
/// A rule's documentation as Markdown (`planlint explain`, docs/rules/<id>.md) and the rule
/// table (`planlint rules`).
#include <string>
#include <vector>

#include "planlint/diag/rule_descriptor.hpp"
#include "planlint/rules/compiled_rule.hpp"
#include "planlint/rules/rule_set.hpp"

namespace planlint {

/// "# memory-fit\n\n<summary>\n\n| group | default severity | ... |\n\n<docs>".
std::string rule_markdown(const RuleDescriptor& rule);
/// The same, then an "## Options" table of the rule's options and their defaults, when it has
/// any (`planlint explain`, docs/rules/<id>.md).
std::string rule_markdown(const CompiledRule& rule);

/// One line per rule: id, group, severity, summary, aligned.
std::string rule_table_text(const std::vector<RuleDescriptor>& rules);

/// docs/rules/README.md: a table linking every rule's page.
std::string rule_index_markdown(const std::vector<RuleDescriptor>& rules);
/// `planlint rules --format markdown`: the table above for the built-in rules alone; with the
/// rules of packs, those are listed with their files (they have no page in docs/rules/).
std::string rule_index_markdown(const RuleSet& rules);

}  // namespace planlint
