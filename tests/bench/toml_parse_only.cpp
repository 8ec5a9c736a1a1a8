// toml_parse_only PATH...: reads and parses every *.toml file under PATH with toml++ and does
// nothing else. scripts/bench times it over the corpora: the floor that any TOML linter pays,
// which planlint's full run is compared with. toml++ header-only, without exceptions, and the
// program linked statically (tests/bench/CMakeLists.txt); it uses nothing of planlint's.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <toml++/toml.h>

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i) {
    if (fs::is_directory(argv[i])) {
      for (const auto& entry : fs::recursive_directory_iterator(argv[i]))
        if (entry.is_regular_file() && entry.path().extension() == ".toml") files.push_back(entry.path());
    } else {
      files.emplace_back(argv[i]);
    }
  }
  std::sort(files.begin(), files.end());
  std::size_t keys = 0, invalid = 0;
  std::string text;
  for (const fs::path& path : files) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "%s: cannot read\n", path.c_str());
      return 2;
    }
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    const toml::parse_result parsed = toml::parse(text, path.string());
    if (parsed) keys += parsed.table().size();
    else ++invalid;
  }
  std::printf("%zu files, %zu top-level keys, %zu invalid\n", files.size(), keys, invalid);
  return 0;
}
