#pragma once
/// Key paths that name an element of an array of tables by what it is, not by where it is:
///
///     assumptions[0].updated   →  assumptions[id=mfu].updated
///     targets[1]               →  targets[name=ttft-p99]
///     benchmarks[2].value      →  benchmarks[metric=train.mfu,date=2026-03-01].value
///     stages[1].targets[0]     →  stages[name=long-context].targets[name=day]
///
/// `[[assumptions]]` are named by `id`, `[[targets]]` by `name`, `[[benchmarks]]` by `metric`
/// and, when it has one, `date`, `[[capacity]]` by `kind`, `[[stages]]` by `name` (a stage's own
/// `[[stages.targets]]` and `[[stages.assumptions]]` as the plan's). A value other than letters, digits, `_`, `-` and `.` is
/// written as a TOML basic string: `assumptions[id="mfu (H100)"]`. An element keeps its index
/// when it lacks the field; one whose name an earlier element of its array has adds its count
/// among them: `benchmarks[metric=train.mfu,n=2]`.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "planlint/diag/diagnostic.hpp"
#include "planlint/plan/plan.hpp"

namespace planlint {

/// Rewrites the key path of each finding that names an element of `plan`'s arrays of tables by
/// index. Returns each key it wrote with the one it replaced: ("assumptions[id=mfu].updated",
/// "assumptions[0].updated").
std::vector<std::pair<std::string, std::string>> name_elements_in_key_paths(std::vector<Diagnostic>& diagnostics,
                                                                            const Plan& plan);

/// What names each element of the array of tables `section` ("targets", "assumptions",
/// "benchmarks", "capacity"), by index: "id=mfu", "metric=train.mfu,n=2", "kind=preemptible";
/// empty for one without its field.
std::vector<std::string> element_names(std::string_view section, const std::vector<PlanTable>& elements);

/// The key of the plan block `index` of a Markdown doc whose blocks' `plan.name`s are `names`
/// (empty for a block without one): `plans[name=llama-70b]` (`plans[name=llama-70b,n=2]` for
/// the second of that name), or its place among the doc's blocks, `plans[1]`, without one.
std::string plan_block_key(const std::vector<std::string>& names, std::size_t index);

/// A key path of a plan of a Markdown doc, in the doc: "plans[name=a].cluster.hbm"; the block
/// key alone for a finding without one.
std::string key_in_block(const std::string& block_key, const std::string& key_path);

/// The key path of a plan of a Markdown doc without `block_key` ("cluster.hbm" for
/// "plans[name=a].cluster.hbm"), key_in_block's inverse; nullopt for a key not in the block.
std::optional<std::string> key_outside_block(std::string_view block_key, std::string_view key_path);

/// Prefixes each finding's key path with `block_key` (key_in_block), so that the findings of a
/// doc's plans keep apart in a baseline, and a plan's keys stay the same when the doc gains or
/// loses another plan.
void prefix_key_paths(std::vector<Diagnostic>& diagnostics, const std::string& block_key);

/// Whether `key_path` names an array element by index ("benchmarks[2].value"), outside the
/// quoted names of the identity form.
bool has_positional_index(std::string_view key_path);

}  // namespace planlint
