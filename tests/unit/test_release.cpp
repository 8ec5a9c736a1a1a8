// How releases reach users: the GitHub workflows and the Action, checked by action-validator
// against the schemas GitHub's are; the pre-commit manifest, by pre-commit itself; and
// scripts/lib/planlint_release.py, which the Action and the pre-commit hook fetch the release
// binary with (the hook run by pre-commit is tested in test_integrations.cpp).
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
  std::string output;
  if (const auto validator = planlint::test::action_validator()) {
    for (const char* file : {".github/workflows/ci.yml", ".github/workflows/release.yml",
                             ".github/workflows/playground.yml", "action.yml"}) {
      CAPTURE(file);
      REQUIRE(fs::is_regular_file(source_dir / file));
      CHECK(run_command(quote(*validator) + " " + quote((source_dir / file).string()), output) == 0);
      INFO(output);
    }
    // The validator reads what it checks: a step without its shell is not a composite action's.
    Scratch dir;
    std::string action = read_text(source_dir / "action.yml");
    const std::size_t shell = action.find("      shell: bash\n");
    REQUIRE(shell != std::string::npos);
    action.erase(shell, std::string("      shell: bash\n").size());
    CHECK(run_command(quote(*validator) + " " + quote(dir.write("action.yml", action).string()), output) != 0);
    CHECK_THAT(output, Catch::Contains("shell"));
  }

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

TEST_CASE("the pre-commit hook takes PLANLINT_RELEASE_URL as a plain folder, absolute or relative, or a file:// URL",
          "[release][pre-commit]") {
  system_tool("python3", "python3");
  const planlint::test::ReleaseFolder release;
  Scratch dir;
  dir.write("plan.toml", planlint::test::inference_plan_with("hmb = 1\n"));
  // A planlint of another version first on PATH: the hook must fetch the release's instead.
  const fs::path other = dir.write("other/planlint", "#!/bin/sh\necho 'planlint 0.0.1 (git v0.0.1)'\n");
  fs::permissions(other, fs::perms::owner_all);
  const std::string version = PLANLINT_VERSION;
  int cache_count = 0;
  auto hook = [&](const std::string& release_url, std::string& output) {
    const fs::path cache = dir.path / ("cache-" + std::to_string(cache_count++));
    const int status = run_command("cd " + quote(dir.path.string()) + " && env -u PLANLINT PATH=" +
                                       quote(other.parent_path().string()) + ":\"$PATH\" PLANLINT_RELEASE_URL=" +
                                       quote(release_url) + " XDG_CACHE_HOME=" + quote(cache.string()) + " python3 " +
                                       quote((source_dir / "scripts/pre-commit-hook").string()) + " plan.toml",
                                   output);
    INFO(release_url << "\n" << output);
    CHECK_THAT(output, !Catch::Contains("Traceback"));
    return std::make_pair(status, fs::is_regular_file(cache / "planlint" / version / "planlint"));
  };
  std::string output;
  for (const std::string& url : {release.folder().string(), fs::relative(release.folder(), dir.path).string(),
                                 release.folder().string() + "/", release.url}) {
    CAPTURE(url);
    const auto [status, cached] = hook(url, output);
    CHECK(status == 1);
    CHECK_THAT(output, Catch::Contains("plan.toml:9:1: error: unknown key 'hmb' in [cluster]"));
    CHECK(cached);
  }
  // A folder with no release in it: the hook stops the commit and says what to do.
  const auto [status, cached] = hook((dir.path / "no-release").string(), output);
  CHECK(status == 2);
  CHECK_THAT(output, Catch::Contains(std::string("pinned to planlint ") + version) && Catch::Contains("not found"));
  CHECK_FALSE(cached);
}
