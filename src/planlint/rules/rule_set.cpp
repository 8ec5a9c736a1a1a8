#include "planlint/rules/rule_set.hpp"

namespace planlint {

struct CompiledRule {
  RuleDescriptor descriptor;
};

RuleSet::RuleSet() = default;
RuleSet::~RuleSet() = default;
RuleSet::RuleSet(RuleSet&&) noexcept = default;
RuleSet& RuleSet::operator=(RuleSet&&) noexcept = default;

const RuleSet& RuleSet::builtin() {
  static const RuleSet rules;
  return rules;
}

RuleSet RuleSet::with_builtin() { return RuleSet{}; }

bool RuleSet::load(std::shared_ptr<const SourceFile>, std::vector<Diagnostic>&) { return true; }
bool RuleSet::load_path(const std::string&, std::vector<Diagnostic>&) { return true; }

std::vector<RuleDescriptor> RuleSet::descriptors() const {
  std::vector<RuleDescriptor> out;
  for (const auto& rule : rules_) out.push_back(rule->descriptor);
  return out;
}

const RuleDescriptor* RuleSet::find(std::string_view id) const {
  for (const auto& rule : rules_)
    if (rule->descriptor.id == id) return &rule->descriptor;
  return nullptr;
}

}  // namespace planlint
