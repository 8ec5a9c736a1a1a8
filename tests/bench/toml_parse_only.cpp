// toml_parse_only PATH...: reads and parses every *.toml file under PATH with toml++ and does
// nothing else. scripts/bench times it over the corpus: the floor that any TOML linter pays,
// which planlint's full run is compared with. Files are read as planlint reads them.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "planlint/lint/path_order.hpp"
#include "planlint/source/source_file.hpp"

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
  std::sort(files.begin(), files.end(), planlint::path_order_less);  // planlint's order, planlint's cost
  std::size_t keys = 0, invalid = 0;
  for (const fs::path& path : files) {
    std::string error;
    auto text = planlint::read_file(path.string(), error);
    if (!text) {
      std::fprintf(stderr, "%s: %s\n", path.c_str(), error.c_str());
      return 2;
    }
    const toml::parse_result parsed = toml::parse(*text, path.string());
    if (parsed) keys += parsed.table().size();
    else ++invalid;
  }
  std::printf("%zu files, %zu top-level keys, %zu invalid\n", files.size(), keys, invalid);
  return 0;
}
