// Baselines: --write-baseline records findings by file, rule and key path; --baseline hides
// them after unrelated edits and reports entries that no longer match.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "integration_support.hpp"
#include "planlint/baseline/baseline.hpp"
#include "planlint/lint/lint.hpp"
#include "planlint/plan/element_keys.hpp"
#include "support.hpp"

using planlint::test::run_cli;
using planlint::test::Scratch;

namespace {

constexpr const char* plan = R"([plan]
name = "x"
kind = "inference"
[model]
params = "7B"
[cluster]
gpu = "h100-sxm"
count = 8
hmb = "80 GB"
hbmm = "80 GB"
)";

}  // namespace

TEST_CASE("a baseline hides recorded findings even after lines are inserted above them", "[baseline][cli]") {
  Scratch dir;
  planlint::test::InDirectory cwd(dir.path);
  dir.write("plans/plan.toml", plan);

  auto write = run_cli({"--no-color", "--write-baseline", "baseline.json", "plans/plan.toml"});
  CHECK(write.status == 0);  // what is recorded is accepted
  CHECK(write.out == "no problems in 1 file (2 suppressed)\n");
  CHECK(write.err == "planlint: wrote 2 findings to the baseline baseline.json\n");
  auto baseline = nlohmann::json::parse(planlint::test::read_text(dir.path / "baseline.json"));
  REQUIRE(baseline["entries"].size() == 2);
  CHECK(baseline["entries"][0]["file"] == "plans/plan.toml");
  CHECK(baseline["entries"][0]["rule"] == "unknown-key");
  CHECK(baseline["entries"][0]["key"] == "cluster.hbmm");
  CHECK(baseline["entries"][1]["key"] == "cluster.hmb");

  // Lines inserted above the findings: still accepted.
  dir.write("plans/plan.toml", std::string("# reviewed 2026-11\n\n") + plan);
  auto after_edit = run_cli({"--no-color", "--baseline", "baseline.json", "plans/plan.toml"});
  CHECK(after_edit.status == 0);
  CHECK(after_edit.out == "no problems in 1 file (2 suppressed)\n");
  CHECK(after_edit.err.empty());

  // A new finding is not in the baseline.
  dir.write("plans/plan.toml", std::string(plan) + "nvlink = 1\n");
  auto new_finding = run_cli({"--no-color", "--baseline", "baseline.json", "plans/plan.toml"});
  CHECK(new_finding.status == 1);
  CHECK_THAT(new_finding.out, Catch::Contains("unknown key 'nvlink'"));
  CHECK_THAT(new_finding.out, Catch::EndsWith("1 error in 1 file (2 suppressed)\n"));

  // From another working directory, the baseline's paths still match (they are relative to it).
  planlint::test::InDirectory elsewhere(dir.path / "plans");
  auto from_plans = run_cli({"--no-color", "--baseline", "../baseline.json", "plan.toml"});
  CHECK_THAT(from_plans.out, Catch::EndsWith("1 error in 1 file (2 suppressed)\n"));
}

TEST_CASE("baseline entries that no longer match are reported on stderr", "[baseline][cli]") {
  Scratch dir;
  planlint::test::InDirectory cwd(dir.path);
  dir.write("plan.toml", plan);
  dir.write("other.toml", plan);
  REQUIRE(run_cli({"--write-baseline", "baseline.json", "plan.toml", "other.toml"}).status == 0);

  std::string fixed = plan;
  fixed.erase(fixed.find("hbmm = \"80 GB\"\n"));
  dir.write("plan.toml", fixed);
  auto run = run_cli({"--no-color", "--baseline", "baseline.json", "plan.toml"});
  CHECK(run.status == 0);
  CHECK(run.out == "no problems in 1 file (1 suppressed)\n");
  // other.toml was not linted, so its entries are not stale.
  CHECK(run.err == "planlint: note: baseline entry no longer matches: plan.toml [unknown-key] at cluster.hbmm (baseline.json)\n");
}

TEST_CASE("an entry of two findings that now accepts one says one is gone, not that it matches nothing",
          "[baseline][cli]") {
  // Two identical unused allow-file comments are one entry of count 2; with one
  // deleted, the entry still accepted the other and was reported as no longer matching.
  Scratch dir;
  planlint::test::InDirectory cwd(dir.path);
  const std::string comment = "# planlint: allow-file chinchilla-ratio -- deliberate\n";
  dir.write("plan.toml", comment + comment + plan);
  REQUIRE(run_cli({"--write-baseline", "baseline.json", "plan.toml"}).status == 0);
  auto entries = nlohmann::json::parse(planlint::test::read_text(dir.path / "baseline.json"))["entries"];
  bool two = false;
  for (const auto& entry : entries) two = two || (entry["rule"] == "unused-suppression" && entry["count"] == 2);
  REQUIRE(two);
  dir.write("plan.toml", comment + plan);
  auto run = run_cli({"--no-color", "--baseline", "baseline.json", "plan.toml"});
  CHECK(run.status == 0);
  CHECK(run.err ==
        "planlint: note: baseline entry matches fewer findings: plan.toml [unused-suppression] at "
        "#allow-file(chinchilla-ratio): 1 of its 2 no longer found (baseline.json)\n");
}

TEST_CASE("entries of a file that no longer exists are named once, whatever the run lints", "[baseline][cli]") {
  // After `git mv plans/a.toml plans/c.toml` the old entries matched nothing and were
  // never reported (a.toml is not linted), while c.toml's findings came back as new.
  Scratch dir;
  planlint::test::InDirectory cwd(dir.path);
  dir.write("plans/a.toml", plan);
  dir.write("plans/b.toml", plan);
  REQUIRE(run_cli({"--write-baseline", "baseline.json", "plans"}).status == 0);
  std::filesystem::rename(dir.path / "plans/a.toml", dir.path / "plans/c.toml");
  auto run = run_cli({"--no-color", "--baseline", "baseline.json", "plans/b.toml"});
  CHECK(run.status == 0);
  CHECK(run.err ==
        "planlint: note: the baseline has 2 entries for a file that no longer exists: plans/a.toml (baseline.json); "
        "rewrite the baseline with --write-baseline to drop them\n");
  // A file that exists but is not linted in this run keeps its entries in silence.
  CHECK(run_cli({"--no-color", "--baseline", "baseline.json", "plans/c.toml"}).err.find("plans/b.toml") ==
        std::string::npos);
}

TEST_CASE("the note on a file that no longer exists counts its entries, and their findings when more",
          "[baseline][cli]") {
  // It summed the entries' counts and called them entries: two entries, of 1 and 3 findings,
  // were "4 entries".
  Scratch dir;
  planlint::test::InDirectory cwd(dir.path);
  const std::string comment = "# planlint: allow-file chinchilla-ratio -- deliberate\n";
  std::string one_unknown_key = plan;
  one_unknown_key.erase(one_unknown_key.find("hbmm = \"80 GB\"\n"));
  std::string clean = one_unknown_key;
  clean.erase(clean.find("hmb = \"80 GB\"\n"));
  dir.write("plans/a.toml", comment + comment + comment + one_unknown_key);  // entries of 1 and 3
  dir.write("plans/b.toml", comment + comment + comment + clean);            // one entry of 3
  dir.write("plans/c.toml", one_unknown_key);                                // one entry of 1
  dir.write("plans/kept.toml", clean);
  REQUIRE(run_cli({"--write-baseline", "baseline.json", "plans"}).status == 0);
  for (const char* gone : {"plans/a.toml", "plans/b.toml", "plans/c.toml"}) std::filesystem::remove(dir.path / gone);

  auto run = run_cli({"--no-color", "--baseline", "baseline.json", "plans/kept.toml"});
  CHECK(run.status == 0);
  CHECK(run.err ==
        "planlint: note: the baseline has 2 entries (4 findings) for a file that no longer exists: plans/a.toml "
        "(baseline.json); rewrite the baseline with --write-baseline to drop them\n"
        "planlint: note: the baseline has an entry (3 findings) for a file that no longer exists: plans/b.toml "
        "(baseline.json); rewrite the baseline with --write-baseline to drop it\n"
        "planlint: note: the baseline has an entry for a file that no longer exists: plans/c.toml "
        "(baseline.json); rewrite the baseline with --write-baseline to drop it\n");
}

TEST_CASE("findings sharing file, rule and key are told apart by the message digest", "[baseline]") {
  auto make = [](std::string message) {
    planlint::Diagnostic d;
    d.rule = "r";
    d.message = std::move(message);
    d.key_path = "k";
    d.primary = planlint::Location{"a.toml", planlint::Span{{1, 1}, {1, 2}}};
    return d;
  };
  auto key = [](const std::string& path) { return path; };
  std::vector<planlint::Diagnostic> recorded = {make("one"), make("two"), make("two")};
  auto entries = planlint::baseline_entries(recorded, key);
  REQUIRE(entries.size() == 2);
  CHECK(entries[0].count + entries[1].count == 3);

  auto baseline = planlint::parse_baseline("b.json", planlint::baseline_text(entries));
  REQUIRE(baseline);
  // "three" matches no digest but shares file, rule and key: accepted in the second pass.
  std::vector<planlint::Diagnostic> now = {make("two"), make("three"), make("four"), make("five")};
  auto stale = planlint::apply_baseline(now, *baseline, key, [](const std::string&) { return true; });
  CHECK(now[0].suppression);
  CHECK(now[1].suppression);
  CHECK(now[2].suppression);
  CHECK_FALSE(now[3].suppression);
  CHECK(stale.empty());
  CHECK(now[0].suppression->kind == planlint::Suppression::Kind::baseline);

  CHECK_FALSE(planlint::parse_baseline("b.json", "{\"version\": 2}"));
  CHECK_FALSE(planlint::parse_baseline("b.json", "not json"));
  // A version that is not a number is this message, not an exception from the JSON library.
  const auto version_text = planlint::parse_baseline("b.json", "{\"version\": \"1\", \"entries\": []}");
  REQUIRE_FALSE(version_text);
  CHECK_THAT(version_text.error().message, Catch::StartsWith("not a planlint baseline"));
  // A syntax error says where it is.
  const auto syntax = planlint::parse_baseline("b.json", "{\"version\": 1,\n  \"entries\": [ {\"file\": x} ]\n}\n");
  REQUIRE_FALSE(syntax);
  CHECK_THAT(syntax.error().message, Catch::StartsWith("not valid JSON: parse error at line 2, column 25: "));
}

TEST_CASE("an unreadable baseline is exit status 2", "[baseline][cli]") {
  Scratch dir;
  auto file = dir.write("plan.toml", plan);
  auto run = run_cli({"--baseline", (dir.path / "missing.json").string(), file.string()});
  CHECK(run.status == 2);
  CHECK_THAT(run.err, Catch::StartsWith("planlint: error: cannot read baseline"));
}

namespace {

/// A training plan whose [[assumptions]] are `assumptions` (each a block of TOML), linted with
/// only assumption-stale on 2026-11-30.
std::string plan_with_assumptions(const std::vector<std::string>& assumptions) {
  std::string text = R"([plan]
name = "x"
kind = "training"
[model]
params = "7B"
[training]
tokens = "1T"
mfu = "40%"
goodput = "90%"
[cluster]
gpu = "h100-sxm"
count = 128
price = "$2.5/GPU/h"
)";
  for (const std::string& a : assumptions) text += "\n[[assumptions]]\n" + a;
  return text;
}

std::string assumption(const std::string& id, const std::string& key, const std::string& updated) {
  return "id = \"" + id + "\"\nkey = \"" + key + "\"\nsource = \"fleet log\"\nupdated = " + updated + "\n";
}

const std::string stale_goodput = assumption("goodput", "training.goodput", "2026-03-01");
const std::string stale_price = assumption("price", "cluster.price", "2026-04-01");
const std::string fresh_goodput = assumption("goodput", "training.goodput", "2026-11-01");
const std::string fresh_price = assumption("price", "cluster.price", "2026-11-01");
const std::string stale_mfu = assumption("mfu", "training.mfu", "2025-01-15");

planlint::test::CliRun check_stale(std::vector<std::string> args, const std::string& today = "2026-11-30") {
  std::vector<std::string> all = {"--no-color", "--select", "assumption-stale", "--today", today};
  all.insert(all.end(), args.begin(), args.end());
  return run_cli(all);
}

}  // namespace

TEST_CASE("an assumption inserted above recorded ones is a new finding, and the fixed ones are stale",
          "[baseline][cli]") {
  // The entries were keyed assumptions[0] and [1], so the new first element's
  // finding took the old first element's entry by key alone, and the note named [1].
  Scratch dir;
  planlint::test::InDirectory cwd(dir.path);
  dir.write("plan.toml", plan_with_assumptions({stale_goodput, stale_price}));
  REQUIRE(check_stale({"--write-baseline", "baseline.json", "plan.toml"}).status == 0);
  auto baseline = nlohmann::json::parse(planlint::test::read_text(dir.path / "baseline.json"));
  REQUIRE(baseline["entries"].size() == 2);
  CHECK(baseline["entries"][0]["key"] == "assumptions[id=goodput].updated");
  CHECK(baseline["entries"][1]["key"] == "assumptions[id=price].updated");

  dir.write("plan.toml", plan_with_assumptions({stale_mfu, fresh_goodput, fresh_price}));
  auto run = check_stale({"--fail-on", "warning", "--baseline", "baseline.json", "plan.toml"});
  CHECK(run.status == 1);
  CHECK_THAT(run.out, Catch::Contains("warning: assumption 'mfu' was last checked on 2025-01-15"));
  CHECK_THAT(run.out, Catch::EndsWith("1 warning in 1 file\n"));
  CHECK(run.err ==
        "planlint: note: baseline entry no longer matches: plan.toml [assumption-stale] at "
        "assumptions[id=goodput].updated (baseline.json)\n"
        "planlint: note: baseline entry no longer matches: plan.toml [assumption-stale] at "
        "assumptions[id=price].updated (baseline.json)\n");

  // A later day changes the messages ("N d ago"): an entry keyed by id still accepts its finding.
  dir.write("plan.toml", plan_with_assumptions({stale_mfu, stale_goodput, stale_price}));
  auto later = check_stale({"--baseline", "baseline.json", "plan.toml"}, "2026-12-15");
  CHECK_THAT(later.out, Catch::Contains("assumption 'mfu'"));
  CHECK_THAT(later.out, Catch::EndsWith("1 warning in 1 file (2 suppressed)\n"));
  CHECK(later.err.empty());
}

TEST_CASE("swapped assumptions keep their own baseline entries", "[baseline][cli]") {
  // After a swap and a fix of goodput, price's finding was accepted under
  // goodput's entry, and the stale note named assumptions[1], price's own entry.
  Scratch dir;
  planlint::test::InDirectory cwd(dir.path);
  dir.write("plan.toml", plan_with_assumptions({stale_goodput, stale_price}));
  REQUIRE(check_stale({"--write-baseline", "baseline.json", "plan.toml"}).status == 0);

  dir.write("plan.toml", plan_with_assumptions({stale_price, stale_goodput}));
  auto swapped = check_stale({"--baseline", "baseline.json", "plan.toml"});
  CHECK(swapped.out == "no problems in 1 file (2 suppressed)\n");
  CHECK(swapped.err.empty());

  dir.write("plan.toml", plan_with_assumptions({stale_price, fresh_goodput}));
  auto fixed = check_stale({"--baseline", "baseline.json", "plan.toml"});
  CHECK(fixed.out == "no problems in 1 file (1 suppressed)\n");
  CHECK(fixed.err ==
        "planlint: note: baseline entry no longer matches: plan.toml [assumption-stale] at "
        "assumptions[id=goodput].updated (baseline.json)\n");

  // With a new stale one in goodput's place, price's entry is no help to it.
  dir.write("plan.toml", plan_with_assumptions({stale_price, stale_mfu}));
  auto replaced = check_stale({"--baseline", "baseline.json", "plan.toml"});
  CHECK_THAT(replaced.out, Catch::Contains("assumption 'mfu'"));
  CHECK_THAT(replaced.out, Catch::EndsWith("1 warning in 1 file (1 suppressed)\n"));
}

TEST_CASE("a baseline written with positional keys matches only the same finding at the same index",
          "[baseline][cli]") {
  // Baselines written before elements had names keyed them by index; they keep working, but an
  // index says nothing of which element it was, so such an entry needs the message too.
  Scratch dir;
  planlint::test::InDirectory cwd(dir.path);
  dir.write("plan.toml", plan_with_assumptions({stale_goodput, stale_price}));
  REQUIRE(check_stale({"--write-baseline", "new.json", "plan.toml"}).status == 0);
  auto recorded = nlohmann::json::parse(planlint::test::read_text(dir.path / "new.json"));
  // The same entries as an older planlint wrote them.
  recorded["entries"][0]["key"] = "assumptions[0].updated";
  recorded["entries"][1]["key"] = "assumptions[1].updated";
  dir.write("old.json", recorded.dump(2));

  auto same = check_stale({"--baseline", "old.json", "plan.toml"});
  CHECK(same.out == "no problems in 1 file (2 suppressed)\n");
  CHECK(same.err.empty());

  // Inserted above: the new finding at index 0 is not goodput's, and the old ones moved.
  dir.write("plan.toml", plan_with_assumptions({stale_mfu, stale_goodput, stale_price}));
  auto inserted = check_stale({"--baseline", "old.json", "plan.toml"});
  CHECK_THAT(inserted.out, Catch::EndsWith("3 warnings in 1 file\n"));
  CHECK_THAT(inserted.err, Catch::Contains("no longer matches: plan.toml [assumption-stale] at assumptions[0].updated"));
  CHECK_THAT(inserted.err, Catch::Contains("no longer matches: plan.toml [assumption-stale] at assumptions[1].updated"));

  // Swapped: each index now holds the other's finding, whose message differs.
  dir.write("plan.toml", plan_with_assumptions({stale_price, stale_goodput}));
  CHECK_THAT(check_stale({"--baseline", "old.json", "plan.toml"}).out, Catch::EndsWith("2 warnings in 1 file\n"));

  // Same place, another message (a later day): not accepted by the index alone.
  dir.write("plan.toml", plan_with_assumptions({stale_goodput, stale_price}));
  auto later = check_stale({"--baseline", "old.json", "plan.toml"}, "2026-12-15");
  CHECK_THAT(later.out, Catch::EndsWith("2 warnings in 1 file\n"));

  // Rewriting the baseline moves it to names.
  REQUIRE(check_stale({"--baseline", "old.json", "--write-baseline", "old.json", "plan.toml"}).status == 0);
  CHECK(planlint::test::read_text(dir.path / "old.json") == planlint::test::read_text(dir.path / "new.json"));
}

TEST_CASE("array elements are named in key paths by id, name, or metric and date", "[baseline]") {
  const std::string plan = plan_with_assumptions(
                               {assumption("mfu (H100)", "training.mfu", "2025-01-15"),
                                assumption("dup", "training.goodput", "2025-01-15"),
                                assumption("dup", "cluster.price", "2025-01-15")}) +
                           "[[targets]]\nname = \"ttft-p99\"\nmetric = \"train.days\"\nmax = \"1 d\"\n"
                           "[[benchmarks]]\nmetric = \"train.days\"\nvalue = \"20 d\"\ndate = 2025-01-02\n"
                           "source = 1\n";
  planlint::LintOptions options;
  options.today = planlint::Date{2026, 11, 30};
  auto result = planlint::lint_source(std::make_shared<planlint::SourceFile>("p.toml", plan), options);
  std::map<std::string, std::vector<std::string>> keys;  // rule → keys
  std::string all;
  for (const planlint::Diagnostic& d : result.diagnostics) {
    keys[d.rule].push_back(d.key_path);
    all += d.rule + " " + d.key_path + "\n";
  }
  CAPTURE(all);
  // Odd characters are quoted; a name an earlier element has adds its count among them
  // (a second benchmark of a metric must not re-key the first).
  CHECK(keys["assumption-stale"] == std::vector<std::string>{"assumptions[id=\"mfu (H100)\"].updated",
                                                             "assumptions[id=dup].updated",
                                                             "assumptions[id=dup,n=2].updated"});
  CHECK(keys["hard-target-violated"] == std::vector<std::string>{"targets[name=ttft-p99].max"});
  CHECK(keys["bad-value"] ==
        std::vector<std::string>{"assumptions[id=dup,n=2].id", "benchmarks[metric=train.days,date=2025-01-02].source"});

  CHECK(planlint::has_positional_index("benchmarks[2].value"));
  CHECK(planlint::has_positional_index("targets[1]"));
  CHECK_FALSE(planlint::has_positional_index("assumptions[id=mfu].updated"));
  CHECK_FALSE(planlint::has_positional_index("assumptions[id=\"x[0]\"].updated"));
  CHECK_FALSE(planlint::has_positional_index("cluster.hbm"));
  CHECK_FALSE(planlint::has_positional_index(""));
}

TEST_CASE("findings without a key or with an index are accepted only with their message", "[baseline]") {
  auto make = [](std::string key, std::string message) {
    planlint::Diagnostic d;
    d.rule = "r";
    d.message = std::move(message);
    d.key_path = std::move(key);
    d.primary = planlint::Location{"a.toml", planlint::Span{{1, 1}, {1, 2}}};
    return d;
  };
  auto key = [](const std::string& path) { return path; };
  std::vector<planlint::Diagnostic> recorded = {make("", "one"), make("benchmarks[0].value", "one"),
                                                make("cluster.hbm", "one")};
  auto baseline = planlint::parse_baseline("b.json", planlint::baseline_text(planlint::baseline_entries(recorded, key)));
  REQUIRE(baseline);
  std::vector<planlint::Diagnostic> now = {make("", "two"), make("benchmarks[0].value", "two"),
                                           make("cluster.hbm", "two")};
  auto stale = planlint::apply_baseline(now, *baseline, key, [](const std::string&) { return true; });
  CHECK_FALSE(now[0].suppression);
  CHECK_FALSE(now[1].suppression);
  CHECK(now[2].suppression);
  CHECK(stale.size() == 2);
}

TEST_CASE("each suppression's findings have their own baseline entry", "[baseline][cli]") {
  // suppression-without-reason and unused-suppression had key "", so a fixed one
  // and a new one elsewhere in the file shared one entry and the new one stayed accepted.
  Scratch dir;
  planlint::test::InDirectory cwd(dir.path);
  auto write_plan = [&](const std::string& gpu_comment, const std::string& count_comment) {
    dir.write("plan.toml", "[plan]\nname = \"x\"\nkind = \"inference\"\n[model]\nparams = \"7B\"\n"
                           "[cluster]\ngpu = \"h100-sxm\"" + gpu_comment + "\ncount = 8" + count_comment + "\n");
  };
  write_plan("  # planlint: allow memory-fit", "  # planlint: allow unknown-rule -- kept");
  REQUIRE(run_cli({"--write-baseline", "baseline.json", "plan.toml"}).status == 0);
  auto baseline = nlohmann::json::parse(planlint::test::read_text(dir.path / "baseline.json"));
  std::vector<std::string> keys;
  for (const auto& entry : baseline["entries"]) keys.push_back(entry["key"]);
  REQUIRE(keys.size() == 3);  // without a reason; unused (memory-fit does not fire); not a rule
  for (const std::string& k : keys) CHECK_THAT(k, Catch::Matches("#allow\\((memory-fit|unknown-rule)\\)@[0-9a-f]{8}"));
  CHECK(keys[1] != keys[2]);

  // Lines inserted above: still the same entries.
  write_plan("  # planlint: allow memory-fit", "  # planlint: allow unknown-rule -- kept");
  dir.write("plan.toml", "# reviewed\n\n" + planlint::test::read_text(dir.path / "plan.toml"));
  auto moved = run_cli({"--no-color", "--baseline", "baseline.json", "plan.toml"});
  CHECK(moved.out == "no problems in 1 file (3 suppressed)\n");
  CHECK(moved.err.empty());

  // A baseline written before suppressions were named: every key "", held to the digest.
  for (auto& entry : baseline["entries"]) entry["key"] = "";
  dir.write("old.json", baseline.dump(2));
  auto old = run_cli({"--no-color", "--baseline", "old.json", "plan.toml"});
  CHECK(old.out == "no problems in 1 file (3 suppressed)\n");
  CHECK(old.err.empty());

  // gpu's comment gets its reason; count's gets a new one without: a new finding.
  write_plan("  # planlint: allow memory-fit -- measured", "  # planlint: allow unknown-rule");
  auto run = run_cli({"--no-color", "--baseline", "baseline.json", "plan.toml"});
  CHECK_THAT(run.out, Catch::Contains("plan.toml:8:12: warning: `allow` gives no reason [suppression-without-reason]"));
  CHECK_THAT(run.err, Catch::Contains("[suppression-without-reason] at #allow(memory-fit)@"));
}

TEST_CASE("a baseline-accepted finding's suppression location in JSON counts from 1", "[baseline][cli][json]") {
  // JSON gave {"line": 0, "column": 0}, SARIF line 1 column 1.
  Scratch dir;
  planlint::test::InDirectory cwd(dir.path);
  dir.write("plan.toml", plan);
  REQUIRE(run_cli({"--write-baseline", "baseline.json", "plan.toml"}).status == 0);
  auto run = run_cli({"--format", "json", "--baseline", "baseline.json", "plan.toml"});
  auto log = nlohmann::json::parse(run.out);
  REQUIRE(log["diagnostics"].size() == 2);
  const auto& suppression = log["diagnostics"][0]["suppression"];
  CHECK(suppression["kind"] == "baseline");
  CHECK(suppression["location"] == nlohmann::json({{"file", "baseline.json"}, {"line", 1}, {"column", 1}}));
}

TEST_CASE("the plans of one Markdown doc keep their baseline entries apart", "[baseline][cli]") {
  // Two plans of a doc shared keys (assumptions[id=mfu].updated), so plan B's new
  // stale mfu was accepted under plan A's fixed one, with no stale note.
  auto doc = [](const std::string& a_mfu, const std::string& b_mfu) {
    auto block = [](const std::string& name, const std::string& mfu) {
      std::string plan = plan_with_assumptions({mfu});
      plan.replace(plan.find("name = \"x\""), std::string("name = \"x\"").size(), "name = \"" + name + "\"");
      return "```toml\n" + plan + "```\n\n";
    };
    return "# Capacity\n\n" + block("plan-a", a_mfu) + "Text between.\n\n" + block("plan-b", b_mfu);
  };
  const std::string fresh_mfu = assumption("mfu", "training.mfu", "2026-11-01");
  Scratch dir;
  planlint::test::InDirectory cwd(dir.path);
  dir.write("doc.md", doc(stale_mfu, fresh_mfu));
  REQUIRE(check_stale({"--write-baseline", "baseline.json", "doc.md"}).status == 0);
  auto baseline = nlohmann::json::parse(planlint::test::read_text(dir.path / "baseline.json"));
  REQUIRE(baseline["entries"].size() == 1);
  CHECK(baseline["entries"][0]["key"] == "plans[name=plan-a].assumptions[id=mfu].updated");

  dir.write("doc.md", doc(fresh_mfu, stale_mfu));
  auto run = check_stale({"--fail-on", "warning", "--baseline", "baseline.json", "doc.md"});
  CHECK(run.status == 1);
  CHECK_THAT(run.out, Catch::Contains("assumption 'mfu' was last checked on 2025-01-15"));
  CHECK(run.err ==
        "planlint: note: baseline entry no longer matches: doc.md [assumption-stale] at "
        "plans[name=plan-a].assumptions[id=mfu].updated (baseline.json)\n");
}

TEST_CASE("a plan's baseline entries and fingerprints stay when its Markdown doc gains or loses a plan",
          "[baseline][cli][sarif]") {
  // A doc of one plan keyed as a plan file does, so adding a second plan re-keyed
  // the first: its accepted findings came back with stale notes, and its SARIF fingerprints
  // changed (code scanning closed and reopened its alerts).
  auto block = [](const std::string& name) {
    std::string plan = plan_with_assumptions({stale_mfu});
    plan.replace(plan.find("name = \"x\""), std::string("name = \"x\"").size(), "name = \"" + name + "\"");
    return "```toml\n" + plan + "```\n\n";
  };
  Scratch dir;
  planlint::test::InDirectory cwd(dir.path);
  dir.write("doc.md", "# Capacity\n\n" + block("plan-a"));
  REQUIRE(check_stale({"--write-baseline", "baseline.json", "doc.md"}).status == 0);
  auto baseline = nlohmann::json::parse(planlint::test::read_text(dir.path / "baseline.json"));
  REQUIRE(baseline["entries"].size() == 1);
  CHECK(baseline["entries"][0]["key"] == "plans[name=plan-a].assumptions[id=mfu].updated");
  auto fingerprints = [&] {
    auto log = nlohmann::json::parse(check_stale({"--format", "sarif", "doc.md"}).out);
    std::vector<std::string> out;
    for (const auto& result : log["runs"][0]["results"]) out.push_back(result["partialFingerprints"].dump());
    return out;
  };
  const std::vector<std::string> alone = fingerprints();
  REQUIRE(alone.size() == 1);

  // Plan B added below: plan A's finding stays accepted and keeps its fingerprint; plan B's is new.
  dir.write("doc.md", "# Capacity\n\n" + block("plan-a") + "Plan B, the fallback.\n\n" + block("plan-b"));
  auto run = check_stale({"--fail-on", "warning", "--baseline", "baseline.json", "doc.md"});
  CHECK(run.status == 1);
  CHECK(run.err.empty());
  CHECK_THAT(run.out, Catch::Contains("1 warning in 1 file (1 suppressed)"));
  const std::vector<std::string> with_b = fingerprints();
  REQUIRE(with_b.size() == 2);
  CHECK(with_b.front() == alone.front());

  // A baseline written when a doc of one plan keyed as a plan file still accepts its findings.
  baseline["entries"][0]["key"] = "assumptions[id=mfu].updated";
  dir.write("old.json", baseline.dump(2));
  dir.write("doc.md", "# Capacity\n\n" + block("plan-a"));
  run = check_stale({"--fail-on", "warning", "--baseline", "old.json", "doc.md"});
  CHECK(run.status == 0);
  CHECK(run.err.empty());

  // Older still, keyed by the element's index: with the message, it accepts the finding alone
  // in its doc and beside another plan.
  baseline["entries"][0]["key"] = "assumptions[0].updated";
  dir.write("oldest.json", baseline.dump(2));
  run = check_stale({"--fail-on", "warning", "--baseline", "oldest.json", "doc.md"});
  CHECK(run.status == 0);
  CHECK(run.err.empty());
  dir.write("doc.md", "# Capacity\n\n" + block("plan-a") + "Plan B, the fallback.\n\n" + block("plan-b"));
  run = check_stale({"--fail-on", "warning", "--baseline", "oldest.json", "doc.md"});
  CHECK_THAT(run.out, Catch::Contains("1 warning in 1 file (1 suppressed)"));
  CHECK(run.err.empty());
}

TEST_CASE("a nameless plan, alone in its doc, keeps keys that match a baseline by key alone", "[baseline][cli]") {
  // It keyed as plans[0].plan.updated, an index, so its entries matched only with the
  // message's digest and a finding that counts days came back the next day.
  std::string nameless = plan_with_assumptions({stale_mfu});
  nameless.erase(nameless.find("name = \"x\"\n"), std::string("name = \"x\"\n").size());
  Scratch dir;
  planlint::test::InDirectory cwd(dir.path);
  dir.write("doc.md", "```toml\n" + nameless + "```\n");
  REQUIRE(run_cli({"--today", "2026-12-02", "--write-baseline", "baseline.json", "doc.md"}).status != 2);
  auto run = run_cli({"--no-color", "--today", "2026-12-03", "--fail-on", "note", "--baseline", "baseline.json", "doc.md"});
  CHECK(run.err.empty());
  CHECK(run.status == 0);
}

TEST_CASE("a second benchmark of a metric added after the first leaves the first's key", "[baseline]") {
  // Two dateless benchmarks of one metric both fell back to their indexes, so the
  // first one's accepted finding came back as new when the second was added.
  auto keys_of = [](const std::string& benchmarks) {
    const std::string plan = plan_with_assumptions({}) + benchmarks;
    planlint::LintOptions options;
    options.today = planlint::Date{2026, 11, 30};
    auto result = planlint::lint_source(std::make_shared<planlint::SourceFile>("p.toml", plan), options);
    std::vector<std::string> keys;
    for (const planlint::Diagnostic& d : result.diagnostics)
      if (d.rule == "bad-value" && d.key_path.starts_with("benchmarks")) keys.push_back(d.key_path);
    return keys;
  };
  const std::string first = "[[benchmarks]]\nmetric = \"train.days\"\nvalue = \"20 d\"\nsource = 1\n";
  const std::string second = "[[benchmarks]]\nmetric = \"train.days\"\nvalue = \"21 d\"\nsource = 2\n";
  CHECK(keys_of(first) == std::vector<std::string>{"benchmarks[metric=train.days].source"});
  CHECK(keys_of(first + second) ==
        std::vector<std::string>{"benchmarks[metric=train.days].source", "benchmarks[metric=train.days,n=2].source"});
}

TEST_CASE("docs/cli.md names the baseline version planlint writes as the current one", "[baseline][docs]") {
  const int written = nlohmann::json::parse(planlint::baseline_text({}))["version"].get<int>();
  const std::string doc = planlint::test::read_text(std::string(PLANLINT_SOURCE_DIR) + "/docs/cli.md");
  const std::string version = "`\"version\": " + std::to_string(written) + "`";
  CHECK_THAT(doc, Catch::Contains("The file is " + version + ", as planlint writes it"));
  // Not as an older release's format ("A `"version": 1` baseline (keyed by index) loads").
  CHECK(doc.find("A " + version + " baseline") == std::string::npos);
}
