#pragma once
/// `planlint solve` of an inference plan (docs/solve.md, "Inference plans"): the plan evaluated
/// once by the engine for what it fixes, every replica layout evaluated by the serving kernel
/// (serving_search.hpp), and the layouts it prints confirmed by the engine: each applied to the
/// plan's text and linted, with no error. solve_any() solves either kind of plan.
///
///     Result<AnyReport> report = solve_any(source, toml_text, 1, lint_options, SolveOptions{});
///     std::visit([&](const auto& r) { render_text(out, r); }, *report);
#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "planlint/solve/serving_search.hpp"
#include "planlint/solve/solve.hpp"

namespace planlint::solve {

/// A GPU type the serving search runs on: the plan's own, or a catalog part with its figures.
struct ServeGpu {
  std::string id;
  bool plans_own = true;
  serving::ServingInputs inputs;
  std::vector<fix::TextEdit> edits;  ///< of the file's text: cluster.gpu and its figures
  std::vector<std::string> changes;
};

/// One serving layout of the plan's text, applied and linted.
struct ServeSolution {
  ServeRanked ranked;
  std::vector<fix::TextEdit> edits;  ///< what --apply writes
  std::vector<std::string> changes;  ///< "tp = 8 (was 4)", a key each
  Estimates estimates;               ///< of the plan with the layout, with its arithmetic
};

struct ServeReport {
  std::string path;
  std::string gpu;                   ///< cluster.gpu, as written
  serving::ServingInputs inputs;     ///< the plan's own
  std::vector<ServeGpu> gpus;        ///< the GPU types searched (ServeRanked::gpu indexes it)
  bool gpu_varied = false;
  ServeSpec spec;
  ServeRanked current;               ///< the plan's own layout, on the GPUs it books
  std::optional<ServeFailure> current_failure;
  ServeResult search;
  std::vector<ServeSolution> solutions;
  std::vector<std::string> unconfirmed;
  std::vector<std::string> notes;
  double search_seconds = 0;
};

/// Searches the replica layouts of the inference plan `toml_text`. An error: not an inference
/// plan, a plan that does not load, the keys the figures need missing, an unknown --keep key,
/// --minimize days, --vary count or --count (the count follows the replicas).
Result<ServeReport> solve_serving_plan(std::shared_ptr<const SourceFile> source, std::string_view toml_text,
                                       std::uint32_t first_line, const LintOptions& lint_options,
                                       const SolveOptions& options);

/// Either kind of plan's report.
using AnyReport = std::variant<SolveReport, ServeReport>;
/// solve_plan of a training or fine-tuning plan, solve_serving_plan of an inference plan.
Result<AnyReport> solve_any(std::shared_ptr<const SourceFile> source, std::string_view toml_text,
                            std::uint32_t first_line, const LintOptions& lint_options, const SolveOptions& options);

/// "tp = 4, pp = 1": a serving layout's family, as the excluded families name it.
std::string serve_family_text(const serving::ReplicaLayout& l);
/// What excludes a serving layout: "92.1 GB per GPU > 80 GB", "infer.itl 52 ms > the SLA of 50 ms".
std::string serve_failure_text(const ServeReport& report, const ServeRanked& r, const ServeFailure& failure);

void render_solve_text(std::ostream& out, const ServeReport& report);
void render_solve_markdown(std::ostream& out, const ServeReport& report);
void render_solve_json(std::ostream& out, const ServeReport& report);

}  // namespace planlint::solve
