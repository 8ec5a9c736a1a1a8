#pragma once
/// Key paths that name an element of an array of tables by what it is, not by where it is:
///
///     assumptions[0].updated   →  assumptions[id=mfu].updated
///     targets[1]               →  targets[name=ttft-p99]
///     benchmarks[2].value      →  benchmarks[metric=train.mfu,date=2026-03-01].value
///
/// `[[assumptions]]` are named by `id`, `[[targets]]` by `name`, `[[benchmarks]]` by `metric`
/// and, when it has one, `date`. A value other than letters, digits, `_`, `-` and `.` is
/// written as a TOML basic string: `assumptions[id="mfu (H100)"]`. An element keeps its index
/// when it lacks the field; one whose name an earlier element of its array has adds its count
/// among them: `benchmarks[metric=train.mfu,n=2]`.
#include <string>
#include <string_view>
#include <vector>

#include "planlint/diag/diagnostic.hpp"
#include "planlint/plan/plan.hpp"

namespace planlint {

/// Rewrites the key path of each finding that names an element of `plan`'s arrays of tables by
/// index, and keeps that form in Diagnostic::legacy_key_path.
void name_elements_in_key_paths(std::vector<Diagnostic>& diagnostics, const Plan& plan);

/// The key of the plan block `index` of a Markdown doc whose blocks' `plan.name`s are `names`
/// (empty for a block without one): `plans[name=llama-70b]` (`plans[name=llama-70b,n=2]` for
/// the second of that name), or its place among the doc's blocks, `plans[1]`, without one.
std::string plan_block_key(const std::vector<std::string>& names, std::size_t index);

/// Prefixes each finding's key path with `block_key` ("plans[name=a].cluster.hbm"; the block
/// key alone for a finding without one), so that the findings of a doc's plans keep apart in
/// a baseline, and a plan's keys stay the same when the doc gains or loses another plan. The
/// positional form (legacy_key_path) is left as it was; with `only_plan` (the doc has one
/// plan), the key as it was is kept in unprefixed_key_path, which older baselines recorded.
void prefix_key_paths(std::vector<Diagnostic>& diagnostics, const std::string& block_key, bool only_plan);

/// Whether `key_path` names an array element by index ("benchmarks[2].value"), outside the
/// quoted names of the identity form.
bool has_positional_index(std::string_view key_path);

}  // namespace planlint
