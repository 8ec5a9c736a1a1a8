/// The published runs planlint ships as examples (examples/*-published.toml): each lints with no
/// error, and each number its paper or report publishes is within 3% of planlint's.
#include <catch2/catch.hpp>

#include <filesystem>
#include <set>

#include "planlint/lint/lint.hpp"
#include "planlint/lint/run.hpp"
#include "test_estimates_support.hpp"

using namespace planlint;
using namespace planlint::test;
namespace fs = std::filesystem;

namespace {

/// One published figure: the metric planlint computes and the value the source gives.
struct Published {
  std::string_view metric;
  double value;  ///< base units
  std::string_view where;
};

struct PublishedRun {
  std::string_view example;
  std::vector<Published> figures;
};

const std::vector<PublishedRun>& published_runs() {
  static const std::vector<PublishedRun> runs = {
      {"llama3-405b-published.toml",
       {
           // Dubey et al. 2024, §1 and §3.1: 3.8e25 FLOPs.
           {"train.flops", 3.8e25, "Llama 3, §3.1"},
       }},
      {"deepseek-v3-published.toml",
       {
           // DeepSeek-V3 Technical Report, table 1: 2,664K H800 GPU-hours of pretraining, $5.328M
           // at $2 a GPU-hour; §1: 3.7 days a trillion tokens on 2,048 GPUs (× 14.8T).
           {"cost.gpu_hours_billed", 2.664e6 * 3600, "DeepSeek-V3, table 1"},
           {"cost.total", 5.328e6, "DeepSeek-V3, table 1"},
           {"train.wall_days", 3.7 * 14.8 * 86400, "DeepSeek-V3, §1"},
       }},
      {"deepseek-v3-run-published.toml",
       {
           // DeepSeek-V3 Technical Report, table 1: 2,664K H800 GPU-hours of pre-training and 119K of
           // context extension, $5.328M and $0.238M at $2 a GPU-hour.
           {"run.gpu_hours_billed", (2.664e6 + 0.119e6) * 3600, "DeepSeek-V3, table 1"},
           {"run.cost", 5.328e6 + 0.238e6, "DeepSeek-V3, table 1"},
       }},
      {"deepseek-r1-fp4-serving-published.toml",
       {
           // TensorRT-LLM's DeepSeek-R1 guide, B200 max-throughput with FP8 KV cache: 43,146.2 output
           // tokens/s in all and 5,393.3 a GPU, so the run's GPUs are tp · pp · replicas = 8.
           {"infer.service_gpus", 43146.2042 / 5393.2755, "TensorRT-LLM DeepSeek-R1 guide"},
           // DeepSeek-V2 §2.1 (V3's MLA): d_c + d_h^R = 576 elements a layer and token, 61 layers,
           // in the checkpoint's FP8 KV cache.
           {"infer.kv_per_token", 576.0 * 61, "DeepSeek-V2 §2.1; TensorRT-LLM guide (FP8 KV)"},
       }},
      {"gb200-nvl72-published.toml",
       {
           // NVIDIA Megatron-Bridge, llama31_405b_pretrain_64gpu_gb200_fp8mx_config: 289 s an update.
           {"train.step_seconds", 289, "Megatron-Bridge GB200 recipe"},
       }},
      {"mistral-7b-published.toml",
       {
           // Jiang et al. 2023, "Mistral 7B" §2: the rolling buffer cache of W = 4096 tokens "reduces
           // the cache memory usage by 8x" at 32k tokens: 2 · 32 · 8 · 128 · 2 B a token × 32768 / 8.
           {"infer.kv_per_sequence", 2.0 * 32 * 8 * 128 * 2 * 32768 / 8, "Mistral 7B, §2"},
           {"infer.kv_tokens", 32768.0 / 8, "Mistral 7B, §2"},
       }},
      {"tpu-v5p-published.toml",
       {
           // MaxText README, TPU v5p: 315 TFLOP/s/chip at 68.68% MFU, the v5p's peak they divide by.
           {"gpu.catalog_peak", 315e12 / 0.6868, "MaxText v5p table"},
       }},
  };
  return runs;
}

}  // namespace

TEST_CASE("every published run's published numbers are within 3% of planlint's, and it lints with no error",
          "[estimates][published]") {
  for (const PublishedRun& run : published_runs()) {
    const std::string path = std::string(PLANLINT_SOURCE_DIR) + "/examples/" + std::string(run.example);
    INFO(path);
    auto text = read_file(path);
    REQUIRE(text.has_value());
    // As `planlint report` computes them: a run in stages has its totals (run.*) there.
    const FileResult linted = lint_source(std::make_shared<const SourceFile>(path, *text), LintOptions{});
    REQUIRE(linted.estimates);
    for (const Published& figure : run.figures) {
      INFO(figure.metric << " against " << figure.where);
      const MetricValue* metric = linted.estimates->find(figure.metric);
      REQUIRE(metric);
      CHECK(metric->value == Approx(figure.value).epsilon(0.03));
    }
    // As `planlint check` runs it: a published run draws no error, and none is suppressed (a
    // warning suppressed inline with its reason is the source's word against the rule).
    RunOptions options;
    options.paths = {path};
    const RunResult result = run_lint(options);
    REQUIRE(result.errors.empty());
    for (const Diagnostic& d : result.report.diagnostics) {
      INFO(d.rule << ": " << d.message);
      CHECK(d.severity != Severity::error);
    }
  }
}

TEST_CASE("every examples/*-published.toml has its published numbers checked", "[estimates][published]") {
  std::set<std::string> checked;
  for (const PublishedRun& run : published_runs()) checked.insert(std::string(run.example));
  for (const auto& entry : fs::directory_iterator(fs::path(PLANLINT_SOURCE_DIR) / "examples")) {
    const std::string name = entry.path().filename().string();
    INFO(name);
    if (name.ends_with("-published.toml")) CHECK(checked.count(name) == 1);
  }
}
