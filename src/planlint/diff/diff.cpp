/// run_diff(): the two sides listed, their changed files linted a batch of file pairs at a time
/// as soon as a batch's texts have arrived from git (a pair compared as soon as both are linted,
/// so a change of thousands of plans holds a batch of them at once), then the plans left over
/// matched by name, by git's rename detection, or as the one plan of each side.
#include "planlint/diff/diff.hpp"

#include <algorithm>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string_view>
#include <unordered_map>
#include <thread>

#include <fmt/format.h>

#include "planlint/diff/git.hpp"
#include "planlint/diff/side_plan.hpp"
#include "planlint/lint/batch.hpp"
#include "planlint/markdown/markdown.hpp"
#include "planlint/parallel/parallel_in_order.hpp"
#include "planlint/plan/element_keys.hpp"

namespace planlint {

namespace {

using detail::SidePlan;

/// A linted file of one side with its plans.
struct Linted {
  const SideFile* file = nullptr;
  FileOutput output;
  std::vector<SidePlan> plans;
};

/// Files of the two sides to lint together: the same file (either may be missing).
struct FilePair {
  SideFile* base = nullptr;  ///< its text moves into the lint (lint_files)
  SideFile* head = nullptr;
  const Settings* base_settings = nullptr;
  const Settings* head_settings = nullptr;
};

/// What a batch of pairs gives: the plans compared, and the files whose plans found no partner
/// in their pair (kept for the matching across files).
struct BatchResult {
  std::vector<PlanDiff> diffs;
  std::vector<PortfolioPlan> base_rows, head_rows;
  std::size_t unchanged = 0;
  std::size_t failing = 0;  ///< DiffReport::failing
  std::vector<std::shared_ptr<const SourceFile>> head_sources;
  std::vector<std::unique_ptr<Linted>> left_base, left_head;
  std::vector<Error> errors;
  std::vector<std::string> messages;
};

std::size_t plan_count(const SideFile& file) {
  return is_markdown_path(file.path) ? plan_blocks(file.text).size() : 1;
}

/// The plans of a linted file, each with its own findings.
void find_plans(Linted& linted, const Settings& settings) {
  const bool markdown = is_markdown_path(linted.file->path);
  std::vector<std::string> names;
  for (const LintedPlan& plan : linted.output.plans)
    names.push_back(plan.plan ? plan.plan->text("plan.name").value_or("") : "");
  for (std::size_t i = 0; i < linted.output.plans.size(); ++i) {
    LintedPlan& found = linted.output.plans[i];
    SidePlan plan;
    plan.path = linted.file->path;
    plan.key = linted.file->key;
    plan.source = linted.output.source;
    plan.settings = &settings;
    plan.first_line = found.first_line;
    plan.last_line = found.last_line;
    plan.block_key = markdown ? plan_block_key(names, i) : "";
    plan.name = names[i];
    plan.plan = found.plan ? &*found.plan : nullptr;
    plan.figures_plan = plan.plan;
    plan.estimates = found.estimates ? &*found.estimates : nullptr;
    if (found.corrected) {
      plan.figures_plan = &found.corrected->plan;
      plan.estimates = &found.corrected->estimates;
      plan.corrections = found.corrected->corrections;
      found.ranges.reset();  // the written plan's: the figures' are computed on first use
    }
    plan.cost_ranges = std::move(found.ranges);
    if (!markdown) {  // the file's one plan: its findings are all the file's
      plan.findings = std::move(linted.output.diagnostics);
      linted.plans.push_back(std::move(plan));
      continue;
    }
    for (const Diagnostic& d : linted.output.diagnostics) {
      const std::uint32_t line = d.primary.span.begin.line;
      if (line + 1 < plan.first_line || line > plan.last_line + 1) continue;
      Diagnostic own = d;
      if (std::optional<std::string> key = key_outside_block(plan.block_key, own.key_path)) own.key_path = *key;
      plan.findings.push_back(std::move(own));
    }
    linted.plans.push_back(std::move(plan));
  }
}

/// Why a plan of `side` has no plan to compare: its TOML error, as `check` reports it.
std::string syntax_error(const DiffSide& side, const Linted& linted, const SidePlan& plan) {
  for (const Diagnostic& d : plan.findings)
    if (d.rule == "toml-syntax")
      return fmt::format("{}: {}:{}:{}: the plan is not valid TOML: {}", side.label, plan.path,
                         d.primary.span.begin.line, d.primary.span.begin.column, d.message);
  return fmt::format("{}: {}: the plan is not valid TOML", side.label, linted.file->path);
}

/// Lints one side's files of a batch of pairs; their texts move into the lint's source files.
std::vector<std::unique_ptr<Linted>> lint_files(const std::vector<std::pair<SideFile*, const Settings*>>& files,
                                                const BatchLimits& limits) {
  std::vector<FileTask> tasks;
  for (const auto& [file, settings] : files) {
    FileTask task;
    task.path = &file->path;
    task.text = std::move(file->text);
    task.settings = settings;
    task.keep_plans = true;
    tasks.push_back(std::move(task));
  }
  std::vector<FileOutput> outputs = lint_batch(tasks, limits);
  std::vector<std::unique_ptr<Linted>> linted;
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    auto one = std::make_unique<Linted>();
    one->file = files[i].first;
    one->output = std::move(outputs[i]);
    if (!one->output.error) find_plans(*one, *files[i].second);
    linted.push_back(std::move(one));
  }
  return linted;
}

/// Adds the comparison of `base` and `head` to `result`, unless nothing differs between two
/// versions of a plan at one place.
void add_comparison(BatchResult& result, SidePlan* base, SidePlan* head, PlanStatus status, bool all_metrics) {
  // The totals' rows first: they count the findings, which the comparison takes.
  std::optional<PortfolioPlan> base_row, head_row;
  if (base) base_row = detail::total_row(*base);
  if (head) head_row = detail::total_row(*head);
  PlanDiff diff = detail::compare_plans(base, head, status, all_metrics);
  if (status == PlanStatus::changed && detail::nothing_differs(diff)) {
    ++result.unchanged;
    return;
  }
  if (head) {
    diff.guardrails = detail::guardrail_findings(diff, *head);
    const Severity fail_on = head->settings->fail_on;
    for (const DiffFinding& finding : diff.introduced)
      if (finding.diagnostic.severity >= fail_on) ++result.failing;
    for (const Diagnostic& d : diff.guardrails)
      if (!d.suppression && d.severity >= fail_on) ++result.failing;
    if (result.head_sources.empty() || result.head_sources.back() != head->source)
      result.head_sources.push_back(head->source);
  }
  if (base_row) result.base_rows.push_back(*std::move(base_row));
  if (head_row) result.head_rows.push_back(*std::move(head_row));
  result.diffs.push_back(std::move(diff));
}

struct Context {
  const DiffOptions& options;
  BatchLimits limits;
};

/// Lints a batch of pairs and compares the plans each pair holds at the same place (a file's
/// plan, a doc's block of the same name).
BatchResult lint_pairs(const Context& context, std::span<const FilePair> pairs) {
  BatchResult result;
  std::vector<std::pair<SideFile*, const Settings*>> base_files, head_files;
  for (const FilePair& pair : pairs) {
    if (pair.base) base_files.emplace_back(pair.base, pair.base_settings);
    if (pair.head) head_files.emplace_back(pair.head, pair.head_settings);
  }
  std::vector<std::unique_ptr<Linted>> base = lint_files(base_files, context.limits);
  std::vector<std::unique_ptr<Linted>> head = lint_files(head_files, context.limits);
  for (const auto& [linted, side] : {std::pair{&base, &context.options.base}, std::pair{&head, &context.options.head}})
    for (const auto& file : *linted) {
      if (file->output.error) {
        result.errors.emplace_back(fmt::format("{}: {}", side->label, file->output.error->message),
                                   file->output.error->location, file->output.error->help);
        continue;
      }
      for (const SidePlan& plan : file->plans) {
        if (plan.plan) continue;
        if (side == &context.options.head) result.errors.emplace_back(syntax_error(*side, *file, plan));
        else result.messages.push_back("planlint: note: " + syntax_error(*side, *file, plan) + "; its figures before are unknown");
      }
    }
  if (!result.errors.empty()) return result;

  std::size_t b = 0, h = 0;
  for (const FilePair& pair : pairs) {
    Linted* before = pair.base ? base[b++].get() : nullptr;
    Linted* after = pair.head ? head[h++].get() : nullptr;
    std::vector<bool> base_matched(before ? before->plans.size() : 0), head_matched(after ? after->plans.size() : 0);
    if (before && after)
      for (std::size_t i = 0; i < after->plans.size(); ++i)
        for (std::size_t j = 0; j < before->plans.size(); ++j)
          if (!base_matched[j] && before->plans[j].block_key == after->plans[i].block_key) {
            base_matched[j] = head_matched[i] = true;
            add_comparison(result, &before->plans[j], &after->plans[i], PlanStatus::changed,
                           context.options.all_metrics);
            break;
          }
    // A file whose plans did not all find theirs is kept, with those plans, for the matching
    // across files.
    auto keep_unmatched = [](std::unique_ptr<Linted>& file, const std::vector<bool>& matched,
                             std::vector<std::unique_ptr<Linted>>& kept) {
      if (std::find(matched.begin(), matched.end(), false) == matched.end()) return;
      std::vector<SidePlan> left;
      for (std::size_t i = 0; i < file->plans.size(); ++i)
        if (!matched[i]) left.push_back(std::move(file->plans[i]));
      file->plans = std::move(left);
      kept.push_back(std::move(file));
    };
    if (before) keep_unmatched(base[b - 1], base_matched, result.left_base);
    if (after) keep_unmatched(head[h - 1], head_matched, result.left_head);
  }
  return result;
}

/// The files of one key on the two sides, as listed (either may be missing), and where their
/// texts come from: a revision's from the BlobReader, at their places in its order.
struct Candidate {
  static constexpr std::size_t in_place = static_cast<std::size_t>(-1);
  SideFile* base = nullptr;
  SideFile* head = nullptr;
  std::size_t base_blob = in_place, head_blob = in_place;
};

/// The candidates of the sides' files, in the order of their keys: the files of one key are one
/// candidate, two sides that each name one file too. A file of one key whose blob is the same
/// at both revisions holds the same text, read once (into the head's file): its plans have not
/// changed, they are counted and not linted (`same`). `blobs`: the blobs to read, in the order
/// the candidates want them, `same`'s last.
void pair_candidates(SideFiles& base, SideFiles& head, std::vector<Candidate>& candidates,
                     std::vector<Candidate>& same, std::vector<GitBlob>& blobs) {
  auto wanted = [&blobs](SideFile* file) {
    if (!file || !file->blob) return Candidate::in_place;
    blobs.push_back(*file->blob);
    return blobs.size() - 1;
  };
  if (base.single_file && head.single_file && base.files.size() == 1 && head.files.size() == 1) {
    candidates.push_back(Candidate{&base.files[0], &head.files[0]});
    return;
  }
  std::size_t b = 0, h = 0;
  while (b < base.files.size() || h < head.files.size()) {
    SideFile* before = b < base.files.size() ? &base.files[b] : nullptr;
    SideFile* after = h < head.files.size() ? &head.files[h] : nullptr;
    if (before && after && before->key == after->key) {
      ++b, ++h;
      if (before->blob && after->blob && before->blob->object == after->blob->object) {
        same.push_back(Candidate{before, after});
        continue;
      }
    } else if (before && (!after || before->key < after->key)) {
      after = nullptr;
      ++b;
    } else {
      before = nullptr;
      ++h;
    }
    Candidate& candidate = candidates.emplace_back(Candidate{before, after});
    candidate.base_blob = wanted(before);
    candidate.head_blob = wanted(after);
  }
  for (Candidate& candidate : same) candidate.head_blob = wanted(candidate.head);
}

/// The pairs of files to lint, made from the candidates in their order as their texts arrive:
/// the plan files of one key whose texts differ, and each plan file of one side only, with the
/// settings of each file from the working tree's configs. A key's files of the same text hold
/// plans that have not changed: counted, not linted.
class ChangedPairs {
 public:
  ChangedPairs(const DiffOptions& options, std::vector<Candidate> candidates, BlobReader& texts,
               SettingsCache& settings)
      : options_(options), candidates_(std::move(candidates)), texts_(texts), settings_(settings) {}

  /// The next `count` pairs (fewer at the end, none after a problem), waiting for their texts.
  std::vector<FilePair> next(std::size_t count) {
    std::vector<FilePair> pairs;
    while (pairs.size() < count && next_ < candidates_.size() && !stopped_) {
      const Candidate& candidate = candidates_[next_++];
      if (!arrive(candidate.base, candidate.base_blob) || !arrive(candidate.head, candidate.head_blob)) break;
      SideFile* before = candidate.base && holds_plan(*candidate.base) ? candidate.base : nullptr;
      SideFile* after = candidate.head && holds_plan(*candidate.head) ? candidate.head : nullptr;
      if (!before && !after) continue;
      any_plan_ = true;
      if (before && after && before->text == after->text) {
        unchanged_ += plan_count(*after);
        continue;
      }
      FilePair pair{before, after};
      pair.base_settings = settings_of(before);
      if (!problems_.empty()) break;  // once: the head's file would find the same config
      pair.head_settings = settings_of(after);
      if (!problems_.empty()) break;
      pairs.push_back(pair);
    }
    stopped_ = stopped_ || !problems_.empty();
    return pairs;
  }

  /// Counts the plans of the files whose blob is the same on both sides, once every pair is out.
  void count_same(const std::vector<Candidate>& same) {
    for (const Candidate& candidate : same) {
      if (!arrive(candidate.head, candidate.head_blob)) return;
      if (!holds_plan(*candidate.head)) continue;
      any_plan_ = true;
      unchanged_ += plan_count(*candidate.head);
      std::string().swap(candidate.head->text);
    }
  }

  bool any_plan() const { return any_plan_; }
  std::size_t unchanged() const { return unchanged_; }

  /// The configs' problems, the command line's rule names checked once every config is found.
  std::vector<Error> problems() {
    if (problems_.empty() && !stopped_) settings_.check_command_line_names(problems_);
    std::vector<Error> errors;
    for (const Diagnostic& d : problems_) errors.emplace_back(d.message, d.primary, d.help);
    return errors;
  }

 private:
  /// Moves a revision's text into its file once it has arrived; false when git gave none
  /// (BlobReader::finish says why), which stops the pairs.
  bool arrive(SideFile* file, std::size_t blob) {
    if (!file || blob == Candidate::in_place) return true;
    std::optional<std::string> text = texts_.take(blob);
    if (!text) return !(stopped_ = true);
    file->text = *std::move(text);
    return true;
  }

  const Settings* settings_of(const SideFile* file) {
    if (!file) return nullptr;
    const ConfigOrigin origin = options_.config ? ConfigOrigin::command_line : ConfigOrigin::discovered;
    const std::optional<std::string> config = options_.config ? options_.config : discovery_.find(file->config_path);
    return settings_.find(config, problems_, origin);
  }

  const DiffOptions& options_;
  std::vector<Candidate> candidates_;
  BlobReader& texts_;
  SettingsCache& settings_;
  ConfigDiscovery discovery_;
  DiagnosticSink problems_;
  std::size_t next_ = 0, unchanged_ = 0;
  bool any_plan_ = false, stopped_ = false;
};

/// Matches the plans no pair matched: by plan name (unique on each side), then by git's
/// rename detection of their files when their names do not differ (a plan without a name, a
/// name that is not unique); the rest are added and removed plans.
void match_left(const DiffOptions& options, BatchResult& left, BatchResult& into) {
  std::vector<SidePlan*> base, head;
  for (auto& file : left.left_base)
    for (SidePlan& plan : file->plans) base.push_back(&plan);
  for (auto& file : left.left_head)
    for (SidePlan& plan : file->plans) head.push_back(&plan);
  auto match = [&](SidePlan*& before, SidePlan*& after) {
    const PlanStatus status = before->key == after->key ? PlanStatus::changed : PlanStatus::renamed;
    add_comparison(into, before, after, status, options.all_metrics);
    before = after = nullptr;
  };
  // A name held by one plan on each side: those two are one plan.
  std::unordered_map<std::string_view, std::size_t> base_names, head_names;
  for (const SidePlan* plan : base) ++base_names[plan->name];
  for (const SidePlan* plan : head) ++head_names[plan->name];
  std::unordered_map<std::string_view, SidePlan**> base_by_name;
  for (SidePlan*& plan : base)
    if (!plan->name.empty() && base_names[plan->name] == 1) base_by_name.emplace(plan->name, &plan);
  for (SidePlan*& after : head) {
    if (after->name.empty() || head_names[after->name] != 1) continue;
    if (auto found = base_by_name.find(after->name); found != base_by_name.end()) match(*found->second, after);
  }
  const bool git = options.base.revision || options.head.revision;
  const bool any_left = std::any_of(base.begin(), base.end(), [](const SidePlan* p) { return p; }) &&
                        std::any_of(head.begin(), head.end(), [](const SidePlan* p) { return p; });
  if (git && any_left && options.base.revision) {
    for (const auto& [old_path, new_path] :
         git_renames(*options.base.revision, options.head.revision.value_or(""), options.head.paths)) {
      // A renamed file of one plan each way.
      auto one = [](std::vector<SidePlan*>& plans, const std::string& path) -> SidePlan** {
        SidePlan** found = nullptr;
        for (SidePlan*& plan : plans)
          if (plan && plan->path == path) {
            if (found) return nullptr;
            found = &plan;
          }
        return found;
      };
      SidePlan** before = one(base, old_path);
      SidePlan** after = one(head, new_path);
      // A plan's name is what it is: two plans that name themselves differently are two plans,
      // however alike their files (plans written from one template are).
      if (before && after && ((*before)->name == (*after)->name || (*before)->name.empty() || (*after)->name.empty()))
        match(*before, *after);
    }
  }
  for (SidePlan* after : head)
    if (after) add_comparison(into, nullptr, after, PlanStatus::added, options.all_metrics);
  for (SidePlan* before : base)
    if (before) add_comparison(into, before, nullptr, PlanStatus::removed, options.all_metrics);
}

void merge(BatchResult& into, BatchResult&& from) {
  for (auto& diff : from.diffs) into.diffs.push_back(std::move(diff));
  for (auto& row : from.base_rows) into.base_rows.push_back(std::move(row));
  for (auto& row : from.head_rows) into.head_rows.push_back(std::move(row));
  into.unchanged += from.unchanged;
  into.failing += from.failing;
  for (auto& source : from.head_sources) into.head_sources.push_back(std::move(source));
  for (auto& file : from.left_base) into.left_base.push_back(std::move(file));
  for (auto& file : from.left_head) into.left_head.push_back(std::move(file));
  for (auto& error : from.errors) into.errors.push_back(std::move(error));
  for (auto& message : from.messages) into.messages.push_back(std::move(message));
}

PortfolioTotal sum(const std::vector<PortfolioTotal>& totals) {
  PortfolioTotal all;
  for (const PortfolioTotal& total : totals) {
    all.plans += total.plans;
    all.costed_plans += total.costed_plans;
    all.gpus += total.gpus;
    all.gpu_hours += total.gpu_hours;
    all.cost += total.cost;
  }
  return all;
}

void add_totals(DiffReport& report, std::vector<PortfolioPlan> base_rows, std::vector<PortfolioPlan> head_rows) {
  const Portfolio before = make_portfolio(std::move(base_rows)), after = make_portfolio(std::move(head_rows));
  std::map<std::string, TotalChange> by_gpu;
  for (const PortfolioTotal& total : before.totals) by_gpu[total.gpu].base = total;
  for (const PortfolioTotal& total : after.totals) by_gpu[total.gpu].head = total;
  for (auto& [gpu, total] : by_gpu) {
    total.gpu = gpu;
    report.totals.push_back(std::move(total));
  }
  report.overall.base = sum(before.totals);
  report.overall.head = sum(after.totals);
}

}  // namespace

DiffRun run_diff(const DiffOptions& options) {
  DiffRun run;
  const unsigned jobs = options.jobs ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  const SideReadOptions read{diff_repository_root(), options.max_file_bytes, jobs};
  // `git:REV` without a path beside a path of the working tree: that path at REV.
  DiffSide base_side = options.base, head_side = options.head;
  if (base_side.revision && base_side.paths.empty() && !head_side.revision) base_side.paths = head_side.paths;
  if (head_side.revision && head_side.paths.empty() && !base_side.revision) head_side.paths = base_side.paths;
  auto [base, head] = read_sides(base_side, head_side, read);
  if (!base) run.errors.push_back(base.error());
  if (!head) run.errors.push_back(head.error());
  if (!run.errors.empty()) return run;
  const auto no_plans = [&] {
    return Error(fmt::format("no plans found in {} nor in {}: no *.toml file with a [plan] table, no "
                             "Markdown doc with a ```toml plan block",
                             options.base.label, options.head.label));
  };
  if (base->files.empty() && head->files.empty()) {
    run.errors.push_back(no_plans());
    return run;
  }
  DiffReport& report = run.report;
  report.repository_root = read.repository_root;
  report.base_label = options.base.label;
  report.head_label = options.head.label;
  report.all_metrics = options.all_metrics;

  // A revision's blobs are read by one git, as the pairs want them: a batch of pairs is linted
  // as soon as its texts are in, while git reads the next.
  std::vector<Candidate> candidates, same;
  std::vector<GitBlob> blobs;
  pair_candidates(*base, *head, candidates, same, blobs);
  // Sized by the candidates, the pairs to lint being known only as their texts arrive: the
  // batches past the last pair are empty.
  const std::size_t candidate_count = std::max<std::size_t>(1, candidates.size());
  BlobReader texts(std::move(blobs));
  SettingsCache settings(options);
  ChangedPairs changed(options, std::move(candidates), texts, settings);

  const Context context{options, BatchLimits{options.max_file_bytes, options.max_plans_per_file}};
  const std::size_t batch = batch_size(candidate_count, jobs);
  // The pairs are made in the order of the batches, whichever worker takes one first.
  std::mutex turn_mutex;
  std::condition_variable turn_changed;
  std::size_t turn = 0;
  BatchResult all;
  parallel_in_order(
      (candidate_count + batch - 1) / batch, jobs,
      [&](std::size_t i) {
        std::vector<FilePair> pairs;
        {
          std::unique_lock lock(turn_mutex);
          turn_changed.wait(lock, [&] { return turn == i; });
          pairs = changed.next(batch);
          ++turn;
        }
        turn_changed.notify_all();
        return pairs.empty() ? BatchResult{} : lint_pairs(context, pairs);
      },
      [&](std::size_t, BatchResult result) { merge(all, std::move(result)); });
  changed.count_same(same);
  if (Result<void> read_all = texts.finish(); !read_all) {
    for (const DiffSide* side : {&options.base, &options.head})
      if (side->revision) run.errors.push_back(side_error(*side, read_all.error()));
    return run;
  }
  if (!changed.any_plan()) {
    run.errors.push_back(no_plans());
    return run;
  }
  if (std::vector<Error> problems = changed.problems(); !problems.empty()) {
    run.errors = std::move(problems);
    return run;
  }
  report.unchanged_plans = changed.unchanged();
  run.messages = std::move(all.messages);
  if (!all.errors.empty()) {
    run.errors = std::move(all.errors);
    return run;
  }
  match_left(options, all, all);
  report.unchanged_plans += all.unchanged;
  add_totals(report, std::move(all.base_rows), std::move(all.head_rows));
  report.plans = std::move(all.diffs);
  const auto file_order = [](const PlanDiff& a, const PlanDiff& b) {
    const std::string& a_file = a.head_file.empty() ? a.base_file : a.head_file;
    const std::string& b_file = b.head_file.empty() ? b.base_file : b.head_file;
    if (a_file != b_file) return a_file < b_file;
    return (a.head_line ? a.head_line : a.base_line) < (b.head_line ? b.head_line : b.base_line);
  };
  // The pairs came in their files' order: only plans matched across files move.
  if (!std::is_sorted(report.plans.begin(), report.plans.end(), file_order))
    std::stable_sort(report.plans.begin(), report.plans.end(), file_order);
  report.failing = all.failing;
  report.head_sources = std::move(all.head_sources);
  std::sort(report.head_sources.begin(), report.head_sources.end(),
            [](const auto& a, const auto& b) { return a->path() < b->path(); });
  report.head_sources.erase(std::unique(report.head_sources.begin(), report.head_sources.end()),
                            report.head_sources.end());
  return run;
}

}  // namespace planlint
