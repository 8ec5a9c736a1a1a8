#pragma once
/// What the training and the serving solve share (solve.cpp, serving_solve.cpp): the plan's text
/// edited and linted, its GPU changed, the options resolved.
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "planlint/catalog/catalog.hpp"
#include "planlint/diag/result.hpp"
#include "planlint/estimate/estimates.hpp"
#include "planlint/fix/edits.hpp"
#include "planlint/lint/lint.hpp"
#include "planlint/plan/plan.hpp"
#include "planlint/search/search.hpp"
#include "planlint/solve/solve.hpp"
#include "planlint/search/layout_edits.hpp"
#include "planlint/search/spec_inputs.hpp"
#include "planlint/source/source_file.hpp"

namespace planlint::solve::internal {

/// `text` with `edits` made, and the plan block in it: `block` of `source`'s text, grown by the
/// edits (which are all inside it).
struct Applied {
  std::shared_ptr<const SourceFile> source;
  std::string_view block;
};
Applied apply_to_block(const SourceFile& source, std::string_view block, const std::vector<fix::TextEdit>& edits);


/// A lint's plan and estimates once the inputs its findings' fixes correct are in place
/// (FileResult::corrected), else as written: the figures solve reads.
const Plan& figures_plan(const FileResult& linted);
const Estimates& figures_estimates(const FileResult& linted);

/// The plan as solve searches it: with the inputs its findings' fixes correct in place
/// (FileResult::corrected: a sparse peak searched at the dense one), so that no figure solve
/// prints comes from an input a finding marks as wrong; and the plan's own errors, which a layout
/// leaves as they are (confirm_layout holds none of them against a layout). `notes` gains a line
/// for each.
struct SearchedPlan {
  const Plan& plan;
  const Estimates& estimates;
  std::vector<Diagnostic> plan_errors;
};
SearchedPlan searched_plan(const FileResult& linted, std::vector<std::string>& notes);

/// A layout's `edits` applied to the plan's text and linted, the plan's [estimates] claims of the
/// figures it changes brought to their values first (claim_edits, into `edits` and `changes`):
/// its estimates (with the corrected inputs, as `searched_plan`'s), or the error-level findings
/// that keep it from being printed: not one of `plan_errors` that the layout leaves word for
/// word, but a layout rule's (memory-fit, ...) always.
struct Confirmed {
  std::optional<Estimates> estimates;
  std::vector<std::string> errors;  ///< "rule: message", each error-level finding not suppressed
};
Confirmed confirm_layout(const SourceFile& source, std::string_view toml_text, std::uint32_t first_line,
                         const LintOptions& lint_options, const Plan& plan, const Estimates& before,
                         std::vector<fix::TextEdit>& edits, std::vector<std::string>& changes,
                         bool (*layout_metric)(Metric), std::span<const Diagnostic> plan_errors);

/// The options with the config's [solve] table under them, each key from the first that says
/// it; an error names the config's key that is bad.
Result<SolveOptions> resolved_options(const SolveOptions& given);

/// The edits of `source`'s text that put the plan on `gpu`: cluster.gpu, the GPU's figures the
/// plan states taken out (the catalog's apply), the price the least the catalog's sources quote.
Result<std::vector<fix::TextEdit>> gpu_edits(const SourceFile& source, const Plan& plan, const GpuSpec& gpu,
                                             std::vector<std::string>& changes);

/// The plan's text with another GPU in place of its own (gpu_edits), linted: the edits, what they
/// change, and the plan and estimates on that GPU.
struct OnGpu {
  std::vector<fix::TextEdit> edits;
  std::vector<std::string> changes;
  FileResult linted;
};
/// OnGpu for `gpu`; nullopt when the text with its edits holds no plan or estimates.
Result<std::optional<OnGpu>> lint_on_gpu(const SourceFile& source, std::string_view toml_text,
                                         std::uint32_t first_line, const LintOptions& lint_options, const Plan& plan,
                                         const GpuSpec& gpu);
/// Whether a search can take `gpu`, its inputs read on it: not when the catalog lacks a figure
/// the search needs (`missing`), nor without a price (`price` NaN) when it minimises cost; a
/// note in `notes` says which.
bool searchable_gpu(const GpuSpec& gpu, const std::vector<std::string>& missing, double price, bool minimize_cost,
                    std::vector<std::string>& notes);

/// The catalog GPUs --vary gpu / --gpus name besides the plan's own (`own`), and whether the
/// plan's own is searched; an error for a --gpus name the catalog does not have.
struct WantedGpus {
  std::vector<const GpuSpec*> others;
  bool own = true;
};
Result<WantedGpus> wanted_gpus(const SolveOptions& options, const Catalog& catalog, const GpuSpec* own, bool varied);

/// solve_plan of a training plan already linted (`linted`, with its plan and estimates).
Result<SolveReport> solve_training(std::shared_ptr<const SourceFile> source, std::string_view toml_text,
                                   std::uint32_t first_line, const LintOptions& lint_options, const SolveOptions& given,
                                   const FileResult& linted);

}  // namespace planlint::solve::internal
