// bench_make_corpus OUT_DIR [COUNT] [SEED]: writes COUNT (10,000) varied plans to
// OUT_DIR/plans/NNNNN.toml for scripts/bench. Deterministic for a seed. The mix resembles real
// plan files: training, inference and fine-tuning plans of 1B–405B models on every catalog GPU,
// commented (0.6–2.1 KB, 1.3 KB on average), most with [estimates], [[targets]] and
// [[assumptions]]; about one in five carries a mistake a rule reports (a typo, a sparse peak, a
// unit slip, bits for bytes, a model that does not fit).
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace fs = std::filesystem;

namespace {

struct Model {
  const char* params;
  double n;
  int layers, hidden, heads, kv_heads;
};

constexpr Model models[] = {
    {"1B", 1e9, 16, 2048, 16, 8},      {"3B", 3e9, 28, 3072, 24, 8},
    {"7B", 7e9, 32, 4096, 32, 32},     {"8B", 8e9, 32, 4096, 32, 8},
    {"13B", 13e9, 40, 5120, 40, 40},   {"34B", 34e9, 48, 8192, 64, 8},
    {"70B", 70e9, 80, 8192, 64, 8},    {"175B", 175e9, 96, 12288, 96, 96},
    {"405B", 405e9, 126, 16384, 128, 8}};

constexpr const char* gpus[] = {"v100-sxm2", "a100-sxm", "a100-pcie", "h100-sxm", "h100-pcie",
                                "h100-nvl",  "h800-sxm", "h200-sxm",  "b200",     "gb200",
                                "mi300x",    "mi325x",   "l40s",      "rtx-4090", "tpu-v5p"};

constexpr const char* comments[] = {
    "# Reviewed with the capacity team; numbers from the last trial run.",
    "# The price is the reserved rate of the 1-year term, not on-demand.",
    "# Tensor parallel stays inside the node (NVLink); pipeline stages span nodes.",
    "# MFU from our 256-GPU trial of this configuration, 2026-10.",
    "# Goodput accounts for restarts after node failures and checkpoint stalls.",
    "# See the design doc for the data mix; tokens are after deduplication.",
    "# Ranges take each assumption at the end that moves the metric the same way.",
    "# The schedule margin covers evaluation pauses and cluster maintenance windows.",
};

class Writer {
 public:
  explicit Writer(std::mt19937_64& random) : random_(random) {}

  int pick(int n) { return static_cast<int>(random_() % static_cast<unsigned>(n)); }
  bool chance(int percent) { return pick(100) < percent; }

  void comment_block() {
    for (int i = 0, n = pick(4); i < n; ++i) line("{}", comments[pick(static_cast<int>(std::size(comments)))]);
  }
  template <typename... Args>
  void line(fmt::format_string<Args...> format, Args&&... args) {
    text_ += fmt::format(format, std::forward<Args>(args)...);
    text_ += '\n';
  }
  std::string take() { return std::move(text_); }

 private:
  std::mt19937_64& random_;
  std::string text_;
};

std::string make_plan(int index, std::mt19937_64& random) {
  Writer w(random);
  const int kind_roll = w.pick(100);
  const char* kind = kind_roll < 60 ? "training" : kind_roll < 85 ? "inference" : "finetune";
  const Model& model = models[w.pick(static_cast<int>(std::size(models)))];
  const char* gpu = gpus[w.pick(static_cast<int>(std::size(gpus)))];
  const bool mistake = w.chance(20);
  const int mistake_kind = w.pick(5);
  const int count = 8 << w.pick(kind_roll < 60 ? 12 : 5);

  w.line("# planlint corpus plan {} ({} of a {} model on {} × {})", index, kind, model.params, count, gpu);
  w.comment_block();
  w.line("[plan]");
  w.line("name = \"corpus-{}-{}\"", index, kind);
  w.line("kind = \"{}\"", kind);
  w.line("owner = \"team-{}\"", index % 37);
  w.line("updated = 2026-{:02}-{:02}", 1 + w.pick(11), 1 + w.pick(28));
  w.line("status = \"{}\"", w.chance(50) ? "review" : "draft");
  w.line("");
  w.comment_block();
  w.line("[model]");
  w.line("params = \"{}\"", model.params);
  w.line("layers = {}", model.layers);
  w.line("hidden = {}", model.hidden);
  w.line("heads = {}", model.heads);
  if (w.chance(70)) w.line("kv_heads = {}", model.kv_heads);
  w.line("vocab = {}", w.chance(50) ? 128256 : 32000);
  w.line("");

  const bool training = kind[0] != 'i';
  if (training) {
    const double tokens = model.n * (kind[0] == 'f' ? 0.01 : 20.0 * (1 + w.pick(10)));
    w.comment_block();
    w.line("[training]");
    w.line("tokens = \"{:.3g}\"", tokens);
    w.line("precision = \"{}\"", w.chance(80) ? "bf16" : "fp8");
    w.line("optimizer = \"adamw\"");
    w.line("seq_len = {}", 2048 << w.pick(3));
    w.line("micro_batch = {}", 1 + w.pick(2));
    w.line("global_batch = {}", 256 << w.pick(4));
    const int tp = model.n > 30e9 ? 8 : 1 << w.pick(3);
    w.line("tp = {}", tp);
    if (model.n > 100e9) w.line("pp = {}", 4 << w.pick(2));
    w.line("zero = {}", w.pick(4));
    w.line("recompute = \"{}\"", w.chance(50) ? "selective" : "full");
    w.line("flash_attention = true");
    w.line("mfu = \"{}%\"", mistake && mistake_kind == 0 ? 75 : 30 + w.pick(20));
    if (w.chance(80)) w.line("goodput = \"{}%\"", 80 + w.pick(15));
    if (w.chance(70)) w.line("schedule_margin = 1.{}", 1 + w.pick(4));
    if (w.chance(40)) w.line("checkpoint_interval = \"{} h\"", 1 + w.pick(3));
  } else {
    w.comment_block();
    w.line("[inference]");
    w.line("weights = \"{}\"", w.chance(50) ? "fp8" : "bf16");
    w.line("context = \"{} tokens\"", 2048 << w.pick(3));
    w.line("prompt_tokens = {}", 512 << w.pick(3));
    w.line("output_tokens = {}", 256 << w.pick(3));
    w.line("concurrency = \"{} seq\"", 16 << w.pick(5));
    w.line("tp = {}", 1 << w.pick(4));
    w.line("replicas = {}", 1 + w.pick(16));
    w.line("sla_ttft = \"{} ms\"", 200 + 100 * w.pick(10));
    w.line("sla_itl = \"{} ms\"", 20 + 10 * w.pick(5));
    w.line("mfu = \"{}%\"", 30 + w.pick(30));
  }
  w.line("");
  w.comment_block();
  w.line("[cluster]");
  w.line("gpu = \"{}\"", mistake && mistake_kind == 1 ? "h100-sxn" : gpu);
  w.line("count = {}", count);
  w.line("gpus_per_node = 8");
  w.line("inter_node_bandwidth = \"{}\"", mistake && mistake_kind == 2 ? "400 GB/s" : "400 Gbps");
  w.line("price = \"${}/GPU/h\"", 2 + w.pick(3));
  if (mistake && mistake_kind == 3) w.line("peak = \"1979 TFLOPS\"");
  if (mistake && mistake_kind == 4) w.line("hmb = \"80 GB\"");
  w.line("");

  for (int i = 0, n = w.pick(3); i < n; ++i) {
    w.line("[[targets]]");
    w.line("name = \"target {}\"", i);
    if (training) {
      w.line("metric = \"{}\"", i == 0 ? "train.days" : "cost.total");
      w.line("max = \"{}\"", i == 0 ? fmt::format("{} d", 30 + w.pick(90)) : fmt::format("${}M", 1 + w.pick(30)));
    } else {
      w.line("metric = \"infer.ttft\"");
      w.line("max = \"{} ms\"", 300 + 100 * w.pick(10));
    }
    w.line("hard = {}", w.chance(50) ? "true" : "false");
    w.line("");
  }
  if (w.chance(70)) {
    w.line("[[assumptions]]");
    w.line("id = \"mfu\"");
    w.line("key = \"{}.mfu\"", training ? "training" : "inference");
    w.line("value = \"40%\"");
    w.line("low = \"30%\"");
    w.line("high = \"50%\"");
    if (w.chance(80)) w.line("source = \"trial run of this configuration, {} GPUs, 2026-10\"", count);
    w.line("updated = 2026-10-{:02}", 1 + w.pick(28));
    w.line("");
  }
  if (training && w.chance(60)) {
    w.comment_block();
    w.line("[estimates]");
    const double flops = 6 * model.n * model.n * 20;
    w.line("\"train.flops\" = \"{:.3g} FLOP\"", flops);
    if (w.chance(50)) w.line("\"train.days\" = {{ value = \"{} d\", low = \"{} d\", high = \"{} d\" }}", 40, 30, 60);
    if (w.chance(50)) w.line("\"train.memory.total\" = \"{} GB\"", 20 + w.pick(60));
    if (mistake) w.line("\"train.gpu_hours\" = \"{:.3g} GPU-h\"", flops / 1e15 / 3600 * 3600);
  }
  return w.take();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_make_corpus OUT_DIR [COUNT] [SEED]\n");
    return 2;
  }
  const fs::path out = fs::path(argv[1]) / "plans";
  const int count = argc > 2 ? std::atoi(argv[2]) : 10000;
  std::mt19937_64 random(argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 2026);
  fs::remove_all(out);
  fs::create_directories(out);
  std::size_t bytes = 0;
  for (int i = 0; i < count; ++i) {
    const std::string plan = make_plan(i, random);
    bytes += plan.size();
    std::ofstream(out / fmt::format("{:05}.toml", i), std::ios::binary) << plan;
  }
  std::printf("%d plans, %zu bytes, in %s\n", count, bytes, out.c_str());
  return 0;
}
