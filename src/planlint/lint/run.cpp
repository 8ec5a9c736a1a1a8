#include "planlint/lint/run.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <numeric>
#include <set>
#include <thread>

#include <fmt/format.h>

#include "planlint/baseline/baseline.hpp"
#include "planlint/config/config.hpp"
#include "planlint/diag/native_rules.hpp"
#include "planlint/files/output_file.hpp"
#include "planlint/emit/written_files.hpp"
#include "planlint/lint/batch.hpp"
#include "planlint/lint/findings_cap.hpp"
#include "planlint/lint/gitignore.hpp"
#include "planlint/lint/inputs.hpp"
#include "planlint/markdown/markdown.hpp"
#include "planlint/parallel/parallel_in_order.hpp"

namespace planlint {

namespace {

namespace fs = std::filesystem;

/// What a run knows before it lints: its files, each with the settings of its config, and the
/// baseline it applies.
struct Prepared {
  std::vector<Input> inputs;
  SettingsCache settings;
  std::vector<const Settings*> settings_of;  ///< by input
  std::optional<BaselineMatcher> baseline;
  std::vector<std::string> notes;  ///< the search's, for RunResult::messages

  explicit Prepared(const RunOptions& options) : settings(options) {}
};

void add_problems(const DiagnosticSink& problems, std::vector<Error>& errors) {
  for (const Diagnostic& d : problems) errors.emplace_back(d.message, d.primary, d.help);
}

/// Drops the files a folder search found that their config's `exclude` leaves out (relative to
/// the config's folder, a folder with its files). A named file is linted all the same.
void leave_out_excluded(Prepared& run) {
  std::map<const Settings*, IgnorePatterns> patterns;
  std::size_t kept = 0;
  for (std::size_t i = 0; i < run.inputs.size(); ++i) {
    const Settings* settings = run.settings_of[i];
    bool excluded = false;
    if (run.inputs[i].found_in_folder && settings->config && !settings->config->exclude.empty()) {
      auto it = patterns.try_emplace(settings, settings->config->exclude).first;
      std::error_code ec;
      const fs::path folder = fs::absolute(settings->config->path, ec).lexically_normal().parent_path();
      const fs::path file = fs::absolute(run.inputs[i].path, ec).lexically_normal();
      excluded = !ec && ignored_with_folders(it->second, file.lexically_relative(folder).generic_string(), false);
    }
    if (excluded) continue;
    if (kept != i) run.inputs[kept] = std::move(run.inputs[i]);
    run.settings_of[kept++] = settings;
  }
  run.inputs.resize(kept);
  run.settings_of.resize(kept);
}

/// Standard input read as TOML (no --stdin-filename, or one not a Markdown name) that is a
/// Markdown doc with a plan block: its toml-syntax finding says how to read it as a doc.
void hint_markdown_on_stdin(FileOutput& output) {
  for (Diagnostic& d : output.diagnostics)
    if (d.rule == native_rules::toml_syntax && !plan_blocks(output.source->text()).empty())
      d.help = "standard input is a Markdown doc with a ```toml plan block: name it with --stdin-filename "
               "NAME.md to lint its plans";
}

/// The inputs, the settings of each and the baseline, or the errors that stop the run.
bool prepare(const RunOptions& options, unsigned jobs, Prepared& run, std::vector<Error>& errors) {
  // A symbolic link planted where a report goes is refused before anything is read.
  for (const auto& [path, option] : {std::pair{&options.output, "-o"}, std::pair{&options.write_baseline, "--write-baseline"}})
    if (*path)
      if (std::optional<Error> refused = refused_symlink(**path, OutputTarget{option, options.output_follow_symlinks}))
        errors.push_back(*std::move(refused));
  if (!errors.empty()) return false;
  // Settings per config file, made once each (rule packs compile once). The configs that
  // govern the searched folders are read before the search: their `respect_gitignore` says
  // whether it reads .gitignore files.
  DiagnosticSink problems;
  if (options.config && !run.settings.find(options.config, problems, ConfigOrigin::command_line)) {
    add_problems(problems, errors);
    return false;
  }
  const ConfigOrigin origin = options.config ? ConfigOrigin::command_line : ConfigOrigin::discovered;
  ConfigDiscovery discovery;  // each folder's nearest config, looked up once per run
  // Every config's mistakes are reported in one run: a config that fails is not read again for
  // the next file it governs, and the files of the other configs go on.
  std::set<std::optional<std::string>> failed;
  auto settings_of = [&](const std::optional<std::string>& config) -> const Settings* {
    if (failed.count(config)) return nullptr;
    const std::size_t before = problems.size();
    const Settings* settings = run.settings.find(config, problems, origin);
    if (problems.size() > before) failed.insert(config);
    return problems.size() > before ? nullptr : settings;
  };
  SearchOptions search;
  if (options.stdin_text) search.standard_input = Input{options.stdin_filename, options.stdin_text, std::nullopt, true};
  search.gitignore = [&](const std::string& folder) {
    if (!options.gitignore) return false;
    std::optional<std::string> config = options.config;
    if (!config && options.discover_config) config = discovery.find((fs::path(folder) / config_file_name).string());
    const Settings* settings = settings_of(config);
    return !settings || !settings->config || settings->config->respect_gitignore;
  };
  search.notes = &run.notes;
  search.exclude = options.exclude;
  Result<std::vector<Input>> inputs = expand_inputs(options.paths, options.skip_non_plans, options.max_file_bytes,
                                                    InputReader(), jobs, search);
  if (!inputs) {
    const Error& error = inputs.error();
    errors.emplace_back(fmt::format("cannot read '{}': {}", error.location.file, error.message));
    return false;
  }
  run.inputs = *std::move(inputs);
  const WrittenFiles written{options.output, options.write_baseline, options.baseline};
  if (writes_files(written)) {
    std::vector<std::string> linted;
    for (const Input& input : run.inputs) linted.push_back(input.path);
    errors = check_written_files(written, linted);
    if (!errors.empty()) return false;
  }

  for (const Input& input : run.inputs) {
    std::optional<std::string> config = options.config;
    if (!config && options.discover_config) config = discovery.find(input.path);
    run.settings_of.push_back(settings_of(config));
  }
  if (!problems.empty()) {
    add_problems(problems, errors);
    return false;
  }
  leave_out_excluded(run);
  if (run.inputs.empty() && !options.allow_empty && !options.skip_non_plans) {
    errors.emplace_back(fmt::format(
        "no plans found in {}: no *.toml file with a [plan] table, no Markdown doc with a ```toml plan block "
        "(--allow-empty makes this exit 0)",
        fmt::join(options.paths, ", ")));
    return false;
  }
  run.settings.check_command_line_names(problems);
  add_problems(problems, errors);
  if (!errors.empty()) return false;

  if (options.baseline) {
    Result<BaselineMatcher> baseline = load_baseline(*options.baseline, options.max_file_bytes);
    if (!baseline) {
      errors.push_back(baseline.error());
      return false;
    }
    run.baseline.emplace(*std::move(baseline));
  }
  return true;
}

}  // namespace

RunResult run_lint(const RunOptions& options, ReportSink& sink) {
  RunResult result;
  const unsigned jobs = options.jobs ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  Prepared run(options);
  if (!prepare(options, jobs, run, result.errors)) return result;
  result.messages = std::move(run.notes);

  std::set<std::string, std::less<>> listed;  // ids in result.rules
  if (options.list_rules) {
    result.rules = run.settings.rules_that_run();
    for (const RuleDescriptor& rule : result.rules) listed.insert(rule.id);
  }

  // The files in the report's order: diagnostic_less orders findings by their file's path as
  // a string, and a folder's search returns paths in std::filesystem's order of components.
  const std::vector<Input>& inputs = run.inputs;
  std::vector<std::size_t> order(inputs.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return inputs[a].path < inputs[b].path; });

  // Hands a file to the sink, counting its failing findings (all of them: the exit status does
  // not depend on the cap), capping them and noting rules not listed yet.
  auto hand_over = [&](std::size_t input, FileOutput& output) {
    const Severity fail_on = run.settings_of[input]->fail_on;
    for (const Diagnostic& d : output.diagnostics)
      if (!d.suppression && d.severity >= fail_on) ++result.failing;
    // The findings its loader did not keep count as they are: no suppression could be matched
    // to them, and a run that cannot tell whether they are accepted does not pass.
    for (std::size_t level = static_cast<std::size_t>(fail_on); level < output.findings_not_kept.size(); ++level)
      result.failing += output.findings_not_kept[level];
    // After the baseline has matched every finding kept, so that its entries of a capped file
    // are stale only when no finding matched them.
    const std::size_t dropped = cap_findings(output.diagnostics, options.max_findings_per_file) +
                                total(output.findings_not_kept);
    if (dropped > 0)
      result.messages.push_back(fmt::format("planlint: note: {}: {}", output.source->path(),
                                            findings_cap_note(dropped, options.max_findings_per_file)));
    for (const Diagnostic& d : output.diagnostics) {
      if (options.list_rules && listed.insert(d.rule).second) {
        RuleDescriptor rule;
        rule.id = d.rule;
        rule.severity = d.severity;
        rule.summary = d.rule;
        result.rules.push_back(std::move(rule));
      }
    }
    sink.file(output.source, output.diagnostics);
  };
  // --write-baseline records every finding before any is shown, as accepted: the files are
  // held until the baseline is written.
  std::vector<std::pair<std::size_t, FileOutput>> held;
  const std::size_t batch = batch_size(order.size(), jobs);
  const BatchLimits limits{options.max_file_bytes, options.max_plans_per_file, options.max_findings_per_file};
  parallel_in_order(
      (order.size() + batch - 1) / batch, jobs,
      [&](std::size_t b) {
        std::vector<FileTask> tasks;
        for (std::size_t k = b * batch; k < std::min(order.size(), (b + 1) * batch); ++k) {
          Input& input = run.inputs[order[k]];
          tasks.push_back(FileTask{&input.path, std::move(input.text), run.settings_of[order[k]]});
        }
        return lint_batch(tasks, limits);
      },
      [&](std::size_t b, std::vector<FileOutput> outputs) {
        for (std::size_t j = 0; j < outputs.size(); ++j) {
          FileOutput& output = outputs[j];
          if (output.error) result.errors.push_back(*output.error);
          // Nothing after a file that could not be linted: the run ends with exit status 2.
          if (!result.errors.empty()) return;
          // "No problems in 1 file" alone would read as a doc whose plan passed (a block
          // fenced ```TOML-less, or its [plan] header left out); still exit 0, so that
          // `planlint check docs/*.md` passes over the docs without a plan.
          if (output.without_plan)
            result.messages.push_back(fmt::format(
                "planlint: note: {}: no plan found: the doc holds no ```toml block with a [plan] table, so nothing "
                "in it was linted",
                output.source->path()));
          if (run.inputs[order[b * batch + j]].standard_input && !is_markdown_path(output.source->path()))
            hint_markdown_on_stdin(output);
          if (run.baseline) {
            run.baseline->apply(output.diagnostics, output.former_keys);
            // A file whose findings are not all kept (FileOutput::findings_not_kept) may hold
            // those its entries accept: none of them is reported stale.
            if (total(output.findings_not_kept) == 0) run.baseline->linted(output.source->path());
          }
          if (options.write_baseline) held.emplace_back(order[b * batch + j], std::move(output));
          else hand_over(order[b * batch + j], output);
        }
      });
  if (!result.errors.empty()) return result;

  if (run.baseline)
    for (std::string& note : baseline_notes(*run.baseline, *options.baseline)) result.messages.push_back(std::move(note));
  if (options.write_baseline) {
    std::vector<std::vector<Diagnostic>*> files;
    for (auto& [input, output] : held) files.push_back(&output.diagnostics);
    const Baseline recorded = record_baseline(*options.write_baseline, files);
    if (Result<void> written = write_file_atomically(recorded.path, baseline_text(recorded.entries),
                                                     OutputTarget{"--write-baseline", options.output_follow_symlinks});
        !written) {
      result.errors.push_back(written.error());
      return result;
    }
    result.messages.push_back(accept_recorded(recorded, files));
    for (auto& [input, output] : held) hand_over(input, output);
  }

  std::sort(result.rules.begin(), result.rules.end(),
            [](const RuleDescriptor& a, const RuleDescriptor& b) { return a.id < b.id; });
  sink.finish(result.rules);
  return result;
}

RunResult run_lint(const RunOptions& options) {
  ReportCollector collector;
  RunResult result = run_lint(options, collector);
  if (result.errors.empty()) result.report = std::move(collector.report());
  return result;
}

}  // namespace planlint
