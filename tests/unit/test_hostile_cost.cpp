// Hostile input built to make planlint's cost grow faster than the input (issue "linear in
// every input"). Each case is checked on what cannot be flaky — the count of findings, the bytes
// of output — or, where only time shows it, as the cost of an input against the same input 10×
// smaller, with a generous factor (linear: 10×, a little more with the larger input's cache
// misses; allowed: 40×; the quadratic behaviour these guard against: 100×). The sizes are the ones that took minutes or gigabytes before; docs/hardening.md,
// "Running on untrusted pull requests", lists them.
#include <algorithm>
#include <map>
#include <sstream>

#include <sys/resource.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "integration_support.hpp"
#include "planlint/emit/formats.hpp"

using namespace planlint;
using namespace planlint::test;

namespace {

const std::string plan_head =
    "[plan]\nname = \"x\"\nkind = \"inference\"\n[model]\nparams = \"7B\"\n[cluster]\ngpu = \"h100-sxm\"\ncount = 8\n";

std::size_t count_of(const std::string& text, std::string_view what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

std::size_t longest_line(const std::string& text) {
  std::size_t longest = 0, begin = 0;
  while (begin < text.size()) {
    const std::size_t end = std::min(text.find('\n', begin), text.size());
    longest = std::max(longest, end - begin);
    begin = end + 1;
  }
  return longest;
}

/// CPU seconds (user + system, every thread of this process) `run` takes, the best of two.
/// CPU time, not wall time: a process waiting for a core on a busy machine is not charged, so
/// the ratios below measure the work done, whatever else the machine runs.
template <typename Run>
double best_seconds(Run run) {
  auto cpu_seconds = [] {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
  };
  double best = 1e9;
  for (int i = 0; i < 2; ++i) {
    const double start = cpu_seconds();
    run();
    best = std::min(best, cpu_seconds() - start);
  }
  return best;
}

/// Whether `make(n)` costs at most `factor` times `make(n / 10)` to lint (after both are
/// written) with `options`: linear cost is about 10×; quadratic is about 100×.
template <typename Make>
void check_scales_linearly(Scratch& dir, Make make, std::size_t n, double factor = 40,
                           std::vector<std::string> options = {"--format", "json"}) {
  const std::string small = dir.write("small.toml", make(n / 10)).string();
  const std::string large = dir.write("large.toml", make(n)).string();
  auto lint = [&](const std::string& path) {
    std::vector<std::string> args{"check"};
    args.insert(args.end(), options.begin(), options.end());
    args.push_back(path);
    run_cli(args);
  };
  const double small_seconds = best_seconds([&] { lint(small); });
  const double large_seconds = best_seconds([&] { lint(large); });
  INFO("n/10: " << small_seconds << " s, n: " << large_seconds << " s");
  // Below a few tens of milliseconds the ratio is noise: a floor keeps it meaningful.
  CHECK(large_seconds <= factor * std::max(small_seconds, 0.05));
}

}  // namespace

TEST_CASE("N copies of one assumption id are N - 1 findings, not one a pair", "[hostile][cost]") {
  // 2,000 copies: a 60 KB plan. Before, 1,999,000 findings.
  constexpr std::size_t copies = 2000;
  std::string plan = plan_head;
  for (std::size_t i = 0; i < copies; ++i) plan += "[[assumptions]]\nid = \"same\"\n";
  Scratch dir;
  const CliRun run =
      run_cli({"check", "--no-color", "--max-findings-per-file", "0", dir.write("plan.toml", plan).string()});
  CHECK(run.status == 1);
  CHECK(count_of(run.out, "assumption id \"same\" is used twice") == copies - 1);
  CHECK(run.out.size() < 1000 * copies);  // a finding, its excerpt, note and help: about 640 bytes
}

TEST_CASE("findings on one long line show a bounded excerpt", "[hostile][cost]") {
  // 4,000 elements on one line of 100 KB, each with an unknown key: 4,000 findings on the line.
  constexpr std::size_t elements = 4000;
  // A top-level key, before the first table header.
  std::string line = "assumptions = [";
  for (std::size_t i = 0; i < elements; ++i) line += fmt::format("{{id = \"a{}\", bogus = 1}}, ", i);
  line += "]\n";
  Scratch dir;
  const std::string path = dir.write("plan.toml", line + plan_head).string();
  const CliRun text = run_cli({"check", "--no-color", "--max-findings-per-file", "0", path});
  const std::size_t findings = count_of(text.out, "unknown key 'bogus'");
  CHECK(findings == elements);
  // The whole line, 100 KB, would be in every excerpt; at most ~200 bytes are.
  CHECK(longest_line(text.out) < 400);
  CHECK(text.out.size() < 2000 * findings);  // with a help that lists the valid keys: about 1,100 bytes
  const CliRun sarif = run_cli({"check", "--format", "sarif", "--max-findings-per-file", "0", path});
  CHECK(count_of(sarif.out, "\"ruleId\": \"unknown-key\"") == elements);
  CHECK(sarif.out.size() < 6000 * findings);
}

TEST_CASE("columns of a long line are converted in one pass", "[hostile][cost]") {
  // A one-line array of 2.8 MB in a plan that is not all ASCII (a "×" in a comment): every
  // element's position is converted from code points to bytes.
  auto make = [](std::size_t elements) {
    std::string plan = "# 8 × H100\nassumptions = [";
    for (std::size_t i = 0; i < elements; ++i) plan += fmt::format("{{id = \"a{}\", source = \"s\"}}, ", i);
    return plan + "]\n" + plan_head;
  };
  Scratch dir;
  check_scales_linearly(dir, make, 10000);  // the most entries an array of tables may hold
}

TEST_CASE("an array of tables over 10,000 entries is refused at the array, none of them read", "[hostile][cost]") {
  // 93,000 assumptions on one 9.9 MB line, each without an `updated` date: 93,000 warnings,
  // 58 MB of text in 4.2 s. Now one error that names the limit. (Within the TOML node limit:
  // one key or value per 32 bytes.)
  const std::string source = "the vendor's datasheet, page 4, table 2, peak dense BF16 without sparsity";
  std::string plan = "assumptions = [";
  for (std::size_t i = 0; i < 93000; ++i) plan += fmt::format("{{id = \"a{}\", source = \"{}\"}}, ", i, source);
  plan += "]\n" + plan_head;
  Scratch dir;
  const CliRun run = run_cli({"check", "--no-color", dir.write("plan.toml", plan).string()});
  CHECK(run.status == 1);
  CHECK_THAT(run.out, Catch::Contains("[[assumptions]] holds 93000 entries, over planlint's fixed limit of 10000 "
                                      "entries in one array of tables; none of them is read [bad-value]"));
  CHECK(count_of(run.out, "[assumption-") == 0);
  CHECK(run.out.size() < 2000);
}

TEST_CASE("required keys are checked by index, linear in the entries", "[hostile][cost]") {
  auto make = [](std::size_t entries) {
    std::string plan = plan_head;
    for (std::size_t i = 0; i < entries; ++i) plan += fmt::format("[[assumptions]]\nid = \"a{}\"\nsource = \"s\"\n", i);
    for (std::size_t i = 0; i < entries / 10; ++i) plan += "[[targets]]\nmetric = \"cost.total\"\nmax = \"$1M\"\n";
    return plan;
  };
  Scratch dir;
  check_scales_linearly(dir, make, 10000);
}

TEST_CASE("assumptions of a mix's slices by name are read linear in the entries", "[hostile][cost][capacity]") {
  // The most slices a mix may have, each entry naming one by its kind and count: the slices'
  // names are made once a plan, not once an entry (64 × 10,000 names).
  auto make = [](std::size_t entries) {
    std::string plan = "[plan]\nname = \"x\"\nkind = \"training\"\n[model]\nparams = \"7B\"\n[training]\n"
                       "tokens = \"1T\"\nmfu = \"40%\"\n[cluster]\ngpu = \"h100-sxm\"\ncount = 1024\n";
    for (int i = 0; i < 64; ++i)
      plan += "[[capacity]]\nkind = \"preemptible\"\nshare = \"1.5625%\"\nprice = \"$1.2/GPU/h\"\ngoodput = \"80%\"\n";
    for (std::size_t i = 0; i < entries; ++i)
      plan += fmt::format("[[assumptions]]\nid = \"a{}\"\nkey = \"capacity[kind=preemptible,n={}].price\"\n"
                          "value = \"$1.2/GPU/h\"\nlow = \"$1/GPU/h\"\nhigh = \"$2/GPU/h\"\nsource = \"s\"\n",
                          i, i % 63 + 2);
    return plan;
  };
  Scratch dir;
  // 5,000 entries: 0.8 MB, within the file size planlint reads.
  check_scales_linearly(dir, make, 5000);
}

TEST_CASE("a config's one-line ignore list is read in one pass", "[hostile][cost]") {
  auto make = [](std::size_t names) {
    std::string config = "[lint]\nignore = [";
    for (std::size_t i = 0; i < names; ++i) config += "\"chinchilla-ratio\", ";
    return config + "]\n";
  };
  Scratch dir;
  InDirectory here(dir.path);
  dir.write("plan.toml", plan_head);
  const std::string small = dir.write("small.toml", make(6000)).string();
  const std::string large = dir.write("large.toml", make(60000)).string();
  const double small_seconds = best_seconds([&] { run_cli({"check", "--config", small, "plan.toml"}); });
  const double large_seconds = best_seconds([&] { run_cli({"check", "--config", large, "plan.toml"}); });
  INFO("n/10: " << small_seconds << " s, n: " << large_seconds << " s");
  CHECK(large_seconds <= 30 * std::max(small_seconds, 0.005));
  CHECK(run_cli({"check", "--config", large, "plan.toml"}).status == 0);
}

TEST_CASE("a rule's rendered message is capped at 4 KiB", "[hostile][cost]") {
  // A 100 KB plan name, and a message of 10,000 {plan.name}: 1 GB rendered, before.
  Scratch dir;
  std::string message;
  for (int i = 0; i < 10000; ++i) message += "{plan.name}";
  const std::string pack = dir.write("pack.toml", "id = \"org-name\"\ngroup = \"governance\"\nseverity = \"warning\"\nsummary = \"s\"\n"
                                                  "check = \"false\"\nat = \"plan.name\"\nmessage = \"" + message +
                                                      "\"\n" + std::string(rule_docs_stub))
                               .string();
  const std::string plan = dir.write("plan.toml", "[plan]\nname = \"" + std::string(100000, 'n') +
                                                      "\"\nkind = \"inference\"\n[model]\nparams = \"7B\"\n"
                                                      "[cluster]\ngpu = \"h100-sxm\"\ncount = 8\n")
                               .string();
  const CliRun run = run_cli({"check", "--format", "json", "--rules", pack, "--select", "org-name", plan});
  INFO(run.err);
  CHECK(run.status == 0);  // a warning
  CHECK(run.out.size() < 8000);
  CHECK_THAT(run.out, Catch::Contains("nnn\u2026\""));
}

TEST_CASE("a Markdown doc's blocks cost what the same plans cost as files", "[hostile][cost][markdown]") {
  // Each block was parsed from a copy of the doc up to its end, earlier lines blanked: 1,000
  // blocks cost 34 times the same plans as files (8.5 s), and 100 blocks after 15 MiB of blank
  // lines 47 s and 1.6 GB. Now a block is parsed from its own lines.
  constexpr std::size_t plans = 1000;
  auto plan = [](std::size_t i) {
    return fmt::format("[plan]\nname = \"p{}\"\nkind = \"inference\"\n[model]\nparams = \"7B\"\n[cluster]\n"
                       "gpu = \"h100-sxm\"\ncount = 8\nhmb = 1\n",
                       i);
  };
  Scratch dir;
  std::string doc = "# Capacity review\n\n";
  for (std::size_t i = 0; i < plans; ++i) {
    doc += fmt::format("## Plan {}\n\nWhy it needs 8 × H100.\n\n```toml\n{}```\n\n", i, plan(i));
    dir.write(fmt::format("files/p{}.toml", i), plan(i));
  }
  const std::string review = dir.write("review.md", doc).string(), files = (dir.path / "files").string();
  const std::vector<std::string> as_doc{"check", "--no-color", "--max-plans-per-file", "1000", review};
  const std::vector<std::string> as_files{"check", "--no-color", files};
  const CliRun from_doc = run_cli(as_doc), from_files = run_cli(as_files);
  CHECK(from_doc.status == 1);
  CHECK(count_of(from_doc.out, "unknown key 'hmb'") == plans);
  CHECK(count_of(from_files.out, "unknown key 'hmb'") == plans);
  const double doc_seconds = best_seconds([&] { run_cli(as_doc); });
  const double files_seconds = best_seconds([&] { run_cli(as_files); });
  INFO("doc: " << doc_seconds << " s, files: " << files_seconds << " s");
  // Comparable: the files are 1,000 opens and reads; before, the doc cost 34 times as much.
  CHECK(doc_seconds <= 4 * std::max(files_seconds, 0.05));
}

TEST_CASE("blank lines before a doc's blocks are read once, not once a block", "[hostile][cost][markdown]") {
  // 15 MiB of blank lines, then 100 blocks: each block's copy held all 15 MiB (47 s, 1.6 GB).
  // Now the doc costs about what the same doc with one block costs (linear: one scan of it).
  auto make = [](std::size_t blocks) {
    std::string doc(std::size_t{15} << 20, '\n');
    for (std::size_t i = 0; i < blocks; ++i)
      doc += fmt::format("```toml\n{}name = \"p{}\"\n```\n", "[plan]\n", i);
    return doc;
  };
  Scratch dir;
  const std::string one = dir.write("one.md", make(1)).string(), hundred = dir.write("hundred.md", make(100)).string();
  const CliRun run = run_cli({"check", "--no-color", "--format", "json", hundred});
  CHECK(run.status == 1);  // each plan misses its sections
  CHECK(count_of(run.out, "missing required section [model]") == 100);
  CHECK_THAT(run.out, Catch::Contains("\"line\": 15728642"));  // the first block's first line, the doc's own
  const double one_seconds = best_seconds([&] { run_cli({"check", "--format", "json", one}); });
  const double hundred_seconds = best_seconds([&] { run_cli({"check", "--format", "json", hundred}); });
  INFO("1 block: " << one_seconds << " s, 100 blocks: " << hundred_seconds << " s");
  CHECK(hundred_seconds <= 5 * std::max(one_seconds, 0.05));
}

TEST_CASE("SARIF and JSON hold no file's text past its delivery, and a clean SARIF run is small",
          "[hostile][cost][sarif][json]") {
  // The logs were built whole in memory, every file's text with them: 211 and 138 MiB at
  // 10,000 plans (text: 10.5 MiB), and a clean one-plan SARIF log carried 286 KB of rule help.
  for (const char* name : {"sarif", "json"}) {
    INFO(name);
    std::ostringstream out;
    const std::unique_ptr<Emitter> emitter = find_output_format(name)->make(out, EmitterSettings{});
    for (int i = 0; i < 3; ++i) {
      auto source = std::make_shared<const SourceFile>(fmt::format("p{}.toml", i), "[plan]\nnme = 1\n");
      Diagnostic d;
      d.rule = "unknown-key";
      d.message = "unknown key 'nme' in [plan]";
      d.primary = Location{source->path(), Span{{2, 1}, {2, 4}}};
      std::vector<Diagnostic> findings{d};
      emitter->file(source, findings);
      CHECK(source.use_count() == 1);  // the emitter kept neither the file nor its text
    }
    emitter->finish({});
    CHECK(count_of(out.str(), "unknown key 'nme'") == 3);
  }
  Scratch dir;
  const std::string clean = dir.write("clean.toml", plan_head).string();
  const CliRun text = run_cli({"check", "--no-color", clean});
  const CliRun sarif = run_cli({"check", "--format", "sarif", clean});
  REQUIRE(sarif.status == 0);
  const auto log = nlohmann::json::parse(sarif.out);
  CHECK(log["runs"][0]["results"].empty());
  CHECK(log["runs"][0]["tool"]["driver"]["rules"].empty());  // the rules of its results: none
  CHECK(sarif.out.size() < 1000);
  // A finding's rule is described, and only it.
  const CliRun one = run_cli({"check", "--format", "sarif", dir.write("typo.toml", plan_head + "hmb = 1\n").string()});
  const auto rules = nlohmann::json::parse(one.out)["runs"][0]["tool"]["driver"]["rules"];
  REQUIRE(rules.size() == 1);
  CHECK(rules[0]["id"] == "unknown-key");
  CHECK(text.out.size() < 200);
}

TEST_CASE("JUnit converts the columns of a long line in one pass", "[hostile][cost][junit]") {
  // 30,000 unknown keys in one inline table, after a non-ASCII character on their line: the
  // JUnit writer counted each finding's column from the line's start (200,000 findings: 18.7 s
  // where text took a fraction of a second).
  auto make = [](std::size_t keys) {
    std::string plan = "cluster = { gpu = \"h100-sxm\", count = 8, note = \"8 \u00d7 H100\"";
    for (std::size_t i = 0; i < keys; ++i) plan += fmt::format(", k{} = 1", i);
    return plan + " }\n[plan]\nname = \"x\"\nkind = \"inference\"\n[model]\nparams = \"7B\"\n";
  };
  Scratch dir;
  check_scales_linearly(dir, make, 30000, 40, {"--format", "junit", "--max-findings-per-file", "0"});
}

TEST_CASE("a file's findings stop at --max-findings-per-file, the most severe kept, and a note says how many more",
          "[hostile][cost]") {
  // 4 MiB of unknown keys was 358,000 findings, 97 MB of text and 462 MB of memory. Here 5,000
  // unknown keys made warnings, and one error after them.
  constexpr std::size_t keys = 5000;
  std::string plan = "[plan]\nname = \"x\"\nkind = \"inference\"\n[model]\nparams = \"7B\"\n";
  for (std::size_t i = 0; i < keys; ++i) plan += fmt::format("k{} = 1\n", i);
  plan += "[cluster]\ngpu = \"h999-sxm\"\ncount = 8\n";
  Scratch dir;
  const std::string path = dir.write("plan.toml", plan).string();
  auto findings = [](const CliRun& run) { return nlohmann::json::parse(run.out)["diagnostics"]; };
  auto rules_of = [](const nlohmann::json& list) {
    std::map<std::string, std::size_t> count;
    for (const nlohmann::json& d : list) ++count[d["rule"].get<std::string>()];
    return count;
  };

  const CliRun capped = run_cli({"check", "--format", "json", "--severity", "unknown-key=warning", path});
  CHECK(capped.status == 1);  // the error is among the findings shown
  const auto shown = rules_of(findings(capped));
  CHECK(shown.at("unknown-gpu") == 1);
  CHECK(shown.at("unknown-key") == 999);
  CHECK_THAT(capped.err, Catch::Contains(fmt::format("planlint: note: {}: 4001 more findings are not shown: only the 1000 "
                                                     "most severe are (--max-findings-per-file 1000; 0 shows all)",
                                                     path)));
  // The findings shown stay in the report's order: the error, on the last lines, comes last.
  CHECK(findings(capped).back()["rule"] == "unknown-gpu");

  const CliRun all = run_cli({"check", "--format", "json", "--max-findings-per-file", "0", path});
  CHECK(findings(all).size() == keys + 1);
  CHECK(all.err.find("not shown") == std::string::npos);
  // The report stays the size of the cap, however many findings the file holds.
  CHECK(capped.out.size() * 4 < all.out.size());
  const CliRun ten = run_cli({"check", "--no-color", "--max-findings-per-file", "10", path});
  CHECK(count_of(ten.out, "error:") == 10);
  CHECK(ten.status == 1);
  CHECK(run_cli({"check", "--max-findings-per-file", "-1", path}).status == 2);
}

TEST_CASE("a file of many mistakes is read keeping ten times --max-findings-per-file of them",
          "[hostile][cost]") {
  // Each finding, with its help listing the valid keys, is about 1.1 KB held: 40,000 unknown
  // keys are 44 MB of findings when all are kept, 2.2 MB at most at --max-findings-per-file 100.
  std::string plan = "[plan]\nname = \"x\"\nkind = \"inference\"\n[model]\nparams = \"7B\"\n"
                     "[cluster]\ngpu = \"h100-sxm\"\ncount = 8\n";
  Scratch dir;
  const std::string clean = dir.write("clean.toml", plan).string();
  for (std::size_t i = 0; i < 40000; ++i) plan += fmt::format("k{} = 1\n", i);
  const std::string path = dir.write("plan.toml", plan).string();
  const auto [clean_kib, clean_status] = peak_rss_kib({"check", clean});
  const auto [capped_kib, capped_status] = peak_rss_kib({"check", "--max-findings-per-file", "100", path});
  const auto [all_kib, all_status] = peak_rss_kib({"check", "--max-findings-per-file", "0", path});
  INFO("peak RSS: " << clean_kib << " KiB clean, " << capped_kib << " KiB capped, " << all_kib << " KiB all");
  CHECK(clean_status == 0);
  CHECK(capped_status == 1);
  CHECK(all_status == 1);
  CHECK(capped_kib - clean_kib < (all_kib - clean_kib) / 3);
}
