// The memory budget of docs/hardening.md ("Input limits"): a TOML file takes at most 16 times
// its size and 256 MiB. Files built to make toml++'s tree outgrow them — dotted keys 120 levels
// deep, arrays nested 120 deep, a header on every line, a flat array of one-digit numbers,
// 4 MiB of unknown keys — took 0.5 to 2 GB each, and three at once ended a `-j 3` run with
// std::bad_alloc. They are refused at the key or value that crosses the node limit, before
// toml++ builds anything; a file just within the limit, built of the nodes that cost toml++ the
// most, is read within the budget. Measured as the peak resident memory of the planlint binary
// (wait4), not time.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
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

constexpr std::size_t mib = std::size_t{1} << 20;
constexpr long budget_kib = 256 * 1024;

const std::string plan_head =
    "[plan]\nname = \"x\"\nkind = \"inference\"\n[model]\nparams = \"7B\"\n[cluster]\ngpu = \"h100-sxm\"\ncount = 8\n";

/// A plan of `file_bytes` bytes: `head` (the plan's by default), then `line(i)` for i = 0, 1,
/// ... while it fits.
std::string hostile_plan(std::size_t file_bytes, const std::function<std::string(std::size_t)>& line,
                         const std::string& head = plan_head) {
  std::string text = head;
  text.reserve(file_bytes);
  for (std::size_t i = 0;; ++i) {
    const std::string next = line(i);
    if (text.size() + next.size() > file_bytes) break;
    text += next;
  }
  text.append(file_bytes - text.size(), '\n');  // the size exactly: the limit is a round number
  return text;
}

/// `text` with spaces before its line break, `bytes` long (a line already as long is kept).
std::string padded(std::string text, std::size_t bytes) {
  if (text.size() + 1 < bytes) text.append(bytes - 1 - text.size(), ' ');
  return text + '\n';
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

/// The peak resident memory of a run over the plan's head alone: what the binary takes
/// whatever it reads (its rules and catalog; under AddressSanitizer its shadow memory too), which
/// "16 times the input" does not count.
long fixed_rss_kib(const Scratch& dir) {
  const MeasuredRun run = run_measured(dir, {"check", "--no-color", dir.write("head.toml", plan_head).string()});
  REQUIRE(run.status == 0);
  REQUIRE(run.max_rss_kib > 0);
  return run.max_rss_kib;
}

/// The peak resident memory a run may reach under the 256 MiB budget. Under AddressSanitizer the
/// binary holds ~310 MiB of shadow memory and allocator caches before it reads a byte, none of
/// it planlint's: there the budget counts what a run takes above the plan's head alone.
long budget_ceiling_kib(long fixed_kib) { return under_address_sanitizer ? fixed_kib + budget_kib : budget_kib; }

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
  auto write = [&](const std::string& name, const std::function<std::string(std::size_t)>& line) {
    return dir.write(name, hostile_plan(16 * mib, line)).string();
  };
  const std::vector<std::string> files = {
      write("dotted.toml", [&](std::size_t i) { return "k" + std::to_string(i) + "." + deep_key + " = 1\n"; }),
      write("arrays.toml", [&](std::size_t i) { return "k" + std::to_string(i) + " = " + deep_array + "\n"; }),
      write("headers.toml", [](std::size_t i) { return "[t" + std::to_string(i) + "]\n"; }),
      write("flat.toml", [](std::size_t i) { return i == 0 ? std::string("k = [") : std::string("1,"); }),
  };
  const long ceiling_kib = budget_ceiling_kib(fixed_rss_kib(dir));
  const std::string limit_message =
      fmt::format("more than {} keys and array values, planlint's fixed limit for a TOML file of 16 MiB", max_toml_nodes);
  for (const std::string& file : files) {
    INFO(file);
    const MeasuredRun run = run_measured(dir, {"check", "--no-color", file});
    INFO(run.output.substr(0, 2000));
    CHECK(run.status == 1);
    CHECK_THAT(run.output, Catch::Contains("error: invalid TOML: " + limit_message));
    INFO("peak RSS " << run.max_rss_kib << " KiB");
    CHECK(run.max_rss_kib <= ceiling_kib);
  }
  // Three at once: the budget holds for the run, not only for each file.
  const MeasuredRun together = run_measured(dir, {"check", "--no-color", "-j", "3", files[0], files[1], files[2]});
  CHECK(together.status == 1);
  INFO("peak RSS " << together.max_rss_kib << " KiB");
  CHECK(together.max_rss_kib <= ceiling_kib);
}

TEST_CASE("4 MiB of unknown keys is refused within 16 times its size", "[limits][toml-nodes][memory]") {
  // 358,000 misspelt keys: 97 MB of text and 462 MB of memory. The node limit of 4 MiB is
  // 131,072: refused at the key that crosses it.
  Scratch dir;
  const std::string file =
      dir.write("unknown.toml", hostile_plan(4 * mib, [](std::size_t i) { return "k" + std::to_string(i) + " = 1\n"; }))
          .string();
  const MeasuredRun run = run_measured(dir, {"check", "--no-color", file});
  INFO(run.output.substr(0, 2000));
  CHECK(run.status == 1);
  CHECK_THAT(run.output, Catch::Contains("error: invalid TOML: more than 131072 keys and array values"));
  CHECK(run.output.size() < 2000);
  const long fixed_kib = fixed_rss_kib(dir);
  INFO("peak RSS " << run.max_rss_kib << " KiB, " << fixed_kib << " KiB for the plan's head alone");
  CHECK(run.max_rss_kib - fixed_kib <= 16 * 4 * 1024);
}

TEST_CASE("a file just within the node limit, of the nodes toml++ builds largest, is read within the budget",
          "[limits][toml-nodes][memory]") {
  // Empty inline tables as the values of keys and of an array (a key's table entry is toml++'s
  // largest node, about 225 bytes), one per 32 bytes: the most tree a file may make. They sit
  // in one table the plan format does not know, one finding, so that the tree is what is
  // measured. Each is held to 16 times its size and to 256 MiB.
  Scratch dir;
  const std::string head = plan_head + "[scratch]\n";
  // The lines fill the file but its last KiB (blank lines): the plan's head holds a few nodes
  // in fewer than 32 bytes each.
  auto keys = [&](std::size_t bytes) {
    return hostile_plan(bytes - 1024, [](std::size_t i) { return padded("t" + std::to_string(i) + " = {}", 32); },
                        head) +
           std::string(1024, '\n');
  };
  auto array = [&](std::size_t bytes) {
    return hostile_plan(bytes - 1024, [](std::size_t) { return padded("{},", 32); }, head + "a = [\n") +
           std::string(1022, '\n') + "]\n";
  };
  const std::vector<std::pair<std::string, std::string>> files = {
      {"keys-4.toml", keys(4 * mib)},
      {"array-4.toml", array(4 * mib)},
      {"keys-16.toml", keys(16 * mib)},
  };
  const long fixed_kib = fixed_rss_kib(dir);
  for (const auto& [name, text] : files) {
    INFO(name);
    const std::size_t limit = toml_node_limit(text.size());
    REQUIRE_FALSE(find_toml_limit_excess(text, TomlLimits{max_toml_depth, limit}).has_value());
    // Within 1% of the limit: the test measures the largest tree the limit allows.
    REQUIRE(find_toml_limit_excess(text, TomlLimits{max_toml_depth, limit * 99 / 100}).has_value());
    const MeasuredRun run = run_measured(dir, {"check", "--no-color", dir.write(name, text).string()});
    INFO(run.output.substr(0, 2000));
    CHECK(run.status == 1);
    CHECK_THAT(run.output, Catch::Contains("unknown key 'scratch'"));
    CHECK(run.output.size() < 2000);
    INFO("peak RSS " << run.max_rss_kib << " KiB for " << text.size() << " bytes, " << fixed_kib
                      << " KiB for the plan's head alone");
    CHECK(run.max_rss_kib - fixed_kib <= static_cast<long>(16 * text.size() / 1024));
    CHECK(run.max_rss_kib <= budget_ceiling_kib(fixed_kib));
  }
}
