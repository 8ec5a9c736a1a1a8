// -o FILE and --write-baseline FILE: the atomic rename only for a regular file or a new path;
// a symbolic link is refused unless --output-follow-symlinks (then written through and kept), a FIFO or device is written in place, an
// existing file keeps its mode, a file the user cannot write is exit 2 (docs/hardening.md, "Security model").
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "integration_support.hpp"
#include "planlint/files/output_file.hpp"
#include "support.hpp"

namespace fs = std::filesystem;
using planlint::detail::OutputMethod;
using planlint::detail::output_method;
using planlint::test::inference_plan_with;
using planlint::test::read_text;
using planlint::test::run_cli;
using planlint::test::Scratch;

TEST_CASE("an output is renamed into place only over a regular file or a new path", "[output]") {
  CHECK(output_method(false, 0, false) == OutputMethod::create);
  CHECK(output_method(true, S_IFREG | 0644, true) == OutputMethod::replace);
  CHECK(output_method(true, S_IFCHR | 0666, true) == OutputMethod::write_in_place);
  CHECK(output_method(true, S_IFIFO | 0644, true) == OutputMethod::write_in_place);
  CHECK(output_method(true, S_IFSOCK | 0755, true) == OutputMethod::write_in_place);
  // A file the user may not write is never replaced, whatever its folder allows.
  CHECK(output_method(true, S_IFREG | 0444, false) == OutputMethod::refuse);
  CHECK(output_method(true, S_IFIFO | 0444, false) == OutputMethod::refuse);
}

TEST_CASE("an output onto a symbolic link is refused, before anything is linted", "[output][run][hostile]") {
  Scratch dir;
  auto plan = dir.write("plan.toml", inference_plan_with(""));
  // A pull request plants planlint.sarif -> a file elsewhere; the Action writes -o planlint.sarif.
  auto victim = dir.write("elsewhere/victim.txt", "precious\n");
  const fs::path link = dir.path / "planlint.sarif";
  fs::create_symlink(victim, link);
  auto run = run_cli({"--format", "sarif", "-o", link.string(), plan.string()});
  CHECK(run.status == 2);
  CHECK_THAT(run.err, Catch::StartsWith("planlint: error: -o " + link.string() + ": '" + link.string() +
                                        "' is a symbolic link (to '" + victim.string() + "')"));
  CHECK_THAT(run.err, Catch::Contains("--output-follow-symlinks"));
  CHECK(read_text(victim) == "precious\n");
  CHECK(fs::is_symlink(fs::symlink_status(link)));

  // A dangling link would create the file it names: refused alike.
  const fs::path dangling = dir.path / "dangling.txt";
  fs::create_symlink(dir.path / "elsewhere/new.txt", dangling);
  CHECK(run_cli({"-o", dangling.string(), plan.string()}).status == 2);
  CHECK_FALSE(fs::exists(dir.path / "elsewhere/new.txt"));

  // --write-baseline too, naming its option.
  auto write = run_cli({"--write-baseline", link.string(), plan.string()});
  CHECK(write.status == 2);
  CHECK_THAT(write.err, Catch::StartsWith("planlint: error: --write-baseline " + link.string() + ": "));
  CHECK(read_text(victim) == "precious\n");
}

TEST_CASE("an output through a linked folder of the working tree is refused", "[output][run][hostile]") {
  Scratch dir;
  auto plan = dir.write("plan.toml", inference_plan_with(""));
  // A pull request plants reports -> a folder elsewhere; CI writes -o reports/planlint.sarif.
  auto victim = dir.write("elsewhere/planlint.sarif", "precious\n");
  fs::create_directories(dir.path / "tree");
  fs::create_symlink(dir.path / "elsewhere", dir.path / "tree/reports");
  planlint::test::InDirectory in_tree(dir.path / "tree");
  for (const std::string& target : {std::string("reports/planlint.sarif"), std::string("./reports/planlint.sarif"),
                                    (dir.path / "tree/reports/planlint.sarif").string()}) {
    INFO(target);
    auto run = run_cli({"--format", "sarif", "-o", target, plan.string()});
    CHECK(run.status == 2);
    CHECK_THAT(run.err, Catch::StartsWith("planlint: error: -o " + target + ": the folder '") &&
                            Catch::Contains("reports' is a symbolic link (to '" + (dir.path / "elsewhere").string()));
    CHECK(read_text(victim) == "precious\n");
  }
  // Allowed, it writes through the folder link.
  auto allowed = run_cli({"--output-follow-symlinks", "-o", "reports/planlint.sarif", plan.string()});
  CHECK(allowed.status == 0);
  CHECK(read_text(victim) != "precious\n");
  // A real folder is written to.
  fs::create_directories(dir.path / "tree/out");
  CHECK(run_cli({"-o", "out/planlint.txt", plan.string()}).status == 0);
  CHECK(fs::is_regular_file(dir.path / "tree/out/planlint.txt"));
}

TEST_CASE("with --output-follow-symlinks, -o writes the file a link names and keeps the link", "[output][run]") {
  Scratch dir;
  auto plan = dir.write("plan.toml", inference_plan_with(""));
  auto target = dir.write("reports/real.txt", "old\n");
  const fs::path link = dir.path / "link.txt";
  fs::create_symlink("reports/real.txt", link);
  auto run = run_cli({"--no-color", "--output-follow-symlinks", "-o", link.string(), plan.string()});
  CHECK(run.status == 0);
  CHECK(fs::is_symlink(fs::symlink_status(link)));
  CHECK(fs::read_symlink(link) == "reports/real.txt");
  CHECK(read_text(target) == "no problems in 1 file\n");

  // --write-baseline writes the same way.
  const fs::path baseline_link = dir.path / "baseline.json";
  auto baseline_target = dir.write("reports/baseline.json", "");
  fs::create_symlink(baseline_target, baseline_link);
  auto write = run_cli({"--output-follow-symlinks", "--write-baseline", baseline_link.string(), plan.string()});
  CHECK(write.status == 0);
  CHECK(fs::is_symlink(fs::symlink_status(baseline_link)));
  CHECK_THAT(read_text(baseline_target), Catch::Contains("\"version\""));

  // A dangling link: the file it names is created, the link kept.
  const fs::path dangling = dir.path / "dangling.txt";
  fs::create_symlink("reports/new.txt", dangling);
  CHECK(run_cli({"--no-color", "--output-follow-symlinks", "-o", dangling.string(), plan.string()}).status == 0);
  CHECK(fs::is_symlink(fs::symlink_status(dangling)));
  CHECK(read_text(dir.path / "reports/new.txt") == "no problems in 1 file\n");
}

TEST_CASE("an output into a FIFO is written into it instead of replacing it", "[output][run]") {
  Scratch dir;
  auto plan = dir.write("plan.toml", inference_plan_with(""));
  const fs::path fifo = dir.path / "report.fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0644) == 0);
  // A reader that never blocks: opened first, so that the writer's open succeeds at once.
  const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  REQUIRE(reader >= 0);
  auto run = run_cli({"--no-color", "-o", fifo.string(), plan.string()});
  CHECK(run.status == 0);
  CHECK(run.err.empty());
  char buffer[256];
  const ssize_t got = ::read(reader, buffer, sizeof buffer);
  ::close(reader);
  CHECK(std::string(buffer, got > 0 ? static_cast<std::size_t>(got) : 0) == "no problems in 1 file\n");
  CHECK(fs::is_fifo(fs::symlink_status(fifo)));
}

TEST_CASE("an output over an existing file keeps its permission bits, and one the user cannot write is exit 2",
          "[output][run]") {
  Scratch dir;
  auto plan = dir.write("plan.toml", inference_plan_with(""));
  auto shared = dir.write("shared.txt", "old\n");
  fs::permissions(shared, fs::perms(0640));
  CHECK(run_cli({"--no-color", "-o", shared.string(), plan.string()}).status == 0);
  CHECK(read_text(shared) == "no problems in 1 file\n");
  CHECK((fs::status(shared).permissions() & fs::perms::mask) == fs::perms(0640));

  auto read_only = dir.write("read-only.txt", "keep\n");
  fs::permissions(read_only, fs::perms(0444));
  auto run = run_cli({"--no-color", "-o", read_only.string(), plan.string()});
  if (::access(read_only.c_str(), W_OK) == 0) {
    // root may write any file: it is written, and stays read-only.
    CHECK(run.status == 0);
    CHECK(read_text(read_only) == "no problems in 1 file\n");
  } else {
    CHECK(run.status == 2);
    CHECK(run.err == "planlint: error: cannot write '" + read_only.string() + "': Permission denied\n");
    CHECK(read_text(read_only) == "keep\n");
  }
  CHECK((fs::status(read_only).permissions() & fs::perms::mask) == fs::perms(0444));
}
