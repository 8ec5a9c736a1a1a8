// NameIndex (plan/name_index.hpp), the plan keys found through it (find_key), and metrics by name.
#include <algorithm>
#include <span>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "planlint/metrics/metric_table.hpp"
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

TEST_CASE("names that share their length and first and last eight bytes are told apart",
          "[name-index]") {
  // The hash reads only those: such names share a slot's probe sequence, and each is still
  // found by its whole name.
  std::vector<std::string> names;
  for (int i = 0; i < 200; ++i) names.push_back(fmt::format("training.{:04}_checkpoint", i));
  for (int i = 0; i < 40; ++i) names.push_back(std::string(static_cast<std::size_t>(i % 20), 'x') + "y");
  const NameIndex<std::string> index(names, [](const std::string& name) { return name; });
  for (std::size_t i = 0; i < names.size(); ++i) {
    INFO(names[i]);
    CHECK(index.find(names[i]) == &names[std::find(names.begin(), names.end(), names[i]) - names.begin()]);
  }
  CHECK(index.find("training.0200_checkpoint") == nullptr);
  CHECK(index.find("training", '.', "0042_checkpoint") == &names[42]);
  // Longer than any name, and longer than the two-part form joins on the stack.
  const std::string long_part(300, 'k');
  CHECK(index.find(long_part) == nullptr);
  CHECK(index.find("training", '.', long_part) == nullptr);
  const std::vector<std::string> long_names = {"a." + long_part};
  const NameIndex<std::string> long_index(long_names, [](const std::string& name) { return name; });
  CHECK(long_index.find("a", '.', long_part) == &long_names[0]);
  CHECK(long_index.find("b", '.', long_part) == nullptr);
}

TEST_CASE("every plan key and metric is found by name", "[name-index][schema]") {
  for (const KeySpec& spec : plan_keys()) {
    const std::string path = std::string(spec.section) + "." + std::string(spec.key);
    INFO(path);
    CHECK(find_key(spec.section, spec.key) == &spec);
    CHECK(find_key(path) == &spec);
    // find_key(path) splits a path at its first '.'.
    CHECK(spec.key.find('.') == std::string_view::npos);
    CHECK(spec.section.find('.') == std::string_view::npos);
    CHECK(find_key(path + ".x") == nullptr);
  }
  CHECK(find_key("training", "mfuu") == nullptr);
  // A key of another section, a section that is not one, a key split elsewhere.
  CHECK(find_key("training", "hbm") == nullptr);
  CHECK(find_key("nosuch", "mfu") == nullptr);
  CHECK(find_key("", "training.mfu") == nullptr);
  CHECK(find_key("training.mfu", "") == nullptr);
  CHECK(find_key("training") == nullptr);
  CHECK(find_key("nosuch.mfu") == nullptr);
  CHECK(find_key("training.") == nullptr);
  CHECK(find_key(".mfu") == nullptr);
  CHECK(find_key("") == nullptr);
  for (const MetricSpec& metric : metric_table()) CHECK(find_metric(metric.name) == &metric);
  CHECK(find_metric("train.day") == nullptr);
  CHECK(find_metric("") == nullptr);
}

TEST_CASE("an array section's fields are found by their field id, a table section has none",
          "[name-index][schema]") {
  const std::vector<std::string_view>& names = element_field_names();
  std::size_t fields = 0;
  for (const SectionSpec& section : plan_sections()) {
    INFO(section.name);
    const std::span<const KeySpec* const> row = element_fields_of(section);
    if (!section.array) {
      CHECK(row.empty());
      continue;
    }
    REQUIRE(row.size() == names.size());
    for (std::size_t id = 0; id < row.size(); ++id) {
      // The field's spec where the section has a key of that name, nullptr where it has none.
      CHECK(row[id] == find_key(section.name, names[id]));
      fields += row[id] != nullptr;
    }
  }
  std::size_t array_keys = 0;
  for (const KeySpec& key : plan_keys()) array_keys += plan_sections()[key.section_index].array;
  CHECK(fields == array_keys);  // every field of every array section, once
}
