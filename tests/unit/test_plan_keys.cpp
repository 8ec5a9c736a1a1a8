// The plan keys declared once (plan/schema.cpp): the defaults are applied from their specs,
// and docs/plan-format.md's key tables are generated from them (PLANLINT_UPDATE_GOLDEN=1
// rewrites the tables).
#include <string>
#include <variant>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "integration_support.hpp"
#include "planlint/plan/defaults.hpp"
#include "planlint/plan/key_docs.hpp"
#include "planlint/plan/schema.hpp"
#include "support.hpp"

using namespace planlint;

namespace {

std::string path_of(const KeySpec& key) { return fmt::format("{}.{}", key.section, key.key); }

/// Whether `value` is the fixed default of `key`.
bool is_fixed_default(const KeySpec& key, const PlanValue& value) {
  const KeyDefault& fallback = key.by_default;
  if (value.origin != Origin::default_) return false;
  if (const double* number = fallback.number())
    return value.quantity() && value.quantity()->value == *number && value.quantity()->dim == key.dims.front();
  if (const auto* choice = std::get_if<std::string_view>(&fallback.fixed)) return value.text() && *value.text() == *choice;
  if (const bool* flag = std::get_if<bool>(&fallback.fixed)) return value.boolean() && *value.boolean() == *flag;
  return false;
}

// Plans that state only what is required (and a target), so every default applies.
constexpr const char* training_plan =
    "[plan]\nname = \"x\"\nkind = \"training\"\n[model]\nparams = \"7B\"\n[training]\ntokens = \"1T\"\n"
    "[cluster]\ngpu = \"h100-sxm\"\ncount = 8\n[[targets]]\nname = \"t\"\nmetric = \"train.days\"\nmax = 30\n";
constexpr const char* inference_plan =
    "[plan]\nname = \"x\"\nkind = \"inference\"\n[model]\nparams = \"7B\"\n[inference]\ncontext = 4096\n"
    "[cluster]\ngpu = \"h100-sxm\"\ncount = 8\n[[targets]]\nname = \"t\"\nmetric = \"infer.ttft\"\nmax = 1\n";

}  // namespace

TEST_CASE("docs/plan-format.md's key tables are generated from the key specs", "[schema][docs]") {
  for (const SectionSpec& section : plan_sections()) {
    if (section.name == "estimates") continue;  // metric names, not keys
    const std::string header = section.array ? fmt::format("[[{}]]", section.name) : fmt::format("[{}]", section.name);
    const std::string generated = key_table_markdown(section);
    INFO("docs/plan-format.md's table of " << header << " is out of date: PLANLINT_UPDATE_GOLDEN=1 "
                                              "build/tests/planlint_tests \"[schema]\" rewrites it");
    CHECK(test::generated_region(std::filesystem::path(PLANLINT_SOURCE_DIR) / "docs/plan-format.md",
                                 fmt::format("<!-- keys of {}: generated from src/planlint/plan/schema.cpp -->\n", header),
                                 fmt::format("<!-- end of the keys of {} -->\n", header), generated) == generated);
  }
}

TEST_CASE("a key's table row shows its type, unit, default and range", "[schema][docs]") {
  const std::string cluster = key_table_markdown(*find_section("cluster"));
  CHECK(cluster.starts_with("| key | type | plain number | default | range | meaning |\n"));
  const KeySpec& per_node = *find_key("cluster.gpus_per_node");
  CHECK(cluster.find(fmt::format("| `gpus_per_node` | quantity | GPUs | {} | > 0 | {} |\n", default_text(per_node),
                                 per_node.doc)) != std::string::npos);
  const std::string model = key_table_markdown(*find_section("model"));
  CHECK(model.find("| `params` | count, **required** | parameters | | > 0, whole |") != std::string::npos);
  CHECK(model.find("| `architecture` | `\"dense\"`, `\"moe\"` | | `\"dense\"` | |") != std::string::npos);
  CHECK(model.find("| `shared_experts` | whole number | | 0 (when `experts` is stated) | ≥ 0 |") != std::string::npos);
  // Keys with the same row share it; a section with no default has no default column.
  CHECK(key_table_markdown(*find_section("targets")).find("| `max` / `min` | quantity |") != std::string::npos);
  CHECK(key_table_markdown(*find_section("plan")).starts_with("| key | type | meaning |\n"));
  CHECK(default_text(*find_key("tolerances.capacity")) ==
        fmt::format("{:g}%", *find_key("tolerances.capacity")->by_default.number() * 100));
  CHECK(default_text(*find_key("training.flash_attention")) == "`true`");
  CHECK(default_text(*find_key("training.mfu")).empty());
}

TEST_CASE("every fixed default is applied from its key's spec where its section applies", "[defaults]") {
  for (const char* text : {training_plan, inference_plan}) {
    test::LoadResult result = test::load_text(text);
    INFO(test::render(result.diagnostics));
    REQUIRE(result.plan);
    const Plan& plan = *result.plan;
    REQUIRE(plan.targets.size() == 1);
    std::size_t applied = 0;
    for (const KeySpec& key : plan_keys()) {
      if (!key.by_default.is_fixed() || !key.by_default.how.empty()) continue;  // none, or under a condition
      if (key.section == (plan.is_training() ? "inference" : "training")) continue;
      CAPTURE(path_of(key));
      const PlanValue* value = key.section == "targets" ? plan.targets[0].values.find(key) : plan.find(key);
      REQUIRE(value != nullptr);
      CHECK(is_fixed_default(key, *value));
      ++applied;
    }
    CHECK(applied >= 10);
  }
}

TEST_CASE("a fixed default with a condition applies only under it", "[defaults]") {
  const KeySpec& shared = *find_key("model.shared_experts");
  REQUIRE(shared.by_default.is_fixed());
  REQUIRE_FALSE(shared.by_default.how.empty());
  CHECK(test::load_text(training_plan).plan->find(shared) == nullptr);
  std::string moe = training_plan;
  moe.replace(moe.find("[training]"), 0, "experts = 8\nexperts_per_token = 2\n");
  test::LoadResult result = test::load_text(moe);
  INFO(test::render(result.diagnostics));
  const PlanValue* value = result.plan->find(shared);
  REQUIRE(value != nullptr);
  CHECK(is_fixed_default(shared, *value));
}

TEST_CASE("a derived default is computed from the keys its spec names", "[defaults]") {
  // A plan that states every key a derived default is computed from, and none of the derived.
  std::string training = training_plan;
  training.replace(training.find("[training]"), 0,
                   "layers = 32\nhidden = 4096\nheads = 32\nmlp = \"swiglu\"\nexperts = 8\nexperts_per_token = 2\n");
  training.replace(training.find("[cluster]"), 0, "tp = 2\npp = 2\ncp = 1\n");
  std::string inference = inference_plan;
  inference.replace(inference.find("[cluster]"), 0, "tp = 2\n");
  std::size_t derived = 0;
  for (const std::string& text : {training, inference}) {
    test::LoadResult result = test::load_text(text);
    INFO(test::render(result.diagnostics));
    REQUIRE(result.plan);
    const Plan& plan = *result.plan;
    for (const KeySpec& key : plan_keys()) {
      if (key.by_default.sources.empty()) continue;
      CAPTURE(path_of(key));
      CHECK_FALSE(key.by_default.how.empty());  // the doc says how
      CHECK_FALSE(key.by_default.is_fixed());
      bool sources_stated = true;
      for (std::string_view source : key.by_default.sources) {
        CAPTURE(source);
        REQUIRE(find_value_key(source) != nullptr);
        const PlanValue* stated = plan.find(source);
        sources_stated = sources_stated && stated && stated->origin == Origin::plan;
      }
      if (!sources_stated) continue;
      const PlanValue* value = plan.find(key);
      REQUIRE(value != nullptr);
      CHECK(value->origin == Origin::default_);
      ++derived;
    }
  }
  CHECK(derived >= 8);
}

TEST_CASE("a plan's nodes are counted with the default GPUs per node when it states none", "[defaults][loader]") {
  // The unknown-key help for `nodes` and a node's price read the one default.
  const double per_node = *find_key("cluster.gpus_per_node")->by_default.number();
  test::LoadResult result = test::load_text(
      "[plan]\nname = \"x\"\nkind = \"inference\"\n[model]\nparams = \"7B\"\n[cluster]\ngpu = \"h100-sxm\"\n"
      "count = 8\nnodes = 3\n");
  REQUIRE(test::rules_of(result.diagnostics) == std::vector<std::string>{"unknown-key"});
  REQUIRE(result.diagnostics[0].help);
  CHECK(result.diagnostics[0].help->find(fmt::format("count = {:g} (3 × {:g})", 3 * per_node, per_node)) !=
        std::string::npos);
}
