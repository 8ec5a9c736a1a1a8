#pragma once
/// `planlint solve PLAN` (docs/solve.md): the plan evaluated once by the engine for what it
/// fixes, every layout of the space evaluated by the kernel (search.hpp), and the layouts it
/// prints confirmed by the engine: each applied to the plan's text and linted, with no error
/// and the hard targets met.
///
///     Result<SolveReport> report = solve_plan(source, toml_text, lint_options, SolveOptions{});
///     render_solve_text(out, *report);
#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "planlint/config/config.hpp"
#include "planlint/diag/result.hpp"
#include "planlint/estimate/estimates.hpp"
#include "planlint/fix/edits.hpp"
#include "planlint/settings/lint_options.hpp"
#include "planlint/search/layout_edits.hpp"
#include "planlint/search/search.hpp"
#include "planlint/source/source_file.hpp"

namespace planlint::solve {

struct SolveOptions {
  Objective objective = Objective::cost;
  std::size_t top = 5;            ///< -n: layouts printed
  std::vector<std::string> keep;  ///< --keep: layout keys held at the plan's values
  /// Whether `keep` is the config's [solve] keep (resolved_options), whose training keys an
  /// inference plan does not have.
  bool keep_from_config = false;
  /// --vary gpu / --gpus: the GPU types searched; empty with vary_gpu, every catalog part with a
  /// price (every part when the objective is not cost).
  bool vary_gpu = false;
  std::vector<std::string> gpus;
  /// --vary count / --count: the GPU counts searched, whole nodes from count_low to count_high;
  /// 0 for one node and the plan's cluster.count.
  bool vary_count = false;
  double count_low = 0, count_high = 0;
  /// --vary global_batch: the plan's training.global_batch times ¼, ½, 1, 2 and 4 (batch_scales).
  bool vary_batch = false;
  /// The config's [solve] table, under the options above: each of vary, gpus and count is taken
  /// from the options when they say it.
  SolveDefaults config;
  std::string config_path;  ///< where the config's [solve] is written, for its errors
};

/// What --vary frees beyond the layout keys.
struct Varied {
  bool gpu = false, count = false, global_batch = false;
};
/// "gpu,count,global_batch" (--vary, solve.vary): what varies; an error for another word.
Result<Varied> parse_vary(std::string_view text);

/// The global batches --vary global_batch searches, as multiples of the plan's: a factor of 4
/// either way in powers of two. planlint sees a run's time and memory, not its loss: the batch
/// stays within the range a published run's hyperparameters took (Llama 3 405B raised its
/// batch from 4M to 16M tokens during pre-training, Llama Team 2024 §3.4.1).
inline constexpr double batch_scales[] = {0.25, 0.5, 1, 2, 4};
/// "h100-sxm, a100-sxm" (--gpus, solve.gpus): the names, trimmed; an error for an empty one.
Result<std::vector<std::string>> parse_gpu_list(std::string_view text);

/// --count's text: "N" or "LOW..HIGH", whole GPUs from 1 (either end of a range may be left out:
/// "..4096", "512.."); an error otherwise.
Result<std::pair<double, double>> parse_count_range(std::string_view text);

/// A GPU type the search runs on: the plan's own, or a catalog part with the catalog's figures.
struct GpuChoice {
  std::string id;                      ///< the catalog id, or cluster.gpu as written for the plan's
  bool plans_own = true;               ///< the plan's GPU, with the figures the plan states
  layout::TrainingInputs inputs;       ///< at the plan's count
  std::vector<fix::TextEdit> edits;    ///< of the file's text: cluster.gpu and its figures
  std::vector<std::string> changes;    ///< "gpu = \"a100-sxm\" (was \"a100-sxm-40gb\")"
  std::vector<double> counts;          ///< the GPU counts searched, ascending
  std::optional<double> gpus_per_node; ///< cluster.gpus_per_node on it: a node, the counts' step
};

/// One layout of the plan's text, applied and linted.
struct Solution {
  Ranked ranked;
  std::vector<fix::TextEdit> edits;   ///< of the file's text: what --apply writes
  std::vector<std::string> changes;   ///< "tp = 8 (was 4)", a key each
  Estimates estimates;                ///< of the plan with the layout, with its arithmetic
};

struct SolveReport {
  std::string path;
  std::string gpu;                    ///< cluster.gpu, as written
  layout::TrainingInputs inputs;      ///< the plan's own
  /// The GPU types searched (Ranked::gpu indexes it); the plan's alone unless the GPU is varied.
  std::vector<GpuChoice> gpus;
  bool gpu_varied = false, count_varied = false, batch_varied = false;
  std::vector<double> batch_scales = {1};  ///< the multiples of the plan's global batch searched
  SearchSpec spec;
  Ranked current;                     ///< the plan's own layout
  std::optional<Failure> current_failure;
  SearchResult search;
  std::vector<Solution> solutions;    ///< the confirmed layouts, best first
  /// Layouts the kernel passes that the plan with them does not lint clean: "layout 2 (tp = 4,
  /// ...): memory-fit: ...". A disagreement of kernel and engine; none is expected.
  std::vector<std::string> unconfirmed;
  std::vector<std::string> notes;     ///< held keys and why
  double search_seconds = 0;
};

/// Searches the layouts of the training plan `toml_text` (a file's text, or a Markdown block of
/// `source`'s from `first_line`). An error: not a training plan, a plan that does not load, the
/// keys the figures need missing, an unknown --keep key.
Result<SolveReport> solve_plan(std::shared_ptr<const SourceFile> source, std::string_view toml_text,
                               std::uint32_t first_line, const LintOptions& lint_options, const SolveOptions& options);

/// The plan's training.global_batch times `scale`, as the plan writes it: "2048" (sequences),
/// "8M tokens".
std::string global_batch_text(const layout::TrainingInputs& inputs, double scale);

/// "tp = 8, pp = 4, cp = 1": the family of a layout, as the excluded families name it.
std::string family_text(const layout::TrainingLayout& l);
/// What excludes a layout: "95.2 GB per GPU at the least > 80 GB (zero 3, recompute full,
/// micro_batch 1)", "train.days 45 d > 30 d, hard target 'launch'".
std::string failure_text(const SolveReport& report, const Ranked& r, const Failure& failure);
/// "cost", "days", "gpus".
std::string objective_name(Objective objective);

/// The Markdown output (a pull-request comment): the text output's content, input text escaped.
void render_solve_markdown(std::ostream& out, const SolveReport& report);
/// The JSON output: the text output's content, figures in base units by metric name.
void render_solve_json(std::ostream& out, const SolveReport& report);

/// The text output: the top layouts with the figures that decided them, the plan's own for
/// comparison, the best one's arithmetic, and the nearest excluded families.
void render_solve_text(std::ostream& out, const SolveReport& report);

}  // namespace planlint::solve
