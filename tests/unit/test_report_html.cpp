#include <algorithm>
#include <map>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "integration_support.hpp"
#include "xpath.hpp"

using namespace planlint::test;
using nlohmann::json;

namespace {

const std::string examples = std::string(PLANLINT_SOURCE_DIR) + "/examples";

/// A count, or a small number: xmllint prints numbers to 6 significant figures.
double xpath_number(const fs::path& file, const std::string& expression) {
  return std::stod(xpath(file, expression));
}

/// The exact values of the attribute `attribute` of the nodes `nodes` selects, in order.
std::vector<double> xpath_values(const fs::path& file, const std::string& nodes, const std::string& attribute) {
  std::vector<double> values;
  const auto count = static_cast<std::size_t>(xpath_number(file, "count(" + nodes + ")"));
  for (std::size_t i = 1; i <= count; ++i)
    values.push_back(std::stod(xpath(file, fmt::format("string(({})[{}]/@{})", nodes, i, attribute))));
  return values;
}

double sum(const std::vector<double>& values) {
  double total = 0;
  for (double value : values) total += value;
  return total;
}

/// An element by its local name, whatever its namespace (XHTML, SVG).
std::string el(std::string_view name) { return fmt::format("*[local-name()='{}']", name); }

}  // namespace

TEST_CASE("report --format html renders the examples as well-formed XHTML with a section, charts and totals",
          "[report][html]") {
  Scratch dir;
  const fs::path page = dir.path / "report.html";
  CliRun run = run_cli({"report", "--format", "html", examples, "-o", page.string()});
  INFO(run.err);
  // The examples carry findings on purpose (cluster-plan.toml's warnings): 0 or 1, never 2.
  REQUIRE(run.status != 2);
  REQUIRE(fs::exists(page));
  const std::string html = read_text(page);
  CHECK(run.out.empty());
  CHECK(html.find("<script") == std::string::npos);
  CHECK(html.find("http://") == html.find("http://www.w3.org/"));  // namespaces only, nothing fetched
  CHECK(html.find("https://") == std::string::npos);

  // Well-formed XML, checked by a real parser.
  std::string output;
  CHECK(run_command(system_tool("xmllint", "libxml2-utils") + " --noout --nonet " + quote(page.string()), output) == 0);
  INFO(output);

  // One section per plan file of examples/, in the portfolio's order.
  std::vector<std::string> plans;
  for (const auto& entry : fs::directory_iterator(examples))
    if (entry.path().extension() == ".toml") plans.push_back(entry.path().string());
  const std::string section = "//" + el("section") + "[@class='plan']";
  CHECK(xpath_number(page, "count(" + section + ")") == static_cast<double>(plans.size()));

  // Per training plan: a memory bar and the tornado of the cost and of the days, each an SVG.
  std::map<std::string, double> cost_by_gpu, hours_by_gpu, gpus_by_gpu;
  std::size_t training = 0, priced_plans = 0;
  for (const std::string& plan : plans) {
    CliRun report = run_cli({"report", "--format", "json", plan});
    const json figures = json::parse(report.out);
    const std::string name = figures["plan"];
    INFO(name);
    const std::string at = section + "[" + el("h2") + "='" + name + "']";
    CHECK(xpath_number(page, "count(" + at + ")") == 1);
    if (figures["kind"] == "inference") continue;
    ++training;
    CHECK(xpath_number(page, "count(" + at + "//" + el("figure") + "[@class='memory']/" + el("svg") + ")") == 1);
    // A plan without a price (the published runs of examples/) has no cost, nor its tornado.
    const json& metrics = figures["metrics"];
    const bool priced = metrics.contains("cost.total");
    // A run in stages shows its totals and each stage's table, not the tornadoes of one stage.
    const bool staged = figures.contains("stages");
    CHECK(xpath_number(page, "count(" + at + "//" + el("figure") + "[@class='tornado']/" + el("svg") + ")") ==
          (staged ? 0 : priced ? 2 : 1));
    // The memory bar's parts: a rectangle for each part of train.memory.total, and the HBM line.
    CHECK(xpath_number(page, "count(" + at + "//" + el("figure") + "[@class='memory']//" + el("rect") +
                                 "[starts-with(@class,'part-')])") >= 6);
    CHECK(xpath_number(page, "count(" + at + "//" + el("figure") + "[@class='memory']//" + el("line") +
                                 "[@class='capacity'])") == 1);
    // The figures the portfolio adds up, from the JSON report of the same plan.
    if (!priced) continue;
    ++priced_plans;
    const std::string gpu = xpath(page, "string(//" + el("tr") + "[@data-plan='" + name + "']/@data-gpu)");
    cost_by_gpu[gpu] += metrics["cost.total"]["value"].get<double>();
    hours_by_gpu[gpu] += metrics["cost.gpu_hours_billed"]["value"].get<double>();
  }
  CHECK(training == 9);

  // The portfolio's totals per GPU type are the sums of its plans' figures.
  for (const auto& [gpu, cost] : cost_by_gpu) {
    INFO(gpu);
    const std::string total = "//" + el("tfoot") + "/" + el("tr") + "[@data-gpu='" + gpu + "']";
    const auto column = [&](const std::string& rows, std::string_view name) {
      // A plan without a price (a published run) has an empty cost cell: the cells with a value.
      return xpath_values(page, rows + "/" + el("td") + "[@data-col='" + std::string(name) + "'][@data-value]",
                          "data-value");
    };
    REQUIRE(column(total, "cost").size() == 1);
    CHECK(column(total, "cost")[0] == Approx(cost).epsilon(1e-9));
    CHECK(column(total, "gpu_hours")[0] == Approx(hours_by_gpu[gpu]).epsilon(1e-9));
    // And of the rows the table shows.
    const std::string rows = "//" + el("tbody") + "/" + el("tr") + "[@data-gpu='" + gpu + "']";
    CHECK(sum(column(rows, "cost")) == Approx(cost).epsilon(1e-9));
    CHECK(sum(column(rows, "gpus")) == column(total, "gpus")[0]);
  }
  // Ordered by cost, dearest first (plans without a cost last); each row links to its section.
  const std::vector<double> costs = xpath_values(page, "//" + el("tbody") + "/" + el("tr") + "/" + el("td") +
                                                           "[@data-col='cost'][@data-value]", "data-value");
  CHECK(costs.size() == priced_plans);
  CHECK(std::is_sorted(costs.rbegin(), costs.rend()));
  // Ordered by cost, dearest first; each row links to its plan's section.
  CHECK(xpath(page, "string((//" + el("tbody") + "//" + el("a") + ")[1]/@href)") ==
        "#" + xpath(page, "string((" + section + ")[1]/@id)"));
}

TEST_CASE("report --format html escapes every string of the plan", "[report][html]") {
  Scratch dir;
  const fs::path plan = dir.path / "hostile.toml";
  std::ofstream(plan) << R"([plan]
name = "<script>alert(1)</script> & \"quotes\" 'x' \u001b[31m"
kind = "training"

[model]
params = "7B"

[training]
tokens = "1T"
mfu = "40%"

[cluster]
gpu = "h100-sxm"
count = 8

[[targets]]
name = "<b>bold</b>"
metric = "train.days"
max = "1 d"

[[assumptions]]
id = "<i>mfu</i>"
key = "training.mfu"
value = "40%"
low = "30%"
high = "50%"
source = "<img src=x onerror=alert(1)>"
)";
  const fs::path page = dir.path / "report.html";
  CliRun run = run_cli({"report", "--format", "html", plan.string(), "-o", page.string()});
  INFO(run.err);
  REQUIRE(fs::exists(page));
  const std::string html = read_text(page);
  CHECK(html.find("<script>") == std::string::npos);
  CHECK(html.find("<b>bold") == std::string::npos);
  CHECK(html.find("<i>mfu") == std::string::npos);
  CHECK(html.find('\x1b') == std::string::npos);
  CHECK(html.find("\\x1b[31m") != std::string::npos);  // shown escaped, as every format shows it
  CHECK(html.find("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;") != std::string::npos);
  std::string output;
  CHECK(run_command(system_tool("xmllint", "libxml2-utils") + " --noout --nonet " + quote(page.string()), output) == 0);
  INFO(output);
}

TEST_CASE("report --format html takes one plan too, and the text formats only one", "[report][html]") {
  CliRun one = run_cli({"report", "--format", "html", examples + "/cluster-plan.toml"});
  CHECK(one.status != 2);
  CHECK_THAT(one.out, Catch::StartsWith("<!DOCTYPE html>"));
  CHECK(one.out.find("id=\"portfolio\"") == std::string::npos);  // one plan: no portfolio

  CliRun two = run_cli({"report", examples + "/cluster-plan.toml", examples + "/moe-pretrain.toml"});
  CHECK(two.status == 2);
  CHECK_THAT(two.err, Catch::Contains("--format html"));
}
