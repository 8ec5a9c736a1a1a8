// solve_bench [RUNS]: `planlint solve`'s search (solve/search.hpp) over every training key, on the
// two plans of its speed targets (docs/performance.md, target 8), with the search alone timed
// (the best of RUNS, default 5): a 405B dense model on 16,384 H100 (examples/llama3-405b-published.toml
// without its first_stage_layers, which would hold pp) and a 671B MoE model on 2,048 H800
// (examples/deepseek-v3-published.toml). For each it prints the space's size, the time of the whole
// search and the layouts evaluated a second, and a line `solve_bench NAME LAYOUTS SECONDS` for
// scripts/bench.
//
// The targets (issue 43): at least 1,000,000 layouts a second on one core, each whole search under
// 1 second.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "planlint/diag/diagnostic_sink.hpp"
#include "planlint/estimate/layout_kernel.hpp"
#include "planlint/plan/loader.hpp"
#include "planlint/search/search.hpp"
#include "planlint/source/source_file.hpp"

namespace {

struct BenchPlan {
  const char* name;
  const char* file;
  const char* drop;  ///< a key line left out (the whole line starting with it), or ""
};

std::string without_line(const std::string& text, const std::string& start) {
  if (start.empty()) return text;
  std::string out;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    if (text.compare(at, start.size(), start) != 0) out.append(text, at, end - at + 1);
    at = end + 1;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace planlint;
  const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  const BenchPlan plans[] = {
      {"405B-dense-16384", "examples/llama3-405b-published.toml", "first_stage_layers ="},
      {"671B-MoE-2048", "examples/deepseek-v3-published.toml", ""},
  };
  for (const BenchPlan& bench : plans) {
    const std::string path = std::string(PLANLINT_SOURCE_DIR) + "/" + bench.file;
    Result<std::string> text = read_file(path);
    if (!text) {
      std::fprintf(stderr, "solve_bench: cannot read %s\n", path.c_str());
      return 2;
    }
    auto source = std::make_shared<const SourceFile>(path, without_line(*text, bench.drop));
    DiagnosticSink findings;
    Result<Plan> plan = load_plan(source, Catalog::builtin(), findings);
    if (!plan) {
      std::fprintf(stderr, "solve_bench: %s does not load\n", path.c_str());
      return 2;
    }
    const Estimates estimates = estimate(*plan, Catalog::builtin(), EstimateScope{false, false});
    const layout::TrainingInputs inputs = layout::read_training_inputs(*plan, Catalog::builtin(), estimates);
    solve::SearchSpec spec;  // every key free, cost minimised, the top 5
    double best = 1e300;
    solve::SearchResult result;
    for (int run = 0; run < runs; ++run) {
      const auto started = std::chrono::steady_clock::now();
      result = solve::search_training(inputs, layout::plan_layout(*plan), spec);
      best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    }
    std::printf("%s: %llu layouts (%llu pass) in %.1f ms (best of %d), %.1fM layouts/s\n", bench.name,
                static_cast<unsigned long long>(result.layouts), static_cast<unsigned long long>(result.passing),
                best * 1e3, runs, static_cast<double>(result.layouts) / best / 1e6);
    std::printf("solve_bench %s %llu %.6f\n", bench.name, static_cast<unsigned long long>(result.layouts), best);
  }
  return 0;
}
