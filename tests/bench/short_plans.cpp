#include "short_plans.hpp"

#include <array>
#include <memory>
#include <string_view>

#include <fmt/format.h>

#include "corpus_plans.hpp"
#include "planlint/lint/lint.hpp"
#include "planlint/source/source_file.hpp"

namespace planlint::bench {

namespace {

struct ShortModel {
  const char* params;
  int layers, hidden, heads;
  const char* tokens;
};

constexpr ShortModel models[] = {{"1B", 16, 2048, 16, "100B"}, {"3B", 28, 3072, 24, "300B"},
                                 {"8B", 32, 4096, 32, "1T"},    {"13B", 40, 5120, 40, "2T"},
                                 {"34B", 48, 8192, 64, "3T"},   {"70B", 80, 8192, 64, "15T"}};
constexpr const char* gpus[] = {"h100-sxm", "a100-sxm", "h200-sxm", "mi300x", "b200"};

/// The rule finding a plan carries besides its misspelt key, and the lines that make it.
struct ShortMistake {
  std::string_view rule;
  const char* cluster_lines;   ///< appended to [cluster]
  const char* training_lines;  ///< appended to [training]
};

constexpr ShortMistake mistakes[] = {
    {"bits-for-bytes", "inter_node_bandwidth = \"400 GB/s\"\n", ""},
    {"tp-heads-indivisible", "", "tp = 6\n"},
    {"unknown-gpu", "", ""},  // cluster.gpu misspelt below
    {"plan-stale", "", ""},   // reviewed in 2025
    {"gpu-link-mismatch", "intra_node_bandwidth = \"7200 GB/s\"\n", ""},
};

std::string plan_text(int index, const ShortModel& model, const char* gpu, const ShortMistake& mistake) {
  const bool stale = mistake.rule == "plan-stale";
  // tp = 6 (tp-heads-indivisible's plans) needs a GPU count it divides, or the count is a
  // bad-value finding too.
  const int count = (mistake.rule == "tp-heads-indivisible" ? 48 : 64) << (index % 4);
  return fmt::format(
      "# Sketch {} of a {} run: sizes first; MFU, goodput and price come later.\n"
      "[plan]\nname = \"sketch-{}\"\nkind = \"training\"\nownr = \"ml-infra\"\nupdated = {}\n\n"
      "[model]\nparams = \"{}\"\nlayers = {}\nhidden = {}\n"
      "heads = {}          # kv_heads as many until GQA is decided\n\n"
      "[training]\ntokens = \"{}\"\nprecision = \"bf16\"\nseq_len = 4096\n"
      "global_batch = 1024  # sequences: 4M tokens a step\nmicro_batch = 1\n{}\n"
      "[cluster]\ngpu = \"{}{}\"\ncount = {}\n{}",
      index, model.params, index, stale ? "2025-03-02" : "2026-11-02", model.params, model.layers, model.hidden,
      model.heads, model.tokens, mistake.training_lines, gpu, mistake.rule == "unknown-gpu" ? "x" : "", count,
      mistake.cluster_lines);
}

}  // namespace

std::string short_plan(int index) {
  LintOptions options;
  options.today = Date{2026, 12, 1};  // scripts/bench's --today
  options.full_estimates = false;
  // The mistake is the index's; the model and the GPU the first of the index's draws that
  // give exactly the two findings (the states of a large model on few GPUs overflow its HBM; tp 6
  // divides the heads of some models, which then draw no tp-heads-indivisible).
  const ShortMistake& mistake = mistakes[static_cast<std::size_t>(index) % std::size(mistakes)];
  for (std::size_t attempt = 0; attempt < std::size(models) * std::size(gpus); ++attempt) {
    const std::size_t draw = static_cast<std::size_t>(index) / std::size(mistakes) + attempt;
    const ShortModel& model = models[draw % std::size(models)];
    const char* gpu = gpus[(draw / std::size(models) + static_cast<std::size_t>(index)) % std::size(gpus)];
    std::string text = plan_text(index, model, gpu, mistake);
    const FileResult result =
        lint_source(std::make_shared<const SourceFile>(fmt::format("{:05}.toml", index), text), options);
    if (result.diagnostics.size() != 2) continue;
    const bool expected = (result.diagnostics[0].rule == "unknown-key" && result.diagnostics[1].rule == mistake.rule) ||
                          (result.diagnostics[1].rule == "unknown-key" && result.diagnostics[0].rule == mistake.rule);
    if (expected) return text;
  }
  throw CorpusError(fmt::format("short plan {}: no draw gives exactly unknown-key and {}", index, mistake.rule));
}

}  // namespace planlint::bench
