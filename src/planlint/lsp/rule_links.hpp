#pragma once
/// Where a finding's rule is documented, for Diagnostic.codeDescription.href: a built-in
/// rule's page in docs/rules/ of the release planlint was built from, a rule pack's rule file.
#include <optional>
#include <string>
#include <string_view>

#include "planlint/lsp/analysis.hpp"

namespace planlint::lsp {

std::optional<std::string> rule_docs_link(std::string_view rule, const Analysis& analysis);

}  // namespace planlint::lsp
