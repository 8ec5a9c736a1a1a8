// `[guardrails]` and what `planlint diff` does with it: each limit breached on the changed key's
// line, an approval by an inline suppression, --fail-on and --only-if-increase; the config's
// keys and its schema.
#include <nlohmann/json.hpp>

#include "diff_support.hpp"
#include "planlint/config/config.hpp"

using namespace planlint;
using namespace planlint::test;
using json = nlohmann::json;

namespace {

/// `planlint diff --format json base.toml head.toml` in a folder with `config` as its
/// .planlint.toml.
struct Change {
  Scratch dir;
  Change(const std::string& config, const std::string& base, const std::string& head) {
    dir.write(".planlint.toml", config);
    dir.write("base.toml", base);
    dir.write("head.toml", head);
  }
  CliRun run(std::vector<std::string> extra = {}, const std::string& format = "json") const {
    InDirectory here(dir.path);
    std::vector<std::string> args = {"diff", "--today", "2026-11-30", "--format", format, "base.toml", "head.toml"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_cli(args);
  }
};

std::vector<json> guardrails_of(const CliRun& run) {
  INFO(run.err);
  INFO(run.out);
  REQUIRE(!run.out.empty());
  const json doc = json::parse(run.out);
  std::vector<json> found;
  for (const json& plan : doc["plans"])
    for (const json& g : plan["guardrails"]) found.push_back(g);
  return found;
}

}  // namespace

TEST_CASE("each guardrail is reported on the line of the key the figure rests on", "[diff][guardrails]") {
  const std::string base = diff_training_plan("p", "40%", 64);
  SECTION("cost_increase: a share of the cost before") {
    const Change change("[guardrails]\ncost_increase = \"20%\"\n", base, diff_training_plan("p", "30%", 64));
    const CliRun run = change.run();
    const std::vector<json> found = guardrails_of(run);
    REQUIRE(found.size() == 1);
    CHECK(found[0]["key"] == "training.mfu");
    CHECK(found[0]["line"] == 21);
    CHECK(found[0]["message"].get<std::string>().find("by 33.3%") != std::string::npos);
    CHECK(run.status == 1);
  }
  SECTION("cost_increase_amount: dollars, an added plan's whole cost counting") {
    const Change change("[guardrails]\ncost_increase_amount = \"$10K\"\n", base, diff_training_plan("p", "30%", 64));
    const std::vector<json> found = guardrails_of(change.run());
    REQUIRE(found.size() == 1);
    CHECK(found[0]["message"].get<std::string>().find("over the guardrail of $10K") != std::string::npos);
  }
  SECTION("gpus_increase: GPUs added to cluster.count") {
    const Change change("[guardrails]\ngpus_increase = 32\n", base, diff_training_plan("p", "40%", 128));
    const std::vector<json> found = guardrails_of(change.run());
    REQUIRE(found.size() == 1);
    CHECK(found[0]["key"] == "cluster.count");
    CHECK(found[0]["message"] == "the change adds 64 GPUs (64 → 128), over the guardrail of 32");
  }
  SECTION("days_increase: wall-clock days") {
    const Change change("[guardrails]\ndays_increase = 2\n", base, diff_training_plan("p", "30%", 64));
    const std::vector<json> found = guardrails_of(change.run());
    REQUIRE(found.size() == 1);
    CHECK(found[0]["key"] == "training.mfu");
    CHECK(found[0]["message"].get<std::string>().find("of training") != std::string::npos);
  }
  SECTION("memory_headroom: the share of HBM left free") {
    // A stated 40 GB of HBM: the 7B plan's memory per GPU leaves less than half of it free.
    const Change change("[guardrails]\nmemory_headroom = \"50%\"\n", diff_training_plan("p", "40%", 64),
                        diff_training_plan("p", "40%", 64, "hbm = \"40 GB\"\n"));
    const std::vector<json> found = guardrails_of(change.run());
    REQUIRE(found.size() == 1);
    CHECK(found[0]["key"] == "cluster.hbm");
    CHECK(found[0]["message"].get<std::string>().find("under the guardrail of 50%") != std::string::npos);
    // A plan under the limit already, whose change leaves its memory as it was: not the change's doing.
    const Change unchanged_memory("[guardrails]\nmemory_headroom = \"50%\"\n",
                                  diff_training_plan("p", "40%", 64, "hbm = \"40 GB\"\n"),
                                  diff_training_plan("p", "35%", 64, "hbm = \"40 GB\"\n"));
    CHECK(guardrails_of(unchanged_memory.run()).empty());
  }
  SECTION("new_errors: the first error the change introduces") {
    const Change change("[guardrails]\nnew_errors = true\n", base, diff_training_plan("p", "40%", 64, "hmb = 1\n"));
    const std::vector<json> found = guardrails_of(change.run());
    REQUIRE(found.size() == 1);
    CHECK(found[0]["key"] == "cluster.hmb");
    CHECK(found[0]["message"] == "the change introduces an error (unknown-key), and the guardrails allow none");
  }
  SECTION("no guardrail set: nothing, whatever the change") {
    const Change change("[lint]\n", base, diff_training_plan("p", "20%", 128));
    const CliRun run = change.run();
    CHECK(guardrails_of(run).empty());
    CHECK(run.status == 0);
  }
}

TEST_CASE("a guardrail approved on its line with a reason is shown approved and does not fail", "[diff][guardrails]") {
  std::string head = diff_training_plan("p", "30%", 64);
  const std::string line = "mfu = \"30%\"";
  head.replace(head.find(line), line.size(), line + "  # planlint: allow guardrail-exceeded -- approved by finance, Q3");
  const Change change("[guardrails]\ncost_increase = \"20%\"\n", diff_training_plan("p", "40%", 64), head);
  const CliRun run = change.run();
  const std::vector<json> found = guardrails_of(run);
  REQUIRE(found.size() == 1);
  CHECK(found[0]["suppressed"] == true);
  CHECK(found[0]["justification"] == "approved by finance, Q3");
  CHECK(run.status == 0);
  const CliRun text = change.run({}, "text");
  CHECK(text.out.find("approved: head.toml:21:7: error: the change raises") != std::string::npos);
  CHECK(text.out.find("-- approved by finance, Q3") != std::string::npos);
  // `check` runs no guardrail: the comment is not an unused suppression there.
  InDirectory here(change.dir.path);
  const CliRun check = run_cli({"check", "--today", "2026-11-30", "head.toml"});
  CHECK(check.out.find("unused-suppression") == std::string::npos);
}

TEST_CASE("a guardrail's level is the config's, and --fail-on decides the exit status", "[diff][guardrails]") {
  const Change change("[guardrails]\ncost_increase = \"20%\"\n[lint.severity]\nguardrail-exceeded = \"warning\"\n",
                      diff_training_plan("p", "40%", 64), diff_training_plan("p", "30%", 64));
  const CliRun run = change.run();
  const std::vector<json> found = guardrails_of(run);
  REQUIRE(found.size() == 1);
  CHECK(found[0]["level"] == "warning");
  CHECK(run.status == 0);
  CHECK(change.run({"--fail-on", "warning"}).status == 1);
}

TEST_CASE("diff --only-if-increase prints nothing and exits 0 when no cost figure rose", "[diff]") {
  const Change cheaper("[guardrails]\nnew_errors = true\n", diff_training_plan("p", "40%", 64),
                       diff_training_plan("p", "45%", 64, "hmb = 1\n"));
  const CliRun quiet = cheaper.run({"--only-if-increase"});
  CHECK(quiet.status == 0);
  CHECK(quiet.out.empty());
  CHECK(cheaper.run().status == 1);  // without it: the new error fails
  const Change dearer("", diff_training_plan("p", "40%", 64), diff_training_plan("p", "35%", 64));
  const CliRun shown = dearer.run({"--only-if-increase"});
  CHECK_FALSE(shown.out.empty());
  // With -o, an empty file: what the comment script posts as nothing.
  InDirectory here(cheaper.dir.path);
  const CliRun written = run_cli({"diff", "--today", "2026-11-30", "--only-if-increase", "--format", "markdown", "-o",
                                  "out.md", "base.toml", "head.toml"});
  CHECK(written.status == 0);
  CHECK(fs::exists(cheaper.dir.path / "out.md"));
  CHECK(read_text(cheaper.dir.path / "out.md").empty());
}

TEST_CASE("diff --all lists every metric of a changed plan, changed or not", "[diff]") {
  const Change change("", diff_training_plan("p", "40%", 64), diff_training_plan("p", "35%", 64));
  const json doc = json::parse(change.run({"--all"}).out);
  const json& figures = doc["plans"][0]["figures"];
  std::set<std::string> names;
  for (const json& figure : figures) names.insert(figure["name"]);
  CHECK(names.count("train.flops") == 1);          // unchanged by the MFU
  CHECK(names.count("train.memory.states") == 1);
  CHECK(names.count("cluster.count") == 1);
  const json default_doc = json::parse(change.run().out);
  CHECK(default_doc["plans"][0]["figures"].size() < figures.size());
}

TEST_CASE("[guardrails] takes each key as docs/review.md says, and a wrong one is exit 2 at its line", "[diff][config]") {
  DiagnosticSink problems;
  const SourceFile good(".planlint.toml", R"([guardrails]
cost_increase = "20%"
cost_increase_amount = "$100K"
gpus_increase = 256
days_increase = "7 d"
memory_headroom = 0.1
new_errors = true
)");
  Result<Config> config = parse_config(good, problems);
  REQUIRE(config);
  CHECK(problems.empty());
  const Guardrails& limits = config->guardrails;
  CHECK(limits.cost_increase == Approx(0.2));
  CHECK(limits.cost_increase_amount == Approx(100000));
  CHECK(limits.gpus_increase == Approx(256));
  CHECK(limits.days_increase == Approx(7 * 86400));
  CHECK(limits.memory_headroom == Approx(0.1));
  CHECK(limits.new_errors);
  CHECK(parse_config(SourceFile("c.toml", "[guardrails]\ndays_increase = 3\n"), problems)->guardrails.days_increase ==
        Approx(3 * 86400));

  for (const auto& [text, message] : std::vector<std::pair<std::string, std::string>>{
           {"[guardrails]\ncost_increase = 20\n", "guardrails.cost_increase must be a share such as \"20%\" or 0.2"},
           {"[guardrails]\ncost_increase_amount = \"100 GB\"\n", "guardrails.cost_increase_amount must be an amount"},
           {"[guardrails]\ngpus_increase = 1.5\n", "guardrails.gpus_increase must be a whole number"},
           {"[guardrails]\nnew_errors = \"yes\"\n", "guardrails.new_errors must be true or false"},
           {"[guardrails]\ncost_increse = \"20%\"\n", "unknown key 'cost_increse' in [guardrails]"},
           {"guardrails = 3\n", "guardrails must be a table"}}) {
    INFO(text);
    DiagnosticSink errors;
    CHECK_FALSE(parse_config(SourceFile("c.toml", text), errors));
    REQUIRE(errors.size() == 1);
    CHECK(errors.items()[0].message.find(message) == 0);
    CHECK(errors.items()[0].primary.span.begin.line == (text.starts_with("[") ? 2u : 1u));
  }
  // The did-you-mean of a misspelt key.
  DiagnosticSink errors;
  (void)parse_config(SourceFile("c.toml", "[guardrails]\ncost_increse = \"20%\"\n"), errors);
  CHECK(errors.items()[0].help == "did you mean 'cost_increase'?");
}

TEST_CASE("config.schema.json accepts [guardrails] and rejects an unknown key in it", "[diff][config][schema][validator]") {
  Scratch dir;
  const fs::path good = dir.write("good/.planlint.toml", "#:schema " + std::string(PLANLINT_SOURCE_DIR) +
                                                              "/schemas/config.schema.json\n[guardrails]\n"
                                                              "cost_increase = \"20%\"\ncost_increase_amount = \"$100K\"\n"
                                                              "gpus_increase = 256\ndays_increase = \"7 d\"\n"
                                                              "memory_headroom = \"10%\"\nnew_errors = true\n");
  const fs::path bad = dir.write("bad/.planlint.toml", "#:schema " + std::string(PLANLINT_SOURCE_DIR) +
                                                            "/schemas/config.schema.json\n[guardrails]\ncost_increse = 1\n");
  const auto taplo = planlint::test::taplo();
  if (!taplo) return;
  std::string output;
  CHECK(run_command(quote(*taplo) + " lint " + quote(good.string()), output) == 0);
  INFO(output);
  CHECK(run_command(quote(*taplo) + " lint " + quote(bad.string()), output) != 0);
}
