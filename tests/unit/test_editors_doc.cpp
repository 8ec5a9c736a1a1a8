// docs/editors.md and editors/vscode say what `planlint lsp` is: the options table lists the
// options of the one CLI definition, the editors' snippets are valid and start `planlint lsp`.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "cli/app.hpp"
#include "integration_support.hpp"
#include "planlint/source/toml_limits.hpp"

using namespace planlint::test;

namespace {

const fs::path source_dir = PLANLINT_SOURCE_DIR;

/// The bodies of the fenced blocks of `language` in `markdown`.
std::vector<std::string> fenced_blocks(const std::string& markdown, const std::string& language) {
  std::vector<std::string> blocks;
  const std::string open = "```" + language + "\n";
  for (std::size_t at = markdown.find(open); at != std::string::npos; at = markdown.find(open, at)) {
    const std::size_t begin = at + open.size();
    const std::size_t end = markdown.find("\n```", begin);
    if (end == std::string::npos) break;
    blocks.push_back(markdown.substr(begin, end - begin + 1));
    at = end + 4;
  }
  return blocks;
}

}  // namespace

TEST_CASE("docs/editors.md: the options table is the options of `planlint lsp`", "[lsp][docs]") {
  const std::string doc = read_text(source_dir / "docs/editors.md");
  planlint::cli::CommandLine line;
  REQUIRE(line.lsp != nullptr);
  std::vector<std::string> documented;
  for (std::size_t at = doc.find("\n| `--"); at != std::string::npos; at = doc.find("\n| `--", at + 1)) {
    const std::size_t begin = at + 4;
    documented.push_back(doc.substr(begin, doc.find_first_of(" `", begin) - begin));
  }
  std::vector<std::string> defined;
  for (const CLI::Option* option : line.lsp->get_options())
    for (const std::string& name : option->get_lnames())
      if (name != "help") defined.push_back("--" + name);
  std::sort(documented.begin(), documented.end());
  std::sort(defined.begin(), defined.end());
  CHECK(documented == defined);
}

TEST_CASE("docs/editors.md: every snippet starts `planlint lsp`, and the TOML ones parse", "[lsp][docs]") {
  const std::string doc = read_text(source_dir / "docs/editors.md");
  const auto toml_blocks = fenced_blocks(doc, "toml");
  REQUIRE(toml_blocks.size() == 1);  // Helix's languages.toml
  auto helix = planlint::parse_toml(toml_blocks[0], "languages.toml");
  REQUIRE(helix);
  const toml::table& servers = *(*helix)["language-server"].as_table();
  CHECK(servers["planlint"]["command"].value_or(std::string()) == "planlint");
  CHECK(servers["planlint"]["args"][0].value_or(std::string()) == "lsp");
  for (const char* language : {"lua", "elisp"})
    for (const std::string& block : fenced_blocks(doc, language)) {
      INFO(block);
      const bool starts_server = block.find("'planlint', 'lsp'") != std::string::npos ||
                                 block.find("\"planlint\" \"lsp\"") != std::string::npos;
      CHECK(starts_server);
    }
  CHECK(fenced_blocks(doc, "lua").size() == 2);
  CHECK(fenced_blocks(doc, "elisp").size() == 1);
}

TEST_CASE("editors/vscode: a VS Code extension that starts `planlint lsp`", "[lsp][docs]") {
  const auto manifest = nlohmann::json::parse(read_text(source_dir / "editors/vscode/package.json"));
  const std::string main = manifest["main"];
  const std::string extension = read_text(source_dir / "editors/vscode" / main);
  CHECK(extension.find("['lsp', ...settings.get('args', [])]") != std::string::npos);
  CHECK(manifest["contributes"]["configuration"]["properties"]["planlint.path"]["default"] == "planlint");
  CHECK(manifest["dependencies"].contains("vscode-languageclient"));
  // The extension's version is the project's, as the release's.
  const std::string cmake = read_text(source_dir / "CMakeLists.txt");
  CHECK(cmake.find("VERSION " + manifest["version"].get<std::string>()) != std::string::npos);
}
