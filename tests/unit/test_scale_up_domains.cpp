/// Scale-up domains (docs/estimates.md, "Which link the all-reduce crosses"): traffic that stays
/// inside the GPUs one NVLink, Infinity Fabric or ICI fabric joins runs on that link, whichever
/// host each GPU sits in; only groups wider than the domain cross the scale-out network.
#include <catch2/catch.hpp>

#include "planlint/catalog/catalog_table.hpp"
#include "test_estimates_support.hpp"

using namespace planlint;
using namespace planlint::test;

namespace {

double plan_number(const Estimated& e, std::string_view path) {
  const std::optional<double> value = e.plan().number(path);
  INFO(path);
  REQUIRE(value.has_value());
  return *value;
}

}  // namespace

TEST_CASE("the scale-up domain and the host come from the catalog, the domain at most the job", "[estimates][domains]") {
  SECTION("a GB200 NVL72 rack: a 72-GPU NVLink domain of 4-GPU trays") {
    const Estimated e = estimate_text(training_plan({{"cluster.gpu", "\"gb200\""}, {"cluster.count", "256"}}));
    CHECK(plan_number(e, "cluster.scale_up_domain") == 72);
    CHECK(plan_number(e, "cluster.gpus_per_node") == 4);
    CHECK(e["train.nodes"].value == 64);  // hosts: what fails
  }
  SECTION("an HGX H100 baseboard: the domain is the host") {
    const Estimated e = estimate_text(training_plan());
    CHECK(plan_number(e, "cluster.scale_up_domain") == 8);
    CHECK(plan_number(e, "cluster.gpus_per_node") == 8);
  }
  SECTION("a TPU v5p job is one slice: its chips, in hosts of 4") {
    const Estimated e = estimate_text(training_plan({{"cluster.gpu", "\"tpu-v5p\""}, {"cluster.count", "512"}}));
    CHECK(plan_number(e, "cluster.scale_up_domain") == 512);
    CHECK(plan_number(e, "cluster.gpus_per_node") == 4);
  }
  SECTION("a multislice TPU job states its slice") {
    const Estimated e = estimate_text(training_plan({{"cluster.gpu", "\"tpu-v5p\""},
                                                     {"cluster.count", "8192"},
                                                     {"cluster.scale_up_domain", "4096"}}));
    CHECK(plan_number(e, "cluster.scale_up_domain") == 4096);
  }
  SECTION("beyond the largest slice the domain is the largest slice") {
    const Estimated e = estimate_text(training_plan({{"cluster.gpu", "\"tpu-v5p\""}, {"cluster.count", "12288"}}));
    CHECK(plan_number(e, "cluster.scale_up_domain") == 6144);
  }
  SECTION("a GPU the catalog gives no domain has its host for one") {
    const Estimated e = estimate_text(training_plan({{"cluster.gpu", "\"l40s\""}, {"cluster.gpus_per_node", "4"}}));
    CHECK(plan_number(e, "cluster.scale_up_domain") == 4);
  }
}

TEST_CASE("a data-parallel group inside a scale-up domain all-reduces on its link, across hosts", "[estimates][domains]") {
  // tp 4 · dp 16 = 64 GPUs: 16 GB200 trays, one NVL72 rack; on 8-GPU H100 hosts, eight domains.
  const std::map<std::string, std::string> layout = {{"cluster.count", "64"}, {"training.tp", "4"}};
  auto with = [&](std::string gpu) {
    auto keys = layout;
    keys["cluster.gpu"] = "\"" + gpu + "\"";
    return estimate_text(training_plan(keys));
  };
  const Estimated gb200 = with("gb200");
  CHECK(gb200["train.comm.dp_group_domains"].value == 1);
  const double bytes = gb200["train.comm.allreduce_bytes"].value;
  CHECK(gb200["train.comm.seconds"].value == Approx(bytes / (1800e9 / 2)));
  const Estimated h100 = with("h100-sxm");
  CHECK(h100["train.comm.dp_group_domains"].value == 8);
  CHECK(h100["train.comm.seconds"].value == Approx(h100["train.comm.allreduce_bytes"].value / 50e9));
}

TEST_CASE("an expert-parallel group of 64 stays on NVLink inside one NVL72 rack", "[estimates][domains]") {
  const std::map<std::string, std::string> moe = {
      {"model.architecture", "\"moe\""}, {"model.params", "\"671B\""},  {"model.active_params", "\"37B\""},
      {"model.layers", "61"},            {"model.hidden", "7168"},     {"model.heads", "128"},
      {"model.experts", "256"},          {"model.experts_per_token", "8"},
      {"training.ep", "64"},             {"training.pp", "4"},         {"cluster.count", "256"}};
  auto keys = moe;
  keys["cluster.gpu"] = "\"gb200\"";
  const Estimated gb200 = estimate_text(training_plan(keys));
  CHECK(gb200["train.comm.ep_group_domains"].value == 1);
  CHECK(gb200["train.comm.alltoall_seconds"].value ==
        Approx(gb200["train.comm.alltoall_bytes"].value / (1800e9 / 2)));
  keys["cluster.gpu"] = "\"h100-sxm\"";
  const Estimated h100 = estimate_text(training_plan(keys));
  CHECK(h100["train.comm.ep_group_domains"].value == 8);
}

TEST_CASE("a serving replica that states no tp is held to one scale-up domain", "[estimates][domains]") {
  const Estimated gb200 = estimate_text(inference_plan({{"cluster.gpu", "\"gb200\""},
                                                        {"cluster.count", "144"},
                                                        {"inference.tp", ""},
                                                        {"inference.concurrency", ""}}));
  CHECK(gb200["infer.replica_gpus"].value == 72);
  CHECK(gb200["infer.domain_memory"].value == Approx(72 * 186e9 * 0.9));
}

TEST_CASE("planlint gpus shows each accelerator's scale-up domain and host", "[catalog][domains]") {
  const std::string listing = catalog_listing_text(Catalog::builtin());
  CHECK_THAT(listing, Catch::Contains("scale-up      72 GPUs over NVLink; hosts of 4"));
  CHECK_THAT(listing, Catch::Contains("scale-up      a slice of up to 6144 GPUs over ICI; hosts of 4"));
  CHECK_THAT(listing, Catch::Contains("scale-up      8 GPUs over Infinity Fabric; hosts of 8"));
  const std::string json = catalog_listing_json(Catalog::builtin());
  CHECK_THAT(json, Catch::Contains("\"scale_up_link\": \"ici\""));
  CHECK_THAT(json, Catch::Contains("\"scale_up_domain\": 72.0"));
}
