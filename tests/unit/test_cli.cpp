#include <cerrno>
#include <streambuf>
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include <sstream>
#include <unistd.h>

#include "cli/cli.hpp"
#include "support.hpp"

namespace fs = std::filesystem;
using planlint::test::run_cli;

namespace {

/// A scratch folder under the build's temp dir, removed at the end of the test.
struct ScratchDir {
  fs::path path;
  ScratchDir() {
    path = fs::temp_directory_path() / fs::path("planlint-cli-" + std::to_string(::getpid()) + "-" +
                                                std::to_string(counter()++));
    fs::create_directories(path);
  }
  ~ScratchDir() { fs::remove_all(path); }
  static int& counter() {
    static int n = 0;
    return n;
  }
  fs::path write(const std::string& name, const std::string& text) const {
    fs::path file = path / name;
    fs::create_directories(file.parent_path());
    std::ofstream(file) << text;
    return file;
  }
};

constexpr const char* clean_plan = R"([plan]
name = "x"
kind = "inference"
[model]
params = "7B"
[cluster]
gpu = "h100-sxm"
count = 8
)";

/// A command line that is refused before anything runs: exit 2, nothing on stdout, and stderr
/// starting with `message`.
struct UsageError {
  std::vector<std::string> args;
  std::string message;
};

void check_usage_errors(const std::vector<UsageError>& cases) {
  for (const UsageError& c : cases) {
    INFO(c.message);
    auto run = run_cli(c.args);
    CHECK(run.status == 2);
    CHECK(run.out.empty());
    CHECK_THAT(run.err, Catch::StartsWith("planlint: error: " + c.message + "\n"));
  }
}

}  // namespace

TEST_CASE("a clean plan exits 0 with a summary line", "[cli]") {
  ScratchDir dir;
  auto run = run_cli({dir.write("plan.toml", clean_plan).string()});
  CHECK(run.status == 0);
  CHECK(run.out == "no problems in 1 file\n");
}

TEST_CASE("a finding exits 1 and --fail-on lowers the bar", "[cli]") {
  ScratchDir dir;
  auto plan = dir.write("plan.toml", std::string(clean_plan) + "hmb = \"80 GB\"\n");
  auto run = run_cli({plan.string()});
  CHECK(run.status == 1);
  CHECK_THAT(run.out, Catch::Contains("error: unknown key 'hmb' in [cluster] [unknown-key]"));
  CHECK_THAT(run.out, Catch::EndsWith("1 error in 1 file\n"));
}

TEST_CASE("an unreadable path or a bad option exits 2 with a one-line reason", "[cli]") {
  auto missing = run_cli({"no/such/plan.toml"});
  CHECK(missing.status == 2);
  CHECK(missing.err == "planlint: error: cannot read 'no/such/plan.toml': No such file or directory\n");
  CHECK(missing.out.empty());

  auto bad_option = run_cli({"--frobnicate", "x.toml"});
  CHECK(bad_option.status == 2);
  CHECK_THAT(bad_option.err, Catch::StartsWith("planlint: error: "));

  auto bad_format = run_cli({"check", "--format", "xml", "x.toml"});
  CHECK(bad_format.status == 2);
}

TEST_CASE("the version and help flags exit 0", "[cli]") {
  auto version = run_cli({"--version"});
  CHECK(version.status == 0);
  CHECK_THAT(version.out, Catch::StartsWith("planlint "));
  auto help = run_cli({"--help"});
  CHECK(help.status == 0);
  for (const char* subcommand : {"check", "report", "rules", "explain"})
    CHECK_THAT(help.out, Catch::Contains(subcommand));
}

TEST_CASE("each subcommand has its own options, set up only when it is invoked", "[cli]") {
  // A run sets up the options of the subcommand it invokes only; each must still have all of
  // its own, and a subcommand's name after another's is that one's argument, not a switch.
  const std::pair<const char*, const char*> own_option[] = {
      {"check", "--write-baseline"}, {"report", "--format"}, {"rules", "--rules"}, {"explain", "--rules"}};
  for (const auto& [subcommand, option] : own_option) {
    CAPTURE(subcommand);
    auto help = run_cli({subcommand, "--help"});
    CHECK(help.status == 0);
    CHECK_THAT(help.out, Catch::Contains(option));
  }
  CHECK_THAT(run_cli({"report", "--help"}).out, !Catch::Contains("--write-baseline"));
  CHECK(run_cli({"rules", "--format", "markdown"}).status == 0);
  auto explain = run_cli({"explain", "memory-fit"});
  CHECK(explain.status == 0);
  CHECK_THAT(explain.out, Catch::StartsWith("# memory-fit"));
  auto report_then_rules = run_cli({"report", "x.toml", "rules"});
  CHECK(report_then_rules.status == 2);
  CHECK_THAT(report_then_rules.err, Catch::Contains("rules"));
}

TEST_CASE("a folder is searched for plans, and a file named explicitly is always linted", "[cli]") {
  ScratchDir dir;
  dir.write("a/plan.toml", clean_plan);
  dir.write("a/b/other.toml", std::string(clean_plan) + "hmb = 1\n");
  dir.write("a/pyproject.toml", "[tool.x]\ny = 1\n");  // not a plan: skipped in a folder
  dir.write("a/.hidden/plan.toml", "not toml at all [");
  auto folder = run_cli({"--no-color", (dir.path / "a").string()});
  CHECK(folder.status == 1);
  CHECK_THAT(folder.out, Catch::EndsWith("1 error in 2 files\n"));
  CHECK_THAT(folder.out, Catch::Contains("other.toml:9:1: error: unknown key 'hmb'"));

  auto named = run_cli({(dir.path / "a/pyproject.toml").string()});
  CHECK(named.status == 1);  // no [plan]: missing-required
  CHECK_THAT(named.out, Catch::Contains("[missing-required]"));
}

TEST_CASE("colour is used only on a terminal and never with NO_COLOR", "[cli][color]") {
  ScratchDir dir;
  auto plan = dir.write("plan.toml", std::string(clean_plan) + "hmb = 1\n");
  std::vector<std::string> args = {"planlint", plan.string()};
  std::vector<const char*> argv;
  for (auto& a : args) argv.push_back(a.c_str());
  auto run_with = [&](planlint::cli::Environment env) {
    std::ostringstream out, err;
    planlint::cli::run(static_cast<int>(argv.size()), argv.data(), out, err, env);
    return out.str();
  };
  CHECK_THAT(run_with({true, false}), Catch::Contains("\x1b["));
  CHECK_THAT(run_with({true, true}), !Catch::Contains("\x1b["));
  CHECK_THAT(run_with({false, false}), !Catch::Contains("\x1b["));
}

TEST_CASE("an empty option value is an error, not the option left out", "[cli][options]") {
  ScratchDir dir;
  const std::string plan = dir.write("plan.toml", clean_plan).string();
  check_usage_errors({
      {{"check", "--write-baseline", "", plan}, "--write-baseline: expected a file path, got an empty string"},
      {{"check", "--baseline", "", plan}, "--baseline: expected a file path, got an empty string"},
      {{"check", "--config", "", plan}, "--config: expected a file path, got an empty string"},
      {{"check", "-o", "", plan}, "--output: expected a file path, got an empty string"},
      {{"check", "--today", "", plan}, "--today: expected a date, YYYY-MM-DD, got an empty string"},
      {{"check", "--rules", "", plan}, "--rules: expected a rule file or folder, got an empty string"},
      {{"check", "--max-file-size", "", plan}, "--max-file-size: expected a size, such as 64MiB, got an empty string"},
      {{"report", "--config", "", plan}, "--config: expected a file path, got an empty string"},
      {{"new", "training", "-o", ""}, "--output: expected a file path, got an empty string"},
      {{"new", "training", "--today", ""}, "--today: expected a date, YYYY-MM-DD, got an empty string"},
  });
  CHECK_FALSE(fs::exists(fs::path(plan).parent_path() / ".planlint-baseline.json"));
}

TEST_CASE("a number option out of its range says what it takes", "[cli][options]") {
  ScratchDir dir;
  const std::string plan = dir.write("plan.toml", clean_plan).string();
  check_usage_errors({
      {{"check", "-j", "-1", plan}, "--jobs: expected a whole number, 0 (one per core) or more, got '-1'"},
      {{"check", "-j", "abc", plan}, "--jobs: expected a whole number, 0 (one per core) or more, got 'abc'"},
      {{"check", "-j", "1.5", plan}, "--jobs: expected a whole number, 0 (one per core) or more, got '1.5'"},
      {{"check", "-j", "99999999999", plan},
       "--jobs: expected a whole number, 0 (one per core) or more, got '99999999999'"},
      {{"check", "--sarif-max-results", "-1", plan},
       "--sarif-max-results: expected a whole number, 0 (no limit) or more, got '-1'"},
      {{"check", "--max-plans-per-file", "0", plan}, "--max-plans-per-file: expected a whole number, 1 or more, got '0'"},
      {{"report", "--block", "-1", plan}, "--block: expected a plan block's number, 1 or more, got '-1'"},
      {{"report", "--block", "0", plan}, "--block: expected a plan block's number, 1 or more, got '0'"},
  });
  // The values each option takes still work.
  CHECK(run_cli({"check", "-j", "0", plan}).status == 0);
  CHECK(run_cli({"check", "-j", "2", plan}).status == 0);
  CHECK(run_cli({"check", "--sarif-max-results", "0", "--format", "sarif", plan}).status == 0);
  CHECK(run_cli({"check", "--max-plans-per-file", "1", plan}).status == 0);
}

namespace {

/// A stdout that cannot be written: every write fails at once (`fail_writes`), or the writes
/// are buffered and the flush fails with ENOSPC (stdio's buffer on a full disk).
class FailingBuffer : public std::streambuf {
 public:
  explicit FailingBuffer(bool fail_writes) : fail_writes_(fail_writes) {}

 protected:
  int_type overflow(int_type c) override {
    pending_ = true;
    return fail_writes_ ? traits_type::eof() : traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char*, std::streamsize n) override {
    pending_ = true;
    return fail_writes_ ? 0 : n;
  }
  int sync() override {
    if (!pending_) return 0;  // nothing written, nothing to flush
    errno = ENOSPC;
    return -1;
  }

 private:
  bool fail_writes_;
  bool pending_ = false;
};

planlint::test::CliRun run_into(std::streambuf& buffer, std::vector<std::string> args) {
  args.insert(args.begin(), "planlint");
  std::vector<const char*> argv;
  for (const std::string& arg : args) argv.push_back(arg.c_str());
  std::ostream out(&buffer);
  std::ostringstream err;
  planlint::test::CliRun run;
  run.status = planlint::cli::run(static_cast<int>(argv.size()), argv.data(), out, err, {});
  run.err = err.str();
  return run;
}

}  // namespace

TEST_CASE("a report that cannot be written to stdout is exit 2 with the reason", "[cli][stdout]") {
  ScratchDir dir;
  const std::string plan = dir.write("plan.toml", clean_plan).string();
  const std::string finding = dir.write("finding.toml", std::string(clean_plan) + "hmb = 1\n").string();
  for (const char* format : {"text", "json", "sarif", "github"}) {
    for (const std::string& file : {plan, finding}) {
      INFO(format << " " << file);
      if (std::string(format) == "github" && file == plan) {
        // No annotation and no summary: nothing is written, so nothing fails.
        FailingBuffer failing(true);
        CHECK(run_into(failing, {"check", "--format", format, file}).status == 0);
        continue;
      }
      FailingBuffer failing_writes(true);
      auto refused = run_into(failing_writes, {"check", "--format", format, file});
      CHECK(refused.status == 2);
      CHECK_THAT(refused.err, Catch::EndsWith("planlint: error: cannot write the report to standard output: "
                                              "No space left on device\n"));
      FailingBuffer failing_flush(false);
      auto unflushed = run_into(failing_flush, {"check", "--format", format, file});
      CHECK(unflushed.status == 2);
      CHECK_THAT(unflushed.err, Catch::EndsWith("planlint: error: cannot write the report to standard output: "
                                                "No space left on device\n"));
    }
  }
  FailingBuffer report_output(true);
  CHECK(run_into(report_output, {"report", plan}).status == 2);
  // -o: stdout is not written, so it does not matter.
  FailingBuffer unused(false);
  auto to_file = run_into(unused, {"check", "-o", (dir.path / "report.txt").string(), plan});
  CHECK(to_file.status == 0);
  CHECK(to_file.err.empty());
}
