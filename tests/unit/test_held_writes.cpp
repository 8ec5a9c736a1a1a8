// Writes through held folders (files/output_file.hpp): a path is resolved once, no link below
// the working directory is followed whether the path names it relative, by getcwd or by a
// symbolic-link $PWD, a folder swapped for a link while --fix runs redirects nothing, and a
// discovered .planlint.toml that links outside its repository is refused unread.
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <thread>

#include <catch2/catch.hpp>

#include "integration_support.hpp"
#include "planlint/files/held_folder.hpp"
#include "planlint/files/output_file.hpp"
#include "planlint/fix/files.hpp"

namespace fs = std::filesystem;
using namespace planlint;
using namespace planlint::test;

namespace {

/// A training plan with one safe fix (the H100's sparse peak, fixed to the dense one).
std::string fixable_plan() { return read_text(data_path("rules/sparse-peak/fires.toml")); }

std::vector<std::string> names_in(const fs::path& folder) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(folder)) names.push_back(entry.path().filename().string());
  return names;
}

}  // namespace

TEST_CASE("an output path is walked without links below the working directory, with them above it", "[output]") {
  using detail::OutputPath;
  using detail::split_output_path;
  CHECK(split_output_path("reports/x.sarif", "/r/repo", "") == OutputPath{".", "reports", "x.sarif", ""});
  CHECK(split_output_path("./reports/../out/x", "/r/repo", "") == OutputPath{".", "out", "x", ""});
  CHECK(split_output_path("x.sarif", "/r/repo", "") == OutputPath{".", "", "x.sarif", ""});
  CHECK(split_output_path("../../up/x", "/r/repo", "") == OutputPath{"../..", "up", "x", "../../"});
  // Absolute: under the working directory as getcwd names it, or as $PWD does.
  CHECK(split_output_path("/r/repo/reports/x", "/r/repo", "/l/repo") == OutputPath{".", "reports", "x", "/r/repo/"});
  CHECK(split_output_path("/l/repo/reports/x", "/r/repo", "/l/repo") == OutputPath{".", "reports", "x", "/l/repo/"});
  CHECK(split_output_path("/l/repo/a/../reports/x", "/r/repo", "/l/repo") ==
        OutputPath{".", "reports", "x", "/l/repo/"});
  // Elsewhere: the machine's folders, links followed.
  CHECK(split_output_path("/tmp/out/x", "/r/repo", "/l/repo") == OutputPath{"/tmp/out", "", "x", ""});
  CHECK(split_output_path("/r/repository/x", "/r/repo", "") == OutputPath{"/r/repository", "", "x", ""});
  // A folder is no file to write.
  CHECK_FALSE(split_output_path("reports/", "/r/repo", ""));
  CHECK_FALSE(split_output_path(".", "/r/repo", ""));
  CHECK_FALSE(split_output_path("a/..", "/r/repo", ""));
}

TEST_CASE("open_beneath refuses a symbolic link on the way or at the end, with openat2 and without",
          "[output][hostile]") {
  Scratch dir;
  dir.write("a/b/file", "text\n");
  fs::create_symlink("b", dir.path / "a/l");
  fs::create_symlink("file", dir.path / "a/b/f2");
  std::variant<Descriptor, int> root = open_folder(dir.path.string());
  REQUIRE(std::holds_alternative<Descriptor>(root));
  const int folder = std::get<Descriptor>(root).get();
  for (BeneathWalk walk : {BeneathWalk::automatic, BeneathWalk::components}) {
    INFO((walk == BeneathWalk::automatic ? "openat2" : "components"));
    CHECK(std::holds_alternative<Descriptor>(open_beneath(folder, "a/b/file", O_RDONLY, 0, walk)));
    CHECK(std::holds_alternative<Descriptor>(open_beneath(folder, "a/b", O_PATH | O_DIRECTORY, 0, walk)));
    auto through = open_beneath(folder, "a/l/file", O_RDONLY, 0, walk);
    REQUIRE(std::holds_alternative<BeneathFailure>(through));
    CHECK(std::get<BeneathFailure>(through).code == ELOOP);
    CHECK(std::get<BeneathFailure>(through).link == "a/l");
    CHECK(std::get<BeneathFailure>(through).link_target == "b");
    auto at_end = open_beneath(folder, "a/b/f2", O_RDONLY, 0, walk);
    REQUIRE(std::holds_alternative<BeneathFailure>(at_end));
    CHECK(std::get<BeneathFailure>(at_end).link == "a/b/f2");
    auto missing = open_beneath(folder, "a/none/file", O_RDONLY, 0, walk);
    REQUIRE(std::holds_alternative<BeneathFailure>(missing));
    CHECK(std::get<BeneathFailure>(missing).code == ENOENT);
    CHECK(std::get<BeneathFailure>(missing).link.empty());
  }
}

TEST_CASE("with $PWD a link to the working directory, -o and --fix under it refuse a linked folder",
          "[output][fix][hostile]") {
  Scratch dir;
  const fs::path real = dir.path / "real";
  fs::create_directories(real / ".git");
  fs::create_symlink(real, dir.path / "logical");
  const std::string pwd = (dir.path / "logical").string();
  const ScopedVariable logical("PWD", pwd);
  InDirectory in(real);
  const std::string plan = fixable_plan();
  dir.write("real/plan.toml", plan);

  SECTION("-o through a linked folder") {
    auto victim = dir.write("elsewhere/x.sarif", "precious\n");
    fs::create_symlink(dir.path / "elsewhere", real / "reports");
    for (const std::string& target : {pwd + "/reports/x.sarif", real.string() + "/reports/x.sarif"}) {
      INFO(target);
      auto run = run_cli({"check", "--format", "sarif", "-o", target, "plan.toml"});
      CHECK(run.status == 2);
      CHECK_THAT(run.err, Catch::StartsWith("planlint: error: -o " + target + ": the folder '") &&
                              Catch::Contains("/reports' is a symbolic link (to '" + (dir.path / "elsewhere").string()));
      CHECK(read_text(victim) == "precious\n");
      // --write-baseline and --diff -o alike, each naming its option.
      auto baseline = run_cli({"check", "--write-baseline", target, "plan.toml"});
      CHECK(baseline.status == 2);
      CHECK_THAT(baseline.err, Catch::StartsWith("planlint: error: --write-baseline " + target + ": the folder '"));
      auto diff = run_cli({"check", "--today", "2026-11-20", "--diff", "-o", target, "plan.toml"});
      CHECK(diff.status == 2);
      CHECK_THAT(diff.err, Catch::Contains("-o " + target + ": the folder '"));
      CHECK(read_text(victim) == "precious\n");
    }
    // A real folder under $PWD is written to.
    fs::create_directories(real / "out");
    CHECK(run_cli({"check", "-o", pwd + "/out/x.txt", "plan.toml"}).status == 1);
    CHECK(fs::is_regular_file(real / "out/x.txt"));
  }
  SECTION("--fix of a folder that is a link") {
    auto victim = dir.write("outside/plan.toml", plan);
    fs::create_symlink(dir.path / "outside", real / "plans");
    auto run = run_cli({"check", "--today", "2026-11-20", "--fix", pwd + "/plans/"});
    CHECK(run.status == 2);
    CHECK_THAT(run.err, Catch::StartsWith("planlint: error: --fix " + pwd + "/plans/") &&
                            Catch::Contains(": the folder '" + pwd + "/plans' is a symbolic link"));
    CHECK(read_text(victim) == plan);
    CHECK(names_in(dir.path / "outside") == std::vector<std::string>{"plan.toml"});
  }
}

TEST_CASE("a folder swapped for a link while --fix writes redirects no write and leaves no file outside",
          "[fix][hostile]") {
  Scratch dir;
  InDirectory in(dir.path);
  const std::string before = fixable_plan();
  const std::string peak = "\"1979 TFLOPS\"";
  const std::size_t at = before.find(peak);
  REQUIRE(at != std::string::npos);
  const fix::FixedFile file{"plans/plan.toml", before, {{at, at + peak.size(), "\"989 TFLOPS\""}}, 1, {}};
  const std::string after = fix::apply_edits(before, file.edits);
  dir.write("plans/plan.toml", before);
  // What a hostile process prepares: the same text outside, so that a redirected check passes.
  const fs::path outside = dir.write("outside/plan.toml", before).parent_path();
  fs::create_symlink(outside, dir.path / "plans.link");
  const int real_folder = ::open("plans", O_PATH | O_DIRECTORY | O_CLOEXEC);
  REQUIRE(real_folder >= 0);

  // Swaps `plans` and the link `plans.link` back and forth as fast as it can, until the test
  // ends (a failed REQUIRE included).
  std::atomic<bool> stop{false};
  std::atomic<long> swaps{0};
  struct Joined {
    std::atomic<bool>& stop;
    std::thread thread;
    ~Joined() {
      stop = true;
      if (thread.joinable()) thread.join();
    }
  };
  Joined swapper{stop, std::thread([&] {
    while (!stop.load()) {
      if (::renameat2(AT_FDCWD, "plans", AT_FDCWD, "plans.link", RENAME_EXCHANGE) != 0) {
        // A file system without RENAME_EXCHANGE: a folder moved aside, a link put in its place.
        ::rename("plans", "plans.real");
        ::symlink(outside.c_str(), "plans");
        ::unlink("plans");
        ::rename("plans.real", "plans");
      }
      ++swaps;
    }
  })};
  int written = 0;
  // Before the writes held their folder, one in about 190 went outside (fsync widens the
  // window between the check and the rename): 800 tries all but always showed it.
  for (int i = 0; i < 800; ++i) {
    // The real folder's file back to the text linted, through a descriptor of that folder.
    const int fd = ::openat(real_folder, "plan.toml", O_WRONLY | O_TRUNC | O_CLOEXEC);
    REQUIRE(fd >= 0);
    REQUIRE(::write(fd, before.data(), before.size()) == static_cast<ssize_t>(before.size()));
    ::close(fd);
    if (fix::write_fixed(file)) ++written;
  }
  stop = true;
  swapper.thread.join();
  ::close(real_folder);
  INFO(swaps.load() << " swaps, " << written << " writes");
  CHECK(swaps.load() > 100);
  CHECK(written > 0);
  CHECK(read_text(outside / "plan.toml") == before);
  CHECK(names_in(outside) == std::vector<std::string>{"plan.toml"});
}

TEST_CASE("a discovered .planlint.toml that links outside the repository is refused unread", "[config][hostile]") {
  Scratch dir;
  const fs::path repo = dir.path / "repo";
  fs::create_directories(repo / ".git");
  dir.write("repo/plan.toml", inference_plan_with(""));
  // Invalid TOML whose parse error would quote its line, and a key whose error would too.
  auto secret = dir.write("secret/credentials", "[lint]\nselect = [\"TOKEN-1234\"]\npassword = hunter2\n");
  fs::create_symlink(secret, repo / ".planlint.toml");
  InDirectory in(repo);
  auto run = run_cli({"check", "plan.toml"});
  CHECK(run.status == 2);
  CHECK_THAT(run.err, Catch::Contains(".planlint.toml") && Catch::Contains("outside the repository") &&
                          Catch::Contains(secret.string()));
  CHECK(run.err.find("TOKEN") == std::string::npos);
  CHECK(run.err.find("hunter2") == std::string::npos);

  SECTION("a folder link on the way counts the same") {
    fs::remove(repo / ".planlint.toml");
    dir.write("secret/.planlint.toml", "password = hunter2\n");
    dir.write("secret/plan.toml", inference_plan_with(""));
    fs::create_symlink(dir.path / "secret", repo / "linked");
    auto linked = run_cli({"check", "linked/plan.toml"});
    CHECK(linked.status == 2);
    CHECK_THAT(linked.err, Catch::Contains("outside the repository"));
    CHECK(linked.err.find("hunter2") == std::string::npos);
  }
  SECTION("a link to a file inside the repository is read") {
    fs::remove(repo / ".planlint.toml");
    dir.write("repo/ci/planlint.toml", "[lint]\nignore = [\"unknown-key\"]\n");
    fs::create_symlink("ci/planlint.toml", repo / ".planlint.toml");
    dir.write("repo/plan.toml", inference_plan_with("hmb = 1\n"));
    auto inside = run_cli({"check", "plan.toml"});
    CHECK(inside.status == 0);
  }
}
