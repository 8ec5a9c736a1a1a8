#include "planlint/lsp/rule_links.hpp"

#include <fmt/format.h>

#include "planlint/lsp/uri.hpp"
#include "planlint/rules/rule_set.hpp"
#include "planlint/settings/settings.hpp"

// The documentation of the release: its tag's docs/ folder. A build of a fork sets its own.
#ifndef PLANLINT_DOCS_URL
#define PLANLINT_DOCS_URL "https://github.com/planlint/planlint/blob/v" PLANLINT_VERSION "/docs/"
#endif

namespace planlint::lsp {

std::optional<std::string> rule_docs_link(std::string_view rule, const Analysis& analysis) {
  if (RuleSet::builtin().find(rule)) return fmt::format("{}rules/{}.md", PLANLINT_DOCS_URL, rule);
  if (!analysis.settings) return std::nullopt;
  const RuleDescriptor* descriptor = analysis.settings->rules().find(rule);
  if (!descriptor || descriptor->origin.empty()) return std::nullopt;
  return path_to_uri(descriptor->origin.view());
}

}  // namespace planlint::lsp
