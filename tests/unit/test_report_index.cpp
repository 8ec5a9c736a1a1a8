// Report::file(): the lookup of a finding's file by path, indexed rather than a scan of every
// file (quadratic in a folder run), with the answers a scan gives.
#include <memory>

#include <catch2/catch.hpp>

#include "planlint/emit/lint_report.hpp"

using planlint::Report;
using planlint::SourceFile;

namespace {

std::shared_ptr<const SourceFile> source(std::string path, std::string text = "[plan]\n") {
  return std::make_shared<const SourceFile>(std::move(path), std::move(text));
}

}  // namespace

TEST_CASE("Report::file finds each file by path, the first of a path, nullptr for others", "[report-index]") {
  Report report;
  CHECK(report.file("a.toml") == nullptr);
  for (int i = 0; i < 1000; ++i) report.files.push_back(source("plans/" + std::to_string(i) + ".toml"));
  auto duplicate = source("plans/7.toml", "second");
  report.files.push_back(duplicate);
  for (int i : {0, 7, 999}) {
    const SourceFile* found = report.file("plans/" + std::to_string(i) + ".toml");
    REQUIRE(found);
    CHECK(found == report.files[static_cast<std::size_t>(i)].get());
  }
  CHECK(report.file("plans/1000.toml") == nullptr);
  CHECK(report.file("") == nullptr);
}

TEST_CASE("Report::file follows files added, replaced or removed after a lookup", "[report-index]") {
  Report report;
  report.files.push_back(source("a.toml"));
  CHECK(report.file("a.toml") == report.files[0].get());
  CHECK(report.file("b.toml") == nullptr);

  report.files.push_back(source("b.toml"));  // appended after the index was built
  CHECK(report.file("b.toml") == report.files[1].get());

  report.files[0] = source("a.toml", "replaced");  // replaced in place
  CHECK(report.file("a.toml") == report.files[0].get());

  report.files.pop_back();  // removed
  CHECK(report.file("b.toml") == nullptr);
  report.files.clear();
  CHECK(report.file("a.toml") == nullptr);

  // A copy has the same files and finds them on its own.
  report.files.push_back(source("c.toml"));
  CHECK(report.file("c.toml") == report.files[0].get());
  Report copy = report;
  CHECK(copy.file("c.toml") == copy.files[0].get());
  Report moved = std::move(copy);
  CHECK(moved.file("c.toml") == moved.files[0].get());
}
