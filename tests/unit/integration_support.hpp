#pragma once
/// Helpers of the integration tests (SARIF, JSON, config, suppressions, baseline, Markdown):
/// scratch folders, running external validators from the npm tools, reading files.
#include <fcntl.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "planlint/lint/run.hpp"
#include "support.hpp"

namespace planlint::test {

namespace fs = std::filesystem;

inline std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// PLANLINT_UPDATE_GOLDEN=1: the tests that compare against a checked-in expectation rewrite it.
inline bool updating_golden() {
  const char* update = std::getenv("PLANLINT_UPDATE_GOLDEN");
  return update != nullptr && std::string_view(update) == "1";
}

/// The part of `doc` between the `begin` and `end` marker lines, as checked in; with
/// updating_golden(), `doc` is first rewritten with `generated` there.
inline std::string generated_region(const fs::path& doc, std::string_view begin, std::string_view end,
                                    const std::string& generated) {
  std::string text = read_text(doc);
  const std::size_t from = text.find(begin), to = text.find(end);
  REQUIRE(from != std::string::npos);
  REQUIRE(to != std::string::npos);
  const std::size_t region = from + begin.size();
  if (updating_golden()) {
    text.replace(region, to - region, generated);
    std::ofstream(doc, std::ios::binary) << text;
  }
  return text.substr(region, to - region);
}

/// The smallest inference plan that loads (an H100 SXM cluster of 8, a 7B model), with `extra`
/// appended to its [cluster] table: `hmb = 1` gives one unknown-key finding.
inline std::string inference_plan_with(const std::string& extra) {
  return "[plan]\nname = \"x\"\nkind = \"inference\"\n[model]\nparams = \"7B\"\n[cluster]\n"
         "gpu = \"h100-sxm\"\ncount = 8\n" + extra;
}

/// Sets an environment variable for the life of the object, then restores it.
struct ScopedVariable {
  std::string name;
  std::optional<std::string> previous;
  ScopedVariable(std::string variable, const std::string& value) : name(std::move(variable)) {
    if (const char* old = std::getenv(name.c_str())) previous = old;
    ::setenv(name.c_str(), value.c_str(), 1);
  }
  ~ScopedVariable() {
    if (previous) ::setenv(name.c_str(), previous->c_str(), 1);
    else ::unsetenv(name.c_str());
  }
  ScopedVariable(const ScopedVariable&) = delete;
  ScopedVariable& operator=(const ScopedVariable&) = delete;
};

/// A fresh folder under the temp dir, removed at the end of the test. It holds a `.git`
/// folder so that config discovery stops there, whatever is above it.
struct Scratch {
  fs::path path;
  Scratch() {
    static int counter = 0;
    path = fs::temp_directory_path() /
           ("planlint-int-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::remove_all(path);
    fs::create_directories(path / ".git");
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  Scratch(const Scratch&) = delete;
  fs::path write(const std::string& name, const std::string& text) const {
    fs::path file = path / name;
    fs::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << text;
    return file;
  }
};

/// Changes the working directory for one test and restores it (even when a REQUIRE fails).
struct InDirectory {
  fs::path previous;
  explicit InDirectory(const fs::path& path) : previous(fs::current_path()) { fs::current_path(path); }
  ~InDirectory() {
    std::error_code ec;
    fs::current_path(previous, ec);
  }
  InDirectory(const InDirectory&) = delete;
};

/// The findings of `plan`, written to plan.toml in a fresh folder and linted as `planlint check
/// --today TODAY [--rules PACK...]` lints it (no config discovery).
inline std::vector<Diagnostic> lint_plan_text(const std::string& plan, Date today,
                                              std::vector<std::string> packs = {}) {
  Scratch dir;
  RunOptions options;
  options.paths = {dir.write("plan.toml", plan).string()};
  options.discover_config = false;
  options.today = today;
  options.rules = std::move(packs);
  RunResult result = run_lint(options);
  INFO(render(result.report.diagnostics));
  REQUIRE(result.errors.empty());
  return std::move(result.report.diagnostics);
}

/// Runs a shell command; returns its exit status, with stdout and stderr in `output`.
inline int run_command(const std::string& command, std::string& output) {
  output.clear();
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return -1;
  std::array<char, 4096> buffer;
  std::size_t n;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) output.append(buffer.data(), n);
  int status = ::pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

inline std::string quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// Where the npm test tools are installed: $PLANLINT_NPM_TOOLS, else .cache/npm-tools in the
/// checkout (scripts/lib/deps.sh planlint_install_npm_tools).
inline fs::path npm_tools_dir() {
  if (const char* dir = std::getenv("PLANLINT_NPM_TOOLS"); dir && *dir) return dir;
  return PLANLINT_NPM_TOOLS_DIR;
}

/// PLANLINT_REQUIRE_NPM_TOOLS=1 (.ci/run, the release workflow): a missing npm validator fails
/// the test instead of skipping its checks, so that CI never passes without them.
inline bool npm_tools_required() {
  const char* required = std::getenv("PLANLINT_REQUIRE_NPM_TOOLS");
  return required != nullptr && std::string_view(required) == "1";
}

/// The path of the npm validator `name`, at `relative` under node_modules, or nothing when it is
/// not installed. The validators are optional (a machine without the npm registry runs the
/// tests without them): the test then skips the checks that need it, with a "skipped: NAME not
/// installed" warning, and runs the rest. With npm_tools_required() a missing one FAILS.
inline std::optional<std::string> npm_tool(const std::string& name, const std::string& relative) {
  fs::path tool = npm_tools_dir() / "node_modules" / relative;
  if (fs::exists(tool)) return tool.string();
  const std::string where = "no " + tool.string() + "; scripts/test installs the npm validators when the npm "
                            "registry is reachable, or point PLANLINT_NPM_TOOLS at a folder that has them";
  if (npm_tools_required()) FAIL("missing test tool " << name << " (" << where << ") and PLANLINT_REQUIRE_NPM_TOOLS=1");
  WARN("skipped: " << name << " not installed (" << where << ")");
  return std::nullopt;
}

/// A command of a Debian package; the test FAILS when it is not on PATH.
inline std::string system_tool(const std::string& name, const std::string& package) {
  std::string output;
  if (run_command("command -v " + quote(name), output) != 0)
    FAIL("missing test tool " << name << ": install the Debian package " << package
                              << " (scripts/test installs it)");
  return name;
}

/// A folder of release files as .github/workflows/release.yml publishes them, made from the
/// built planlint: planlint-VERSION-linux-x86_64.tar.gz and SHA256SUMS; `url` is its file:// URL.
struct ReleaseFolder {
  Scratch dir;
  std::string url;
  ReleaseFolder() {
    const std::string top = std::string("planlint-") + PLANLINT_VERSION + "-linux-x86_64";
    fs::create_directories(dir.path / "stage" / top / "bin");
    fs::copy_file(PLANLINT_BINARY, dir.path / "stage" / top / "bin/planlint");
    fs::create_directories(folder());
    std::string output;
    REQUIRE(run_command("cd " + quote(dir.path.string()) + " && tar -czf release/" + top + ".tar.gz -C stage " + top +
                            " && cd release && sha256sum " + top + ".tar.gz > SHA256SUMS",
                        output) == 0);
    url = "file://" + folder().string();
  }
  fs::path folder() const { return dir.path / "release"; }
  fs::path tarball() const { return folder() / (std::string("planlint-") + PLANLINT_VERSION + "-linux-x86_64.tar.gz"); }
};

/// The npm validators the tests run; each is nothing when it is not installed (npm_tool).
inline std::optional<std::string> sarif_multitool() {
  return npm_tool("Sarif.Multitool", "@microsoft/sarif-multitool-linux/Sarif.Multitool");
}
inline std::optional<std::string> taplo() { return npm_tool("taplo", ".bin/taplo"); }
inline std::optional<std::string> ajv() { return npm_tool("ajv", ".bin/ajv"); }
inline std::optional<std::string> action_validator() { return npm_tool("action-validator", ".bin/action-validator"); }


/// The peak resident memory of the built planlint run with `args`, in KiB, and its exit status:
/// what the hostile-cost tests compare between inputs. Read as the process's VmHWM when it
/// exits (it runs traced, stopped at its exit): wait4's ru_maxrss would count the test
/// process's own memory, which a forked child holds until its exec.
inline std::pair<long, int> peak_rss_kib(const std::vector<std::string>& args) {
  const pid_t child = ::fork();
  if (child == 0) {
    ::ptrace(PTRACE_TRACEME, 0, nullptr, nullptr);
    // AddressSanitizer's quarantine holds freed blocks as resident memory, and LeakSanitizer
    // does not run traced: both off (other builds ignore them).
    ::setenv("ASAN_OPTIONS", "quarantine_size_mb=0:detect_leaks=0", 1);
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, STDOUT_FILENO);
    ::dup2(null, STDERR_FILENO);
    std::vector<char*> argv{const_cast<char*>(PLANLINT_BINARY)};
    for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(child, &status, 0);  // stopped at its exec
  ::ptrace(PTRACE_SETOPTIONS, child, nullptr, PTRACE_O_TRACEEXIT | PTRACE_O_EXITKILL);
  long peak_kib = -1;
  int pass_signal = 0;
  while (true) {
    ::ptrace(PTRACE_CONT, child, nullptr, pass_signal);
    if (::waitpid(child, &status, 0) != child || WIFEXITED(status) || WIFSIGNALED(status)) break;
    pass_signal = 0;
    if (status >> 8 == (SIGTRAP | (PTRACE_EVENT_EXIT << 8))) {
      std::ifstream in("/proc/" + std::to_string(child) + "/status");
      for (std::string line; std::getline(in, line);)
        if (line.rfind("VmHWM:", 0) == 0) peak_kib = std::stol(line.substr(6));
    } else if (WIFSTOPPED(status) && WSTOPSIG(status) != SIGTRAP) {
      pass_signal = WSTOPSIG(status);
    }
  }
  return {peak_kib, WIFEXITED(status) ? WEXITSTATUS(status) : -1};
}
}  // namespace planlint::test
