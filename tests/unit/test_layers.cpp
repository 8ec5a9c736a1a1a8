// The library's folders are layers (docs/development.md, "Layers"): a folder includes only the
// folders of the lines above its own, so no include runs back up and no two folders need each
// other.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "integration_support.hpp"

namespace fs = std::filesystem;

namespace {

/// Each folder of docs/development.md's "Layers" block and the line it is on, from 0 (lowest).
std::map<std::string, int> documented_layers() {
  const std::string doc = planlint::test::read_text(fs::path(PLANLINT_SOURCE_DIR) / "docs/development.md");
  const std::size_t section = doc.find("\n## Layers\n");
  REQUIRE(section != std::string::npos);
  const std::size_t open = doc.find("```\n", section);
  const std::size_t close = doc.find("```\n", open + 4);
  REQUIRE(close != std::string::npos);
  std::istringstream block(doc.substr(open + 4, close - open - 4));
  std::map<std::string, int> layer;
  int line_number = 0;
  for (std::string line; std::getline(block, line); ++line_number) {
    std::istringstream words(line);
    for (std::string folder; words >> folder;) {
      INFO(folder << " is listed twice");
      CHECK(layer.emplace(folder, line_number).second);
    }
  }
  return layer;
}

}  // namespace

TEST_CASE("every include of the library goes down the documented layers", "[layers][docs]") {
  const std::map<std::string, int> layer = documented_layers();
  const fs::path library = fs::path(PLANLINT_SOURCE_DIR) / "src/planlint";
  std::set<std::string> folders;
  for (const auto& entry : fs::directory_iterator(library))
    if (entry.is_directory()) folders.insert(entry.path().filename().string());
  for (const std::string& folder : folders) {
    INFO("src/planlint/" << folder << "/ has a line in docs/development.md's Layers");
    CHECK(layer.count(folder) == 1);
  }
  for (const auto& [folder, _] : layer) {
    INFO("docs/development.md's Layers lists " << folder << ", which is not a folder of src/planlint");
    CHECK(folders.count(folder) == 1);
  }

  const std::regex include(R"re(^\s*#\s*include\s*"planlint/([a-z_]+)/)re");
  std::size_t includes = 0;
  for (const auto& entry : fs::recursive_directory_iterator(library)) {
    if (!entry.is_regular_file()) continue;
    const std::string from = entry.path().lexically_relative(library).begin()->string();
    if (layer.count(from) == 0) continue;
    std::ifstream file(entry.path());
    int line_number = 0;
    for (std::string line; std::getline(file, line);) {
      ++line_number;
      std::smatch match;
      if (!std::regex_search(line, match, include)) continue;
      const std::string to = match[1];
      if (to == from) continue;
      ++includes;
      INFO(entry.path().lexically_relative(PLANLINT_SOURCE_DIR).string() << ":" << line_number << " includes " << to
           << "/, which is not below " << from << "/");
      REQUIRE(layer.count(to) == 1);
      CHECK(layer.at(to) < layer.at(from));
    }
  }
  CHECK(includes > 100);  // the scan saw the library's includes
}
