// ConfigDiscovery: discover_config() for the many files of one run, each folder looked up once.
#include <filesystem>

#include <catch2/catch.hpp>

#include "integration_support.hpp"
#include "planlint/config/config.hpp"
#include "planlint/source/repository.hpp"

namespace fs = std::filesystem;

TEST_CASE("ConfigDiscovery answers as discover_config does, for every file of a tree", "[config][discovery]") {
  planlint::test::Scratch dir;  // holds .git: a repository root
  dir.write(".planlint.toml", "[lint]\n");
  dir.write("team/.planlint.toml", "[lint]\n");
  dir.write("team/sub/deeper/plan.toml", "[plan]\n");
  dir.write("team/other/plan.toml", "[plan]\n");
  dir.write("top.toml", "[plan]\n");
  dir.write("misc/plan.toml", "[plan]\n");
  fs::create_directories(dir.path / "nested-repo/.git");  // a root of its own, without a config
  dir.write("nested-repo/a/plan.toml", "[plan]\n");
  dir.write("team/sub/deeper/second.toml", "[plan]\n");
  dir.write("team/here.toml", "[plan]\n");

  const std::vector<std::string> files = {
      (dir.path / "team/sub/deeper/plan.toml").string(), (dir.path / "team/other/plan.toml").string(),
      (dir.path / "top.toml").string(),                  (dir.path / "misc/plan.toml").string(),
      (dir.path / "nested-repo/a/plan.toml").string(),   (dir.path / "team/sub/deeper/plan.toml").string(),
      (dir.path / "misc/../team/other/plan.toml").string(), (dir.path / "team/sub/deeper/second.toml").string()};
  planlint::ConfigDiscovery discovery;
  for (const std::string& file : files) {
    INFO(file);
    CHECK(discovery.find(file) == planlint::discover_config(file));
  }
  CHECK(discovery.find(files[0]) == (dir.path / "team/.planlint.toml").string());
  CHECK(discovery.find(files[2]) == (dir.path / ".planlint.toml").string());
  CHECK(discovery.find(files[4]) == std::nullopt);

  // Relative paths are answered relative to the working folder, as discover_config does.
  planlint::test::InDirectory in(dir.path / "team");
  planlint::ConfigDiscovery relative;
  // Files of one folder share its answer (found once per folder as written), named with no
  // folder at all, or through ./ and ../.
  for (const std::string file : {"sub/deeper/plan.toml", "sub/deeper/second.toml", "other/plan.toml", "../top.toml",
                                 "../nested-repo/a/plan.toml", "here.toml", "./here.toml", "../team/here.toml"}) {
    INFO(file);
    CHECK(relative.find(file) == planlint::discover_config(file));
  }
  CHECK(relative.find("other/plan.toml") == std::optional<std::string>(".planlint.toml"));
  CHECK(relative.find("here.toml") == std::optional<std::string>(".planlint.toml"));
  CHECK(relative.find("../top.toml") == std::optional<std::string>("../.planlint.toml"));
}

TEST_CASE("config discovery stops at the root of any version-controlled tree, not only git's",
          "[config][discovery]") {
  // In a Mercurial checkout, a .planlint.toml above it applied and turned rules off.
  planlint::test::Scratch dir;  // a git root, with a config
  dir.write(".planlint.toml", "[lint]\nignore = [\"all\"]\n");
  for (const char* marker : {".hg", ".svn", ".jj", ".bzr", "_darcs", ".pijul"}) {
    INFO(marker);
    const std::string checkout = std::string("checkout") + marker;
    fs::create_directories(dir.path / checkout / marker);
    const fs::path plan = dir.write(checkout + "/plans/a.toml", "[plan]\n");
    CHECK(planlint::discover_config(plan.string()) == std::nullopt);
    CHECK(planlint::ConfigDiscovery().find(plan.string()) == std::nullopt);
    CHECK(planlint::is_repository_root((dir.path / checkout).string()));
  }
  // A git worktree or submodule has a .git file, not a folder.
  dir.write("worktree/.git", "gitdir: /elsewhere\n");
  CHECK(planlint::discover_config(dir.write("worktree/a.toml", "[plan]\n").string()) == std::nullopt);
  CHECK(planlint::discover_config(dir.write("plain/a.toml", "[plan]\n").string()) ==
        (dir.path / ".planlint.toml").string());
}
