// Baselines a pull request can plant: read entry by entry, never as a whole JSON tree, within
// limits named in the error (16 MiB of `{}` took 447 MB, before); and baselines of files whose
// findings are capped (--max-findings-per-file): matched whole, before the cap, so that no
// entry looks stale for a finding the cap left out.

#include <cstdlib>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "integration_support.hpp"
#include "planlint/baseline/baseline.hpp"
#include "support.hpp"

using namespace planlint::test;

namespace {

constexpr const char* plan_head = "[plan]\nname = \"x\"\nkind = \"inference\"\n[model]\nparams = \"7B\"\n"
                                  "[cluster]\ngpu = \"h100-sxm\"\ncount = 8\n";

/// A baseline of `count` copies of `entry`.
std::string baseline_of(std::size_t count, const std::string& entry) {
  std::string text = "{\"version\": 1, \"entries\": [";
  for (std::size_t i = 0; i < count; ++i) text += (i ? "," : "") + entry;
  return text + "]}\n";
}

}  // namespace

TEST_CASE("a baseline over its limits is exit 2 naming the file and the limit", "[baseline][hostile]") {
  Scratch dir;
  const std::string plan = dir.write("plan.toml", plan_head).string();
  auto check_with = [&](const std::string& baseline, std::vector<std::string> options = {}) {
    std::vector<std::string> args{"check", "--baseline", dir.write("b.json", baseline).string()};
    args.insert(args.end(), options.begin(), options.end());
    args.push_back(plan);
    return run_cli(args);
  };
  const std::string entry = R"({"file":"plan.toml","rule":"r"})";

  SECTION("entries: one per 64 bytes of the size limit") {
    // 64 KiB: 1,024 entries; 1,025 of 32 bytes are 33 KB, within the size limit.
    const CliRun over = check_with(baseline_of(1025, entry), {"--max-file-size", "64KiB"});
    CHECK(over.status == 2);
    CHECK_THAT(over.err, Catch::Contains(fmt::format("cannot read baseline '{}': it holds more than 1024 entries: planlint "
                                                     "reads one entry per 64 bytes of the 64 KiB size limit (raise it "
                                                     "with --max-file-size)",
                                                     (dir.path / "b.json").string())));
    CHECK(check_with(baseline_of(1024, entry), {"--max-file-size", "64KiB"}).status == 0);
  }
  SECTION("the size limit is --max-file-size's") {
    const CliRun over = check_with(baseline_of(100, entry), {"--max-file-size", "1KiB"});
    CHECK(over.status == 2);
    CHECK_THAT(over.err, Catch::Contains("over the 1 KiB size limit"));
  }
  SECTION("nesting: 64 levels") {
    const std::string deep = R"({"version": 1, "entries": [{"file": "a", "rule": "r", "x": )" + std::string(100, '[') +
                             std::string(100, ']') + "}]}";
    const CliRun over = check_with(deep);
    CHECK(over.status == 2);
    CHECK_THAT(over.err, Catch::Contains("it nests deeper than 64 levels, planlint's limit for a baseline"));
    const std::string shallow = R"({"version": 1, "entries": [{"file": "a", "rule": "r", "x": [[[1]]]}]})";
    CHECK(check_with(shallow).status == 0);
  }
  SECTION("what the JSON tree read said before stays: fields, counts, versions") {
    CHECK_THAT(check_with(baseline_of(2, R"({"file":"a"})")).err, Catch::Contains("entry 1: missing string 'rule'"));
    CHECK_THAT(check_with(R"({"version": 1, "entries": [{"file":"a","rule":"r"}, 7]})").err,
               Catch::Contains("entry 2: missing string 'file'"));
    CHECK_THAT(check_with(R"({"version": 1, "entries": [{"file":"a","rule":"r","count":0}]})").err,
               Catch::Contains("entry 1: 'count' must be a positive integer"));
    CHECK_THAT(check_with(R"({"entries": [], "version": 2})").err, Catch::Contains("not a planlint baseline"));
    CHECK_THAT(check_with(R"({"version": [1], "entries": []})").err, Catch::Contains("not a planlint baseline"));
    CHECK_THAT(check_with(R"([{"version": 1, "entries": []}])").err, Catch::Contains("not a planlint baseline"));
    CHECK_THAT(check_with(R"({"version": 1, "entries": [}")").err, Catch::Contains("not valid JSON: parse error at line 1"));
    // A key given twice has its last value, as in a JSON object.
    CHECK(check_with(R"({"version": 2, "entries": 1, "version": 1, "entries": [{"file":"a","rule":"r","file":"b"}]})")
              .status == 0);
  }
}

TEST_CASE("a baseline's entries are read without a JSON tree: memory grows with the entries kept", "[baseline][hostile]") {
  // 16 MiB of `{}` entries took 447 MB and 8 s: the JSON tree of the whole file, then its
  // entries. Now `{}` is an error found while reading, at no cost per entry after it, and a
  // valid entry takes about ten times its bytes (docs/hardening.md: at most 16 times).
  Scratch dir;
  const std::string plan = dir.write("plan.toml", plan_head).string();
  const std::size_t mib = 1 << 20;
  const std::string small = dir.write("small.json", baseline_of(1, "{}")).string();
  const std::string braces = dir.write("braces.json", baseline_of(4 * mib / 3, "{}")).string();
  const std::string entry = R"({"file":"plan.toml","rule":"r"})";
  const std::string entries = dir.write("entries.json", baseline_of(4 * mib / (entry.size() + 1), entry)).string();
  const auto [small_kib, small_status] = peak_rss_kib({"check", "--baseline", small, plan});
  const auto [braces_kib, braces_status] = peak_rss_kib({"check", "--baseline", braces, plan});
  const auto [entries_kib, entries_status] = peak_rss_kib({"check", "--baseline", entries, plan});
  INFO("peak RSS: " << small_kib << " KiB with one entry, " << braces_kib << " KiB with 4 MiB of {}, " << entries_kib
                    << " KiB with 4 MiB of entries");
  CHECK(small_status == 2);  // `{}` has no file
  CHECK(braces_status == 2);
  CHECK(entries_status == 0);
  // The file's text, and nlohmann's lexer, which keeps every character since the last string
  // or number it read for its error messages (up to 3 times a run of `{},{}`, while it grows);
  // the tree took 27 times the file.
  CHECK(braces_kib - small_kib < 4 * 6 * 1024);
  CHECK(entries_kib - small_kib < 4 * 16 * 1024);  // at most 16 times the file
}

TEST_CASE("a capped file's findings are matched against the baseline whole: none looks stale, a new one shows",
          "[baseline][hostile]") {
  Scratch dir;
  InDirectory cwd(dir.path);
  std::string plan = "[plan]\nname = \"x\"\nkind = \"inference\"\n[model]\nparams = \"7B\"\n";
  for (int i = 0; i < 3000; ++i) plan += fmt::format("k{} = 1\n", i);
  dir.write("plan.toml", plan + "[cluster]\ngpu = \"h100-sxm\"\ncount = 8\n");
  const CliRun write = run_cli({"check", "--write-baseline", "b.json", "plan.toml"});
  CHECK(write.status == 0);
  CHECK_THAT(write.err, Catch::Contains("planlint: wrote 3000 findings to the baseline b.json"));
  CHECK(nlohmann::json::parse(read_text(dir.path / "b.json"))["entries"].size() == 3000);

  // Every finding is matched, then 1,000 of them shown: no entry is stale.
  const CliRun again = run_cli({"check", "--no-color", "--baseline", "b.json", "plan.toml"});
  CHECK(again.status == 0);
  CHECK(again.err.find("no longer") == std::string::npos);
  CHECK_THAT(again.err, Catch::Contains("2000 more findings are not shown"));

  // A new finding after the 3,000 accepted ones is shown: the findings not accepted come first.
  dir.write("plan.toml", plan + "[cluster]\ngpu = \"h999-sxm\"\ncount = 8\n");
  const CliRun added = run_cli({"check", "--no-color", "--baseline", "b.json", "plan.toml"});
  CHECK(added.status == 1);
  CHECK_THAT(added.out, Catch::Contains("unknown GPU"));
  CHECK(added.err.find("no longer") == std::string::npos);
}
