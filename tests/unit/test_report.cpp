#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "planlint/emit/report.hpp"
#include "planlint/emit/report_common.hpp"
#include "integration_support.hpp"
#include "test_estimates_support.hpp"

namespace fs = std::filesystem;
using namespace planlint;
using namespace planlint::test;
using nlohmann::json;

namespace {

std::string example(std::string_view name) {
  return std::string(PLANLINT_SOURCE_DIR) + "/examples/" + std::string(name);
}

/// A plan file written to a scratch folder, removed at the end of the test.
struct ScratchPlan {
  fs::path path;
  explicit ScratchPlan(const std::string& text) {
    static int counter = 0;
    path = fs::temp_directory_path() /
           ("planlint-report-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + ".toml");
    std::ofstream(path) << text;
  }
  ~ScratchPlan() { fs::remove(path); }
};

/// The JSON report of `path`; `errors`: the plan may have errors (report exits 1 then).
json report_json(const std::string& path, bool errors = false) {
  CliRun run = run_cli({"report", "--format", "json", path});
  INFO(run.err);
  if (errors) REQUIRE((run.status == 0 || run.status == 1));
  else REQUIRE(run.status == 0);
  return json::parse(run.out);
}

}  // namespace

TEST_CASE("planlint report prints the cluster plan's napkin math", "[report]") {
  CliRun run = run_cli({"report", example("cluster-plan.toml")});
  INFO(run.out << run.err);
  CHECK(run.status == 0);
  CHECK(run.err.empty());
  CHECK_THAT(run.out, Catch::StartsWith("llama-7b-pretrain: training estimates ("));
  CHECK_THAT(run.out, Catch::Contains("6 × 7B × 1T tokens = 4.2e22 FLOP"));
  CHECK_THAT(run.out, Catch::Contains("  train.days "));
  CHECK_THAT(run.out, Catch::Contains(" 9.6 d "));
  CHECK_THAT(run.out, Catch::Contains("7.68–12.8 d"));
  CHECK_THAT(run.out, Catch::Contains("4 B × 7B / (1 × 1) + 12 B × 7B / (1 × 1 × 128) = 28.7 GB"));
  CHECK_THAT(run.out, Catch::Contains("32 × 4096 × 1 × 4096 × 34 / 1 = 18.3 GB"));
  CHECK_THAT(run.out, Catch::Contains("10% × (28.7 GB + 18.3 GB) = 4.69 GB"));
  CHECK_THAT(run.out, Catch::Contains("28.7 GB + 18.3 GB + 4.69 GB = 51.6 GB"));
  CHECK_THAT(run.out, Catch::Contains("Ranges at the [[assumptions]] low/high: training.mfu 30%–50% (assumption mfu)"));
  CHECK_THAT(run.out, Catch::Contains("train.checkpoint.optimal_interval  needs "
                                      "training.checkpoint_write_time, cluster.node_mtbf"));
  // Compute → time → cost → memory → communication.
  const auto compute = run.out.find("\nCompute\n"), time = run.out.find("\nTime\n"),
             cost = run.out.find("\nCost\n"), memory = run.out.find("\nMemory per GPU\n"),
             comm = run.out.find("\nCommunication and checkpoints\n"),
             absent = run.out.find("\nNot computed\n");
  CHECK(compute < time);
  CHECK(time < cost);
  CHECK(cost < memory);
  CHECK(memory < comm);
  CHECK(comm < absent);
  CHECK(absent != std::string::npos);
}

TEST_CASE("every worked example of docs/estimates.md comes out of report --format json",
          "[report][estimates]") {
  for (const std::string& fixture : vector_fixtures) {
    DYNAMIC_SECTION(fixture) {
      const std::string path = estimates_fixture(fixture);
      // A worked example states only its inputs: a rule may find the rest of the plan wanting.
      const json report = report_json(path, true);
      const Estimated expected = estimate_fixture(fixture);
      REQUIRE_FALSE(expected.plan().estimates.empty());
      CHECK(report["file"] == path);
      CHECK(report["plan"] == *expected.plan().text("plan.name"));
      for (const Claim& claim : expected.plan().estimates) {
        INFO(claim.metric);
        REQUIRE(report["metrics"].contains(claim.metric));
        const json& metric = report["metrics"][claim.metric];
        // Each value in the unit its "unit" names.
        const double to_base = metric["unit"] == "GPU·h" ? 3600 : metric["unit"] == "d" ? 86400 : 1;
        CHECK(same_3sf(claim.metric, metric["value"].get<double>() * to_base,
                       claim.value->quantity()->value));
        if (claim.low)
          CHECK(same_3sf(claim.metric, metric["low"].get<double>() * to_base,
                         claim.low->quantity()->value));
        if (claim.high)
          CHECK(same_3sf(claim.metric, metric["high"].get<double>() * to_base,
                         claim.high->quantity()->value));
      }
    }
  }
}

TEST_CASE("report --format json carries units, ranges and where each input is", "[report]") {
  const json report = report_json(example("cluster-plan.toml"));
  CHECK(report["plan"] == "llama-7b-pretrain");
  CHECK(report["kind"] == "training");

  const json& flops = report["metrics"]["train.flops"];
  CHECK(flops["value"].get<double>() == Approx(4.2e22));
  CHECK(flops["unit"] == "FLOP");
  CHECK(flops["low"].is_null());
  CHECK(flops["formula"] == "6 · N_a · D");
  CHECK(flops["arithmetic"] == "6 × 7B × 1T tokens = 4.2e22 FLOP");
  const json& params = report["metrics"]["train.tokens_per_param"]["inputs"]["model.params"];
  CHECK(params["value"].get<double>() == 7e9);
  CHECK(params["origin"] == "plan");
  CHECK(params["line"] == 31);
  CHECK(params["column"] == 10);

  const json& gpu_hours = report["metrics"]["train.gpu_hours"];
  CHECK(gpu_hours["unit"] == "GPU·h");
  CHECK(gpu_hours["value"].get<double>() == Approx(29491).epsilon(1e-4));
  CHECK(gpu_hours["low"].get<double>() == Approx(23593).epsilon(1e-4));
  CHECK(gpu_hours["high"].get<double>() == Approx(39321).epsilon(1e-4));
  CHECK(gpu_hours["inputs"]["train.flops"]["metric"] == true);
  CHECK(gpu_hours["inputs"]["cluster.peak"]["origin"] == "catalog");
  CHECK(gpu_hours["inputs"]["cluster.peak"]["unit"] == "FLOP/s");

  const json& days = report["metrics"]["train.days"];
  CHECK(days["unit"] == "d");
  CHECK(days["low"].get<double>() == Approx(7.68).epsilon(1e-3));
  CHECK(gpu_hours["inputs"]["train.flops"]["unit"] == "FLOP");
  // Each metric in the unit its name says, and the unit field names it.
  const json& gpu_seconds = report["metrics"]["train.gpu_seconds"];
  CHECK(gpu_seconds["unit"] == "GPU·s");
  CHECK(gpu_seconds["value"].get<double>() == Approx(29491.0 * 3600).epsilon(1e-4));
  CHECK(report["metrics"]["train.wall_days"]["unit"] == "d");
  CHECK(report["metrics"]["train.wall_days"]["value"].get<double>() == Approx(10.7).epsilon(5e-3));
  CHECK(report["metrics"]["train.days"]["inputs"]["train.gpu_hours"]["unit"] == "GPU·h");
  CHECK(days["range_keys"] == json::array({"training.mfu"}));
  CHECK(report["metrics"]["cost.total"]["unit"] == "USD");
  CHECK(report["metrics"]["cost.total"]["inputs"]["cost.price"]["metric"] == true);
  CHECK(report["metrics"]["cost.price"]["inputs"]["cluster.price"]["value"].get<double>() == Approx(3));
  CHECK(report["metrics"]["train.memory.total"]["unit"] == "B");
  CHECK(report["ranges"][0]["key"] == "training.mfu");
  CHECK(report["absent"]["train.checkpoint.optimal_interval"] ==
        json::array({"training.checkpoint_write_time", "cluster.node_mtbf"}));
}

TEST_CASE("a metric with a missing input is absent from report --format json and named",
          "[report]") {
  ScratchPlan plan(training_plan({{"model.layers", ""}}));
  const json report = report_json(plan.path.string());
  CHECK_FALSE(report["metrics"].contains("train.memory.activations"));
  CHECK(report["absent"]["train.memory.activations"] == json::array({"model.layers"}));
  CHECK(report["metrics"].contains("train.memory.states"));
}

TEST_CASE("report --format markdown is a table to paste into a pull request", "[report]") {
  CliRun run = run_cli({"report", "--format", "markdown", example("llama-70b-pretrain.toml")});
  INFO(run.out << run.err);
  CHECK(run.status == 0);
  CHECK_THAT(run.out, Catch::StartsWith("### planlint report: `llama-70b-pretrain` (training)\n"));
  CHECK_THAT(run.out, Catch::Contains("| | metric | value | range | arithmetic |\n|---|---|---|---|---|\n"));
  CHECK_THAT(run.out, Catch::Contains("| Cost | `cost.price` |"));
  CHECK_THAT(run.out, Catch::Contains("| `cost.total` | $15.6M | $7.69M–$29.5M | "));
  CHECK_THAT(run.out, Catch::Contains("| `train.pipeline_bubble` | 9.38% |"));
}

TEST_CASE("an inference report reads memory, then compute, then latency", "[report]") {
  CliRun run = run_cli({"report", example("inference-serving.toml")});
  INFO(run.out << run.err);
  CHECK(run.status == 0);
  CHECK_THAT(run.out, Catch::Contains("⌊(141 GB × (1 − 10%) × 4 − 70 GB) / (327.7 kB/token × 4096 tokens)⌋ = 326 sequences"));
  CHECK(run.out.find("\nMemory\n") < run.out.find("\nCompute\n"));
  CHECK(run.out.find("\nCompute\n") < run.out.find("\nLatency bounds\n"));
  CHECK(run.out.find("train.") == std::string::npos);
}

TEST_CASE("report prints a plan's errors on stderr, still reports, and exits 1", "[report]") {
  ScratchPlan plan(training_plan({{"training.mfu", "\"140%\""}}));
  CliRun run = run_cli({"report", plan.path.string()});
  CHECK(run.status == 1);
  CHECK_THAT(run.err, Catch::Contains("error: training.mfu"));
  CHECK_THAT(run.err, Catch::Contains("[bad-quantity]"));
  CHECK_THAT(run.out, Catch::Contains("= 4.2e22 FLOP"));
  CHECK_THAT(run.out, Catch::Contains("train.days"));
  CHECK_THAT(run.out, Catch::Contains("needs training.mfu"));
}

TEST_CASE("report leaves out the errors check leaves out: inline suppressions and the config's selection",
          "[report][suppress][config]") {
  // report printed a suppressed (or ignored) error and exited 1 where check
  // exited 0, so a CI step that posts the report failed on plans check accepts.
  planlint::test::Scratch dir;
  const std::string plan = planlint::test::inference_plan_with("gpus_per_nod = 8");
  const fs::path suppressed =
      dir.write("a/plan.toml", plan + "  # planlint: allow unknown-key -- read by our scheduler\n");
  CliRun run = run_cli({"report", suppressed.string()});
  CHECK(run.status == 0);
  CHECK(run.err.empty());
  CHECK(run_cli({"check", suppressed.string()}).status == 0);

  const fs::path ignored = dir.write("b/plan.toml", plan + "\n");
  CHECK(run_cli({"report", ignored.string()}).status == 1);
  dir.write("b/.planlint.toml", "[lint]\nignore = [\"structure\"]\n");
  run = run_cli({"report", ignored.string()});
  CHECK(run.status == 0);
  CHECK(run.err.empty());
  dir.write("b/.planlint.toml", "[lint.severity]\nunknown-key = \"warning\"\n");
  run = run_cli({"report", "--no-color", ignored.string()});
  CHECK(run.status == 0);
  CHECK_THAT(run.err, Catch::Contains("warning: unknown key 'gpus_per_nod' in [cluster] [unknown-key]"));
}

TEST_CASE("report exits 2 on an unreadable file or a bad option", "[report]") {
  CliRun missing = run_cli({"report", "no/such/plan.toml"});
  CHECK(missing.status == 2);
  CHECK(missing.err == "planlint: error: cannot read 'no/such/plan.toml': No such file or directory\n");
  CHECK(missing.out.empty());
  CliRun format = run_cli({"report", "--format", "xml", example("cluster-plan.toml")});
  CHECK(format.status == 2);
  CHECK(format.out.empty());
  CliRun none = run_cli({"report"});
  CHECK(none.status == 2);
}

TEST_CASE("a file that is not TOML reports nothing computed and exits 1", "[report]") {
  ScratchPlan plan("[plan\nname = 1\n");
  CliRun run = run_cli({"report", "--format", "json", plan.path.string()});
  CHECK(run.status == 1);
  CHECK_THAT(run.err, Catch::Contains("[toml-syntax]"));
  const json report = json::parse(run.out);
  CHECK(report["plan"].is_null());
  CHECK(report["metrics"].empty());

  // Text and Markdown say no numbers follow, with no empty table or "unknown" kind.
  CliRun text = run_cli({"report", "--no-color", plan.path.string()});
  CHECK(text.status == 1);
  CHECK_THAT(text.out, Catch::StartsWith(plan.path.string() + ": no estimates\n"));
  CHECK_THAT(text.out, Catch::Contains("planlint computes no numbers from it until it is fixed"));
  CHECK_THAT(text.out, !Catch::Contains("unknown") && !Catch::Contains("numbers below"));
  CliRun markdown = run_cli({"report", "--format", "markdown", plan.path.string()});
  CHECK(markdown.status == 1);
  CHECK_THAT(markdown.out, Catch::Contains("planlint computes no numbers from it until it is fixed"));
  CHECK_THAT(markdown.out, !Catch::Contains("| | metric |") && !Catch::Contains("(unknown)"));
}

TEST_CASE("report on a file that holds no plan says so and exits 2, and check still lints it", "[report]") {
  // It printed the missing sections, then an empty "training estimates" report under the
  // file's name, and exited 1.
  planlint::test::Scratch dir;
  const std::string toml_hint =
      ": no plan found: a plan file has a top-level [plan] table (`planlint new training` or `planlint new "
      "inference` prints one to start from)\n";
  for (const char* text : {"[tool.poetry]\nname = \"x\"\n", "",
                           "[model]\nparams = \"7B\"\n[cluster]\ngpu = \"h100-sxm\"\ncount = 8\n",
                           "[[plan]]\nname = \"x\"\n"}) {
    INFO(text);
    const std::string path = dir.write("pyproject.toml", text).string();
    for (const char* format : {"text", "json", "markdown"}) {
      CliRun run = run_cli({"report", "--format", format, path});
      CHECK(run.status == 2);
      CHECK(run.out.empty());
      CHECK(run.err == "planlint: error: " + path + toml_hint);
    }
  }
  // A Markdown doc whose only TOML block is not a plan.
  const std::string doc = dir.write("notes.md", "# Notes\n\n```toml\n[cluster]\ngpu = \"h100-sxm\"\n```\n").string();
  CliRun markdown = run_cli({"report", doc});
  CHECK(markdown.status == 2);
  CHECK(markdown.out.empty());
  CHECK(markdown.err == "planlint: error: " + doc + ": no plan found: the doc holds no ```toml block with a [plan] table\n");

  // check lints a named file whatever it holds (cli.md "What gets linted").
  const std::string named = dir.write("pyproject.toml", "[tool.poetry]\nname = \"x\"\n").string();
  CliRun check = run_cli({"check", "--no-color", named});
  CHECK(check.status == 1);
  CHECK_THAT(check.out, Catch::Contains("error: missing required section [plan] [missing-required]"));
  // A plan with only its [plan] table is reported on, with what it lacks.
  CliRun bare = run_cli({"report", dir.write("bare.toml", "[plan]\nname = \"x\"\nkind = \"training\"\n").string()});
  CHECK(bare.status == 1);
  CHECK_THAT(bare.out, Catch::Contains("x: training estimates"));
}

TEST_CASE("the report renders from the library without the command line", "[report]") {
  const Estimated e = estimate_text(training_plan());
  std::ostringstream out;
  render_report(out, {&e.plan(), &e.estimates, "plan.toml"}, ReportFormat::text);
  CHECK_THAT(out.str(), Catch::StartsWith("p: training estimates (plan.toml)\n"));
  CHECK(parse_report_format("md") == ReportFormat::markdown);
  CHECK_FALSE(parse_report_format("xml"));
}

TEST_CASE("report uses the GPU catalog of the config check would use", "[report][config]") {
  planlint::test::Scratch dir;
  dir.write("hw/gpus.toml", "[[gpu]]\nid = \"our-gpu\"\nname = \"Our accelerator\"\nhbm = \"96 GB\"\n"
                            "hbm_bandwidth = \"4 TB/s\"\nsources = [\"our measurements\"]\n"
                            "[gpu.dense]\nbf16 = \"1000 TFLOPS\"\n");
  dir.write("team/.planlint.toml", "[lint]\ncatalog = \"../hw/gpus.toml\"\n");
  const std::string plan_text =
      "[plan]\nname = \"x\"\nkind = \"training\"\n[model]\nparams = \"7B\"\n[training]\ntokens = \"1T\"\n"
      "mfu = \"40%\"\n[cluster]\ngpu = \"our-gpu\"\ncount = 8\n";
  const fs::path plan = dir.write("team/plan.toml", plan_text);

  // The nearest config's catalog, as `check` reads it: the GPU is known, its peak applies.
  CliRun found = run_cli({"report", plan.string()});
  INFO(found.err);
  CHECK(found.status == 0);
  CHECK_THAT(found.out, Catch::Contains("/ (1000 TFLOPS × 40%)"));
  CHECK(run_cli({"--no-color", plan.string()}).out.find("unknown-gpu") == std::string::npos);

  // Without a config the GPU is unknown, in report as in check.
  const fs::path alone = dir.write("alone/plan.toml", plan_text);
  CliRun unknown = run_cli({"report", alone.string()});
  CHECK(unknown.status == 1);
  CHECK_THAT(unknown.err, Catch::Contains("[unknown-gpu]"));
  // --config names one.
  CliRun named = run_cli({"report", "--config", (dir.path / "team/.planlint.toml").string(), alone.string()});
  CHECK(named.status == 0);
  CHECK_THAT(named.out, Catch::Contains("1000 TFLOPS"));

  // A config that does not load is exit 2, as for check.
  dir.write("broken/.planlint.toml", "[lint]\ncatalog = \"nope.toml\"\n");
  CliRun broken = run_cli({"report", dir.write("broken/plan.toml", plan_text).string()});
  CHECK(broken.status == 2);
  CHECK_THAT(broken.err, Catch::Contains("nope.toml: cannot read the catalog"));
  CHECK(broken.out.empty());
}

TEST_CASE("report reads the plan of a Markdown capacity doc, and asks which when it holds several", "[report][markdown]") {
  const std::string two = std::string(PLANLINT_SOURCE_DIR) + "/tests/data/markdown/capacity-review.md";
  CliRun ambiguous = run_cli({"report", two});
  CHECK(ambiguous.status == 2);
  CHECK(ambiguous.out.empty());
  CHECK_THAT(ambiguous.err, Catch::Contains("the doc holds 2 plans (```toml blocks at lines 13, 31): name one with --block 1 to --block 2"));

  CliRun second = run_cli({"report", "--format", "json", "--block", "2", two});
  CHECK(second.status == 1);  // its GPU id is misspelt: reported on stderr at the doc's own line
  CHECK_THAT(second.err, Catch::Contains("capacity-review.md:40:7: error: unknown GPU 'h100-sxn'"));
  CliRun first = run_cli({"report", "--format", "json", "--block", "1", two});
  CHECK(first.status == 1);  // a misspelt key: reported, and the plan still reported
  CHECK_THAT(first.err, Catch::Contains("capacity-review.md:24:1: error: unknown key 'hmb'"));
  CHECK(json::parse(first.out)["plan"] == "chat-serving");
  CHECK(run_cli({"report", "--block", "3", two}).status == 2);

  CliRun one = run_cli({"report", std::string(PLANLINT_SOURCE_DIR) + "/tests/data/markdown/clean-doc.md"});
  CHECK(one.status == 0);
  CHECK_THAT(one.out, Catch::Contains("infer.weights"));
  CHECK(run_cli({"report", "--block", "1", example("cluster-plan.toml")}).status == 2);
}

TEST_CASE("a range's ends are written in one unit where the low end reads in the high end's", "[report]") {
  // "46.1 h – 3.07 d" for a train.days range.
  MetricValue days;
  days.name = "train.days";
  days.dim = units::dims::seconds;
  days.value = 2.19 * 86400;
  days.low = 46.1 * 3600;
  days.high = 3.07 * 86400;
  CHECK(detail::range_text(days) == "1.921–3.07 d");
  days.low = 1.9 * 86400;
  CHECK(detail::range_text(days) == "1.9–3.07 d");
  // Money scales stay each end's own: "$69K–$234.6K", "$690K–$1.2M".
  MetricValue cost;
  cost.name = "cost.total";
  cost.dim = units::dims::usd;
  cost.value = 9e5;
  cost.low = 6.9e5;
  cost.high = 1.2e6;
  CHECK(detail::range_text(cost) == "$690K–$1.2M");
}

TEST_CASE("report runs the checks: a plan with errors says so above the numbers, in every format, and exits 1",
          "[report]") {
  // 70B on eight H100s at ZeRO-0: 140 GB of states a GPU, a memory-fit error.
  ScratchPlan plan(training_plan({{"model.params", "\"70B\""}, {"cluster.count", "8"}, {"training.zero", "0"}}));
  CliRun text = run_cli({"report", "--no-color", plan.path.string()});
  INFO(text.out << text.err);
  CHECK(text.status == 1);
  CHECK_THAT(text.err, Catch::Contains("[memory-fit]"));
  const std::size_t banner = text.out.find("error: the plan has 1 error");
  REQUIRE(banner != std::string::npos);
  CHECK(banner < text.out.find("train.flops"));
  CHECK_THAT(text.out, Catch::Contains("[memory-fit]"));

  CliRun markdown = run_cli({"report", "--format", "markdown", plan.path.string()});
  CHECK(markdown.status == 1);
  CHECK(markdown.out.find("> **The plan has 1 error**") < markdown.out.find("| | metric |"));
  CHECK_THAT(markdown.out, Catch::Contains("(`memory-fit`)"));

  CliRun as_json = run_cli({"report", "--format", "json", plan.path.string()});
  CHECK(as_json.status == 1);
  const json report = json::parse(as_json.out);
  REQUIRE(report["errors"].size() == 1);
  CHECK(report["errors"][0]["rule"] == "memory-fit");
  CHECK(report["errors"][0]["line"].is_number());

  // A plan without errors: no banner, an empty list, exit 0; the rules' warnings stay check's.
  const json clean = report_json(example("cluster-plan.toml"));
  CHECK(clean["errors"].empty());
  CliRun clean_text = run_cli({"report", example("cluster-plan.toml")});
  CHECK(clean_text.status == 0);
  CHECK(clean_text.out.find("error:") == std::string::npos);
}

TEST_CASE("report computes every figure once the inputs a finding's fix corrects are in place, and says so",
          "[report][corrected]") {
  // The H100's sparse BF16 peak: sparse-peak's fix writes the dense 989 TFLOPS. The figures
  // are those of the plan with that peak, not half of them.
  ScratchPlan sparse(training_plan({{"cluster.peak", "\"1979 TFLOPS\""}, {"training.zero", "3"}}));
  ScratchPlan dense(training_plan({{"cluster.peak", "\"989 TFLOPS\""}, {"training.zero", "3"}}));
  const json corrected = report_json(sparse.path.string(), true);
  const json right = report_json(dense.path.string());
  for (const char* metric : {"train.gpu_hours", "train.days", "train.step_seconds"})
    CHECK(corrected["metrics"][metric]["value"].get<double>() ==
          Approx(right["metrics"][metric]["value"].get<double>()));
  REQUIRE(corrected["corrected_inputs"].size() == 1);
  CHECK(corrected["corrected_inputs"][0]["key"] == "cluster.peak");
  CHECK(corrected["corrected_inputs"][0]["value"] == "989 TFLOPS");
  CHECK(corrected["corrected_inputs"][0]["rule"] == "sparse-peak");
  CHECK(right["corrected_inputs"].empty());

  CliRun text = run_cli({"report", "--no-color", sparse.path.string()});
  INFO(text.out);
  const std::size_t note = text.out.find("once cluster.peak is 989 TFLOPS (sparse-peak's fix)");
  REQUIRE(note != std::string::npos);
  CHECK(note < text.out.find("train.flops"));
  CliRun markdown = run_cli({"report", "--format", "markdown", sparse.path.string()});
  CHECK_THAT(markdown.out, Catch::Contains("once cluster.peak is 989 TFLOPS"));
  CliRun html = run_cli({"report", "--format", "html", sparse.path.string()});
  CHECK_THAT(html.out, Catch::Contains("once cluster.peak is 989 TFLOPS (sparse-peak&apos;s fix)"));

  // An inline suppression says the value holds as written: nothing is corrected.
  std::string allowed = training_plan({{"cluster.peak", "\"1979 TFLOPS\""}, {"training.zero", "3"}});
  const std::size_t at = allowed.find("peak = \"1979 TFLOPS\"");
  REQUIRE(at != std::string::npos);
  allowed.insert(allowed.find('\n', at), "  # planlint: allow sparse-peak -- our kernels use 2:4 sparsity");
  ScratchPlan kept(allowed);
  const json as_written = report_json(kept.path.string());
  CHECK(as_written["corrected_inputs"].empty());
  CHECK(as_written["metrics"]["train.gpu_hours"]["value"].get<double>() ==
        Approx(right["metrics"]["train.gpu_hours"]["value"].get<double>() / 2).epsilon(0.01));
}

TEST_CASE("report computes a run in stages, and each stage, once a finding's fix corrects an input",
          "[report][corrected][stages]") {
  const std::string stages = "\n[[stages]]\nname = \"pre-training\"\n\n[[stages]]\nname = \"long-context\"\n"
                             "training.tokens = \"100B\"\ntraining.seq_len = 32768\ntraining.recompute = \"full\"\ntraining.tp = 8\n"
                             "cluster.count = 64\n";
  ScratchPlan sparse(training_plan({{"cluster.peak", "\"1979 TFLOPS\""}, {"training.zero", "3"}}) + stages);
  ScratchPlan dense(training_plan({{"cluster.peak", "\"989 TFLOPS\""}, {"training.zero", "3"}}) + stages);
  const json corrected = report_json(sparse.path.string(), true);
  const json right = report_json(dense.path.string());
  REQUIRE(corrected["corrected_inputs"].size() == 1);
  CHECK(corrected["corrected_inputs"][0]["key"] == "cluster.peak");
  for (const char* metric : {"run.gpu_hours", "run.days"})
    CHECK(corrected["metrics"][metric]["value"].get<double>() == Approx(right["metrics"][metric]["value"].get<double>()));
  REQUIRE(corrected["stages"].size() == 2);
  for (std::size_t s = 0; s < 2; ++s)
    for (const char* metric : {"train.days", "train.step_seconds"})
      CHECK(corrected["stages"][s]["metrics"][metric]["value"].get<double>() ==
            Approx(right["stages"][s]["metrics"][metric]["value"].get<double>()));
  // The HTML page's stage table reads the same corrected figures.
  CliRun html = run_cli({"report", "--format", "html", sparse.path.string()});
  CliRun html_right = run_cli({"report", "--format", "html", dense.path.string()});
  const auto days_cell = [](const std::string& page) {
    const std::size_t at = page.find("run.<wbr/>days");
    REQUIRE(at != std::string::npos);
    return page.substr(at, 200);
  };
  CHECK(days_cell(html.out) == days_cell(html_right.out));
  // Markdown shows the run's totals, then each stage's table, as the text report does.
  CliRun markdown = run_cli({"report", "--format", "markdown", sparse.path.string()});
  INFO(markdown.out);
  const std::size_t first = markdown.out.find("#### Stage 1 of 2: pre-training");
  const std::size_t second = markdown.out.find("#### Stage 2 of 2: long-context");
  REQUIRE(first != std::string::npos);
  REQUIRE(second != std::string::npos);
  CHECK(markdown.out.find("`run.days`") < first);
  CHECK(markdown.out.find("`train.days`", first) < second);
  CHECK(markdown.out.find("`train.days`", second) != std::string::npos);
  CHECK(markdown.out.find("`run.days`", first) == std::string::npos);
  CHECK_THAT(markdown.out, Catch::Contains("once cluster.peak is 989 TFLOPS"));
}
