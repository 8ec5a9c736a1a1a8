// The test suite itself. Every test case is a CTest test of its own (catch_discover_tests), so
// its name must survive CMake's lists. The npm validators (Sarif.Multitool, taplo, ajv,
// action-validator) are optional extras: the tests pass on a machine with Debian's packages
// only, each check that needs a missing one skipped with a line naming it, and scripts/test goes
// on when npm cannot install them. CI sets PLANLINT_REQUIRE_NPM_TOOLS=1, which turns both into
// failures.
#include <algorithm>
#include <filesystem>
#include <string>

#include <catch2/catch.hpp>

#include "integration_support.hpp"

namespace fs = std::filesystem;
using namespace planlint::test;

namespace {

const fs::path source_dir = PLANLINT_SOURCE_DIR;

/// This test program run on the test case `name` with the npm tools looked for in the empty
/// folder `tools`: its status, its output in `output`. `environment` is added.
int run_test_case_without_npm_tools(const std::string& name, const fs::path& tools, const std::string& environment,
                                    std::string& output) {
  const fs::path self = fs::read_symlink("/proc/self/exe");
  return run_command("env -u PLANLINT_REQUIRE_NPM_TOOLS PLANLINT_NPM_TOOLS=" + quote(tools.string()) + " " +
                         environment + " " + quote(self.string()) + " " + quote(name),
                     output);
}

}  // namespace

TEST_CASE("every test name is one CTest test: no semicolon or backslash, brackets that pair up, no leading hyphen",
          "[tests]") {
  std::string output;
  // Its exit status is the number of test cases (at most 255), as Catch's listings have it.
  REQUIRE(run_command(quote(fs::read_symlink("/proc/self/exe").string()) + " --list-test-names-only", output) > 0);
  std::size_t names = 0;
  for (std::size_t at = 0, end; (end = output.find('\n', at)) != std::string::npos; at = end + 1) {
    const std::string name = output.substr(at, end - at);
    if (name.empty()) continue;
    ++names;
    CAPTURE(name);
    // CMake splits a list at ';' outside brackets: a name with one, or with a bracket that does
    // not pair up, becomes CTest tests that run nothing (tests/CMakeLists.txt makes that fail).
    CHECK(name.find(';') == std::string::npos);
    CHECK(name.find('\\') == std::string::npos);  // the test runner reads it as an escape
    int depth = 0, lowest = 0;
    for (char c : name) {
      depth += c == '[' ? 1 : c == ']' ? -1 : 0;
      lowest = std::min(lowest, depth);
    }
    CHECK(lowest == 0);
    CHECK(depth == 0);
    CHECK(name.front() != '-');  // read as an option
  }
  CHECK(names > 100);
}

TEST_CASE("a test whose validator is not installed skips that check with a line naming it, unless CI requires it",
          "[validator]") {
  Scratch dir;
  fs::create_directories(dir.path / "no-tools");
  // A test that runs taplo after its own checks of planlint.
  const std::string test_case = "a #:schema line lets taplo check a plan without --schema";
  std::string output;
  CHECK(run_test_case_without_npm_tools(test_case, dir.path / "no-tools", "", output) == 0);
  INFO(output);
  CHECK_THAT(output, Catch::Contains("skipped: taplo not installed (no " + (dir.path / "no-tools").string()));
  CHECK_THAT(output, Catch::Contains("All tests passed") && Catch::Contains("in 1 test case"));

  CHECK(run_test_case_without_npm_tools(test_case, dir.path / "no-tools", "PLANLINT_REQUIRE_NPM_TOOLS=1", output) != 0);
  CHECK_THAT(output, Catch::Contains("missing test tool taplo") && Catch::Contains("PLANLINT_REQUIRE_NPM_TOOLS=1"));
  CHECK_THAT(output, !Catch::Contains("skipped:"));
}

TEST_CASE("scripts/test goes on when the npm registry is out of reach, in one line, unless CI requires the tools",
          "[validator]") {
  std::string output;
  if (run_command("command -v npm", output) != 0) {
    WARN("skipped: npm not installed (the Debian package npm), so no install to fail");
    return;
  }
  Scratch dir;
  // Nothing listens on port 9 of the loopback; an empty npm cache has nothing to install from.
  const std::string offline = "cd " + quote(source_dir.string()) + " && env -u PLANLINT_REQUIRE_NPM_TOOLS PLANLINT_NPM_TOOLS=" +
                              quote((dir.path / "tools").string()) + " npm_config_cache=" +
                              quote((dir.path / "npm-cache").string()) +
                              " npm_config_registry=http://127.0.0.1:9 npm_config_fetch_retries=0 ";
  const std::string offer = "bash -c 'source scripts/lib/deps.sh && planlint_offer_npm_tools'";
  CHECK(run_command(offline + offer, output) == 0);
  INFO(output);
  CHECK(std::count(output.begin(), output.end(), '\n') == 1);
  CHECK_THAT(output, Catch::StartsWith("skipped: the npm test tools (Sarif.Multitool, taplo, ajv, action-validator) "
                                       "are not installed (npm ") &&
                         Catch::Contains("ECONNREFUSED"));

  CHECK(run_command(offline + "PLANLINT_REQUIRE_NPM_TOOLS=1 " + offer, output) != 0);
  CHECK_THAT(output, Catch::Contains("PLANLINT_REQUIRE_NPM_TOOLS=1 needs them"));
}
