#include "support.hpp"

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "cli/cli.hpp"
#include "planlint/emit/text.hpp"

namespace planlint::test {

std::string data_path(std::string_view relative) {
  return std::string(PLANLINT_TEST_DATA_DIR) + "/" + std::string(relative);
}

std::string corpus_path(std::string_view relative) {
  return data_path(std::string("corpus/toml-test/") + std::string(relative));
}

std::vector<std::string> project_toml_files() {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  // tests/ holds the toml-test suite (tests/corpus/toml-test) with the fixtures.
  for (const std::string& root : {std::string(PLANLINT_SOURCE_DIR) + "/examples",
                                  std::string(PLANLINT_SOURCE_DIR) + "/tests",
                                  std::string(PLANLINT_SOURCE_DIR) + "/rules",
                                  std::string(PLANLINT_SOURCE_DIR) + "/templates"}) {
    if (!fs::is_directory(root)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(root))
      if (entry.is_regular_file() && entry.path().extension() == ".toml") files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

LoadResult load_text(std::string text, std::string path) {
  auto source = std::make_shared<const SourceFile>(std::move(path), std::move(text));
  DiagnosticSink findings;
  Result<Plan> plan = load_plan(source, Catalog::builtin(), findings);
  return LoadResult{plan ? std::optional<Plan>(*std::move(plan)) : std::nullopt, findings.take()};
}

LoadResult load_fixture(std::string_view relative) {
  std::string path = data_path(std::string("data/") + std::string(relative));
  auto text = read_file(path);
  if (!text) throw std::runtime_error("cannot read fixture " + path + ": " + text.error().message);
  return load_text(*std::move(text), path);
}

std::vector<std::string> rules_of(const std::vector<Diagnostic>& diagnostics) {
  std::vector<std::string> rules;
  for (const Diagnostic& d : diagnostics) rules.push_back(d.rule);
  return rules;
}

std::string render(const std::vector<Diagnostic>& diagnostics) {
  std::ostringstream out;
  Report report;
  report.diagnostics = diagnostics;
  emit_text(out, report, TextStyle{});
  return out.str();
}

CliRun run_cli(std::vector<std::string> args) {
  args.insert(args.begin(), "planlint");
  std::vector<const char*> argv;
  for (const std::string& arg : args) argv.push_back(arg.c_str());
  std::ostringstream out, err;
  CliRun run;
  run.status = cli::run(static_cast<int>(argv.size()), argv.data(), out, err, cli::Environment{});
  run.out = out.str();
  run.err = err.str();
  return run;
}

}  // namespace planlint::test
