#pragma once
/// The findings of a plan of [[stages]], made once for the whole run and once for each stage,
/// reported once each: by the loader for each stage's defaults, and by the lint for the rules.
#include <span>
#include <string>
#include <vector>

#include "planlint/diag/diagnostic.hpp"

namespace planlint {

/// Adds `found` (the whole run's findings, then each stage's, `stage_names` in order) to `out`
/// once each: a finding that more than one of them makes alike (a plan key's, or the same for
/// every stage), or that `out` holds already, is kept once; a finding of some stages only names
/// them ("stage 'context-128k': ...").
void merge_stage_findings(std::span<const std::string> stage_names, std::span<std::vector<Diagnostic>> found,
                          std::vector<Diagnostic>& out);

}  // namespace planlint
