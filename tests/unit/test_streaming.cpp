// A run delivered file by file (run_lint with a ReportSink): the same output as the whole
// report, files in the report's order, one delivery at a time, nothing after a file that could
// not be linted; and the baseline applied file by file as it would be all at once.
#include <atomic>
#include <chrono>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "integration_support.hpp"
#include "planlint/baseline/baseline.hpp"
#include "planlint/emit/github.hpp"
#include "planlint/emit/text.hpp"
#include "planlint/lint/run.hpp"
#include "support.hpp"

namespace fs = std::filesystem;
using planlint::test::run_cli;
using planlint::test::Scratch;
using planlint::test::inference_plan_with;

namespace {

/// A folder whose paths sort differently as strings ("a-b" < "a/") and as std::filesystem
/// paths (component by component), with a Markdown doc, clean plans and suppressed findings.
fs::path varied_folder(const Scratch& dir) {
  for (int i = 0; i < 12; ++i)
    dir.write(fmt::format("plans/p{:02}.toml", i),
              inference_plan_with(i % 3 == 0 ? "hmb = 1\n" : i % 3 == 1 ? "gpu_typo = 2\nhbmm = 3\n" : ""));
  dir.write("plans/a/x.toml", inference_plan_with("hmb = 1  # planlint: allow unknown-key -- kept on purpose\n"));
  dir.write("plans/a-b.toml", inference_plan_with("zzz = 4\n"));
  dir.write("plans/review.md", "# Review\n\n```toml\n" + inference_plan_with("qqq = 5\n") + "```\n");
  dir.write("plans/notes.toml", "title = 'not a plan'\n");
  return dir.path / "plans";
}

/// Records what a run delivers, and fails when two deliveries overlap.
class RecordingSink final : public planlint::ReportSink {
 public:
  std::vector<std::string> paths;
  std::size_t findings = 0;
  bool overlapped = false;

  void file(const std::shared_ptr<const planlint::SourceFile>& source,
            std::vector<planlint::Diagnostic>& diagnostics) override {
    if (busy_.exchange(true)) overlapped = true;
    std::this_thread::sleep_for(std::chrono::microseconds(200));  // widens any overlap
    paths.push_back(source->path());
    findings += diagnostics.size();
    for (const planlint::Diagnostic& d : diagnostics) CHECK(d.primary.file == source->path());
    CHECK(std::is_sorted(diagnostics.begin(), diagnostics.end(), planlint::diagnostic_less));
    busy_ = false;
  }

 private:
  std::atomic<bool> busy_{false};
};

std::string streamed_text(const planlint::RunOptions& options) {
  std::ostringstream out;
  planlint::TextEmitter text(out, planlint::TextStyle{});
  planlint::RunResult result = planlint::run_lint(options, text);
  REQUIRE(result.errors.empty());
  CHECK(result.report.diagnostics.empty());
  CHECK(result.report.files.empty());
  return out.str();
}

std::string whole_text(const planlint::RunOptions& options) {
  std::ostringstream out;
  planlint::RunResult result = planlint::run_lint(options);
  REQUIRE(result.errors.empty());
  planlint::emit_text(out, result.report, planlint::TextStyle{});
  return out.str();
}

}  // namespace

TEST_CASE("a run streamed file by file prints what the whole report prints", "[run][stream]") {
  Scratch dir;
  const fs::path folder = varied_folder(dir);
  planlint::RunOptions options;
  // Out of order on purpose: the report's order is by path, whatever the command line's.
  options.paths = {(folder / "p05.toml").string(), folder.string(), (folder / "a-b.toml").string()};
  options.today = planlint::Date{2026, 11, 30};

  for (unsigned jobs : {1u, 2u, 4u}) {
    CAPTURE(jobs);
    options.jobs = jobs;
    const std::string whole = whole_text(options);
    CHECK_THAT(whole, Catch::Contains("unknown key 'hmb'"));
    CHECK_THAT(whole, Catch::Contains("(1 suppressed)"));
    CHECK(streamed_text(options) == whole);

    std::ostringstream streamed, collected;
    planlint::GithubEmitter github(streamed);
    REQUIRE(planlint::run_lint(options, github).errors.empty());
    planlint::emit_github(collected, planlint::run_lint(options).report);
    CHECK(streamed.str() == collected.str());
    CHECK_FALSE(streamed.str().empty());
  }

  SECTION("with a baseline that accepts some findings and names a file that is gone") {
    const fs::path baseline = dir.path / "baseline.json";
    planlint::RunOptions writing = options;
    writing.write_baseline = baseline.string();
    planlint::RunResult written = planlint::run_lint(writing);
    REQUIRE(written.errors.empty());
    CHECK(written.failing == 0);  // what was just recorded is accepted
    // Keep every other entry and add one for a file that is not linted any more.
    auto recorded = planlint::parse_baseline(baseline.string(), planlint::test::read_text(baseline));
    REQUIRE(recorded);
    std::vector<planlint::BaselineEntry> kept;
    for (std::size_t i = 0; i < recorded->entries.size(); i += 2) kept.push_back(recorded->entries[i]);
    kept.push_back(planlint::BaselineEntry{"plans/gone.toml", "unknown-key", "x", "", 2, ""});
    dir.write("baseline.json", planlint::baseline_text(kept));

    options.baseline = baseline.string();
    for (unsigned jobs : {1u, 2u}) {
      options.jobs = jobs;
      const std::string whole = whole_text(options);
      CHECK_THAT(whole, Catch::Contains("suppressed)"));
      CHECK(streamed_text(options) == whole);
    }
  }

  SECTION("with --write-baseline, the findings are delivered after the baseline is written, as accepted") {
    options.write_baseline = (dir.path / "new-baseline.json").string();
    RecordingSink sink;
    planlint::RunResult result = planlint::run_lint(options, sink);
    REQUIRE(result.errors.empty());
    CHECK(fs::exists(dir.path / "new-baseline.json"));
    CHECK(result.failing == 0);
    CHECK(sink.findings > 0);
    options.jobs = 1;
    CHECK(streamed_text(options) == whole_text(options));
  }
}

TEST_CASE("files are delivered in the report's order, one at a time, whatever the job count", "[run][stream][jobs]") {
  Scratch dir;
  const fs::path folder = varied_folder(dir);
  planlint::RunOptions options;
  options.paths = {folder.string()};
  options.today = planlint::Date{2026, 11, 30};
  const planlint::RunResult whole = planlint::run_lint(options);
  std::vector<std::string> report_paths;
  for (const auto& file : whole.report.files) report_paths.push_back(file->path());
  REQUIRE(report_paths.size() == 15);  // 12 plans, a/x.toml, a-b.toml, review.md; not notes.toml
  CHECK(std::is_sorted(report_paths.begin(), report_paths.end()));
  // "plans/a-b.toml" before "plans/a/x.toml": '-' sorts before '/' in a string.
  CHECK(report_paths[0] == (folder / "a-b.toml").string());

  for (unsigned jobs : {1u, 2u, 3u}) {
    CAPTURE(jobs);
    options.jobs = jobs;
    RecordingSink sink;
    const planlint::RunResult result = planlint::run_lint(options, sink);
    REQUIRE(result.errors.empty());
    CHECK(sink.paths == report_paths);
    CHECK_FALSE(sink.overlapped);
    CHECK(sink.findings == whole.report.diagnostics.size());
    CHECK(result.failing == whole.failing);
    CHECK(result.rules.size() == whole.rules.size());
  }
}

TEST_CASE("no file is delivered after one that cannot be linted", "[run][stream]") {
  Scratch dir;
  dir.write("plans/a.toml", inference_plan_with("hmb = 1\n"));
  dir.write("plans/b.toml", inference_plan_with("padding = \"" + std::string(4000, 'x') + "\"\n"));
  dir.write("plans/c.toml", inference_plan_with("hmb = 1\n"));
  planlint::RunOptions options;
  options.paths = {(dir.path / "plans").string()};
  options.max_file_bytes = 1000;  // b.toml is over it: its lint is an exit-2 error

  for (unsigned jobs : {1u, 2u}) {
    CAPTURE(jobs);
    options.jobs = jobs;
    RecordingSink sink;
    const planlint::RunResult result = planlint::run_lint(options, sink);
    REQUIRE(result.errors.size() == 1);
    CHECK_THAT(planlint::error_line(result.errors[0]), Catch::Contains("b.toml") && Catch::Contains("size limit"));
    CHECK(sink.paths == std::vector<std::string>{(dir.path / "plans/a.toml").string()});
  }

  // The command line: a.toml's findings, then the error, exit status 2 and no summary line.
  auto run = run_cli({"--no-color", "--max-file-size", "1000", (dir.path / "plans").string()});
  CHECK(run.status == 2);
  CHECK_THAT(run.out, Catch::Contains("a.toml:9:1: error: unknown key 'hmb'"));
  CHECK_THAT(run.out, !Catch::Contains("c.toml") && !Catch::Contains(" in 1 file"));
  CHECK_THAT(run.err, Catch::Contains("b.toml") && Catch::Contains("--max-file-size"));
  // With -o nothing is written: the report is either whole or not there.
  const fs::path report = dir.path / "report.txt";
  auto to_file = run_cli({"--no-color", "--max-file-size", "1000", "-o", report.string(), (dir.path / "plans").string()});
  CHECK(to_file.status == 2);
  CHECK_FALSE(fs::exists(report));
}

namespace {

/// The baseline as the run applied it before it streamed: every finding of the run at once,
/// exact matches first (by key, or by the key an older release gave it), then same file, rule
/// and a key that is not empty and holds no index. `renamed` holds the files whose findings at
/// keys[1] had keys[3] before their elements were named.
std::vector<planlint::BaselineEntry> apply_all_at_once(std::vector<planlint::Diagnostic>& diagnostics,
                                                       const planlint::Baseline& baseline,
                                                       const std::set<std::string>& renamed, const char* const* keys) {
  std::vector<planlint::BaselineEntry> left = baseline.entries;
  for (int pass = 0; pass < 2; ++pass)
    for (planlint::Diagnostic& d : diagnostics) {
      if (d.suppression) continue;
      const bool named = renamed.count(d.primary.file) > 0 && d.key_path == keys[1];
      for (planlint::BaselineEntry& entry : left) {
        if (entry.count == 0 || entry.file != d.primary.file || entry.rule != d.rule) continue;
        if (pass == 0 && (entry.digest != planlint::message_digest(d.message) ||
                          (entry.key != d.key_path && !(named && entry.key == keys[3]))))
          continue;
        if (pass == 1 && (entry.key != d.key_path || entry.key.empty() || entry.key.find("[0]") != std::string::npos))
          continue;
        --entry.count;
        d.suppression = planlint::Suppression{planlint::Suppression::Kind::baseline, "", {}};
        break;
      }
    }
  std::vector<planlint::BaselineEntry> stale;
  for (planlint::BaselineEntry& entry : left)
    if (entry.count > 0) stale.push_back(entry);
  return stale;
}

}  // namespace

TEST_CASE("a baseline applied file by file marks what applying it to the whole run marks", "[baseline][stream]") {
  std::mt19937 random(20261201);
  auto pick = [&](int n) { return static_cast<int>(random() % static_cast<unsigned>(n)); };
  const char* files[] = {"a.toml", "b.toml", "c.md"};
  const char* rules[] = {"unknown-key", "memory-fit"};
  const char* keys[] = {"cluster.hmb", "assumptions[id=a].updated", "", "assumptions[0].updated"};
  const char* messages[] = {"one", "two", "three"};
  for (int round = 0; round < 300; ++round) {
    // The files whose element a was named from its index: keys[1] was keys[3] in older releases.
    std::set<std::string> renamed;
    for (const char* file : files)
      if (pick(2) == 0) renamed.insert(file);
    std::vector<planlint::Diagnostic> diagnostics;
    for (int i = pick(12); i > 0; --i) {
      planlint::Diagnostic d;
      d.primary.file = files[pick(3)];
      d.rule = rules[pick(2)];
      d.key_path = keys[pick(4)];
      d.message = messages[pick(3)];
      if (pick(8) == 0) d.suppression = planlint::Suppression{};  // an inline suppression
      diagnostics.push_back(d);
    }
    std::stable_sort(diagnostics.begin(), diagnostics.end(),
                     [](const auto& a, const auto& b) { return a.primary.file < b.primary.file; });
    planlint::Baseline baseline{"b.json", {}};
    for (int i = pick(10); i > 0; --i)
      baseline.entries.push_back(planlint::BaselineEntry{files[pick(3)], rules[pick(2)], keys[pick(4)],
                                                         planlint::message_digest(messages[pick(3)]),
                                                         static_cast<std::size_t>(1 + pick(3)), ""});

    std::vector<planlint::Diagnostic> expected = diagnostics;
    const auto expected_stale = apply_all_at_once(expected, baseline, renamed, keys);

    planlint::BaselineMatcher matcher(baseline, [](const std::string& path) { return path; });
    std::vector<planlint::Diagnostic> streamed;
    for (std::size_t begin = 0; begin < diagnostics.size();) {
      std::size_t end = begin;
      while (end < diagnostics.size() && diagnostics[end].primary.file == diagnostics[begin].primary.file) ++end;
      std::vector<planlint::Diagnostic> one_file(diagnostics.begin() + static_cast<long>(begin),
                                                 diagnostics.begin() + static_cast<long>(end));
      planlint::FormerKeys former;
      if (renamed.count(diagnostics[begin].primary.file)) former.earlier.emplace(keys[1], keys[3]);
      matcher.apply(one_file, former);
      streamed.insert(streamed.end(), one_file.begin(), one_file.end());
      begin = end;
    }
    const auto stale = matcher.stale([](const std::string&) { return true; });

    REQUIRE(streamed.size() == expected.size());
    for (std::size_t i = 0; i < streamed.size(); ++i) {
      CAPTURE(round, i);
      CHECK(streamed[i].suppression.has_value() == expected[i].suppression.has_value());
    }
    REQUIRE(stale.size() == expected_stale.size());
    for (std::size_t i = 0; i < stale.size(); ++i) {
      CHECK(stale[i].file == expected_stale[i].file);
      CHECK(stale[i].count == expected_stale[i].count);
    }
  }
}
