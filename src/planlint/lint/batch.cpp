#include "planlint/lint/batch.hpp"

#include <algorithm>
#include <exception>

#include <fmt/format.h>

#include "planlint/lint/lint.hpp"
#include "planlint/markdown/markdown.hpp"
#include "planlint/plan/element_keys.hpp"
#include "planlint/settings/settings.hpp"
#include "planlint/suppress/suppress.hpp"

namespace planlint {

namespace {

/// Reads a task's file into `output.source` and finds its plans: a plan file's text is added
/// to `plans` (marked with `file` in `owner`), a Markdown doc's blocks are put in `blocks`.
/// Sets `output.error` when the file cannot be read or holds too many plans.
void prepare_file(FileTask& task, std::size_t file, const BatchLimits& limits, FileOutput& output,
                  std::vector<PlanText>& plans, std::vector<std::size_t>& owner, std::vector<PlanBlock>& blocks) {
  const std::string& path = *task.path;
  if (!task.text) {
    Result<std::string> text = read_file(path, limits.max_file_bytes);
    if (!text) {
      output.error = Error(fmt::format("cannot read '{}': {}", path, text.error().message));
      return;
    }
    task.text = *std::move(text);
  }
  output.source = std::make_shared<const SourceFile>(path, std::move(*task.text));
  const std::string& doc = output.source->text();
  if (!is_markdown_path(path)) {
    plans.push_back(PlanText{output.source, doc, 1, &task.settings->lint});
    owner.push_back(file);
    return;
  }
  Result<std::vector<PlanBlock>> found = plan_blocks(doc, limits.max_plans_per_file);
  if (!found) {
    const Position at = found.error().location.span.begin;
    output.error = Error(fmt::format("{}:{}:{}: {}", path, at.line, at.column, found.error().message));
    return;
  }
  blocks = *std::move(found);
  output.without_plan = blocks.empty();
}

/// Lints a doc's plans one at a time. A doc keys each plan's findings by the plan (its name,
/// else its place), so that a baseline keeps their findings apart, and a plan's keys (and
/// SARIF fingerprints) stay what they were when another plan is added to its doc or removed
/// from it.
std::vector<FileResult> lint_doc_plans(const std::vector<PlanText>& plans, FormerKeys& former_keys,
                                       std::size_t most_findings) {
  std::vector<FileResult> results;
  for (const PlanText& plan : plans)
    results.push_back(std::move(lint_texts(std::span(&plan, 1), most_findings).front()));
  std::vector<std::string> names;
  for (const FileResult& result : results) names.push_back(result.plan ? result.plan->text("plan.name").value_or("") : "");
  // A doc's only plan without a name keeps its keys unprefixed: "plans[0]" is an index, and a
  // key with an index matches a baseline entry only with its message's digest, so a finding
  // that counts days would come back the next day.
  if (results.size() == 1 && names.front().empty()) return results;
  for (std::size_t b = 0; b < results.size(); ++b) {
    const std::string block_key = plan_block_key(names, b);
    prefix_key_paths(results[b].diagnostics, block_key);
    FormerKeys& former = results[b].former_keys;
    FormerKeys prefixed;
    for (auto& [key, earlier] : former.earlier) prefixed.earlier.emplace(key_in_block(block_key, key), std::move(earlier));
    former = std::move(prefixed);
    if (results.size() == 1) former_keys.only_plan_key = block_key;
  }
  return results;
}

}  // namespace

std::vector<FileOutput> lint_batch(std::span<FileTask> tasks, const BatchLimits& limits) {
  const std::size_t most_findings = limits.max_findings_per_file * findings_kept_per_shown;
  std::vector<FileOutput> outputs(tasks.size());
  std::vector<PlanText> plans;
  std::vector<std::size_t> owner;  // plans[k] is the plan file tasks[owner[k]]
  std::vector<std::vector<PlanBlock>> blocks(tasks.size());
  plans.reserve(tasks.size());
  owner.reserve(tasks.size());
  for (std::size_t t = 0; t < tasks.size(); ++t) {
    try {
      prepare_file(tasks[t], t, limits, outputs[t], plans, owner, blocks[t]);
    } catch (const std::exception& error) {
      if (!owner.empty() && owner.back() == t) {
        owner.pop_back();
        plans.pop_back();
      }
      blocks[t].clear();
      outputs[t].error = Error(error.what(), Location{*tasks[t].path, {}});
    }
  }

  // A plan's findings → its file's output, with the suppressions of the plan's text applied
  // and their own findings selected as the plan's were.
  auto finish = [&](const PlanText& plan, std::size_t file, FileResult& result, std::uint32_t last_line) {
    const Settings& settings = *tasks[file].settings;
    FileOutput& output = outputs[file];
    if (tasks[file].keep_plans)
      output.plans.push_back(LintedPlan{plan.first_line, last_line, std::move(result.plan), std::move(result.estimates),
                                        std::move(result.ranges), std::move(result.corrected),
                                        std::move(result.stage_estimates)});
    std::vector<Diagnostic> own = apply_suppressions(result.diagnostics, find_suppressions(*output.source, plan.toml_text, plan.first_line),
                                                     settings.suppression_rules, output.source->path());
    select_findings(own, settings.lint);
    for (auto& [key, earlier] : result.former_keys.earlier) output.former_keys.earlier.emplace(key, std::move(earlier));
    // Older releases gave the findings of a file's suppressions one key, "".
    for (const Diagnostic& d : own) output.former_keys.earlier.emplace(d.key_path, "");
    for (Diagnostic& d : result.diagnostics) output.diagnostics.push_back(std::move(d));
    for (Diagnostic& d : own) output.diagnostics.push_back(std::move(d));
    for (std::size_t level = 0; level < output.findings_not_kept.size(); ++level)
      output.findings_not_kept[level] += result.findings_not_kept[level];
  };
  auto failed = [&](std::size_t file, const std::exception& error) {
    FileOutput& output = outputs[file];
    output.diagnostics.clear();
    output.plans.clear();
    output.error = Error(error.what(), Location{output.source->path(), {}});
  };
  try {
    std::vector<FileResult> results = lint_texts(plans, most_findings);
    for (std::size_t k = 0; k < plans.size(); ++k) finish(plans[k], owner[k], results[k], plans[k].source->line_count());
  } catch (const std::exception&) {
    for (std::size_t k = 0; k < plans.size(); ++k) {
      outputs[owner[k]].diagnostics.clear();
      outputs[owner[k]].plans.clear();
      outputs[owner[k]].findings_not_kept = {};
      try {
        std::vector<FileResult> results = lint_texts(std::span(&plans[k], 1), most_findings);
        finish(plans[k], owner[k], results.front(), plans[k].source->line_count());
      } catch (const std::exception& error) {
        failed(owner[k], error);
      }
    }
  }
  for (std::size_t t = 0; t < tasks.size(); ++t) {
    if (blocks[t].empty()) continue;
    const std::string& doc = outputs[t].source->text();
    try {
      std::vector<PlanText> doc_plans;
      for (const PlanBlock& block : blocks[t])
        doc_plans.push_back(PlanText{outputs[t].source, block_text(doc, block), block.first_line, &tasks[t].settings->lint});
      std::vector<FileResult> results = lint_doc_plans(doc_plans, outputs[t].former_keys, most_findings);
      for (std::size_t b = 0; b < results.size(); ++b) finish(doc_plans[b], t, results[b], blocks[t][b].last_line);
    } catch (const std::exception& error) {
      failed(t, error);
    }
  }
  for (FileOutput& output : outputs)
    std::stable_sort(output.diagnostics.begin(), output.diagnostics.end(), diagnostic_less);
  return outputs;
}

std::size_t batch_size(std::size_t files, unsigned jobs) {
  constexpr std::size_t most = 32;
  if (jobs == 1) return most;
  return std::clamp<std::size_t>(files / (std::size_t{jobs} * 8), 1, most);
}

}  // namespace planlint
