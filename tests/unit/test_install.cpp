// What an install puts in place (cmake/Release.cmake): the man page and the bash, zsh and fish
// completions generated from the command line's own definition (cli/app.hpp, src/docgen/),
// read by the real groff, man and shells (what the completions complete: test_completions.cpp);
// `cmake --install` into a prefix; and the packages cpack makes, read with dpkg-deb and
// unpacked as a user would (lintian's verdict: test_debian_package.cpp).
#include <algorithm>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/app.hpp"
#include "integration_support.hpp"
#include "planlint/emit/formats.hpp"
#include "planlint/emit/report.hpp"

namespace fs = std::filesystem;
using namespace planlint::test;

namespace {

const fs::path docs_dir = PLANLINT_DOCS_DIR;
const fs::path source_dir = PLANLINT_SOURCE_DIR;

/// The text of `text` after the first `begin`, up to the next `end` (or its end).
std::string between(const std::string& text, const std::string& begin, const std::string& end) {
  std::size_t from = text.find(begin);
  INFO("looking for " << begin);
  REQUIRE(from != std::string::npos);
  from += begin.size();
  const std::size_t to = text.find(end, from);
  return text.substr(from, to == std::string::npos ? std::string::npos : to - from);
}

/// Every name of `app`'s options: "-o", "--output", ...
std::vector<std::string> option_flags(const CLI::App& app) {
  std::vector<std::string> flags;
  for (const CLI::Option* option : app.get_options()) {
    for (const std::string& name : option->get_snames()) flags.push_back("-" + name);
    for (const std::string& name : option->get_lnames()) flags.push_back("--" + name);
  }
  return flags;
}

/// `flag` as roff writes it, every hyphen a minus: "\-\-format".
std::string roff_flag(const std::string& flag) {
  std::string out;
  for (char c : flag) out += c == '-' ? std::string("\\-") : std::string(1, c);
  return out;
}

/// `flag` in a fish `complete` line: "-s o" or "-l output".
std::string fish_flag(const std::string& flag) {
  return flag.size() == 2 ? " -s " + flag.substr(1) + " " : " -l " + flag.substr(2) + " ";
}

/// `flag` as a word of a zsh _arguments spec: followed by its value marker, its description or
/// the next alias.
bool in_zsh_specs(const std::string& specs, const std::string& flag) {
  for (const char* after : {"=", "+", "[", ",", "}", "'"})
    if (specs.find(flag + after) != std::string::npos) return true;
  return false;
}

std::vector<std::string> sorted(std::vector<std::string> words) {
  std::sort(words.begin(), words.end());
  return words;
}

/// The characters of a UTF-8 line (man writes "·", "×" and the like).
std::size_t utf8_length(std::string_view line) {
  return static_cast<std::size_t>(std::count_if(line.begin(), line.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

}  // namespace

TEST_CASE("the man page and the three completions name every option of every subcommand", "[install][docs]") {
  planlint::cli::CommandLine line;  // every subcommand set up
  const std::string man = read_text(docs_dir / "planlint.1");
  const std::string bash = read_text(docs_dir / "planlint.bash");
  const std::string zsh = read_text(docs_dir / "_planlint");
  const std::string fish = read_text(docs_dir / "planlint.fish");
  REQUIRE_FALSE(man.empty());

  // The global options: --help and --version.
  const std::string global = between(man, ".SH OPTIONS", ".SH");
  for (const std::string& flag : option_flags(line.app)) {
    CAPTURE(flag);
    CHECK_THAT(global, Catch::Contains("\\fB" + roff_flag(flag) + "\\fR"));
    if (flag == "-h" || flag == "--help") continue;  // each subcommand's own help stands for it
    CHECK_THAT(bash, Catch::Contains(flag));
    CHECK(in_zsh_specs(zsh, flag));
    CHECK_THAT(fish, Catch::Contains(fish_flag(flag)));
  }

  const auto subcommands = line.app.get_subcommands([](const CLI::App*) { return true; });
  REQUIRE(subcommands.size() == planlint::cli::subcommand_names.size());
  for (const CLI::App* subcommand : subcommands) {
    const std::string name = subcommand->get_name();
    CAPTURE(name);
    const std::string man_section = between(man, ".SS \"planlint " + name + " ", ".S");
    const std::string bash_arm = between(bash, "    " + name + ")\n", "positional=");
    const std::string bash_words = between(bash_arm, "options='", "'\n");
    const std::string zsh_function = between(zsh, "_planlint_" + name + "() {", "\n}\n");
    // fish: the lines of the subcommand's condition; the default one's options also apply
    // before any subcommand, while none of the others is seen.
    std::string fish_condition = "'__fish_seen_subcommand_from " + name + "'";
    if (name == planlint::cli::default_subcommand) {
      fish_condition = "'not __fish_seen_subcommand_from";
      for (std::string_view other : planlint::cli::subcommand_names)
        if (other != name) fish_condition += " " + std::string(other);
      fish_condition += "'";
    }
    std::vector<std::string> fish_lines;
    for (std::size_t at = 0, end; (end = fish.find('\n', at)) != std::string::npos; at = end + 1)
      if (fish.substr(at, end - at).find(fish_condition) != std::string::npos) fish_lines.push_back(fish.substr(at, end - at));
    REQUIRE_FALSE(fish_lines.empty());

    std::vector<std::string> flags = option_flags(*subcommand);
    REQUIRE(flags.size() >= 3);
    for (const std::string& flag : flags) {
      CAPTURE(flag);
      CHECK_THAT(man_section, Catch::Contains("\\fB" + roff_flag(flag) + "\\fR"));
      CHECK_THAT(" " + bash_words + " ", Catch::Contains(" " + flag + " "));
      CHECK(in_zsh_specs(zsh_function, flag));
      CHECK(std::any_of(fish_lines.begin(), fish_lines.end(),
                        [&](const std::string& fish_line) { return fish_line.find(fish_flag(flag)) != std::string::npos; }));
    }
    // Positionals: the man page names each by its value name.
    for (const CLI::Option* option : subcommand->get_options())
      if (option->get_positional()) CHECK_THAT(man_section, Catch::Contains(option->get_type_name().substr(0, option->get_type_name().find(':'))));
  }
}

TEST_CASE("the completion scripts parse in bash, zsh and fish", "[install][docs]") {
  std::string output;
  system_tool("bash", "bash");
  CHECK(run_command("bash -n " + quote((docs_dir / "planlint.bash").string()), output) == 0);
  INFO(output);
  system_tool("zsh", "zsh");
  CHECK(run_command("zsh -n " + quote((docs_dir / "_planlint").string()), output) == 0);
  INFO(output);
  system_tool("fish", "fish");
  CHECK(run_command("fish --no-execute " + quote((docs_dir / "planlint.fish").string()), output) == 0);
  INFO(output);
}

TEST_CASE("the man page renders with man and groff without a warning", "[install][docs]") {
  system_tool("groff", "groff-base");
  const fs::path page = docs_dir / "planlint.1";
  std::string output;
  // -ww: every warning; -z: no output, so that anything printed is a warning.
  CHECK(run_command("groff -man -Tutf8 -ww -z " + quote(page.string()), output) == 0);
  CHECK(output.empty());
  INFO(output);
  const std::string man = system_tool("man", "man-db");
  REQUIRE(run_command("MANWIDTH=100 " + man + " -l " + quote(page.string()), output) == 0);
  CHECK_THAT(output, Catch::Contains("planlint - a linter for AI compute capacity plans"));
  CHECK_THAT(output, Catch::Contains("planlint check [OPTIONS] PATH..."));
  CHECK_THAT(output, Catch::Contains("--write-baseline FILE"));
  // --format's paragraph offers every format, wherever man wraps it; every line fits the width.
  std::istringstream paragraph(between(output, "--format, --output-format FORMAT\n", "\n\n"));
  std::vector<std::string> words;
  for (std::string word; paragraph >> word;) words.push_back(word);
  const std::string choices = between(fmt::format("{} ", fmt::join(words, " ")), "One of: ", ". Default: text. ");
  std::vector<std::string> offered;
  for (std::size_t at = 0, end; at < choices.size(); at = end + 2) {
    end = std::min(choices.find(", ", at), choices.size());
    offered.push_back(choices.substr(at, end - at));
  }
  CHECK(sorted(offered) == sorted(planlint::output_format_choices()));
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    INFO(line);
    CHECK(utf8_length(line) <= 100);
  }
  // Every option of check, --fix and the conventions of other linters included.
  for (const char* option : {"--fix", "--diff", "--unsafe-fixes", "--exit-zero", "--quiet", "--statistics", "--color WHEN",
                             "--allow-empty", "--output-format"})
    CHECK_THAT(output, Catch::Contains(option));
  CHECK_THAT(output, Catch::Contains("EXIT STATUS"));
  CHECK_THAT(output, Catch::Contains(std::string("planlint ") + PLANLINT_VERSION));
}

TEST_CASE("planlint --version names the source commit, or says the tree had none", "[install][cli]") {
  CHECK(planlint::cli::version_line("v0.2.0-3-g1a2b3c4d5e6f") ==
        std::string("planlint ") + PLANLINT_VERSION + " (git v0.2.0-3-g1a2b3c4d5e6f)");
  CHECK_THAT(planlint::cli::version_line(""), Catch::StartsWith(std::string("planlint ") + PLANLINT_VERSION + " (") &&
                                                  Catch::Contains("unknown"));
  // The build's own: git describe of this checkout, when it is one.
  std::string describe;
  if (fs::exists(source_dir / ".git") &&
      run_command("git -C " + quote(source_dir.string()) + " describe --tags --match 'v[0-9]*' --always --abbrev=12", describe) == 0) {
    const std::string commit = describe.substr(0, describe.find_first_of("-\n"));
    CHECK_THAT(planlint::cli::version_line(), Catch::Contains("(git " + commit));
  }

  // A source tree without .git (an unpacked tarball): the generator writes an empty commit.
  Scratch tree;
  fs::remove_all(tree.path / ".git");
  const fs::path out = tree.path / "source_commit.cpp";
  std::string output;
  REQUIRE(run_command("cmake -DSOURCE_DIR=" + quote(tree.path.string()) + " -DOUTPUT=" + quote(out.string()) + " -P " +
                          quote((source_dir / "cmake/SourceCommitScript.cmake").string()),
                      output) == 0);
  CHECK_THAT(read_text(out), Catch::Contains("return \"\";"));
  // A packager's value is kept, less what a C++ string literal would not take as it is.
  REQUIRE(run_command("cmake -DSOURCE_DIR=" + quote(tree.path.string()) + " -DOUTPUT=" + quote(out.string()) +
                          " '-DCOMMIT=v1.0\"; evil' -P " + quote((source_dir / "cmake/SourceCommitScript.cmake").string()),
                      output) == 0);
  CHECK_THAT(read_text(out), Catch::Contains("return \"v1.0evil\";"));
}

TEST_CASE("cmake --install puts planlint, its man page and its completions under the prefix", "[install]") {
  Scratch prefix;
  std::string output;
  REQUIRE(run_command("cmake --install " + quote(PLANLINT_BUILD_DIR) + " --prefix " + quote(prefix.path.string()), output) == 0);
  INFO(output);
  for (const char* file : {"bin/planlint", "share/man/man1/planlint.1", "share/bash-completion/completions/planlint",
                           "share/zsh/site-functions/_planlint", "share/fish/vendor_completions.d/planlint.fish",
                           "share/doc/planlint/LICENSE", "share/doc/planlint/README.md",
                           "share/planlint/planlint_review_comment.py"}) {
    CAPTURE(file);
    CHECK(fs::is_regular_file(prefix.path / file));
  }
  // Only the Debian package's and the tarball's own files are left out.
  CHECK_FALSE(fs::exists(prefix.path / "share/zsh/vendor-completions"));
  CHECK_FALSE(fs::exists(prefix.path / "LICENSE"));
  CHECK(run_command(quote((prefix.path / "bin/planlint").string()) + " --version", output) == 0);
  CHECK(output == planlint::cli::version_line() + "\n");
  const std::string man = system_tool("man", "man-db");
  CHECK(run_command("MANPATH=" + quote((prefix.path / "share/man").string()) + " MANWIDTH=100 " + man + " planlint", output) == 0);
  CHECK_THAT(output, Catch::Contains("planlint report [OPTIONS] PATH..."));
}

TEST_CASE("cpack makes a Debian package and a tarball of the static binary that lint a plan", "[install][package]") {
  system_tool("dpkg-deb", "dpkg");
  Scratch out;
  std::string output;
  REQUIRE(run_command("cpack --config " + quote(std::string(PLANLINT_BUILD_DIR) + "/CPackConfig.cmake") + " -B " +
                          quote(out.path.string()),
                      output) == 0);
  INFO(output);
  const std::string version = PLANLINT_VERSION;
  const fs::path deb = out.path / ("planlint_" + version + "_amd64.deb");
  const fs::path tarball = out.path / ("planlint-" + version + "-linux-x86_64.tar.gz");
  REQUIRE(fs::is_regular_file(deb));
  REQUIRE(fs::is_regular_file(tarball));
  CHECK(fs::is_regular_file(out.path / ("planlint-" + version + "-linux-x86_64.tar.gz.sha256")));

  // The .deb: its files where Debian's tools and shells look, and its control fields.
  REQUIRE(run_command("dpkg-deb -c " + quote(deb.string()), output) == 0);
  for (const char* file : {" ./usr/bin/planlint\n", " ./usr/share/man/man1/planlint.1.gz\n",
                           " ./usr/share/bash-completion/completions/planlint\n",
                           " ./usr/share/zsh/vendor-completions/_planlint\n",
                           " ./usr/share/fish/vendor_completions.d/planlint.fish\n",
                           " ./usr/share/doc/planlint/copyright\n", " ./usr/share/doc/planlint/changelog.gz\n",
                           " ./usr/share/lintian/overrides/planlint\n",
                           " ./usr/share/planlint/planlint_review_comment.py\n"}) {
    CAPTURE(file);
    CHECK_THAT(output, Catch::Contains(file));
  }
  // Debian's forms only: no uncompressed man page, no second licence file.
  CHECK_THAT(output, !Catch::Contains("/planlint.1\n") && !Catch::Contains("/LICENSE\n"));
  REQUIRE(run_command("dpkg-deb -f " + quote(deb.string()) +
                          " Package Version Architecture Maintainer Section Depends Recommends Description",
                      output) == 0);
  CHECK_THAT(output, Catch::Contains("Package: planlint\n") && Catch::Contains("Version: " + version + "\n") &&
                         Catch::Contains("Architecture: amd64\n") && Catch::Contains("Section: devel\n") &&
                         Catch::Contains("Recommends: bash-completion\n") &&
                         Catch::Contains("Description: linter for AI compute capacity plans"));
  CHECK(std::regex_search(output, std::regex("\nMaintainer: [^<\n]+ <[^@>\n]+@[^@>\n]+>\n")));
  if (PLANLINT_STATIC_BINARY) CHECK_THAT(output, !Catch::Contains("Depends:"));
  // The description names every command and every output format, in lines of at most 80.
  const std::string description = output.substr(output.find("Description: "));
  for (const std::vector<std::string>& names : {planlint::output_format_names(), planlint::report_format_names(),
                                                std::vector<std::string>(planlint::cli::subcommand_names.begin(),
                                                                         planlint::cli::subcommand_names.end())})
    for (const std::string& name : names) {
      CAPTURE(name);
      CHECK(std::regex_search(description, std::regex("[ ,]" + name + "[ ,.]")));
    }
  std::istringstream description_lines(description);
  for (std::string line; std::getline(description_lines, line);) CHECK(utf8_length(line) <= 80);

  // Unpacked into a scratch root, the package's planlint lints an example.
  const fs::path root = out.path / "root";
  REQUIRE(run_command("dpkg -x " + quote(deb.string()) + " " + quote(root.string()), output) == 0);
  const int status = run_command(quote((root / "usr/bin/planlint").string()) + " check --no-color " +
                                     quote((source_dir / "examples/llama-70b-pretrain.toml").string()),
                                 output);
  CHECK(status == 0);
  CHECK_THAT(output, Catch::Contains("no problems in 1 file"));

  // The tarball: planlint-VERSION-linux-x86_64/ with the binary, the docs and LICENSE on top.
  REQUIRE(run_command("tar -xzf " + quote(tarball.string()) + " -C " + quote(out.path.string()), output) == 0);
  const fs::path top = out.path / ("planlint-" + version + "-linux-x86_64");
  for (const char* file : {"bin/planlint", "LICENSE", "README.md", "share/man/man1/planlint.1",
                           "share/bash-completion/completions/planlint", "share/zsh/site-functions/_planlint",
                           "share/fish/vendor_completions.d/planlint.fish",
                           "share/planlint/planlint_review_comment.py"}) {
    CAPTURE(file);
    CHECK(fs::is_regular_file(top / file));
  }
  CHECK(run_command(quote((top / "bin/planlint").string()) + " --version", output) == 0);
  CHECK(output == planlint::cli::version_line() + "\n");
  // Static: no dynamic dependency, so it runs on any x86-64 Linux.
  if (PLANLINT_STATIC_BINARY) {
    CHECK(run_command("ldd " + quote((top / "bin/planlint").string()), output) != 0);
    CHECK_THAT(output, Catch::Contains("not a dynamic executable"));
  }
}
