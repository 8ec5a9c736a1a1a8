#include "planlint/rules/compiled_rule.hpp"

namespace planlint {

void CompiledRule::own_names(const std::vector<std::string>& at_keys, const std::vector<std::string>& related_keys,
                             const std::vector<std::string>& superseded_ids,
                             const std::vector<std::string>& metric_names) {
  auto names = std::make_shared<OwnedNames>();
  auto keep = [&](const std::vector<std::string>& list, std::vector<std::string_view>& views) {
    for (const std::string& name : list) views.push_back(names->texts.emplace_back(name));
  };
  keep(at_keys, names->at);
  keep(related_keys, names->related);
  keep(superseded_ids, names->supersedes);
  keep(metric_names, names->metrics_used);
  at = names->at;
  related = names->related;
  supersedes = names->supersedes;
  metrics_used = names->metrics_used;
  owned_names = std::move(names);
}

}  // namespace planlint
