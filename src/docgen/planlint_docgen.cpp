// planlint_docgen OUT_DIR: writes the man page (planlint.1) and the bash, zsh and fish
// completions (planlint.bash, _planlint, planlint.fish) of planlint's command line into OUT_DIR,
// from the CLI11 App the parser itself uses (cli/app.hpp). Run at build time, whenever the
// command line changes.
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>

#include "docgen/command_model.hpp"
#include "docgen/completions.hpp"
#include "docgen/man_page.hpp"

namespace {

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out.flush()) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: planlint_docgen OUT_DIR\n");
    return 2;
  }
  try {
    const std::filesystem::path dir = argv[1];
    std::filesystem::create_directories(dir);
    const planlint::docgen::ProgramModel program = planlint::docgen::describe_command_line();
    write_file(dir / "planlint.1", planlint::docgen::man_page(program));
    write_file(dir / "planlint.bash", planlint::docgen::bash_completion(program));
    write_file(dir / "_planlint", planlint::docgen::zsh_completion(program));
    write_file(dir / "planlint.fish", planlint::docgen::fish_completion(program));
  } catch (const std::exception& error) {
    std::fprintf(stderr, "planlint_docgen: %s\n", error.what());
    return 1;
  }
  return 0;
}
