#include "planlint/lsp/rule_links.hpp"

#include "planlint/diag/docs_links.hpp"
#include "planlint/lsp/uri.hpp"
#include "planlint/rules/rule_set.hpp"
#include "planlint/settings/settings.hpp"

namespace planlint::lsp {

std::optional<std::string> rule_docs_link(std::string_view rule, const Analysis& analysis) {
  if (RuleSet::builtin().find(rule)) {
    const Config* config = analysis.settings && analysis.settings->config ? &*analysis.settings->config : nullptr;
    return rule_docs_url(config && config->docs_url ? std::string_view(*config->docs_url) : build_docs_url(), rule);
  }
  if (!analysis.settings) return std::nullopt;
  const RuleDescriptor* descriptor = analysis.settings->rules().find(rule);
  if (!descriptor || descriptor->origin.empty()) return std::nullopt;
  return path_to_uri(descriptor->origin.view());
}

}  // namespace planlint::lsp
