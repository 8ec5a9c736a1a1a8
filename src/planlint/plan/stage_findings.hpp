#pragma once
/// The findings of a plan of [[stages]], made once for the whole run and once for each stage,
/// reported once each: by the loader for each stage's defaults, and by the lint for the rules.
#include <span>
#include <string>
#include <vector>

#include "planlint/diag/diagnostic.hpp"
#include "planlint/plan/plan.hpp"

namespace planlint {

/// Adds `found` (the whole run's findings, then each stage's, `stage_names` in order) to `out`
/// once each: a finding that more than one of them makes alike (a plan key's, or the same for
/// every stage), or that `out` holds already, is kept once; a finding of some stages only names
/// them ("stage 'context-128k': ..."); a whole run's finding that every stage makes at its
/// place, in whatever words, is left to the stages.
void merge_stage_findings(std::span<const std::string> stage_names, std::span<std::vector<Diagnostic>> found,
                          std::vector<Diagnostic>& out);

/// Adds the rules' findings on `plan` to `out`: `found` holds the plan's, then, for a plan of
/// [[stages]], each stage's (named by name_stage_elements, merged by merge_stage_findings).
void merge_run_findings(const Plan& plan, std::span<std::vector<Diagnostic>> found, std::vector<Diagnostic>& out);

/// Rewrites the key paths of stage `stage`'s findings (`found`, the rules' on the stage's plan)
/// that name an element of its [[targets]] or [[assumptions]] by its place in the stage's list:
/// an element the stage inherits by its place in `plan`'s (a stage that states its own MFU
/// entry drops the plan's, moving the others up), one of its own as `stages[N].targets[M]`.
void name_stage_elements(std::vector<Diagnostic>& found, const Plan& plan, std::size_t stage);

}  // namespace planlint
