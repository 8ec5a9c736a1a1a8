#pragma once
/// The built-in rules and GPU catalog as data, ready to use: what RuleSet::builtin() and
/// Catalog::builtin() start from.
///
/// Declared here, defined twice, and exactly one definition is linked into a program:
///  - planlint_lib: by the C++ file that the build-time generator (src/gen/planlint_gen.cpp)
///    writes from the rule files and the catalog, so a run parses no TOML and compiles no
///    expression for them;
///  - the generator itself: by src/gen/builtin_text.cpp, which parses the embedded text
///    (RuleSet::from_embedded_text, Catalog::from_embedded_text), the same as a user's files.
/// docs/development.md "Built-in rules are compiled at build time" describes the build.
#include <memory>
#include <vector>

namespace planlint {
struct CompiledRule;
struct GpuSpec;
}  // namespace planlint

namespace planlint::builtin {

/// Every built-in rule, sorted by id.
std::vector<std::shared_ptr<const CompiledRule>> rules();
/// The entries of rules/catalog/gpus.toml, in file order.
std::vector<GpuSpec> gpus();

}  // namespace planlint::builtin
