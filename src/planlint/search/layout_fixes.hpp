#pragma once
/// The fix of a training plan's `memory-fit`, `pipeline-bubble`, `interconnect-bottleneck` and
/// `hard-target-violated` findings (native_rules::layout_fixed): the nearest layout that clears
/// the finding, found by `planlint solve`'s search (search.hpp) over the keys the rule is about,
/// the others held as the plan writes them (docs/solve.md, "Findings that name a layout").
///
///     add_layout_fixes(result.diagnostics, *source, plan, estimates, options);
///     // memory-fit's help: "...; the nearest layout that fits: tp = 8 (was 4), zero = 3 (was 1), 71.2 GB per GPU"
#include <vector>

#include "planlint/diag/diagnostic.hpp"
#include "planlint/estimate/estimates.hpp"
#include "planlint/plan/plan.hpp"
#include "planlint/settings/lint_options.hpp"
#include "planlint/source/source_file.hpp"

namespace planlint::solve {

/// The most layouts one finding's search evaluates: a space beyond it (a count of many
/// divisors) leaves the finding's help as the rule writes it, so a check stays fast.
inline constexpr std::uint64_t max_fix_layouts = 200'000;

/// Gives each finding of `findings` whose rule is layout_fixed (and not suppressed) the nearest
/// layout that clears it: its help names the layout and the figure that now holds, its fixes
/// write it (unsafe: `--unsafe-fixes`, the editor's code action), its fix_title says it. `plan`
/// and `estimates` are the plan's as its findings' fixes correct it (their spans are `source`'s).
/// A plan in stages, an inference plan or one that lacks what the figures need gets none.
void add_layout_fixes(std::vector<Diagnostic>& findings, const SourceFile& source, const Plan& plan,
                      const Estimates& estimates, const LintOptions& options);

}  // namespace planlint::solve
