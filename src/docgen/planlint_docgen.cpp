// planlint_docgen OUT_DIR: writes the man page (planlint.1), the bash, zsh and fish completions
// (planlint.bash, _planlint, planlint.fish) and the Debian package's extended description
// (package-description.txt) of planlint's command line into OUT_DIR, from the CLI11 App the
// parser itself uses (cli/app.hpp). Run at build time, whenever the command line changes.
//
// planlint_docgen --debian-changelog CHANGELOG_MD MAINTAINER SECONDS: prints the Debian
// changelog of this version from CHANGELOG.md, dated SECONDS (Unix time), signed MAINTAINER
// (cmake/DebianChangelogScript.cmake compresses it into the package).
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>

#include "docgen/command_model.hpp"
#include "docgen/completions.hpp"
#include "docgen/debian_package.hpp"
#include "docgen/man_page.hpp"

namespace {

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out.flush()) throw std::runtime_error("cannot write " + path.string());
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

int main(int argc, char** argv) {
  const bool changelog = argc == 5 && std::string_view(argv[1]) == "--debian-changelog";
  if (argc != 2 && !changelog) {
    std::fprintf(stderr,
                 "usage: planlint_docgen OUT_DIR\n"
                 "       planlint_docgen --debian-changelog CHANGELOG_MD MAINTAINER SECONDS\n");
    return 2;
  }
  try {
    const planlint::docgen::ProgramModel program = planlint::docgen::describe_command_line();
    if (changelog) {
      const planlint::docgen::ChangelogEntrySource source{program.name, program.version, argv[3],
                                                          std::stoll(argv[4])};
      const std::string text = planlint::docgen::debian_changelog(read_file(argv[2]), source);
      std::fwrite(text.data(), 1, text.size(), stdout);
      return std::fflush(stdout) == 0 ? 0 : 1;
    }
    const std::filesystem::path dir = argv[1];
    std::filesystem::create_directories(dir);
    write_file(dir / "planlint.1", planlint::docgen::man_page(program));
    write_file(dir / "planlint.bash", planlint::docgen::bash_completion(program));
    write_file(dir / "_planlint", planlint::docgen::zsh_completion(program));
    write_file(dir / "planlint.fish", planlint::docgen::fish_completion(program));
    write_file(dir / "package-description.txt", planlint::docgen::package_description(program));
  } catch (const std::exception& error) {
    std::fprintf(stderr, "planlint_docgen: %s\n", error.what());
    return 1;
  }
  return 0;
}
