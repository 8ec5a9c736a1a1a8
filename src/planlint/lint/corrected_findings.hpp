#pragma once
/// A plan's findings computed once their own fixes are in place: when a finding marks an input
/// wrong and carries the value it meant (sparse-peak's dense peak), the other findings' figures
/// come from the plan with that value, and say so ("once cluster.peak is 989 TFLOPS").
#include <vector>

#include "planlint/diag/diagnostic.hpp"
#include "planlint/estimate/corrected.hpp"

namespace planlint {

/// Merges the findings of the corrected plan (`corrected_findings`, selected as the plan's
/// were) into the plan's `findings`:
/// - a finding of both keeps its place and takes the corrected figures: message and help
///   (each marked "(once cluster.peak is 989 TFLOPS)" when it changed), notes and fix;
/// - a finding the correction clears keeps its message, its help says that the correction
///   clears it, and its fix (computed from the wrong input) is dropped; but where the corrected
///   plan has another rule's finding at its place, that finding replaces it;
/// - a finding only the corrected plan has is added, marked the same way;
/// - the findings that carry the corrections, and the loader's, are left as they are.
void merge_corrected_findings(std::vector<Diagnostic>& findings, std::vector<Diagnostic> corrected_findings,
                              const CorrectedInputs& corrected);

}  // namespace planlint
