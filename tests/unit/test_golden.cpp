// Golden tests: tests/golden/<case>.toml → the exact text output and exit status, stored beside
// it in <case>.expected. PLANLINT_UPDATE_GOLDEN=1 rewrites the expectations; review the diff
// like code.
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "integration_support.hpp"
#include "support.hpp"

namespace fs = std::filesystem;
using planlint::test::run_cli;

TEST_CASE("every golden case prints exactly its expected output", "[golden]") {
  // Paths in the output are relative to the repository root, as a user would type them.
  fs::current_path(PLANLINT_SOURCE_DIR);
  std::vector<fs::path> cases;
  for (const auto& entry : fs::directory_iterator("tests/golden"))
    if (entry.path().extension() == ".toml") cases.push_back(entry.path());
  std::sort(cases.begin(), cases.end());
  REQUIRE(cases.size() >= 5);

  for (const fs::path& input : cases) {
    DYNAMIC_SECTION(input.filename().string()) {
      auto run = run_cli({"check", "--no-color", input.string()});
      const std::string actual = fmt::format("{}[exit status: {}]\n", run.out, run.status);
      fs::path expected_path = input;
      expected_path.replace_extension(".expected");
      if (planlint::test::updating_golden()) {
        std::ofstream(expected_path, std::ios::binary) << actual;
        continue;
      }
      INFO("expected output in " << expected_path.string()
                                 << " (PLANLINT_UPDATE_GOLDEN=1 rewrites it)");
      REQUIRE(fs::exists(expected_path));
      CHECK(actual == planlint::test::read_text(expected_path));
      CHECK(run.err.empty());
    }
  }
}
