#include "planlint/solve/solve.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "planlint/estimate/engine.hpp"
#include "planlint/estimate/targets.hpp"
#include "planlint/lint/lint.hpp"
#include "planlint/rules/compiled_rule.hpp"
#include "planlint/rules/rule_set.hpp"

namespace planlint::solve {

namespace {

/// A rule option as the run sets it: [lint.options], else the rule's default.
double rule_option(const LintOptions& options, std::string_view rule_id, const std::string& name, double fallback) {
  if (auto it = options.rule_options.find(name); it != options.rule_options.end()) return it->second.value;
  const RuleSet& rules = options.rules ? *options.rules : RuleSet::builtin();
  for (const auto& rule : rules.rules())
    if (rule->descriptor.id == rule_id)
      if (auto it = rule->options.find(name); it != rule->options.end())
        if (const units::Quantity* quantity = it->second.quantity()) return quantity->value;
  return fallback;
}

std::string value_text(LayoutKey key, const layout::TrainingLayout& l) {
  switch (key) {
    case LayoutKey::tp: return std::to_string(l.tp);
    case LayoutKey::pp: return std::to_string(l.pp);
    case LayoutKey::virtual_stages: return std::to_string(l.virtual_stages);
    case LayoutKey::cp: return std::to_string(l.cp);
    case LayoutKey::ep: return std::to_string(l.ep);
    case LayoutKey::micro_batch: return std::to_string(l.micro_batch);
    case LayoutKey::zero: return std::to_string(l.zero);
    case LayoutKey::recompute: return fmt::format("\"{}\"", layout::recompute_name(l.recompute));
    case LayoutKey::sequence_parallel: return l.sequence_parallel ? "true" : "false";
  }
  return {};
}

/// The line after the last key line of the plan's [training] table (its header's line when it
/// has none): where keys the plan does not state are written.
std::size_t training_insert_offset(const SourceFile& source, const Plan& plan) {
  const PlanTable& training = plan.section("training");
  const std::string& text = source.text();
  std::uint32_t line = training.header.begin.line, last = line;
  for (std::uint32_t at = line + 1; at <= source.line_count(); ++at) {
    const std::size_t begin = source.offset(Position{at, 1});
    const std::size_t end = at < source.line_count() ? source.offset(Position{at + 1, 1}) : text.size();
    std::string_view row(text.data() + begin, end - begin);
    const std::size_t first = row.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos || row[first] == '#') continue;
    if (row[first] == '[' || row.starts_with("```")) break;
    last = at;
  }
  return last < source.line_count() ? source.offset(Position{last + 1, 1}) : text.size();
}

/// The edits that bring the plan's [estimates] claims of the figures a layout changes to their
/// values with it (`estimates`, the plan with the layout's), so that the plan it writes does not
/// claim the old layout's memory.
std::vector<fix::TextEdit> claim_edits(const SourceFile& source, const Plan& plan, const Estimates& before,
                                       const Estimates& after, std::vector<std::string>& changes) {
  std::vector<fix::TextEdit> edits;
  for (const Claim& claim : plan.estimates) {
    const MetricSpec* spec = find_metric(claim.metric);
    if (!spec || !kernel_metric(spec->id) || claim.is_range() || !claim.value || !claim.value->span.known()) continue;
    const MetricValue* old_value = before.find(spec->id);
    const MetricValue* new_value = after.find(spec->id);
    if (!new_value || (old_value && old_value->value == new_value->value)) continue;
    const std::string shown = detail::show_metric_value(*spec, new_value->value);
    edits.push_back({source.offset(claim.value->span.begin), source.offset(claim.value->span.end),
                     fmt::format("\"{}\"", shown)});
    changes.push_back(fmt::format("[estimates] \"{}\" = \"{}\"", claim.metric, shown));
  }
  return edits;
}

/// `text` with `edits` made, and the plan block in it: `block` of `source`'s text, grown by the
/// edits (which are all inside it).
struct Applied {
  std::shared_ptr<const SourceFile> source;
  std::string_view block;
};

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

}  // namespace

std::vector<fix::TextEdit> layout_edits(const SourceFile& source, const Plan& plan, const layout::TrainingLayout& from,
                                        const layout::TrainingLayout& to, std::vector<std::string>& changes) {
  std::vector<fix::TextEdit> edits;
  std::string inserted;
  for (std::size_t i = 0; i < layout_key_count; ++i) {
    const auto key = static_cast<LayoutKey>(i);
    const std::string before = value_text(key, from), after = value_text(key, to);
    const PlanValue* stated = plan.find(plan_key(key));
    const bool written = stated && stated->origin == Origin::plan && stated->span.known();
    // sequence_parallel defaults to tp > 1: a plan that leaves it out gets the new tp's default.
    const std::string default_after =
        key == LayoutKey::sequence_parallel ? (to.tp > 1 ? "true" : "false") : before;
    if (written) {
      if (before == after) continue;
      edits.push_back({source.offset(stated->span.begin), source.offset(stated->span.end), after});
    } else {
      if (after == default_after) continue;
      inserted += fmt::format("{} = {}\n", short_name(key), after);
    }
    if (before != after) changes.push_back(fmt::format("{} = {} (was {})", short_name(key), after, before));
  }
  // A stated dp follows tp · pp · cp; a derived one derives itself.
  if (const PlanValue* dp = plan.find("training.dp"); dp && dp->origin == Origin::plan && from.dp != to.dp) {
    edits.push_back({source.offset(dp->span.begin), source.offset(dp->span.end), std::to_string(to.dp)});
    changes.push_back(fmt::format("dp = {} (was {})", to.dp, from.dp));
  }
  if (!inserted.empty()) {
    const std::size_t at = training_insert_offset(source, plan);
    if (at == source.text().size() && !source.text().empty() && source.text().back() != '\n')
      inserted.insert(0, "\n");
    edits.push_back({at, at, inserted});
  }
  std::sort(edits.begin(), edits.end(), [](const fix::TextEdit& a, const fix::TextEdit& b) { return a.begin < b.begin; });
  return edits;
}

Result<SolveReport> solve_plan(std::shared_ptr<const SourceFile> source, std::string_view toml_text,
                               std::uint32_t first_line, const LintOptions& lint_options, const SolveOptions& options) {
  SolveReport report;
  report.path = source->path();
  FileResult linted = lint_text(source, toml_text, lint_options, first_line);
  if (!linted.plan || !linted.estimates)
    return Error(fmt::format("{}: the plan is not valid TOML (`planlint check` shows where)", report.path));
  const Plan& plan = *linted.plan;
  if (!plan.is_training())
    return Error(fmt::format("{}: solve searches the layouts of training and fine-tuning plans; this is an "
                             "inference plan",
                             report.path));
  const Catalog& catalog = lint_options.catalog ? *lint_options.catalog : Catalog::builtin();
  report.inputs = layout::read_training_inputs(plan, catalog, *linted.estimates);
  const layout::TrainingInputs& in = report.inputs;
  if (!in.missing.empty())
    return Error(fmt::format("{}: solve needs {} to evaluate a layout", report.path, fmt::join(in.missing, ", ")));
  if (!(in.count >= 1) || std::floor(in.count) != in.count || in.count > 1e7)
    return Error(fmt::format("{}: cluster.count must be a whole number of GPUs to search layouts over", report.path));
  report.gpu = plan.text("cluster.gpu").value_or("");

  SearchSpec& spec = report.spec;
  spec.objective = options.objective;
  spec.top = options.top;
  if (spec.objective == Objective::cost && std::isnan(in.price))
    return Error(fmt::format("{}: --minimize cost needs cluster.price; state it, or give --minimize days", report.path));
  for (const TargetResult& target : target_results(plan, *linted.estimates)) {
    if (!target.spec || !target.bound || !kernel_metric(target.spec->id)) continue;
    (target.hard ? spec.hard_targets : spec.soft_targets)
        .push_back(TargetBound{target.name, target.spec->id, target.is_max, *target.bound});
  }
  spec.max_bubble = rule_option(lint_options, "pipeline-bubble", "max_bubble", spec.max_bubble);
  spec.max_comm_fraction =
      rule_option(lint_options, "interconnect-bottleneck", "max_comm_fraction", spec.max_comm_fraction);
  std::vector<std::string> unknown;
  spec.held = held_keys(in, options.keep, unknown);
  if (!unknown.empty())
    return Error(fmt::format("--keep: {} is not a layout key (tp, pp, virtual_stages, cp, ep, micro_batch, zero, "
                             "recompute, sequence_parallel)",
                             fmt::join(unknown, ", ")));
  if (in.first_stage_layers > 0 && std::find(options.keep.begin(), options.keep.end(), "pp") == options.keep.end())
    report.notes.push_back("pp is held: training.first_stage_layers splits the layers over the plan's own pp");
  if (!std::isnan(in.measured_activations))
    report.notes.push_back("tp, pp, virtual_stages, cp, micro_batch, recompute and sequence_parallel are held: "
                           "training.activation_memory is measured for the plan's layout");

  const layout::TrainingLayout current = layout::plan_layout(plan);
  report.current.layout = current;
  report.current.figures = layout::evaluate(in, current);
  report.current.rank = rank_of(in, spec, current, report.current.figures);
  report.current_failure = failure_of(in, spec, report.current.figures);

  const auto started = std::chrono::steady_clock::now();
  report.search = search_training(in, current, spec);
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
    solution.edits = layout_edits(*source, plan, current, ranked.layout, solution.changes);
    Applied applied = apply_to_block(*source, toml_text, solution.edits);
    FileResult result = lint_text(applied.source, applied.block, lint_options, first_line);
    if (result.estimates) {
      std::vector<fix::TextEdit> claims =
          claim_edits(*source, plan, *linted.estimates, *result.estimates, solution.changes);
      if (!claims.empty()) {
        solution.edits.insert(solution.edits.end(), claims.begin(), claims.end());
        std::sort(solution.edits.begin(), solution.edits.end(),
                  [](const fix::TextEdit& a, const fix::TextEdit& b) { return a.begin < b.begin; });
        applied = apply_to_block(*source, toml_text, solution.edits);
        result = lint_text(applied.source, applied.block, lint_options, first_line);
      }
    }
    std::vector<std::string> errors;
    for (const Diagnostic& d : result.diagnostics)
      if (d.severity == Severity::error && !d.suppression) errors.push_back(fmt::format("{}: {}", d.rule, d.message));
    if (!errors.empty() || !result.estimates) {
      report.unconfirmed.push_back(fmt::format("layout {} ({}): {}", index, fmt::join(solution.changes, ", "),
                                               fmt::join(errors, "; ")));
      continue;
    }
    solution.estimates = *std::move(result.estimates);
    report.solutions.push_back(std::move(solution));
  }
  return report;
}

}  // namespace planlint::solve
