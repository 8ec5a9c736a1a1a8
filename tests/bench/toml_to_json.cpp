// bench_toml_to_json IN_DIR OUT_DIR: writes each IN_DIR/NAME.toml as OUT_DIR/NAME.json, with
// toml++'s JSON formatter. scripts/bench gives Spectral, which reads JSON and YAML, the JSON
// form of the plans it gives planlint and taplo; the conversion is made before the timing.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <toml++/toml.h>

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: bench_toml_to_json IN_DIR OUT_DIR\n");
    return 2;
  }
  fs::create_directories(argv[2]);
  int converted = 0;
  for (const auto& entry : fs::directory_iterator(argv[1])) {
    if (entry.path().extension() != ".toml") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    toml::parse_result parsed = toml::parse(text, entry.path().string());
    if (!parsed) {
      std::fprintf(stderr, "%s: %s\n", entry.path().c_str(), std::string(parsed.error().description()).c_str());
      return 1;
    }
    std::ofstream out(fs::path(argv[2]) / entry.path().filename().replace_extension(".json"));
    out << toml::json_formatter{parsed.table()} << '\n';
    ++converted;
  }
  std::printf("%d files converted\n", converted);
  return 0;
}
