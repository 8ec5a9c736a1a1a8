// NameIndex (plan/name_index.hpp), the static name tables built on it (find_key, find_metric).
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "planlint/plan/metric_names.hpp"
#include "planlint/plan/name_index.hpp"
#include "planlint/plan/schema.hpp"

using namespace planlint;

TEST_CASE("a name index finds each of its names and nothing else", "[name-index]") {
  // Enough names that probes run into each other, of every length from 1.
  std::vector<std::string> names;
  for (int i = 0; i < 600; ++i) names.push_back(fmt::format("{}{}", std::string(i % 23 + 1, 'k'), i));
  names.push_back("dup");
  names.push_back("dup");  // a second entry of a name: the first is kept
  const NameIndex<std::string> index(names, [](const std::string& name) { return name; });
  for (std::size_t i = 0; i + 1 < names.size(); ++i) {
    INFO(names[i]);
    REQUIRE(index.find(names[i]) == &names[i]);
  }
  CHECK(index.find("dup") == &names[names.size() - 2]);
  for (const char* absent : {"", "k", "k600", "dupe", "du", "kkkkkkkkkkkkkkkkkkkkkkkkkkkk0"}) {
    INFO(absent);
    CHECK(index.find(absent) == nullptr);
  }
  // The two-part form agrees with the whole name.
  const std::vector<std::string> dotted = {"training.mfu", "cluster.gpu", "a.b.c"};
  const NameIndex<std::string> paths(dotted, [](const std::string& name) { return name; });
  CHECK(paths.find("training", '.', "mfu") == &dotted[0]);
  CHECK(paths.find("a", '.', "b.c") == &dotted[2]);
  CHECK(paths.find("a.b", '.', "c") == &dotted[2]);
  CHECK(paths.find("training", '.', "mf") == nullptr);
  CHECK(paths.find("training", ':', "mfu") == nullptr);
  CHECK(paths.find("trainin", '.', "gmfu") == nullptr);
}

TEST_CASE("every plan key and metric is found by name", "[name-index][schema]") {
  for (const KeySpec& spec : plan_keys()) {
    const std::string path = std::string(spec.section) + "." + std::string(spec.key);
    INFO(path);
    CHECK(find_key(spec.section, spec.key) == &spec);
    CHECK(find_key(path) == &spec);
  }
  CHECK(find_key("training", "mfuu") == nullptr);
  CHECK(find_key("training") == nullptr);
  CHECK(find_key("nosuch.mfu") == nullptr);
  for (const MetricName& metric : metric_names()) CHECK(find_metric(metric.name) == &metric);
  CHECK(find_metric("train.day") == nullptr);
  CHECK(find_metric("") == nullptr);
}
