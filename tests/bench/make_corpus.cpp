// bench_make_corpus OUT_DIR [COUNT] [SEED] [MIX]: writes COUNT (10,000) plans to
// OUT_DIR/NNNNN.toml for scripts/bench. MIX is `varied` (one plan in five with a mistake, the
// default), `clean` (none), `heavy` (every plan with a mistake and a misspelt key) or `short`
// (plans of about 0.5 KB with two findings each, short_plans.hpp; the seed does not change them).
// Deterministic for a seed. What the plans are, and what is checked as they are made:
// corpus_plans.hpp.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <fmt/format.h>

#include "corpus_plans.hpp"
#include "short_plans.hpp"

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_make_corpus OUT_DIR [COUNT] [SEED] [varied|clean|heavy|short]\n");
    return 2;
  }
  const fs::path out = argv[1];
  const int count = argc > 2 ? std::atoi(argv[2]) : 10000;
  using planlint::bench::Mix;
  const std::string mix_name = argc > 4 ? argv[4] : "varied";
  if (mix_name != "varied" && mix_name != "clean" && mix_name != "heavy" && mix_name != "short") {
    std::fprintf(stderr, "bench_make_corpus: the mix is varied, clean, heavy or short, not '%s'\n", mix_name.c_str());
    return 2;
  }
  const Mix mix = mix_name == "clean" ? Mix::clean : mix_name == "heavy" ? Mix::heavy : Mix::varied;
  planlint::bench::CorpusGenerator generator(argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 2026, mix);
  fs::remove_all(out);
  fs::create_directories(out);
  std::size_t bytes = 0;
  int mistaken = 0;
  try {
    for (int i = 0; i < count; ++i) {
      const planlint::bench::CorpusPlan plan = mix_name == "short"
                                                   ? planlint::bench::CorpusPlan{planlint::bench::short_plan(i),
                                                                                 planlint::bench::Mistake::key_typo}
                                                   : generator.make(i);
      bytes += plan.text.size();
      mistaken += plan.mistake != planlint::bench::Mistake::none;
      std::ofstream(out / fmt::format("{:05}.toml", i), std::ios::binary) << plan.text;
    }
  } catch (const planlint::bench::CorpusError& error) {
    std::fprintf(stderr, "bench_make_corpus: %s", error.what());
    return 1;
  }
  std::printf("%d plans (%d with a mistake), %zu bytes, in %s (%d draws redrawn)\n", count, mistaken, bytes,
              out.c_str(), generator.redraws());
  return 0;
}
