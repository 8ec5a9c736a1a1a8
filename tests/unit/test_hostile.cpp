// Hostile input: the official TOML 1.0 test suite (tests/corpus/toml-test). Every invalid
// document is a toml-syntax finding with a line and a column; no valid one crashes planlint.
#include <filesystem>

#include <catch2/catch.hpp>

#include "planlint/lint/lint.hpp"
#include "support.hpp"

namespace fs = std::filesystem;
using namespace planlint;

namespace {

std::vector<fs::path> corpus_files(std::string_view folder) {
  fs::path root = test::corpus_path(folder);
  INFO("the TOML corpus is expected at " << root.string());
  REQUIRE(fs::is_directory(root));
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(root))
    if (entry.is_regular_file() && entry.path().extension() == ".toml") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST_CASE("every invalid toml-test document is a toml-syntax finding with a position",
          "[hostile][toml-syntax]") {
  auto files = corpus_files("invalid");
  REQUIRE(files.size() > 400);
  std::size_t checked = 0;
  for (const fs::path& path : files) {
    auto run = test::run_cli({"check", "--no-color", path.string()});
    INFO(path.string() << "\n" << run.out << run.err);
    CHECK(run.status == 1);
    // The first line is `file:line:col: error: invalid TOML: ... [toml-syntax]`.
    const std::string header = run.out.substr(0, run.out.find('\n'));
    CHECK_THAT(header, Catch::Matches(".*\\.toml:[1-9][0-9]*:[1-9][0-9]*: error: .*\\[toml-syntax\\]"));
    ++checked;
  }
  CHECK(checked == files.size());
}

TEST_CASE("no valid toml-test document crashes planlint", "[hostile]") {
  auto files = corpus_files("valid");
  REQUIRE(files.size() > 150);
  for (const fs::path& path : files) {
    auto run = test::run_cli({"check", "--no-color", path.string()});
    INFO(path.string() << "\n" << run.out << run.err);
    CHECK((run.status == 0 || run.status == 1 || run.status == 2));
    CHECK_FALSE(run.out.empty());
  }
}
