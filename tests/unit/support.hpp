#pragma once
/// Helpers shared by the unit tests: loading fixtures and rendering diagnostics.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "planlint/diag/diagnostic.hpp"
#include "planlint/plan/loader.hpp"

namespace planlint::test {

/// Whether the tests (and the binary beside them) run under AddressSanitizer. GCC defines
/// __SANITIZE_ADDRESS__; clang 14 only answers __has_feature.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool under_address_sanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool under_address_sanitizer = true;
#else
inline constexpr bool under_address_sanitizer = false;
#endif
#else
inline constexpr bool under_address_sanitizer = false;
#endif

/// tests/<relative>
std::string data_path(std::string_view relative);
/// tests/corpus/toml-test/<relative>: the TOML 1.0 test suite (valid/ and invalid/).
std::string corpus_path(std::string_view relative);
/// Every TOML file the project has, sorted: examples/, tests/ (the toml-test suite, valid and
/// invalid, fixtures, golden files, rule fixtures), rules/ and templates/.
std::vector<std::string> project_toml_files();

/// A plan as the loader reads it: the plan (absent when the text is not valid TOML) and the
/// loader's findings.
struct LoadResult {
  std::optional<Plan> plan;
  std::vector<Diagnostic> diagnostics;
};

LoadResult load_text(std::string text, std::string path = "plan.toml");
LoadResult load_fixture(std::string_view relative);

std::vector<std::string> rules_of(const std::vector<Diagnostic>& diagnostics);
/// Text output of the diagnostics, for INFO() when a test fails.
std::string render(const std::vector<Diagnostic>& diagnostics);

/// The `docs` of a rule file for a test's rule pack: the five headings the loader requires,
/// empty. Appended after the rule's other keys.
inline constexpr std::string_view rule_docs_stub =
    "docs = \"\"\"\n## What it does\n## Why is this bad?\n## Example\n## Use instead\n## References\n\"\"\"\n";

struct CliRun {
  int status = -1;
  std::string out, err;
};
/// Runs the real command line in-process: run_cli({"check", "x.toml"}).
CliRun run_cli(std::vector<std::string> args);

}  // namespace planlint::test

#include <catch2/catch.hpp>
#include <fmt/format.h>

namespace Catch {
template <>
struct StringMaker<planlint::Position> {
  static std::string convert(const planlint::Position& p) {
    return fmt::format("{}:{}", p.line, p.column);
  }
};
}  // namespace Catch
