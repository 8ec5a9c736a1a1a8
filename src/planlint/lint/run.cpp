#include "planlint/lint/run.hpp"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <filesystem>
#include <iterator>
#include <memory>
#include <mutex>
#include <numeric>
#include <set>
#include <span>
#include <thread>

#include <sys/stat.h>

#include <fmt/format.h>

#include "planlint/baseline/baseline.hpp"
#include "planlint/config/config.hpp"
#include "planlint/diag/suggest.hpp"
#include "planlint/emit/output_file.hpp"
#include "planlint/lint/inputs.hpp"
#include "planlint/lint/lint.hpp"
#include "planlint/lint/rule_packs.hpp"
#include "planlint/markdown/markdown.hpp"
#include "planlint/plan/element_keys.hpp"
#include "planlint/rules/compiled_rule.hpp"
#include "planlint/suppress/suppress.hpp"

namespace planlint {

namespace {

namespace fs = std::filesystem;

/// Everything that configures the lint of the files sharing one config file.
struct Settings {
  std::optional<Config> config;
  std::unique_ptr<Catalog> catalog;
  std::unique_ptr<RuleSet> rule_set;
  LintOptions lint;
  Severity fail_on = Severity::error;
  /// The descriptors of rules(), which outlives them (rule_set, or the built-in set): views,
  /// not copies, since a one-plan run has no use for 61 copies of every summary.
  std::vector<const RuleDescriptor*> all_rules;
  SuppressionRules suppression_rules;

  const RuleSet& rules() const { return rule_set ? *rule_set : RuleSet::builtin(); }

  std::string group_of(std::string_view rule) const {
    auto it = suppression_rules.group_of.find(rule);
    return it == suppression_rules.group_of.end() ? std::string() : it->second;
  }
};

/// The names a selection or an option may use: every rule id and group of `settings` ("all"
/// too), and every option of its rules.
struct KnownNames {
  std::set<std::string, std::less<>> rules, options;

  void add(const RuleSet& rule_set) {
    rules.insert("all");
    for (const auto& rule : rule_set.rules()) {
      rules.insert(rule->descriptor.id);
      rules.insert(rule->descriptor.group);
      for (const auto& [name, value] : rule->options) options.insert(name);
    }
  }

  /// Empty when `name` is known; else why not, with the closest known name.
  std::string problem(std::string_view name, bool option) const {
    const auto& known = option ? options : rules;
    if (known.count(name)) return {};
    std::vector<std::string_view> candidates(known.begin(), known.end());
    std::string text = option ? "no rule has an option of that name" : "no rule or group has that name";
    if (auto suggestion = closest_match(name, candidates)) text += fmt::format("; did you mean '{}'?", *suggestion);
    return text + (option ? " (`planlint explain RULE` lists a rule's options)" : " (`planlint rules` lists them)");
  }
};

/// A config option of another dimension than the rule's (`assumption_max_age = 90` for a
/// time) would be passed over and the rule keep its default in silence: an error naming what
/// the rule expects.
void check_option_dimension(Settings& settings, const ConfigName& entry, std::vector<std::string>& errors) {
  const auto configured = settings.config->options.find(entry.name);
  if (configured == settings.config->options.end()) return;
  for (const auto& rule : settings.rules().rules()) {
    const auto option = rule->options.find(entry.name);
    if (option == rule->options.end()) continue;
    const units::Quantity* expected = option->second.quantity();
    if (!expected) continue;
    const units::Quantity& value = configured->second;
    // A fraction written as a whole percent (max_fill = 30 for "85%") reads as 3000%: the rule
    // would never fire. A plain number is taken for that slip when it is above 1 where the
    // default is a fraction of at most 100%, or ten times a default above 100% (a margin of
    // "120%" takes 1.3, not 130); a negative one is no fraction at all.
    const bool percent_default = expected->percent && value.dim.dimensionless() && !value.percent;
    const double slip_above = expected->value <= 1 ? 1 : 10 * expected->value;
    auto percent_text = [](double fraction) { return units::format_in(fraction, units::dims::none, "%"); };
    if (percent_default && value.value > slip_above) {
      errors.push_back(fmt::format(
          "{}:{}:{}: error: lint.options.{} = {:g} is {}, but rule {} reads a fraction (its default is \"{}\"): "
          "write {:g}% or {:g}",
          settings.config->path, entry.span.begin.line, entry.span.begin.column, entry.name, value.value,
          percent_text(value.value), rule->descriptor.id, percent_text(expected->value), value.value,
          value.value / 100));
      return;
    }
    if (percent_default && value.value < 0) {
      errors.push_back(fmt::format(
          "{}:{}:{}: error: lint.options.{} = {:g} is negative, but rule {} reads a fraction (its default is "
          "\"{}\")",
          settings.config->path, entry.span.begin.line, entry.span.begin.column, entry.name, value.value,
          rule->descriptor.id, percent_text(expected->value)));
      return;
    }
    if (expected->dim == value.dim) continue;
    // A count reads as itself, as `count = 2048` does in a plan: `max_gpus = 2048` for a
    // default of "1000 GPU". A time, a size or a price written plain is left an error, since
    // its base unit (seconds, bytes) is not what the plain number means.
    const bool count = expected->dim == units::dims::gpus || expected->dim == units::dims::tokens ||
                       expected->dim == units::dims::requests || expected->dim == units::dims::sequences;
    if (count && value.dim.dimensionless() && !value.percent) {
      settings.lint.rule_options[entry.name].dim = expected->dim;
      return;
    }
    errors.push_back(fmt::format(
        "{}:{}:{}: error: lint.options.{} is {}, but rule {} expects a quantity of {}, such as its default \"{}\"",
        settings.config->path, entry.span.begin.line, entry.span.begin.column, entry.name,
        configured->second.dim.dimensionless() ? "a plain number" : units::describe(configured->second.dim),
        rule->descriptor.id, units::describe(expected->dim), units::format(expected->value, expected->dim)));
    return;
  }
}

/// Builds the settings of one config (or none) with the command line's on top. Errors (a rule
/// pack or catalog that does not load) are appended to `errors`.
std::unique_ptr<Settings> make_settings(std::optional<Config> config, const RunOptions& options,
                                        std::vector<std::string>& errors) {
  auto settings = std::make_unique<Settings>();
  RuleSelection& selection = settings->lint.selection;
  if (options.select) selection.select = *options.select;
  else if (config && config->select) selection.select = *config->select;
  if (options.ignore) selection.ignore = *options.ignore;
  else if (config && config->ignore) selection.ignore = *config->ignore;
  if (config) selection.severity = config->severity;
  for (const auto& [rule, level] : options.severity) selection.severity[rule] = level;

  settings->rule_set = load_rule_packs(config ? &*config : nullptr, options.rules, errors);
  if (config && !config->catalogs.empty()) {
    settings->catalog = std::make_unique<Catalog>(Catalog::builtin());
    std::vector<Diagnostic> catalog_errors;
    if (!settings->catalog->load_files(config->catalogs, catalog_errors)) {
      for (const Diagnostic& d : catalog_errors) errors.push_back(error_line(d));
      errors.push_back("planlint: error: invalid catalog");
    }
    settings->lint.catalog = settings->catalog.get();
  }
  settings->lint.rules = settings->rule_set.get();
  if (config) {
    settings->lint.rule_options = config->options;
    settings->lint.tolerances = config->tolerances;
  }
  settings->lint.today = options.today;
  // A check shows no provenance and no ranges: the ranges are computed for rules that read them.
  settings->lint.full_estimates = false;
  settings->fail_on = options.fail_on.value_or(config && config->fail_on ? *config->fail_on : Severity::error);

  for (const auto& rule : settings->rules().rules()) {
    settings->all_rules.push_back(&rule->descriptor);
    settings->suppression_rules.group_of.emplace(rule->descriptor.id, rule->descriptor.group);
  }
  const Settings* self = settings.get();
  settings->suppression_rules.level = [self](std::string_view rule, Severity default_level) {
    return effective_severity(self->lint.selection, rule, self->group_of(rule), default_level);
  };
  settings->suppression_rules.enabled = [self](std::string_view name, std::string_view) {
    // A rule id: whether it runs; a group (or "all"): whether any of its rules runs.
    const bool is_rule = self->suppression_rules.group_of.count(name) > 0;
    for (const RuleDescriptor* rule : self->all_rules) {
      const bool named = is_rule ? rule->id == name : (rule->group == name || name == "all");
      if (named && effective_severity(self->lint.selection, rule->id, rule->group, rule->severity)) return true;
    }
    return false;
  };
  settings->config = std::move(config);

  // A misspelt rule, group or option name in the config would turn a check off, or leave it
  // at its default, in silence: in CI, no check at all. (The command line's are checked in
  // run_lint, against the rules of every config.)
  if (settings->config && !settings->config->names.empty()) {
    KnownNames known;
    known.add(settings->rules());
    for (const ConfigName& entry : settings->config->names) {
      const std::string problem = known.problem(entry.name, entry.key == "lint.options");
      if (!problem.empty())
        errors.push_back(fmt::format("{}:{}:{}: error: {} names '{}': {}", settings->config->path,
                                     entry.span.begin.line, entry.span.begin.column, entry.key,
                                     entry.name, problem));
      else if (entry.key == "lint.options")
        check_option_dimension(*settings, entry, errors);
    }
  }
  return settings;
}

/// The rule ids and groups of --select, --ignore and --severity, against the rules of every
/// config of the run (the built-in rules when there is no input): a line for stderr for each
/// that none has.
void check_command_line_names(const RunOptions& options,
                              const std::map<std::string, std::unique_ptr<Settings>>& settings_by_config,
                              std::vector<std::string>& errors) {
  if (!options.select && !options.ignore && options.severity.empty()) return;  // the usual run
  KnownNames known;
  for (const auto& [key, settings] : settings_by_config) known.add(settings->rules());
  if (settings_by_config.empty()) known.add(RuleSet::builtin());
  auto check = [&](std::string_view option, const std::string& name) {
    const std::string problem = known.problem(name, false);
    if (!problem.empty()) errors.push_back(fmt::format("planlint: error: {} {}: {}", option, name, problem));
  };
  for (const std::string& name : options.select.value_or(std::vector<std::string>{})) check("--select", name);
  for (const std::string& name : options.ignore.value_or(std::vector<std::string>{})) check("--ignore", name);
  for (const auto& [name, level] : options.severity) check("--severity", name);
}

/// Keeps the findings the selection runs, at their effective level (lint_text applies the
/// same selection; this also covers findings added after it).
void apply_selection(std::vector<Diagnostic>& diagnostics, const Settings& settings) {
  std::vector<Diagnostic> kept;
  for (Diagnostic& d : diagnostics) {
    if (auto level = effective_severity(settings.lint.selection, d.rule, settings.group_of(d.rule), d.severity)) {
      d.severity = *level;
      kept.push_back(std::move(d));
    }
  }
  diagnostics = std::move(kept);
}

struct FileOutput {
  std::shared_ptr<const SourceFile> source;
  std::vector<Diagnostic> diagnostics;
  std::optional<std::string> error;
  /// A Markdown doc without a plan block: nothing in it was linted (only a named doc gets
  /// here; a folder search and --skip-non-plans pass over it).
  bool without_plan = false;
};

/// A file of a batch (lint_batch): its input and the settings of its config.
struct FileTask {
  const std::string* path;
  std::optional<std::string> text;  ///< the text, when the search for inputs read it already
  const Settings* settings;
};

/// Reads a task's file into `output.source` and finds its plans: a plan file's text is added
/// to `plans` (marked with `file` in `owner`), a Markdown doc's blocks are put in `blocks`.
/// False, with `output.error`, when the file cannot be read or holds too many plans.
bool prepare_file(FileTask& task, std::size_t file, const RunOptions& options, FileOutput& output,
                  std::vector<PlanText>& plans, std::vector<std::size_t>& owner,
                  std::vector<PlanBlock>& blocks) {
  const std::string& path = *task.path;
  std::string reason;
  if (!task.text) task.text = read_file(path, reason, options.max_file_bytes);
  if (!task.text) {
    output.error = fmt::format("planlint: error: cannot read '{}': {}", path, reason);
    return false;
  }
  output.source = std::make_shared<const SourceFile>(path, std::move(*task.text));
  const std::string& doc = output.source->text();
  if (!is_markdown_path(path)) {
    plans.push_back(PlanText{output.source, doc, 1, &task.settings->lint});
    owner.push_back(file);
    return true;
  }
  blocks = plan_blocks(doc);
  output.without_plan = blocks.empty();
  // Each block is parsed with the doc's lines before it blanked, so a doc's cost grows with
  // blocks × lines: the limit keeps a generated doc from taking minutes (docs/hardening.md).
  if (blocks.size() > options.max_plans_per_file) {
    output.error = fmt::format(
        "planlint: error: {}:{}:1: the doc holds {} plans, over the limit of {} plans per Markdown "
        "file (raise it with --max-plans-per-file)",
        path, blocks[options.max_plans_per_file].first_line - 1,  // the first extra block's fence
        blocks.size(), options.max_plans_per_file);
    blocks.clear();
    return false;
  }
  return true;
}

/// Lints a batch of files: the plan files with lint_texts, each stage over all of them in a
/// row; then each Markdown doc's blocks one at a time (a block is linted from a copy of the doc
/// up to its end, and a doc may hold a hundred: a batch's copies held at once could take
/// gigabytes). Applies each file's selection and inline suppressions and sorts its findings
/// (here, in the parallel part: the report's sort then finds them in order). A batch whose lint
/// throws is linted again file by file, so that the error names its file.
std::vector<FileOutput> lint_batch(std::span<FileTask> tasks, const RunOptions& options) {
  std::vector<FileOutput> outputs(tasks.size());
  std::vector<PlanText> plans;
  std::vector<std::size_t> owner;  // plans[k] is the plan file tasks[owner[k]]
  std::vector<std::vector<PlanBlock>> blocks(tasks.size());
  plans.reserve(tasks.size());
  owner.reserve(tasks.size());
  for (std::size_t t = 0; t < tasks.size(); ++t) {
    try {
      prepare_file(tasks[t], t, options, outputs[t], plans, owner, blocks[t]);
    } catch (const std::exception& error) {
      if (!owner.empty() && owner.back() == t) {
        owner.pop_back();
        plans.pop_back();
      }
      blocks[t].clear();
      outputs[t].error = fmt::format("planlint: error: {}: {}", *tasks[t].path, error.what());
    }
  }

  // A plan's findings → its file's output, after the file's selection and suppressions.
  auto finish = [&](const PlanText& plan, std::size_t file, FileResult& result) {
    const Settings& settings = *tasks[file].settings;
    FileOutput& output = outputs[file];
    apply_selection(result.diagnostics, settings);
    apply_suppressions(result.diagnostics, find_suppressions(*output.source, plan.toml_text),
                       settings.suppression_rules, output.source->path());
    for (Diagnostic& d : result.diagnostics) output.diagnostics.push_back(std::move(d));
  };
  auto failed = [&](std::size_t file, const std::exception& error) {
    FileOutput& output = outputs[file];
    output.diagnostics.clear();
    output.error = fmt::format("planlint: error: {}: {}", output.source->path(), error.what());
  };
  try {
    std::vector<FileResult> results = lint_texts(plans);
    for (std::size_t k = 0; k < plans.size(); ++k) finish(plans[k], owner[k], results[k]);
  } catch (const std::exception&) {
    for (std::size_t k = 0; k < plans.size(); ++k) {
      outputs[owner[k]].diagnostics.clear();
      try {
        std::vector<FileResult> results = lint_texts(std::span(&plans[k], 1));
        finish(plans[k], owner[k], results.front());
      } catch (const std::exception& error) {
        failed(owner[k], error);
      }
    }
  }
  for (std::size_t t = 0; t < tasks.size(); ++t) {
    if (blocks[t].empty()) continue;
    const std::string& doc = outputs[t].source->text();
    try {
      // A doc keys each plan's findings by the plan (its name, else its place), so that a
      // baseline keeps their findings apart, and a plan's keys (and SARIF fingerprints) stay
      // what they were when another plan is added to its doc or removed from it.
      std::vector<std::string> texts;
      std::vector<PlanText> plans;
      for (const PlanBlock& block : blocks[t]) texts.push_back(blank_outside(doc, block));
      for (std::size_t b = 0; b < blocks[t].size(); ++b)
        plans.push_back(PlanText{outputs[t].source, texts[b], blocks[t][b].first_line, &tasks[t].settings->lint});
      std::vector<FileResult> results;
      for (const PlanText& plan : plans) results.push_back(std::move(lint_texts(std::span(&plan, 1)).front()));
      std::vector<std::string> names;
      for (const FileResult& result : results)
        names.push_back(result.plan ? result.plan->text("plan.name").value_or("") : "");
      // A doc's only plan without a name keeps its keys unprefixed: "plans[0]" is an index,
      // and a key with an index matches a baseline entry only with its message's digest, so a
      // finding that counts days would come back the next day (audit 10).
      if (results.size() > 1 || !names.front().empty())
        for (std::size_t b = 0; b < results.size(); ++b)
          prefix_key_paths(results[b].diagnostics, plan_block_key(names, b), results.size() == 1);
      for (std::size_t b = 0; b < results.size(); ++b) finish(plans[b], t, results[b]);
    } catch (const std::exception& error) {
      failed(t, error);
    }
  }
  for (FileOutput& output : outputs)
    std::stable_sort(output.diagnostics.begin(), output.diagnostics.end(), diagnostic_less);
  return outputs;
}

/// How many files a batch holds: enough for each stage's code to stay in the caches over
/// several plans, few enough that `jobs` threads each get several batches of a small run.
std::size_t batch_size(std::size_t files, unsigned jobs) {
  constexpr std::size_t most = 32;
  if (jobs == 1) return most;
  return std::clamp<std::size_t>(files / (std::size_t{jobs} * 8), 1, most);
}

/// Runs `work(i)` for i in [0, count) on up to `jobs` threads and hands each result to
/// `deliver(i, result)` in the order of i, one call at a time, as soon as the results of 0..i
/// are all in: the output's order never depends on scheduling, and a result is let go once
/// delivered rather than held to the end of the run.
template <typename Work, typename Deliver>
void parallel_in_order(std::size_t count, unsigned jobs, Work work, Deliver deliver) {
  if (jobs == 0) jobs = std::max(1u, std::thread::hardware_concurrency());
  jobs = static_cast<unsigned>(std::min<std::size_t>(jobs, count));
  if (jobs <= 1) {
    for (std::size_t i = 0; i < count; ++i) deliver(i, work(i));
    return;
  }
  using Result = decltype(work(std::size_t{0}));
  std::mutex mutex;
  std::vector<std::optional<Result>> waiting(count);  // done, not yet delivered
  std::size_t delivered = 0;
  std::atomic<std::size_t> next{0};
  std::vector<std::jthread> workers;
  for (unsigned j = 0; j < jobs; ++j)
    workers.emplace_back([&] {
      for (std::size_t i = next++; i < count; i = next++) {
        Result result = work(i);
        std::lock_guard lock(mutex);
        waiting[i] = std::move(result);
        for (; delivered < count && waiting[delivered]; ++delivered) {
          deliver(delivered, std::move(*waiting[delivered]));
          waiting[delivered].reset();
        }
      }
    });
}

/// The rules that run on some file, at their level there (the first settings' when they
/// differ); their ids are added to `listed`.
std::vector<RuleDescriptor> rules_that_run(const std::map<std::string, std::unique_ptr<Settings>>& settings_by_config,
                                           std::set<std::string, std::less<>>& listed) {
  std::vector<RuleDescriptor> rules;
  for (const auto& [key, settings] : settings_by_config) {
    for (const RuleDescriptor* descriptor : settings->all_rules) {
      auto level = effective_severity(settings->lint.selection, descriptor->id, descriptor->group, descriptor->severity);
      if (!level || !listed.insert(descriptor->id).second) continue;
      RuleDescriptor rule = *descriptor;
      rule.severity = *level;
      rules.push_back(std::move(rule));
    }
  }
  return rules;
}

/// The baseline's key of a display path: relative to the baseline's folder, '/'-separated.
BaselineFileKey file_key_for(const std::string& baseline_path) {
  std::error_code ec;
  fs::path folder = fs::absolute(baseline_path, ec).lexically_normal().parent_path();
  return [folder](const std::string& display_path) {
    std::error_code ec;
    fs::path file = fs::absolute(display_path, ec).lexically_normal();
    fs::path relative = file.lexically_relative(folder);
    return (relative.empty() ? file : relative).generic_string();
  };
}

/// --write-baseline: records the findings of every held file (the files in the report's order
/// with the input each came from) and marks them accepted, as `--baseline` will from now on.
/// False, with the reason in `result.errors`, when the file cannot be written.
bool write_baseline(const std::string& path, std::vector<std::pair<std::size_t, FileOutput>>& held,
                    RunResult& result) {
  BaselineFileKey key = file_key_for(path);
  std::vector<Diagnostic> all;
  for (auto& [input, output] : held) all.insert(all.end(), output.diagnostics.begin(), output.diagnostics.end());
  std::vector<BaselineEntry> entries = baseline_entries(all, key);
  std::string error;
  if (!write_file_atomically(path, baseline_text(entries), error)) {
    result.errors.push_back("planlint: error: " + error);
    return false;
  }
  std::size_t findings = 0;
  for (const BaselineEntry& entry : entries) findings += entry.count;
  result.messages.push_back(
      fmt::format("planlint: wrote {} finding{} to the baseline {}", findings, findings == 1 ? "" : "s", path));
  BaselineMatcher recorded(Baseline{path, std::move(entries)}, key);
  for (auto& [input, output] : held) recorded.apply(output.diagnostics);
  return true;
}

/// A file an option writes, to tell it apart from the files a run reads.
struct WrittenFile {
  const char* option = nullptr;
  std::string path;
  bool regular = false;  ///< an existing regular file: `file` is its device and inode
  struct stat file {};
  fs::path resolved;  ///< the path with its symbolic links resolved, for a file not there yet
};

std::optional<WrittenFile> written_file(const char* option, const std::optional<std::string>& path) {
  if (!path) return std::nullopt;
  WrittenFile written;
  written.option = option;
  written.path = *path;
  written.regular = ::stat(path->c_str(), &written.file) == 0 && S_ISREG(written.file.st_mode);
  std::error_code ec;
  written.resolved = fs::weakly_canonical(*path, ec);
  if (ec) written.resolved = fs::absolute(*path, ec).lexically_normal();
  return written;
}

/// Whether two written files are one: the same inode (hard and symbolic links to one file
/// included), or the same resolved path when not there yet. A device or FIFO (/dev/null) is
/// written into, not replaced, so two options may share one.
bool same_file(const WrittenFile& a, const WrittenFile& b) {
  if (a.regular && b.regular) return a.file.st_dev == b.file.st_dev && a.file.st_ino == b.file.st_ino;
  struct stat status {};
  return !a.regular && !b.regular && ::stat(a.path.c_str(), &status) != 0 && a.resolved == b.resolved;
}

/// -o, --write-baseline and --baseline (which -o would overwrite) each need a file of their
/// own, and the written ones must not be a linted file (named, or found in a folder): a run
/// would otherwise replace the plan it reads with its report. Checked before linting.
void check_written_files(const RunOptions& options, const std::vector<Input>& inputs,
                         std::vector<std::string>& errors) {
  std::vector<WrittenFile> written;
  for (auto file : {written_file("-o", options.output), written_file("--write-baseline", options.write_baseline)})
    if (file) written.push_back(std::move(*file));
  if (written.empty()) return;
  if (written.size() == 2 && same_file(written[0], written[1]))
    errors.push_back(fmt::format("planlint: error: -o '{}' and --write-baseline '{}' are the same file: "
                                 "give each its own",
                                 written[0].path, written[1].path));
  if (auto baseline = written_file("--baseline", options.baseline); baseline && options.output &&
                                                                    same_file(written[0], *baseline))
    errors.push_back(fmt::format("planlint: error: -o '{}' and --baseline '{}' are the same file: the "
                                 "report would overwrite the baseline",
                                 written[0].path, baseline->path));
  // An input exists, so only a regular file already there can be one of them.
  if (std::none_of(written.begin(), written.end(), [](const WrittenFile& w) { return w.regular; })) return;
  for (const Input& input : inputs) {
    struct stat status {};
    if (::stat(input.path.c_str(), &status) != 0) continue;
    for (const WrittenFile& w : written)
      if (w.regular && w.file.st_dev == status.st_dev && w.file.st_ino == status.st_ino)
        errors.push_back(fmt::format("planlint: error: {} '{}' and the linted file '{}' are the same file: "
                                     "writing it would overwrite the plan",
                                     w.option, w.path, input.path));
    if (!errors.empty()) return;
  }
}

}  // namespace

std::optional<Date> parse_date(std::string_view text) {
  // YYYY-MM-DD, a real calendar date.
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return std::nullopt;
  auto number = [&](std::size_t at, std::size_t length) -> std::optional<int> {
    int value = 0;
    auto [end, ec] = std::from_chars(text.data() + at, text.data() + at + length, value);
    if (ec != std::errc() || end != text.data() + at + length) return std::nullopt;
    return value;
  };
  auto year = number(0, 4), month = number(5, 2), day = number(8, 2);
  if (!year || !month || !day) return std::nullopt;
  const std::chrono::year_month_day date{std::chrono::year(*year),
                                         std::chrono::month(static_cast<unsigned>(*month)),
                                         std::chrono::day(static_cast<unsigned>(*day))};
  if (!date.ok()) return std::nullopt;
  return Date{*year, *month, *day};
}

std::string repository_root(const std::string& folder) {
  std::error_code ec;
  fs::path start = fs::absolute(folder, ec).lexically_normal();
  for (fs::path at = start;; at = at.parent_path()) {
    if (is_repository_root(at.string())) return at.string();
    if (!at.has_parent_path() || at.parent_path() == at) break;
  }
  return start.string();
}

RunResult run_lint(const RunOptions& options, ReportSink& sink) {
  RunResult result;
  std::optional<InputError> input_error;
  std::vector<Input> inputs = expand_inputs(options.paths, input_error, options.skip_non_plans,
                                            options.max_file_bytes);
  if (input_error) {
    result.errors.push_back(
        fmt::format("planlint: error: cannot read '{}': {}", input_error->path, input_error->reason));
    return result;
  }
  check_written_files(options, inputs, result.errors);
  if (!result.errors.empty()) return result;

  // Settings per config file, built once and before the parallel part (rule packs compile once).
  std::map<std::string, std::unique_ptr<Settings>> settings_by_config;
  std::vector<const Settings*> settings_of(inputs.size());
  auto settings_for = [&](const std::optional<std::string>& config_path) -> const Settings* {
    const std::string key = config_path.value_or("");
    if (auto it = settings_by_config.find(key); it != settings_by_config.end()) return it->second.get();
    std::optional<Config> config;
    if (config_path) {
      std::vector<Diagnostic> config_errors;
      config = load_config(*config_path, config_errors);
      if (!config) {
        for (const Diagnostic& d : config_errors) result.errors.push_back(error_line(d));
        result.errors.push_back(fmt::format("planlint: error: invalid config '{}'", *config_path));
        return nullptr;
      }
    }
    auto settings = make_settings(std::move(config), options, result.errors);
    const Settings* raw = settings.get();
    settings_by_config.emplace(key, std::move(settings));
    return result.errors.empty() ? raw : nullptr;
  };
  if (options.config && !settings_for(options.config)) return result;
  ConfigDiscovery discovery;  // each folder's nearest config, looked up once per run
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    std::optional<std::string> config = options.config;
    if (!config && options.discover_config) config = discovery.find(inputs[i].path);
    settings_of[i] = settings_for(config);
    if (!settings_of[i]) return result;
  }
  check_command_line_names(options, settings_by_config, result.errors);
  if (!result.errors.empty()) return result;

  std::optional<BaselineMatcher> baseline;
  if (options.baseline) {
    std::string reason;
    auto text = read_file(*options.baseline, reason);
    std::optional<Baseline> parsed;
    if (text) parsed = parse_baseline(*options.baseline, *text, reason);
    if (!parsed) {
      result.errors.push_back(fmt::format("planlint: error: cannot read baseline '{}': {}", *options.baseline, reason));
      return result;
    }
    baseline.emplace(*parsed, file_key_for(*options.baseline));
  }

  std::set<std::string, std::less<>> listed;  // ids in result.rules
  if (options.list_rules) result.rules = rules_that_run(settings_by_config, listed);

  // The files in the report's order: diagnostic_less orders findings by their file's path as
  // a string, and a folder's search returns paths in std::filesystem's order of components.
  std::vector<std::size_t> order(inputs.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return inputs[a].path < inputs[b].path; });

  // Hands a file to the sink, counting its failing findings and noting rules not listed yet.
  auto hand_over = [&](std::size_t input, FileOutput& output) {
    const Severity fail_on = settings_of[input]->fail_on;
    for (const Diagnostic& d : output.diagnostics) {
      if (!d.suppression && d.severity >= fail_on) ++result.failing;
      if (options.list_rules && listed.find(d.rule) == listed.end()) {
        listed.insert(d.rule);
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
  unsigned jobs = options.jobs ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  const std::size_t batch = batch_size(order.size(), jobs);
  parallel_in_order(
      (order.size() + batch - 1) / batch, jobs,
      [&](std::size_t b) {
        std::vector<FileTask> tasks;
        for (std::size_t k = b * batch; k < std::min(order.size(), (b + 1) * batch); ++k) {
          Input& input = inputs[order[k]];
          tasks.push_back(FileTask{&input.path, std::move(input.text), settings_of[order[k]]});
        }
        return lint_batch(tasks, options);
      },
      [&](std::size_t b, std::vector<FileOutput> outputs) {
        for (std::size_t j = 0; j < outputs.size(); ++j) {
          FileOutput& output = outputs[j];
          const std::size_t input = order[b * batch + j];
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
          if (baseline) {
            baseline->apply(output.diagnostics);
            baseline->linted(output.source->path());
          }
          if (options.write_baseline) held.emplace_back(input, std::move(output));
          else hand_over(input, output);
        }
      });
  if (!result.errors.empty()) return result;

  if (baseline) {
    for (const BaselineEntry& entry : baseline->stale()) {
      const std::string where = fmt::format("{} [{}]{}{}", entry.file, entry.rule, entry.key.empty() ? "" : " at ", entry.key);
      // An entry of several findings that still accepts some: say how many went, not that the
      // entry matches nothing (audit 9, D9).
      if (entry.matched > 0)
        result.messages.push_back(fmt::format(
            "planlint: note: baseline entry matches fewer findings: {}: {} of its {} no longer found ({})", where,
            entry.count, entry.count + entry.matched, *options.baseline));
      else
        result.messages.push_back(fmt::format("planlint: note: baseline entry no longer matches: {}{} ({})", where,
                                              entry.count > 1 ? fmt::format(", {} findings", entry.count) : "",
                                              *options.baseline));
    }
    // Entries of a file that is gone (renamed with `git mv`, deleted) match nothing again and
    // were never named: one line a file, whatever this run lints (audit 9).
    std::error_code ec;
    const fs::path folder = fs::absolute(*options.baseline, ec).lexically_normal().parent_path();
    struct Gone {
      std::size_t entries = 0;
      std::size_t findings = 0;  // an entry of identical findings records their count
    };
    std::map<std::string, Gone> gone;
    for (const BaselineEntry& entry : baseline->stale([&](const std::string& file) {
           std::error_code missing;
           return !fs::exists(folder / file, missing) && !missing;
         })) {
      Gone& of_file = gone[entry.file];
      ++of_file.entries;
      of_file.findings += entry.count;
    }
    // Entries are what --write-baseline drops; the findings they cover are named too when an
    // entry holds several (the sum alone read as "4 entries" for two, audit 10).
    for (const auto& [file, count] : gone) {
      std::string entries = count.entries == 1 ? "an entry" : fmt::format("{} entries", count.entries);
      if (count.findings > count.entries)
        entries += fmt::format(" ({} findings)", count.findings);
      result.messages.push_back(fmt::format(
          "planlint: note: the baseline has {} for a file that no longer exists: {} ({}); rewrite the baseline "
          "with --write-baseline to drop {}",
          entries, file, *options.baseline, count.entries == 1 ? "it" : "them"));
    }
  }
  if (options.write_baseline) {
    if (!write_baseline(*options.write_baseline, held, result)) return result;
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
