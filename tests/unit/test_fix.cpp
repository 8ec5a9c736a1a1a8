// Fixes: the edits of findings applied to a text, their unified diff (checked with patch(1)),
// and `planlint check --fix`, `--diff` and `--unsafe-fixes` on real files.
#include <random>

#include <catch2/catch.hpp>

#include "integration_support.hpp"
#include "planlint/fix/edits.hpp"

namespace fs = std::filesystem;
using namespace planlint;
using namespace planlint::test;
using fix::TextEdit;

namespace {

/// A training plan whose [cluster] has the H100's sparse BF16 peak and a misspelt `hmb`.
std::string sparse_peak_plan() {
  std::string plan = read_text(data_path("rules/sparse-peak/fires.toml"));
  const std::string peak = "peak = \"1979 TFLOPS\"\n";
  const std::size_t at = plan.find(peak);
  REQUIRE(at != std::string::npos);
  plan.insert(at + peak.size(), "hmb = \"80 GB\"  # HBM per GPU\n");
  return plan;
}

std::string fixed_plan(std::string plan) {
  plan.replace(plan.find("peak = \"1979 TFLOPS\""), 20, "peak = \"989 TFLOPS\"");
  plan.replace(plan.find("hmb = "), 3, "hbm");
  return plan;
}

bool mentions(const std::string& output, std::string_view rule) {
  return output.find(fmt::format("[{}]", rule)) != std::string::npos;
}

}  // namespace

TEST_CASE("apply_edits makes sorted edits at once", "[fix]") {
  CHECK(fix::apply_edits("hmb = 1\npeak = 2\n", {{0, 3, "hbm"}, {15, 16, "\"989 TFLOPS\""}}) ==
        "hbm = 1\npeak = \"989 TFLOPS\"\n");
  CHECK(fix::apply_edits("abc", {{3, 3, "d"}}) == "abcd");
  CHECK(fix::apply_edits("abc", {}) == "abc");
}

TEST_CASE("unified_diff is what diff -u prints, and patch applies it", "[fix][integration]") {
  std::string text;
  for (int i = 1; i <= 20; ++i) text += fmt::format("line{} = {}\n", i, i);
  text += "last = 0";  // no final line break
  const std::vector<std::vector<TextEdit>> cases = {
      {{0, 5, "first"}},                                       // the first line
      {{text.find("line10"), text.find("line10") + 6, "ten"}},  // the middle: context both sides
      {{text.find("line2 "), text.find("line2 ") + 5, "two"}, {text.find("line4 "), text.find("line4 ") + 5, "four"},
       {text.find("line18"), text.find("line18") + 6, "x"}},  // two hunks
      {{text.find("last = 0") + 7, text.size(), "1\nadded = 2\n"}},  // the last line, which gains a break
      {{text.find("line5 "), text.find("line7 "), ""}},            // lines removed
  };
  Scratch dir;
  for (const auto& edits : cases) {
    const std::string diff = fix::unified_diff(text, edits, "plan.toml");
    INFO(diff);
    dir.write("plan.toml", text);
    dir.write("fix.diff", diff);
    std::string output;
    REQUIRE(run_command("cd " + quote(dir.path.string()) + " && patch -p0 --quiet < fix.diff", output) == 0);
    CHECK(read_text(dir.path / "plan.toml") == fix::apply_edits(text, edits));
    CHECK(diff.starts_with("--- plan.toml\n+++ plan.toml\n@@ -"));
  }
  CHECK(fix::unified_diff(text, {}, "plan.toml").empty());
  // One change in the middle: three lines of context either side.
  const std::string diff = fix::unified_diff(text, cases[1], "plan.toml");
  CHECK(diff == "--- plan.toml\n+++ plan.toml\n@@ -7,7 +7,7 @@\n line7 = 7\n line8 = 8\n line9 = 9\n"
                "-line10 = 10\n+ten = 10\n line11 = 11\n line12 = 12\n line13 = 13\n");
}

TEST_CASE("collect_fixes takes safe fixes, leaves overlapping and suppressed ones", "[fix]") {
  const SourceFile source("plan.toml", "hmb = 1\npeak = 2\n");
  auto finding = [&](std::string rule, Span span, std::string replacement) {
    Diagnostic d;
    d.rule = std::move(rule);
    d.primary = {"plan.toml", span};
    d.fixes.push_back({{"plan.toml", span}, std::move(replacement)});
    return d;
  };
  std::vector<Diagnostic> findings = {finding("unknown-key", {{1, 1}, {1, 4}}, "hbm"),
                                      finding("sparse-peak", {{2, 8}, {2, 9}}, "3"),
                                      finding("bits-for-bytes", {{2, 8}, {2, 9}}, "4")};
  std::vector<RuleDescriptor> rules(3);
  rules[0].id = "unknown-key", rules[0].fix = FixSafety::safe;
  rules[1].id = "sparse-peak", rules[1].fix = FixSafety::safe;
  rules[2].id = "bits-for-bytes", rules[2].fix = FixSafety::unsafe;
  const fix::SafetyOf safety = fix::fix_safety_of(rules);

  fix::FileFixes safe = fix::collect_fixes(source, findings, safety, false);
  CHECK(safe.fixed == 2);
  CHECK(fix::apply_edits(source.text(), safe.edits) == "hbm = 1\npeak = 3\n");
  // With the unsafe ones, the second edit of one place waits for the next run.
  fix::FileFixes all = fix::collect_fixes(source, findings, safety, true);
  CHECK(all.fixed == 2);
  CHECK(all.left == 1);

  findings[0].suppression = Suppression{};
  CHECK(fix::collect_fixes(source, findings, safety, false).fixed == 1);
  Diagnostic syntax;
  syntax.rule = "toml-syntax";
  syntax.primary = {"plan.toml", {{3, 1}, {3, 2}}};
  findings.push_back(syntax);
  CHECK(fix::collect_fixes(source, findings, safety, true).edits.empty());
}

TEST_CASE("planlint check --fix clears a sparse peak and a misspelt key, the rest of the file byte for byte", "[fix][cli]") {
  Scratch dir;
  const std::string plan = sparse_peak_plan();
  const fs::path path = dir.write("plan.toml", plan);
  auto before = run_cli({"check", "--today", "2026-11-20", path.string()});
  REQUIRE(mentions(before.out, "sparse-peak"));
  REQUIRE(mentions(before.out, "unknown-key"));

  auto run = run_cli({"check", "--today", "2026-11-20", "--fix", path.string()});
  INFO(run.out << run.err);
  CHECK(read_text(path) == fixed_plan(plan));
  CHECK(run.err == "planlint: fixed 2 findings in 1 file\n");
  // What remains is reported, as a run without --fix reports it.
  auto after = run_cli({"check", "--today", "2026-11-20", path.string()});
  CHECK(run.out == after.out);
  CHECK(run.status == after.status);
  CHECK_FALSE(mentions(after.out, "sparse-peak"));
  CHECK_FALSE(mentions(after.out, "unknown-key"));
  // A second --fix has nothing left to do.
  auto again = run_cli({"check", "--today", "2026-11-20", "--fix", path.string()});
  CHECK(again.err == "planlint: fixed 0 findings in 0 files\n");
  CHECK(read_text(path) == fixed_plan(plan));
}

TEST_CASE("planlint check --diff prints the fixes as a diff and leaves the file unchanged", "[fix][cli]") {
  Scratch dir;
  const std::string plan = sparse_peak_plan();
  const fs::path path = dir.write("plan.toml", plan);
  InDirectory in(dir.path);  // patch(1) takes the relative names of a diff only
  auto run = run_cli({"check", "--today", "2026-11-20", "--diff", "plan.toml"});
  CHECK(run.status == 1);
  CHECK(read_text(path) == plan);
  CHECK_THAT(run.out, Catch::StartsWith("--- plan.toml\n+++ plan.toml\n@@ -24,8 +24,8 @@\n"));
  CHECK_THAT(run.out, Catch::Contains("\n-peak = \"1979 TFLOPS\"\n-hmb = \"80 GB\"  # HBM per GPU\n"
                                      "+peak = \"989 TFLOPS\"\n+hbm = \"80 GB\"  # HBM per GPU\n"));
  CHECK(run.err == "planlint: 2 fixable findings in 1 file (--fix applies them)\n");
  // patch(1) applies it and gives what --fix writes.
  dir.write("fix.diff", run.out);
  std::string output;
  REQUIRE(run_command("patch -p0 --quiet < fix.diff", output) == 0);
  CHECK(read_text(path) == fixed_plan(plan));
  // Nothing to fix: no diff, exit 0.
  auto clean = run_cli({"check", "--today", "2026-11-20", "--diff", "plan.toml"});
  CHECK(clean.status == 0);
  CHECK(clean.out.empty());
}

TEST_CASE("planlint check --fix edits a Markdown doc's plan block in place, its prose untouched", "[fix][cli][markdown]") {
  Scratch dir;
  const std::string prose = "# Q3 capacity\n\nThe peak below is **the datasheet's** – check it.\n\n";
  const std::string after = "\nSigned off: nobody yet. `hmb = 1` here is prose.\n";
  const std::string doc = prose + "```toml\n" + sparse_peak_plan() + "```\n" + after;
  const fs::path path = dir.write("q3.md", doc);
  auto run = run_cli({"check", "--today", "2026-11-20", "--fix", path.string()});
  INFO(run.out << run.err);
  CHECK(run.err == "planlint: fixed 2 findings in 1 file\n");
  CHECK(read_text(path) == prose + "```toml\n" + fixed_plan(sparse_peak_plan()) + "```\n" + after);
}

TEST_CASE("planlint check --fix changes no file with a TOML error, nor one reached through a symbolic link", "[fix][cli]") {
  Scratch dir;
  const std::string broken = sparse_peak_plan() + "[cluster\n";
  const fs::path path = dir.write("broken.toml", broken);
  auto run = run_cli({"check", "--fix", path.string()});
  CHECK(run.status == 1);
  CHECK(read_text(path) == broken);
  CHECK(run.err == "planlint: fixed 0 findings in 0 files\n");

  const fs::path target = dir.write("real/plan.toml", sparse_peak_plan());
  fs::create_symlink(target, dir.path / "link.toml");
  auto linked = run_cli({"check", "--today", "2026-11-20", "--fix", (dir.path / "link.toml").string()});
  CHECK(linked.status == 2);
  const std::string link = (dir.path / "link.toml").string();
  CHECK_THAT(linked.err, Catch::Contains("planlint: error: --fix " + link + ": '" + link + "' is a symbolic link (to '" +
                                         target.string() + "')"));
  CHECK_THAT(linked.err, Catch::Contains("run --fix on the file the link names"));
  CHECK(read_text(target) == sparse_peak_plan());
  CHECK(fs::is_symlink(dir.path / "link.toml"));
}

TEST_CASE("planlint check --fix refuses a file under a linked folder of the working directory, naming --fix",
          "[fix][cli][hostile]") {
  Scratch dir;
  InDirectory in(dir.path);
  const fs::path victim = dir.write("elsewhere/plan.toml", sparse_peak_plan());
  fs::create_symlink(dir.path / "elsewhere", dir.path / "plans");
  auto run = run_cli({"check", "--today", "2026-11-20", "--fix", "plans/plan.toml"});
  CHECK(run.status == 2);
  CHECK_THAT(run.err, Catch::StartsWith("planlint: error: --fix plans/plan.toml: the folder 'plans' is a symbolic link "
                                        "(to '" + (dir.path / "elsewhere").string() + "')"));
  CHECK_THAT(run.err, !Catch::Contains("-o ") && !Catch::Contains("--output-follow-symlinks"));
  CHECK(read_text(victim) == sparse_peak_plan());
}

TEST_CASE("compose_edits makes in one list what two passes of edits make", "[fix]") {
  std::mt19937 random(39);
  auto below = [&](std::size_t n) { return n == 0 ? std::size_t{0} : std::size_t(random() % n); };
  // Sorted edits that neither overlap nor insert twice at one place, as collect_fixes makes.
  auto edits_of = [&](const std::string& text) {
    std::vector<TextEdit> edits;
    std::size_t at = 0;
    for (int k = below(4); k > 0 && at <= text.size(); --k) {
      const std::size_t begin = at + below(text.size() - at + 1);
      const std::size_t end = std::min(text.size(), begin + below(4));
      if (!edits.empty() && begin == end && edits.back().end == begin) break;
      edits.push_back({begin, end, std::string(below(4), "xyz"[below(3)])});
      at = end + (begin == end ? 1 : 0);
    }
    return edits;
  };
  for (int round = 0; round < 5000; ++round) {
    std::string text;
    for (std::size_t n = below(24); n > 0; --n) text += "abcde\n"[below(6)];
    const std::vector<TextEdit> first = edits_of(text);
    const std::string middle = fix::apply_edits(text, first);
    const std::vector<TextEdit> second = edits_of(middle);
    const std::vector<TextEdit> composed = fix::compose_edits(text, first, second);
    INFO("round " << round << ": '" << text << "'");
    REQUIRE(fix::apply_edits(text, composed) == fix::apply_edits(middle, second));
    for (std::size_t i = 0; i < composed.size(); ++i) {
      CHECK(composed[i].begin <= composed[i].end);
      CHECK(composed[i].end <= text.size());
      // Edits that touch are fine (apply_edits makes them in order); two at one place are not.
      if (i > 0) CHECK(composed[i - 1].end <= composed[i].begin);
      if (i > 0) CHECK(composed[i - 1].begin < composed[i].begin);
    }
  }
}

TEST_CASE("a misspelt key is not renamed onto a key its table has: the plan stays valid TOML", "[fix][cli]") {
  Scratch dir;
  InDirectory in(dir.path);
  auto check_left = [&](const std::string& plan, const std::string& note) {
    const fs::path path = dir.write("plan.toml", plan);
    auto run = run_cli({"check", "--fix", "plan.toml"});
    INFO(run.out << run.err);
    CHECK(read_text(path) == plan);
    CHECK_THAT(run.err, Catch::Contains("planlint: note: plan.toml:" + note));
    CHECK_THAT(run.err, Catch::EndsWith("planlint: fixed 0 findings in 0 files\n"));
    CHECK_FALSE(mentions(run.out, "toml-syntax"));
    CHECK(run.status != 2);
    // A second run, and --diff, change nothing either.
    CHECK(run_cli({"check", "--fix", "plan.toml"}).err == run.err);
    CHECK(run_cli({"check", "--diff", "plan.toml"}).out.empty());
  };
  SECTION("the right key is there already") {
    check_left(inference_plan_with("hbm = \"80 GB\"\nhmb = \"80 GB\"\n"),
               "10:1: the fix of 'hmb' is not made: its table has a 'hbm' already");
  }
  SECTION("two misspellings of one key") {
    check_left(inference_plan_with("hmb = \"80 GB\"\nhbn = \"80 GB\"\n"),
               "9:1: the fixes of 'hmb' and 'hbn' are not made: each renames a key of one table to 'hbm'");
  }
  SECTION("a misspelt section beside the right one") {
    check_left(inference_plan_with("") + "[clustr]\ncount = 8\n", "9:2: the fix of 'clustr' is not made: its table has a 'cluster' already");
  }
  SECTION("the other fixes of the file are made") {
    const std::string plan = inference_plan_with("hbm = \"80 GB\"\nhmb = \"80 GB\"\nprce = \"$3/GPU/h\"\n");
    const fs::path path = dir.write("plan.toml", plan);
    auto run = run_cli({"check", "--fix", "plan.toml"});
    CHECK(read_text(path) == inference_plan_with("hbm = \"80 GB\"\nhmb = \"80 GB\"\nprice = \"$3/GPU/h\"\n"));
    CHECK_THAT(run.err, Catch::Contains("the fix of 'hmb' is not made"));
  }
}

TEST_CASE("planlint check --fix settles in one run: a key renamed, then its value fixed", "[fix][cli]") {
  Scratch dir;
  std::string plan = sparse_peak_plan();
  plan.replace(plan.find("peak = \"1979"), 4, "peek");
  const fs::path path = dir.write("plan.toml", plan);
  auto diff = run_cli({"check", "--today", "2026-11-20", "--diff", path.string()});
  CHECK_THAT(diff.out, Catch::Contains("-peek = \"1979 TFLOPS\"\n-hmb = \"80 GB\"  # HBM per GPU\n"
                                       "+peak = \"989 TFLOPS\"\n+hbm = \"80 GB\"  # HBM per GPU\n"));
  CHECK(diff.err == "planlint: 3 fixable findings in 1 file (--fix applies them)\n");
  auto run = run_cli({"check", "--today", "2026-11-20", "--fix", path.string()});
  CHECK(run.err == "planlint: fixed 3 findings in 1 file\n");
  CHECK(read_text(path) == fixed_plan(sparse_peak_plan()));
  auto again = run_cli({"check", "--today", "2026-11-20", "--fix", path.string()});
  CHECK(again.err == "planlint: fixed 0 findings in 0 files\n");
}

TEST_CASE("a second --fix run changes nothing, for every rule case", "[fix][cli][fixtures]") {
  const fs::path cases = data_path("rules");
  std::size_t changed = 0;
  Scratch dir;
  for (const auto& rule : fs::directory_iterator(cases)) {
    for (const auto& entry : fs::directory_iterator(rule.path())) {
      const std::string extension = entry.path().extension().string();
      if (extension != ".toml" && extension != ".md") continue;
      const std::string text = read_text(entry.path());
      const fs::path path = dir.write(rule.path().filename().string() + "-" + entry.path().filename().string(), text);
      INFO(entry.path().string());
      auto first = run_cli({"check", "--today", "2026-11-30", "--fix", "--unsafe-fixes", path.string()});
      REQUIRE(first.status != 2);
      const std::string fixed = read_text(path);
      if (fixed != text) ++changed;
      auto second = run_cli({"check", "--today", "2026-11-30", "--fix", "--unsafe-fixes", path.string()});
      INFO(first.err << second.err);
      CHECK_THAT(second.err, Catch::EndsWith("planlint: fixed 0 findings in 0 files\n"));
      CHECK(read_text(path) == fixed);
    }
  }
  CHECK(changed >= 10);  // the cases of the rules with a fix
}

TEST_CASE("planlint check --fix keeps a byte order mark and the file's permissions", "[fix][cli]") {
  Scratch dir;
  const fs::path path = dir.write("plan.toml", "\xEF\xBB\xBF" + sparse_peak_plan());
  fs::permissions(path, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  run_cli({"check", "--today", "2026-11-20", "--fix", path.string()});
  CHECK(read_text(path) == "\xEF\xBB\xBF" + fixed_plan(sparse_peak_plan()));
  CHECK((fs::status(path).permissions() & fs::perms::all) ==
        (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read));
}

TEST_CASE("unsafe fixes wait for --unsafe-fixes", "[fix][cli]") {
  Scratch dir;
  const std::string plan = read_text(data_path("rules/bits-for-bytes/fires.toml"));
  const fs::path path = dir.write("plan.toml", plan);
  auto safe = run_cli({"check", "--today", "2026-11-20", "--select", "bits-for-bytes", "--fix", path.string()});
  CHECK(safe.err == "planlint: fixed 0 findings in 0 files\n");
  CHECK(read_text(path) == plan);
  auto unsafe =
      run_cli({"check", "--today", "2026-11-20", "--select", "bits-for-bytes", "--fix", "--unsafe-fixes", path.string()});
  CHECK(unsafe.err == "planlint: fixed 1 finding in 1 file\n");
  CHECK(read_text(path) != plan);
  CHECK_FALSE(mentions(unsafe.out, "bits-for-bytes"));

  auto alone = run_cli({"check", "--unsafe-fixes", path.string()});
  CHECK(alone.status == 2);
  CHECK(alone.err == "planlint: error: --unsafe-fixes: applies with --fix or --diff\n");
  auto both = run_cli({"check", "--fix", "--diff", path.string()});
  CHECK(both.status == 2);
}

TEST_CASE("explain says whether a rule's fix is safe", "[fix][cli]") {
  CHECK_THAT(run_cli({"explain", "sparse-peak"}).out,
             Catch::Contains("**Fix:** safe: `planlint check --fix` applies it"));
  CHECK_THAT(run_cli({"explain", "bits-for-bytes"}).out,
             Catch::Contains("**Fix:** unsafe: `planlint check --fix --unsafe-fixes` applies it;"));
  // memory-fit's fix is the nearest layout that fits, searched as solve searches.
  CHECK_THAT(run_cli({"explain", "memory-fit"}).out,
             Catch::Contains("**Fix:** unsafe: `planlint check --fix --unsafe-fixes` applies it;"));
  CHECK_THAT(run_cli({"explain", "chinchilla-ratio"}).out, !Catch::Contains("**Fix:**"));
}
