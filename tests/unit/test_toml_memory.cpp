// The memory budget of docs/hardening.md ("Input limits"): a TOML file takes at most 16 times
// its size and 256 MiB. 16 MiB files built to make toml++'s tree outgrow them — dotted keys 120
// levels deep, arrays nested 120 deep, a header on every line, a flat array of one-digit
// numbers — took 0.6 to 2 GB each, and three at once ended a `-j 3` run with std::bad_alloc.
// They are refused at the key or value that crosses the node limit, before toml++ builds
// anything. Measured as the peak resident memory of the planlint binary (wait4), not time.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "integration_support.hpp"
#include "planlint/source/limits.hpp"

using namespace planlint;
using namespace planlint::test;

namespace {

constexpr std::size_t file_bytes = std::size_t{16} << 20;
constexpr long budget_kib = 256 * 1024;

const std::string plan_head =
    "[plan]\nname = \"x\"\nkind = \"inference\"\n[model]\nparams = \"7B\"\n[cluster]\ngpu = \"h100-sxm\"\ncount = 8\n";

/// A plan of `file_bytes` bytes: its head, then `line(i)` for i = 0, 1, ... while it fits.
std::string hostile_plan(const std::function<std::string(std::size_t)>& line) {
  std::string text = plan_head;
  text.reserve(file_bytes);
  for (std::size_t i = 0;; ++i) {
    const std::string next = line(i);
    if (text.size() + next.size() > file_bytes) break;
    text += next;
  }
  text.append(file_bytes - text.size(), '\n');  // 16 MiB exactly: the limit is a round number
  return text;
}

struct MeasuredRun {
  int status = -1;
  long max_rss_kib = 0;
  std::string output;
};

/// Runs the planlint binary with `args` and reads its peak resident memory.
MeasuredRun run_measured(const Scratch& dir, const std::vector<std::string>& args) {
  const std::string output_path = (dir.path / "output.txt").string();
  std::vector<std::string> words = {PLANLINT_BINARY};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  const pid_t child = ::fork();
  if (child == 0) {
    const int out = ::open(output_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ::dup2(out, 1);
    ::dup2(out, 2);
    // Under AddressSanitizer freed blocks wait in a quarantine: memory planlint no longer holds.
    const char* inherited = std::getenv("ASAN_OPTIONS");
    const std::string options = std::string(inherited ? inherited : "") + (inherited ? ":" : "") + "quarantine_size_mb=0";
    ::setenv("ASAN_OPTIONS", options.c_str(), 1);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  MeasuredRun run;
  int status = 0;
  struct rusage usage {};
  REQUIRE(::wait4(child, &status, 0, &usage) == child);
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.max_rss_kib = usage.ru_maxrss;
  run.output = read_text(output_path);
  return run;
}

}  // namespace

TEST_CASE("16 MiB built to grow toml++'s tree is refused within the memory budget, alone and three at once",
          "[limits][toml-nodes][memory]") {
  Scratch dir;
  const std::string deep_key = [] {
    std::string key = "a";
    for (int level = 1; level < 120; ++level) key += ".a";
    return key;
  }();
  const std::string deep_array = std::string(120, '[') + "1" + std::string(120, ']');
  const std::vector<std::string> files = {
      dir.write("dotted.toml", hostile_plan([&](std::size_t i) { return "k" + std::to_string(i) + "." + deep_key + " = 1\n"; }))
          .string(),
      dir.write("arrays.toml", hostile_plan([&](std::size_t i) { return "k" + std::to_string(i) + " = " + deep_array + "\n"; }))
          .string(),
      dir.write("headers.toml", hostile_plan([](std::size_t i) { return "[t" + std::to_string(i) + "]\n"; })).string(),
      dir.write("flat.toml", hostile_plan([](std::size_t i) { return i == 0 ? std::string("k = [") : std::string("1,"); }))
          .string(),
  };
  const std::string limit_message =
      fmt::format("more than {} keys and array values, planlint's fixed limit for a TOML file of 16 MiB", max_toml_nodes);
  for (const std::string& file : files) {
    INFO(file);
    const MeasuredRun run = run_measured(dir, {"check", "--no-color", file});
    INFO(run.output.substr(0, 2000));
    CHECK(run.status == 1);
    CHECK_THAT(run.output, Catch::Contains("error: invalid TOML: " + limit_message));
    INFO("peak RSS " << run.max_rss_kib << " KiB");
    CHECK(run.max_rss_kib <= budget_kib);
  }
  // Three at once: the budget holds for the run, not only for each file.
  const MeasuredRun together = run_measured(dir, {"check", "--no-color", "-j", "3", files[0], files[1], files[2]});
  CHECK(together.status == 1);
  INFO("peak RSS " << together.max_rss_kib << " KiB");
  CHECK(together.max_rss_kib <= budget_kib);
}
