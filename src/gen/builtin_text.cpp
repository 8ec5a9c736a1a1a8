// The built-in rules and catalog parsed from their embedded text at run time: the definition of
// planlint::builtin used by the generator (planlint_gen), which cannot use its own output.
#include "planlint/catalog/catalog.hpp"
#include "planlint/embed/builtin.hpp"
#include "planlint/rules/compiled_rule.hpp"
#include "planlint/rules/rule_set.hpp"

namespace planlint::builtin {

std::vector<std::shared_ptr<const CompiledRule>> rules() {
  return RuleSet::from_embedded_text().rules();
}

std::vector<GpuSpec> gpus() { return Catalog::from_embedded_text().gpus(); }

}  // namespace planlint::builtin
