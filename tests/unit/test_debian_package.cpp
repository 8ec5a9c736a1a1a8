// The Debian package as Debian's own tools judge it: lintian on the .deb cpack makes (no error,
// no warning; each override in cmake/debian/lintian-overrides says why), and the changelog
// planlint_docgen writes into it from CHANGELOG.md.
#include <filesystem>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "integration_support.hpp"

namespace fs = std::filesystem;
using namespace planlint::test;

namespace {

const fs::path source_dir = PLANLINT_SOURCE_DIR;
const fs::path docgen = fs::path(PLANLINT_BUILD_DIR) / "planlint_docgen";

/// The lines of `text` that start with `prefix`.
std::vector<std::string> lines_starting(const std::string& text, const std::string& prefix) {
  std::vector<std::string> lines;
  for (std::size_t at = 0, end; at < text.size(); at = end + 1) {
    end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    if (text.compare(at, prefix.size(), prefix) == 0) lines.push_back(text.substr(at, end - at));
  }
  return lines;
}

/// The longest line of `text`, in characters (UTF-8).
std::size_t longest_line(const std::string& text) {
  std::size_t longest = 0, length = 0;
  for (char c : text) {
    if (c == '\n') length = 0;
    else if ((c & 0xC0) != 0x80) longest = std::max(longest, ++length);
  }
  return longest;
}

/// `planlint_docgen --debian-changelog` on a CHANGELOG.md of `markdown`: its status, and its
/// output (or error) in `output`.
int debian_changelog(const Scratch& dir, const std::string& markdown, std::string& output) {
  const fs::path changelog = dir.write("CHANGELOG.md", markdown);
  return run_command(quote(docgen.string()) + " --debian-changelog " + quote(changelog.string()) +
                         " 'Pat Doe <pat@example.org>' 86400",
                     output);
}

}  // namespace

TEST_CASE("lintian finds no error and no warning in the Debian package", "[install][package]") {
  std::string output;
  if (run_command("command -v lintian", output) != 0) {
    WARN("skipped: lintian not installed (the Debian package lintian; .ci/run installs it)");
    return;
  }
  if (!PLANLINT_STATIC_BINARY) {
    WARN("skipped: lintian judges the release build's package, whose planlint is static; this build's is not");
    return;
  }
  Scratch out;
  REQUIRE(run_command("cpack -G DEB --config " + quote(std::string(PLANLINT_BUILD_DIR) + "/CPackConfig.cmake") +
                          " -B " + quote(out.path.string()),
                      output) == 0);
  INFO(output);
  const fs::path deb = out.path / ("planlint_" + std::string(PLANLINT_VERSION) + "_amd64.deb");
  REQUIRE(fs::is_regular_file(deb));
  // Debian's profile on every system (Ubuntu's lintian has it too): the same verdict everywhere.
  const int status = run_command("lintian --profile debian --fail-on error,warning --tag-display-limit 0 " +
                                     quote(deb.string()),
                                 output);
  INFO(output);
  CHECK(lines_starting(output, "E: ").empty());
  CHECK(lines_starting(output, "W: ").empty());
  CHECK(status == 0);
}

TEST_CASE("the Debian changelog is the Unreleased section of CHANGELOG.md, else the version's, one item a change",
          "[install][package]") {
  Scratch dir;
  const std::string version = PLANLINT_VERSION;
  const std::string long_item =
      "- **Checks.** A change described at length, with `code` and enough words to need more than one line "
      "of the changelog, and a second sentence.\n  Its second line.\n";
  std::string output;

  SECTION("unreleased changes: distribution UNRELEASED") {
    REQUIRE(debian_changelog(dir, "# Changelog\n\nIntro.\n\n## Unreleased\n\n" + long_item + "- Short one.\n\n## " +
                                      version + "\n\n- Released.\n",
                             output) == 0);
    CHECK_THAT(output, Catch::StartsWith("planlint (" + version + ") UNRELEASED; urgency=medium\n\n"));
    CHECK(lines_starting(output, "  * ").size() == 3);  // two changes and the pointer to CHANGELOG.md
    CHECK_THAT(output, Catch::Contains("  * Checks. A change described at length, with `code`"));
    CHECK_THAT(output, Catch::Contains(" Its second line.\n") && Catch::Contains("  * Short one.\n"));
    CHECK_THAT(output, !Catch::Contains("Released.") && !Catch::Contains("**"));
    CHECK(longest_line(output) <= 80);
    CHECK_THAT(output, Catch::EndsWith("\n -- Pat Doe <pat@example.org>  Fri, 02 Jan 1970 00:00:00 +0000\n"));
  }
  SECTION("a release: the version's section, distribution unstable, its paragraph an item") {
    REQUIRE(debian_changelog(dir, "# Changelog\n\n## Unreleased\n\n## " + version +
                                      "\n\nThe first version: a paragraph\nover two lines.\n\n- One change.\n\n## 0.0.1\n\n- Older.\n",
                             output) == 0);
    CHECK_THAT(output, Catch::StartsWith("planlint (" + version + ") unstable; urgency=medium\n\n"));
    CHECK_THAT(output, Catch::Contains("  * The first version: a paragraph over two lines.\n  * One change.\n"));
    CHECK_THAT(output, !Catch::Contains("Older."));
  }
  SECTION("neither section: an error naming both") {
    CHECK(debian_changelog(dir, "# Changelog\n\n## 0.0.1\n\n- Older.\n", output) == 1);
    CHECK_THAT(output, Catch::Contains("## Unreleased") && Catch::Contains("## " + version));
  }
}
