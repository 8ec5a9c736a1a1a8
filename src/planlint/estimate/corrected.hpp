#pragma once
/// The plan as its findings' fixes would write it: a finding that marks an input wrong and
/// carries the value it meant (sparse-peak's dense peak) makes every other figure planlint
/// suggests, and every report figure, one computed once that value is in place
/// (docs/estimates.md, "Figures once a fix is applied").
///
///     if (auto corrected = corrected_inputs(plan, catalog, findings))
///       use(corrected->plan, corrected->estimates, once_text(corrected->corrections));
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "planlint/catalog/catalog.hpp"
#include "planlint/diag/diagnostic.hpp"
#include "planlint/estimate/estimates.hpp"
#include "planlint/plan/plan.hpp"

namespace planlint {

/// One input a finding's fix writes.
struct InputCorrection {
  std::string key;    ///< the plan key as a reader knows it: "cluster.peak", "capacity[kind=preemptible].price"
  std::string value;  ///< the value as the fix writes it, unquoted: "989 TFLOPS"
  std::string rule;   ///< the finding's rule: "sparse-peak"
  double base_value = 0;  ///< in the key's base unit, as the loader reads `value`
  bool in_bits = false;   ///< written in bits ("400 Gbps"), kept in bytes (PlanValue::in_bits)
  Span span;              ///< the value replaced: the plan's (which its stages inherit) or a stage's own
  std::string stage;      ///< the stage whose own value it is ("long-context"); empty for the plan's
  std::string finding_key;  ///< the fixing finding's key path as the rules made it: "capacity[1].price"
};

struct CorrectedInputs {
  Plan plan;            ///< the plan with each corrected value in place (same spans), in its stages too
  Estimates estimates;  ///< estimate_run() of `plan`: for a plan of [[stages]], the whole run's
  std::vector<Estimates> stage_estimates;  ///< each stage's, for a plan of [[stages]] (run_totals.hpp)
  std::vector<InputCorrection> corrections;  ///< in the order of the findings
};

/// What the corrections write, for "once ...": "cluster.peak is 989 TFLOPS", "cluster.peak is
/// 989 TFLOPS and cluster.price is $2/GPU/h", "training.seq_len of stage 'long' is 131072".
std::string once_text(std::span<const InputCorrection> corrections);
/// Whose fixes they are: "sparse-peak's fix", "the fixes of sparse-peak and bits-for-bytes".
std::string fixes_text(std::span<const InputCorrection> corrections);

/// The corrections the findings' fixes write to quantity keys of `plan` (a table's, or a
/// [[capacity]] slice's field): the rule findings (not suppressed) with one edit that replaces
/// a value the file states (the plan's, or a stage's own), read back as the key reads it. A fix of a claim ([estimates]) or of a text is no input to the estimates and is left out,
/// and so is a loader's (node-price), which writes what planlint already reads.
std::vector<InputCorrection> input_corrections(const Plan& plan, std::span<const Diagnostic> findings);

/// `plan` and its estimates with the findings' input corrections in place (a plan's value in
/// every stage that inherits it, a stage's own in that stage); nullopt when no finding carries one (most plans: nothing is copied or computed then).
std::optional<CorrectedInputs> corrected_inputs(const Plan& plan, const Catalog& catalog,
                                                std::span<const Diagnostic> findings, EstimateScope scope = {});

}  // namespace planlint
