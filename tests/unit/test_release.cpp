// How releases reach users: the GitHub workflows and the Action, checked by action-validator
// against the schemas GitHub's are; the pre-commit manifest, by pre-commit itself; and
// scripts/lib/planlint_release.py, which the Action and the pre-commit hook fetch the release
// binary with (the hook's own tests are in test_integrations.cpp).
#include <filesystem>
#include <fstream>
#include <string>

#include <catch2/catch.hpp>

#include "integration_support.hpp"

namespace fs = std::filesystem;
using namespace planlint::test;

namespace {

const fs::path source_dir = PLANLINT_SOURCE_DIR;

/// `python3 scripts/lib/planlint_release.py ARGS`: its status, and its output in `output`.
int release_script(const std::string& arguments, std::string& output) {
  return run_command("python3 " + quote((source_dir / "scripts/lib/planlint_release.py").string()) + " " + arguments,
                     output);
}

}  // namespace

TEST_CASE("the workflows and the action are valid for GitHub, and the hook manifest for pre-commit", "[release]") {
  const std::string validator = planlint::test::action_validator();
  std::string output;
  for (const char* file : {".github/workflows/ci.yml", ".github/workflows/release.yml", "action.yml"}) {
    CAPTURE(file);
    REQUIRE(fs::is_regular_file(source_dir / file));
    CHECK(run_command(quote(validator) + " " + quote((source_dir / file).string()), output) == 0);
    INFO(output);
  }
  // The validator reads what it checks: a step without its shell is not a composite action's.
  Scratch dir;
  std::string action = read_text(source_dir / "action.yml");
  const std::size_t shell = action.find("      shell: bash\n");
  REQUIRE(shell != std::string::npos);
  action.erase(shell, std::string("      shell: bash\n").size());
  CHECK(run_command(quote(validator) + " " + quote(dir.write("action.yml", action).string()), output) != 0);
  CHECK_THAT(output, Catch::Contains("shell"));

  const std::string pre_commit = system_tool("pre-commit", "pre-commit");
  CHECK(run_command(pre_commit + " validate-manifest " + quote((source_dir / ".pre-commit-hooks.yaml").string()), output) == 0);
  INFO(output);
}

TEST_CASE("the release fetch gives the checked binary of a version tag, and says when no release matches",
          "[release]") {
  system_tool("python3", "python3");
  Scratch dir;
  std::string output;
  // A branch or a commit has no release: status 3, so that the Action builds from source.
  CHECK(release_script("fetch --repository https://github.com/planlint/planlint --tag main --cache " +
                           quote(dir.path.string()),
                       output) == 3);
  CHECK_THAT(output, Catch::Contains("not a release tag"));
  CHECK(release_script("fetch --repository https://gitlab.example/p/planlint --tag v0.2.0", output) == 3);
  const std::string version = PLANLINT_VERSION;
  const planlint::test::ReleaseFolder release;
  const std::string from = " --base-url " + quote(release.url);
  REQUIRE(release_script("fetch --version " + version + from + " --cache " + quote((dir.path / "cache").string()), output) == 0);
  const std::string binary = output.substr(0, output.find('\n'));
  CHECK(binary == (dir.path / "cache" / version / "planlint").string());
  CHECK(run_command(quote(binary) + " --version", output) == 0);
  CHECK_THAT(output, Catch::StartsWith("planlint " + version));
  // A version the folder has no files for: no release (status 3), not an error.
  CHECK(release_script("fetch --version 9.9.9" + from + " --cache " + quote((dir.path / "cache").string()), output) == 3);
  // A tarball that is not the one SHA256SUMS names: status 1, nothing cached.
  std::ofstream(release.tarball(), std::ios::binary | std::ios::app) << "x";
  CHECK(release_script("fetch --version " + version + from + " --cache " + quote((dir.path / "other").string()), output) == 1);
  CHECK_THAT(output, Catch::Contains("SHA-256"));
  CHECK_FALSE(fs::exists(dir.path / "other" / version / "planlint"));
}
