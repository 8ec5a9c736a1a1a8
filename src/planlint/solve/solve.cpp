#include "planlint/solve/solve.hpp"
#include "planlint/solve/solve_internal.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "planlint/diag/native_rules.hpp"
#include "planlint/diag/printable.hpp"
#include "planlint/estimate/engine.hpp"
#include "planlint/plan/defaults.hpp"
#include "planlint/estimate/targets.hpp"
#include "planlint/lint/lint.hpp"
#include "planlint/rules/compiled_rule.hpp"
#include "planlint/rules/rule_set.hpp"

namespace planlint::solve {

using namespace internal;


namespace internal {


Applied apply_to_block(const SourceFile& source, std::string_view block, const std::vector<fix::TextEdit>& edits) {
  const std::string& text = source.text();
  const std::size_t offset = block.data() >= text.data() && block.data() <= text.data() + text.size()
                                 ? static_cast<std::size_t>(block.data() - text.data())
                                 : 0;
  std::ptrdiff_t growth = 0;
  for (const fix::TextEdit& edit : edits)
    growth += static_cast<std::ptrdiff_t>(edit.replacement.size()) - static_cast<std::ptrdiff_t>(edit.end - edit.begin);
  Applied applied;
  applied.source = std::make_shared<const SourceFile>(source.path(), fix::apply_edits(text, edits));
  applied.block = std::string_view(applied.source->text().data() + offset,
                                   static_cast<std::size_t>(static_cast<std::ptrdiff_t>(block.size()) + growth));
  return applied;
}

}  // namespace internal

namespace {

/// "a, b,c" → {"a", "b", "c"}; "" → {}.
std::vector<std::string> split_list(std::string_view text) {
  std::vector<std::string> items;
  if (text.find_first_not_of(" \t") == std::string_view::npos) return items;
  std::size_t begin = 0;
  while (true) {
    const std::size_t comma = text.find(',', begin);
    const std::string_view item =
        text.substr(begin, comma == std::string_view::npos ? std::string_view::npos : comma - begin);
    const std::size_t first = item.find_first_not_of(" \t"), last = item.find_last_not_of(" \t");
    items.emplace_back(first == std::string_view::npos ? std::string_view{} : item.substr(first, last - first + 1));
    if (comma == std::string_view::npos) break;
    begin = comma + 1;
  }
  return items;
}

}  // namespace

namespace internal {

Result<SolveOptions> resolved_options(const SolveOptions& given) {
  SolveOptions options = given;
  const auto where = [&](std::string_view key) { return fmt::format("{}: [solve] {}", options.config_path, key); };
  if (options.gpus.empty() && given.config.gpus) {
    Result<std::vector<std::string>> names = parse_gpu_list(*given.config.gpus);
    if (!names) return Error(fmt::format("{}: {}", where("gpus"), names.error().message));
    options.gpus = *std::move(names);
  }
  if (options.count_low == 0 && options.count_high == 0 && given.config.count) {
    const Result<std::pair<double, double>> range = parse_count_range(*given.config.count);
    if (!range) return Error(fmt::format("{}: {}", where("count"), range.error().message));
    std::tie(options.count_low, options.count_high) = *range;
    options.vary_count = true;
  }
  if (options.keep.empty() && given.config.keep) {
    options.keep = split_list(*given.config.keep);
    for (const std::string& key : options.keep)
      if (!find_layout_key(key))
        return Error(fmt::format("{}: '{}' is not a layout key ({})", where("keep"), printable(key), layout_key_list()));
    options.keep_from_config = true;
  }
  if (!given.vary_gpu && !given.vary_count && !given.vary_batch && given.config.vary) {
    const Result<Varied> words = parse_vary(*given.config.vary);
    if (!words) return Error(fmt::format("{}: {}", where("vary"), words.error().message));
    options.vary_gpu = options.vary_gpu || words->gpu;
    options.vary_count = options.vary_count || words->count;
    options.vary_batch = options.vary_batch || words->global_batch;
  }
  return options;
}


const Plan& figures_plan(const FileResult& linted) { return linted.corrected ? linted.corrected->plan : *linted.plan; }
const Estimates& figures_estimates(const FileResult& linted) {
  return linted.corrected ? linted.corrected->estimates : *linted.estimates;
}

SearchedPlan searched_plan(const FileResult& linted, std::vector<std::string>& notes) {
  SearchedPlan searched{figures_plan(linted), figures_estimates(linted), {}};
  if (linted.corrected)
    notes.push_back(fmt::format("the layouts are searched once {} ({}), as `planlint check` computes the plan's figures",
                                once_text(linted.corrected->corrections), fixes_text(linted.corrected->corrections)));
  std::vector<std::string> places;
  for (const Diagnostic& d : linted.diagnostics)
    if (d.severity == Severity::error && !d.suppression && !native_rules::is_layout_fixed(d.rule)) {
      searched.plan_errors.push_back(d);
      places.push_back(fmt::format("{} at {}:{}", d.rule, d.primary.span.begin.line, d.primary.span.begin.column));
    }
  if (!places.empty())
    notes.push_back(fmt::format("the plan's own errors stay whatever the layout ({}): `planlint check` explains them",
                                fmt::join(places, ", ")));
  return searched;
}

Confirmed confirm_layout(const SourceFile& source, std::string_view toml_text, std::uint32_t first_line,
                         const LintOptions& lint_options, const Plan& plan, const Estimates& before,
                         std::vector<fix::TextEdit>& edits, std::vector<std::string>& changes,
                         bool (*layout_metric)(Metric), std::span<const Diagnostic> plan_errors) {
  sort_edits(edits);
  Applied applied = apply_to_block(source, toml_text, edits);
  // The findings are read for their errors: none needs a layout of its own searched.
  LintOptions options = lint_options;
  options.layout_fixes = false;
  FileResult result = lint_text(applied.source, applied.block, options, first_line);
  if (result.estimates) {
    const Estimates& after = result.corrected ? result.corrected->estimates : *result.estimates;
    const auto value_in = [](const Estimates& estimates) {
      return [&estimates](Metric metric) {
        const MetricValue* value = estimates.find(metric);
        return value ? value->value : layout::absent;
      };
    };
    std::vector<fix::TextEdit> claims =
        claim_edits(source, plan, value_in(before), value_in(after), changes, layout_metric);
    if (!claims.empty()) {
      edits.insert(edits.end(), claims.begin(), claims.end());
      sort_edits(edits);
      applied = apply_to_block(source, toml_text, edits);
      result = lint_text(applied.source, applied.block, options, first_line);
    }
  }
  Confirmed confirmed;
  const auto plans_own = [&](const Diagnostic& d) {
    return std::any_of(plan_errors.begin(), plan_errors.end(), [&](const Diagnostic& e) {
      return e.rule == d.rule && e.key_path == d.key_path && e.message == d.message;
    });
  };
  for (const Diagnostic& d : result.diagnostics)
    if (d.severity == Severity::error && !d.suppression && (native_rules::is_layout_fixed(d.rule) || !plans_own(d)))
      confirmed.errors.push_back(fmt::format("{}: {}", d.rule, d.message));
  if (confirmed.errors.empty())
    confirmed.estimates = result.corrected ? std::move(result.corrected->estimates) : std::move(result.estimates);
  return confirmed;
}

}  // namespace internal

namespace {

/// The figures of a GPU that apply_defaults() takes from the catalog, and its price: a plan
/// states them of its own GPU, so another GPU takes the catalog's.
constexpr std::string_view gpu_figure_keys[] = {"hbm",           "hbm_bandwidth", "peak", "intra_node_bandwidth",
                                                "scale_up_domain", "gpus_per_node", "host_bandwidth"};

bool blank_or_comment(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  return first == std::string_view::npos || text[first] == '#';
}

/// The edit that removes the line of the plan's `key` (of [cluster]), when the line holds that
/// key alone (`hbm = "40 GB"  # note`); nullopt for a key written inside another line.
std::optional<fix::TextEdit> remove_key_line(const SourceFile& source, const PlanValue& value, std::string_view key) {
  const std::uint32_t line = value.span.begin.line;
  if (value.span.end.line != line) return std::nullopt;
  const std::string& text = source.text();
  const std::size_t begin = source.offset(Position{line, 1});
  const std::size_t end = line < source.line_count() ? source.offset(Position{line + 1, 1}) : text.size();
  const std::size_t value_begin = source.offset(value.span.begin), value_end = source.offset(value.span.end);
  std::string prefix;
  for (const char c : std::string_view(text).substr(begin, value_begin - begin))
    if (c != ' ' && c != '\t') prefix += c;
  if (prefix != fmt::format("{}=", key) && prefix != fmt::format("cluster.{}=", key)) return std::nullopt;
  if (!blank_or_comment(std::string_view(text).substr(value_end, end - value_end))) return std::nullopt;
  return fix::TextEdit{begin, end, ""};
}

}  // namespace

namespace internal {

Result<std::vector<fix::TextEdit>> gpu_edits(const SourceFile& source, const Plan& plan, const GpuSpec& gpu,
                                             std::vector<std::string>& changes) {
  std::vector<fix::TextEdit> edits;
  const PlanValue* written = plan.find("cluster.gpu");
  if (!written || written->origin != Origin::plan || !written->span.known())
    return Error(fmt::format("{}: solve varies cluster.gpu only where the plan writes it", source.path()));
  edits.push_back(
      {source.offset(written->span.begin), source.offset(written->span.end), fmt::format("\"{}\"", gpu.id)});
  changes.push_back(fmt::format("gpu = \"{}\" (was \"{}\")", gpu.id, plan.text("cluster.gpu").value_or("")));
  const auto remove = [&](std::string_view key) -> Result<void> {
    const PlanValue* stated = plan.find(fmt::format("cluster.{}", key));
    if (!stated || stated->origin != Origin::plan || !stated->span.known()) return {};
    const std::optional<fix::TextEdit> edit = remove_key_line(source, *stated, key);
    if (!edit)
      return Error(fmt::format("{}:{}: cluster.{} is of the plan's GPU; to vary the GPU, write it on a line of its own "
                               "(solve takes it out for another GPU)",
                               source.path(), stated->span.begin.line, key));
    edits.push_back(*edit);
    changes.push_back(fmt::format("{} taken out (the catalog's for {})", key, gpu.id));
    return {};
  };
  for (const std::string_view key : gpu_figure_keys)
    if (Result<void> removed = remove(key); !removed) return removed.error();
  const PlanValue* price = plan.find("cluster.price");
  const bool price_stated = price && price->origin == Origin::plan && price->span.known();
  if (!gpu.price) {
    if (Result<void> removed = remove("price"); !removed) return removed.error();
  } else {
    const std::string value = fmt::format("\"${:g}/GPU/h\"", gpu.price->low * 3600);
    if (price_stated) {
      edits.push_back({source.offset(price->span.begin), source.offset(price->span.end), value});
    } else {
      const std::size_t at = insert_offset(source, plan, "cluster");
      const bool newline = at == source.text().size() && !source.text().empty() && source.text().back() != '\n';
      edits.push_back({at, at, fmt::format("{}price = {}\n", newline ? "\n" : "", value)});
    }
    changes.push_back(fmt::format("price = {} (the catalog's least for {})", value, gpu.id));
  }
  // A [[capacity]] mix's prices are quotes for the plan's GPU: another GPU's slices take the
  // catalog's rate, as cluster.price does (their shares and goodputs stay).
  const KeySpec& slice_price = *find_key("capacity", "price");
  for (std::size_t i = 0; i < plan.capacity.size(); ++i) {
    const PlanValue* stated = plan.capacity[i].values.find(slice_price);
    if (!stated || stated->origin != Origin::plan || !stated->span.known()) continue;
    if (gpu.price) {
      edits.push_back({source.offset(stated->span.begin), source.offset(stated->span.end),
                       fmt::format("\"${:g}/GPU/h\"", gpu.price->low * 3600)});
      continue;
    }
    const std::optional<fix::TextEdit> edit = remove_key_line(source, *stated, "price");
    if (!edit)
      return Error(fmt::format("{}:{}: capacity[{}].price is of the plan's GPU; to vary the GPU, write it on a line of "
                               "its own (solve takes it out for another GPU)",
                               source.path(), stated->span.begin.line, i));
    edits.push_back(*edit);
  }
  if (!plan.capacity.empty())
    changes.push_back(gpu.price ? fmt::format("[[capacity]] prices \"${:g}/GPU/h\" (the catalog's least for {}, every slice)",
                                              gpu.price->low * 3600, gpu.id)
                                : fmt::format("[[capacity]] prices taken out (the catalog prices no {})", gpu.id));
  sort_edits(edits);
  return edits;
}

Result<std::optional<OnGpu>> lint_on_gpu(const SourceFile& source, std::string_view toml_text,
                                         std::uint32_t first_line, const LintOptions& lint_options, const Plan& plan,
                                         const GpuSpec& gpu) {
  OnGpu on_gpu;
  Result<std::vector<fix::TextEdit>> edits = gpu_edits(source, plan, gpu, on_gpu.changes);
  if (!edits) return edits.error();
  on_gpu.edits = *std::move(edits);
  const Applied applied = apply_to_block(source, toml_text, on_gpu.edits);
  LintOptions options = lint_options;
  options.layout_fixes = false;  // read for its plan and estimates
  on_gpu.linted = lint_text(applied.source, applied.block, options, first_line);
  if (!on_gpu.linted.plan || !on_gpu.linted.estimates) return std::optional<OnGpu>();
  return std::optional<OnGpu>(std::move(on_gpu));
}

bool searchable_gpu(const GpuSpec& gpu, const std::vector<std::string>& missing, double price, bool minimize_cost,
                    std::vector<std::string>& notes) {
  if (!missing.empty()) {
    notes.push_back(fmt::format("{} is left out: the catalog does not give its {}", gpu.id, fmt::join(missing, ", ")));
    return false;
  }
  if (minimize_cost && std::isnan(price)) {
    notes.push_back(fmt::format("{} is left out: the catalog gives no price for it", gpu.id));
    return false;
  }
  return true;
}

Result<WantedGpus> wanted_gpus(const SolveOptions& options, const Catalog& catalog, const GpuSpec* own, bool varied) {
  WantedGpus wanted;
  wanted.own = !varied || options.gpus.empty();
  if (!varied) return wanted;
  if (options.gpus.empty()) {
    for (const GpuSpec& gpu : catalog.gpus())
      if (gpu.price && &gpu != own) wanted.others.push_back(&gpu);
    return wanted;
  }
  for (const std::string& name : options.gpus) {
    const GpuMatch match = catalog.resolve(name);
    if (!match.gpu)
      return Error(fmt::format("--gpus: '{}' is not a GPU of the catalog (`planlint gpus` lists them)", printable(name)));
    if (match.gpu == own) wanted.own = true;
    else if (std::find(wanted.others.begin(), wanted.others.end(), match.gpu) == wanted.others.end())
      wanted.others.push_back(match.gpu);
  }
  return wanted;
}

}  // namespace internal

namespace {

/// The GPU counts searched on a GPU of `gpus_per_node`: whole nodes from `low` (0: one node) to
/// `high` (0: the plan's count); a single count as given. At most `most` + 1 of them.
std::vector<double> node_counts(double gpus_per_node, double low, double high, double plan_count, std::size_t most) {
  if (low > 0 && low == high) return {low};  // one count, as given
  const double step = gpus_per_node >= 1 && std::floor(gpus_per_node) == gpus_per_node ? gpus_per_node : 1;
  if (high == 0) high = plan_count;
  std::vector<double> counts;
  // One past `most`, which the caller refuses: a hostile range is not listed whole.
  for (double c = std::max(step, std::ceil(std::max(low, 1.0) / step) * step); c <= high && counts.size() <= most;
       c += step)
    counts.push_back(c);
  return counts;
}

}  // namespace

Result<std::pair<double, double>> parse_count_range(std::string_view text) {
  const auto whole_count = [](std::string_view digits) -> std::optional<double> {
    if (digits.empty() || digits.size() > 8) return std::nullopt;
    double value = 0;
    for (const char c : digits) {
      if (c < '0' || c > '9') return std::nullopt;
      value = value * 10 + (c - '0');
    }
    return value >= 1 ? std::optional<double>(value) : std::nullopt;
  };
  const auto bad = [&] {
    return Error(fmt::format("--count: '{}' is not a GPU count (512) or a range of them (512..4096, ..4096, 512..)",
                             printable(text)));
  };
  const std::size_t dots = text.find("..");
  if (dots == std::string_view::npos) {
    const std::optional<double> count = whole_count(text);
    if (!count) return bad();
    return std::pair{*count, *count};
  }
  const std::string_view low_text = text.substr(0, dots), high_text = text.substr(dots + 2);
  const std::optional<double> low = whole_count(low_text), high = whole_count(high_text);
  if ((!low_text.empty() && !low) || (!high_text.empty() && !high) || (low_text.empty() && high_text.empty()))
    return bad();
  if (low && high && *low > *high) return bad();
  return std::pair{low.value_or(0), high.value_or(0)};
}

Result<Varied> parse_vary(std::string_view text) {
  Varied vary;
  for (const std::string& word : split_list(text)) {
    if (word == "gpu") vary.gpu = true;
    else if (word == "count") vary.count = true;
    else if (word == "global_batch") vary.global_batch = true;
    else return Error(fmt::format("'{}' is not a key solve varies (gpu, count, global_batch)", printable(word)));
  }
  return vary;
}

std::string global_batch_text(const layout::TrainingInputs& in, double scale) {
  if (in.batch_in_sequences) return fmt::format("{:g}", in.sequences_per_step * scale);
  const double tokens = in.tokens_per_step * scale;
  // Whole millions as a plan writes them ("8M tokens"); another count of tokens exactly.
  if (std::fmod(tokens, 1e6) == 0) return fmt::format("{:g}M tokens", tokens / 1e6);
  return fmt::format("{:.0f} tokens", tokens);
}

Result<std::vector<std::string>> parse_gpu_list(std::string_view text) {
  std::vector<std::string> names = split_list(text);
  if (names.empty() || std::find(names.begin(), names.end(), "") != names.end())
    return Error(fmt::format("'{}' is not a list of GPUs (h100-sxm,a100-sxm)", printable(text)));
  return names;
}


Result<SolveReport> solve_plan(std::shared_ptr<const SourceFile> source, std::string_view toml_text,
                               std::uint32_t first_line, const LintOptions& lint_options, const SolveOptions& given) {
  FileResult linted = lint_text(source, toml_text, lint_options, first_line);
  if (!linted.plan || !linted.estimates)
    return Error(fmt::format("{}: the plan is not valid TOML (`planlint check` shows where)", source->path()));
  if (!linted.plan->is_training())
    return Error(fmt::format("{}: solve_plan searches the layouts of training and fine-tuning plans; this is an "
                             "inference plan (solve_any searches both)",
                             source->path()));
  return internal::solve_training(std::move(source), toml_text, first_line, lint_options, given, linted);
}

Result<SolveReport> internal::solve_training(std::shared_ptr<const SourceFile> source, std::string_view toml_text,
                                             std::uint32_t first_line, const LintOptions& lint_options,
                                             const SolveOptions& given, const FileResult& linted) {
  SolveReport report;
  report.path = source->path();
  const SearchedPlan searched = searched_plan(linted, report.notes);
  const Plan& plan = searched.plan;
  const Estimates& estimates = searched.estimates;
  const Result<SolveOptions> resolved = resolved_options(given);
  if (!resolved) return resolved.error();
  const SolveOptions& options = *resolved;
  const Catalog& catalog = lint_options.catalog ? *lint_options.catalog : Catalog::builtin();
  report.inputs = layout::read_training_inputs(plan, catalog, estimates);
  const layout::TrainingInputs& in = report.inputs;
  if (!in.missing.empty())
    return Error(fmt::format("{}: solve needs {} to evaluate a layout", report.path, fmt::join(in.missing, ", ")));
  if (!(in.count >= 1) || std::floor(in.count) != in.count || in.count > 1e7)
    return Error(fmt::format("{}: cluster.count must be a whole number of GPUs to search layouts over", report.path));
  report.gpu = plan.text("cluster.gpu").value_or("");

  SearchSpec& spec = report.spec;
  spec = training_spec(plan, estimates, lint_options);
  spec.objective = options.objective;
  spec.top = options.top;
  if (spec.objective == Objective::cost && std::isnan(in.price))
    return Error(fmt::format("{}: --minimize cost needs cluster.price; state it, or give --minimize days", report.path));
  std::vector<std::string> unknown;
  spec.held = held_keys(in, options.keep, unknown);
  if (!unknown.empty())
    return Error(fmt::format("--keep: {} is not a layout key ({})", fmt::join(unknown, ", "), layout_key_list()));
  if (in.first_stage_layers > 0 && std::find(options.keep.begin(), options.keep.end(), "pp") == options.keep.end())
    report.notes.push_back("pp is held: training.first_stage_layers splits the layers over the plan's own pp");
  if (!std::isnan(in.measured_activations))
    report.notes.push_back("tp, pp, virtual_stages, cp, micro_batch, recompute and sequence_parallel are held, and "
                           "offload keeps the activations where the plan does: training.activation_memory is "
                           "measured for the plan's layout");

  const layout::TrainingLayout current = layout::plan_layout(plan);
  report.current.layout = current;
  report.current.figures = layout::evaluate(in, current);
  report.current.rank = rank_of(in, spec, current, report.current.figures);
  report.current_failure = failure_of(in, spec, report.current.figures);

  // The GPU types: the plan's own, or those --vary gpu / --gpus name (every catalog part with a
  // price), each with the plan loaded on it to read its figures as the metrics read them.
  report.gpu_varied = options.vary_gpu || !options.gpus.empty();
  report.count_varied = options.vary_count || options.count_low > 0 || options.count_high > 0;
  const Result<WantedGpus> wanted_list = wanted_gpus(options, catalog, catalog.find(report.gpu), report.gpu_varied);
  if (!wanted_list) return wanted_list.error();
  const std::vector<const GpuSpec*>& wanted = wanted_list->others;
  const bool own_wanted = wanted_list->own;
  // A hostile range of many counts is refused before it is searched.
  constexpr std::size_t max_pairs = 100'000;
  const auto counts_of = [&](const Plan& on) {
    if (!report.count_varied) return std::vector<double>{in.count};
    return node_counts(on.number("cluster.gpus_per_node").value_or(1), options.count_low, options.count_high, in.count,
                       max_pairs);
  };
  // The plan's own layout is on its GPU: the first of the list, or none of it (-1).
  report.current.gpu = own_wanted ? 0 : -1;
  if (own_wanted) {
    GpuChoice own;
    own.id = report.gpu;
    own.inputs = in;
    own.counts = counts_of(plan);
    own.gpus_per_node = plan.number("cluster.gpus_per_node");
    report.gpus.push_back(std::move(own));
  }
  for (const GpuSpec* gpu : wanted) {
    Result<std::optional<internal::OnGpu>> on_gpu =
        internal::lint_on_gpu(*source, toml_text, first_line, lint_options, plan, *gpu);
    if (!on_gpu) return on_gpu.error();
    if (!*on_gpu) continue;
    const FileResult& on_linted = (*on_gpu)->linted;
    const Plan& on_plan = internal::figures_plan(on_linted);
    GpuChoice choice;
    choice.id = gpu->id;
    choice.plans_own = false;
    choice.inputs = layout::read_training_inputs(on_plan, catalog, internal::figures_estimates(on_linted));
    if (!internal::searchable_gpu(*gpu, choice.inputs.missing, choice.inputs.price, spec.objective == Objective::cost,
                                  report.notes))
      continue;
    choice.edits = std::move((*on_gpu)->edits);
    choice.changes = std::move((*on_gpu)->changes);
    choice.counts = counts_of(on_plan);
    choice.gpus_per_node = on_plan.number("cluster.gpus_per_node");
    report.gpus.push_back(std::move(choice));
  }

  // Offload moves bytes over the host link: a GPU without a known one takes only the plan's mode.
  if (!spec.held[static_cast<std::size_t>(LayoutKey::offload)])
    for (const GpuChoice& choice : report.gpus)
      if (std::isnan(choice.inputs.host_bandwidth))
        report.notes.push_back(fmt::format("offload is searched only as the plan writes it ({}) on {}: its host link "
                                           "(cluster.host_bandwidth) is not known",
                                           layout::offload_name(current.offload), printable(choice.id)));

  // Every (GPU, count) pair, fewest GPUs first: minimising GPUs, the search stops at the count
  // where the layouts it holds beat any more GPUs can.
  struct Pair {
    double count;
    int gpu;
  };
  std::vector<Pair> pairs;
  for (std::size_t g = 0; g < report.gpus.size(); ++g)
    for (const double count : report.gpus[g].counts) {
      if (pairs.size() >= max_pairs)
        return Error(fmt::format("--count: more than {} GPU counts to search; narrow the range", max_pairs));
      pairs.push_back({count, static_cast<int>(g)});
    }
  if (pairs.empty())
    return Error(fmt::format("{}: no GPU type and count to search (--count's range holds no whole node of the GPUs)",
                             report.path));
  std::stable_sort(pairs.begin(), pairs.end(), [](const Pair& a, const Pair& b) { return a.count < b.count; });

  // The global batches: the plan's, or its multiples (batch_scales) that leave whole sequences.
  report.batch_varied = options.vary_batch;
  std::vector<double>& scales = report.batch_scales;
  if (report.batch_varied) {
    scales.clear();
    for (const double scale : batch_scales)
      if (!in.batch_in_sequences || std::floor(in.sequences_per_step * scale) == in.sequences_per_step * scale)
        scales.push_back(scale);
  }
  const auto started = std::chrono::steady_clock::now();
  SearchResult& merged = report.search;
  for (const Pair& pair : pairs) {
    if (spec.objective == Objective::gpus && merged.best.size() >= spec.top &&
        merged.best.back().rank.objective < pair.count)
      break;
    const GpuChoice& choice = report.gpus[static_cast<std::size_t>(pair.gpu)];
    layout::TrainingInputs on = choice.inputs;
    if (pair.count != on.count) {
      // What the count changes: the job's scale-up domain, unless the plan states it of its GPU.
      const PlanValue* domain = plan.find("cluster.scale_up_domain");
      if (!choice.plans_own || !domain || domain->origin != Origin::plan)
        on.scale_up_domain =
            job_scale_up_domain(catalog.find(choice.id), choice.gpus_per_node, pair.count).value_or(layout::absent);
      on.count = pair.count;
    }
    for (const double scale : scales) {
      layout::TrainingInputs batched = on;
      batched.sequences_per_step *= scale;
      batched.tokens_per_step *= scale;
      SearchSpec pair_spec = spec;
      pair_spec.max_layouts = spec.max_layouts - std::min(spec.max_layouts, merged.layouts);
      SearchResult found = search_training(batched, current, pair_spec);
      merged.layouts += found.layouts;
      merged.passing += found.passing;
      if (found.too_large) {
        merged.too_large = true;
        break;
      }
      for (Ranked& r : found.best) {
        r.gpu = pair.gpu;
        r.batch_scale = scale;
        merged.best.push_back(r);
      }
      std::stable_sort(merged.best.begin(), merged.best.end(), ranks_before);
      if (merged.best.size() > spec.top) merged.best.resize(spec.top);
      for (FamilyMiss& miss : found.misses) {
        miss.nearest.gpu = pair.gpu;
        miss.nearest.batch_scale = scale;
        merged.misses.push_back(miss);
      }
      std::stable_sort(merged.misses.begin(), merged.misses.end(),
                       [](const FamilyMiss& a, const FamilyMiss& b) { return a.failure.ratio < b.failure.ratio; });
      if (merged.misses.size() > spec.families) merged.misses.resize(spec.families);
    }
    if (merged.too_large) break;
  }
  report.search_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (report.search.too_large)
    return Error(fmt::format("{}: the layouts of {} GPUs are more than {} to search; hold some keys as written with "
                             "--keep",
                             report.path, in.count, spec.max_layouts));

  // The engine confirms each layout printed: the plan with it (and its [estimates] claims of
  // the figures the layout changes brought to their new values) lints with no error.
  std::size_t index = 0;
  for (const Ranked& ranked : report.search.best) {
    ++index;
    Solution solution;
    solution.ranked = ranked;
    const GpuChoice& choice = report.gpus[static_cast<std::size_t>(ranked.gpu)];
    solution.edits = choice.edits;
    solution.changes = choice.changes;
    const double count = double(ranked.layout.tp) * ranked.layout.pp * ranked.layout.cp * ranked.layout.dp;
    if (count != in.count) {
      const PlanValue* stated = plan.find("cluster.count");
      if (stated && stated->origin == Origin::plan && stated->span.known()) {
        solution.edits.push_back({source->offset(stated->span.begin), source->offset(stated->span.end),
                                  fmt::format("{:g}", count)});
        solution.changes.push_back(fmt::format("count = {:g} (was {:g})", count, in.count));
      }
    }
    if (ranked.batch_scale != 1) {
      // training.global_batch is stated: solve needs it.
      const PlanValue* batch = plan.find("training.global_batch");
      if (batch && batch->origin == Origin::plan && batch->span.known()) {
        const std::string value = global_batch_text(in, ranked.batch_scale);
        solution.edits.push_back({source->offset(batch->span.begin), source->offset(batch->span.end),
                                  in.batch_in_sequences ? value : fmt::format("\"{}\"", value)});
        solution.changes.push_back(
            fmt::format("global_batch = {} (was {})", value, global_batch_text(in, 1)));
      }
    }
    for (fix::TextEdit& edit : layout_edits(*source, plan, current, ranked.layout, solution.changes))
      solution.edits.push_back(std::move(edit));
    internal::Confirmed confirmed =
        internal::confirm_layout(*source, toml_text, first_line, lint_options, plan, estimates, solution.edits,
                                 solution.changes, kernel_metric, searched.plan_errors);
    if (!confirmed.estimates) {
      report.unconfirmed.push_back(fmt::format("layout {} ({}): {}", index, fmt::join(solution.changes, ", "),
                                               fmt::join(confirmed.errors, "; ")));
      continue;
    }
    solution.estimates = *std::move(confirmed.estimates);
    report.solutions.push_back(std::move(solution));
  }
  return report;
}

}  // namespace planlint::solve
