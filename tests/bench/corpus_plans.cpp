// The corpus's plans (corpus_plans.hpp says what they are and what is checked).
#include "corpus_plans.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "planlint/catalog/catalog.hpp"
#include "planlint/lint/lint.hpp"
#include "planlint/source/source_file.hpp"

namespace planlint::bench {

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

class Random {
 public:
  explicit Random(std::uint64_t seed) : engine_(seed) {}
  int pick(int n) { return static_cast<int>(engine_() % static_cast<unsigned>(n)); }
  bool chance(int percent) { return pick(100) < percent; }
  template <typename T, std::size_t N>
  const T& one_of(const T (&items)[N]) { return items[pick(static_cast<int>(N))]; }

 private:
  std::mt19937_64 engine_;
};

/// Every choice a plan's text is written from: drawn once, then repaired key by key.
struct Draw {
  int index = 0;
  const char* kind = "training";
  const Model* model = nullptr;
  const GpuSpec* gpu = nullptr;
  std::string precision;
  int updated_month = 1, updated_day = 1;
  bool review = false;
  bool kv_heads = true;
  int vocab = 32000;
  std::vector<int> comment_picks;  // a comment block per section, drawn once
  Mistake mistake = Mistake::none;
  bool misspelt_owner = false;  // `ownr = ...`: the heavy mix's second finding
  // training and finetune
  double tokens = 0;
  int seq_len = 4096, micro_batch = 1, steps_per_dp = 1, tp = 1, pp = 1, zero = 1;
  bool full_recompute = false;
  int mfu_percent = 40, goodput_percent = 90, margin_tenths = 2;
  bool has_margin = true;
  long count = 8;
  // inference
  std::string weights = "bf16";
  int context = 4096, prompt_tokens = 1024, output_tokens = 256, concurrency = 64, replicas = 1;
  std::optional<long> sla_ttft_ms, sla_itl_ms;
  // cluster
  int price_dollars = 3;

  bool training() const { return kind[0] != 'i'; }
  long dp() const { return count / (tp * pp); }
  long global_batch() const { return dp() * micro_batch * steps_per_dp; }
};

class Writer {
 public:
  template <typename... Args>
  void line(fmt::format_string<Args...> format, Args&&... args) {
    text_ += fmt::format(format, std::forward<Args>(args)...);
    text_ += '\n';
  }
  /// Up to three of the comments, the same for a section however often the plan is rewritten.
  void comment_block(const Draw& d, std::size_t section) {
    const int picks = d.comment_picks[section % d.comment_picks.size()];
    for (int i = 0; i < picks % 4; ++i) line("{}", comments[(picks / 4 + i) % std::size(comments)]);
  }
  std::string& text() { return text_; }

 private:
  std::string text_;
};

/// The plan without [[targets]] and [estimates]: what the estimates are computed from.
std::string write_body(const Draw& d) {
  Writer w;
  const Mistake m = d.mistake;
  w.line("# planlint corpus plan {} ({} of a {} model on {} × {})", d.index, d.kind, d.model->params, d.count,
         d.gpu->id);
  w.comment_block(d, 0);
  w.line("[plan]");
  w.line("name = \"corpus-{}-{}\"", d.index, d.kind);
  w.line("kind = \"{}\"", d.kind);
  w.line("{} = \"team-{}\"", d.misspelt_owner ? "ownr" : "owner", d.index % 37);
  w.line("updated = 2026-{:02}-{:02}", d.updated_month, d.updated_day);
  w.line("status = \"{}\"", d.review ? "review" : "draft");
  w.line("");
  w.comment_block(d, 1);
  w.line("[model]");
  w.line("params = \"{}\"", d.model->params);
  w.line("layers = {}", d.model->layers);
  w.line("hidden = {}", d.model->hidden);
  w.line("heads = {}", d.model->heads);
  if (d.kv_heads) w.line("kv_heads = {}", d.model->kv_heads);
  w.line("vocab = {}", d.vocab);
  w.line("");
  w.comment_block(d, 2);
  if (d.training()) {
    w.line("[training]");
    w.line("tokens = \"{:.3g}\"", d.tokens);
    w.line("precision = \"{}\"", d.precision);
    w.line("optimizer = \"adamw\"");
    w.line("seq_len = {}", d.seq_len);
    w.line("micro_batch = {}", d.micro_batch);
    w.line("global_batch = {}", d.global_batch());
    w.line("tp = {}", m == Mistake::tp_indivisible ? 7 : d.tp);
    if (d.pp > 1) w.line("pp = {}", d.pp);
    w.line("zero = {}", m == Mistake::no_sharding ? 0 : d.zero);
    w.line("recompute = \"{}\"", d.full_recompute ? "full" : "selective");
    w.line("flash_attention = true");
    w.line("mfu = \"{}%\"", m == Mistake::implausible_mfu ? 75 : d.mfu_percent);
    if (m != Mistake::no_goodput) w.line("goodput = \"{}%\"", d.goodput_percent);
    if (d.has_margin) w.line("schedule_margin = 1.{}", d.margin_tenths);
  } else {
    w.line("[inference]");
    w.line("weights = \"{}\"", d.weights);
    w.line("context = \"{} tokens\"", d.context);
    w.line("prompt_tokens = {}", d.prompt_tokens);
    w.line("output_tokens = {}", d.output_tokens);
    w.line("concurrency = \"{} seq\"", d.concurrency);
    w.line("tp = {}", d.tp);
    w.line("replicas = {}", d.replicas);
    if (d.sla_ttft_ms) w.line("sla_ttft = \"{} ms\"", *d.sla_ttft_ms);
    if (d.sla_itl_ms) w.line("sla_itl = \"{} ms\"", *d.sla_itl_ms);
    w.line("mfu = \"{}%\"", m == Mistake::implausible_mfu ? 75 : d.mfu_percent);
  }
  w.line("");
  w.comment_block(d, 3);
  w.line("[cluster]");
  w.line("gpu = \"{}\"", m == Mistake::gpu_typo ? "h100-sxn" : d.gpu->id);
  w.line("count = {}", d.count);
  w.line("gpus_per_node = 8");
  w.line("inter_node_bandwidth = \"{}\"", m == Mistake::bits_for_bytes ? "400 GB/s" : "400 Gbps");
  w.line("price = \"${}/GPU/h\"", d.price_dollars);
  if (m == Mistake::sparse_peak)
    w.line("peak = \"{:.0f} TFLOPS\"", *d.gpu->sparse_peak(*parse_precision(d.training() ? d.precision : d.weights)) / 1e12);
  if (m == Mistake::key_typo) w.line("hmb = \"{:.0f} GB\"", d.gpu->hbm_bytes / 1e9);
  w.line("");

  // One assumption per figure the time and cost rest on, as assumption-undeclared asks.
  const auto assumption = [&](const char* id, const char* key, int value, int low, int high, const char* unit,
                              const char* source) {
    w.line("[[assumptions]]");
    w.line("id = \"{}\"", id);
    w.line("key = \"{}\"", key);
    const bool dollars = unit[0] == '$';
    const auto quantity = [&](int v) { return dollars ? fmt::format("${}/GPU/h", v) : fmt::format("{}%", v); };
    const bool mfu = std::string_view(id) == "mfu";
    if (mfu && m == Mistake::range_inverted) low = value + 5;
    // The assumption backs 55–75% around its own 60%, the plan states 40%.
    if (mfu && m == Mistake::assumption_mismatch) value += 15, low += 20, high += 20;
    w.line("value = \"{}\"", quantity(value));
    w.line("low = \"{}\"", quantity(low));
    w.line("high = \"{}\"", quantity(high));
    if (!(mfu && m == Mistake::unsourced_assumption)) w.line("source = \"{}\"", fmt::format(fmt::runtime(source), d.count));
    if (!mfu && dollars && m == Mistake::assumption_stale)
      w.line("updated = 2025-01-{:02}", d.updated_day);
    else
      w.line("updated = 2026-{:02}-{:02}", 9 + d.updated_day % 3, d.updated_day);
    w.line("");
  };
  const char* const mfu_key = d.training() ? "training.mfu" : "inference.mfu";
  assumption("mfu", mfu_key, d.mfu_percent, d.mfu_percent - 10, d.mfu_percent + 10, "%",
             "trial run of this configuration, {} GPUs, 2026-10");
  if (d.training() && m != Mistake::no_goodput)
    assumption("goodput", "training.goodput", d.goodput_percent, d.goodput_percent - 5,
               std::min(99, d.goodput_percent + 4), "%", "failure log of the last three runs at {} GPUs");
  assumption("price", "cluster.price", d.price_dollars, d.price_dollars - 1, d.price_dollars + 1, "$",
             "reserved-instance quotes from two providers for {} GPUs, 1-year term, 2026-Q4");
  return std::move(w.text());
}

/// A figure as a plan writes it: three significant figures, in the metric's usual unit.
std::string claim_days(double seconds) { return fmt::format("{:.3g} d", seconds / 86400); }
std::string claim_dollars(double usd) { return fmt::format("${:.3g}M", usd / 1e6); }

/// What the [[targets]] and [estimates] hold, drawn before they are written: the mistaken
/// plan's are the coherent plan's, checked, with what its mistake needs added.
struct TailDraw {
  int targets = 0;
  bool first_hard = false, second_hard = false;
  bool estimates = false, days = false, memory = false, gpu_hours = false, kv_cache = false;
};

TailDraw draw_tail(const Draw& d, Random& random) {
  TailDraw t;
  t.targets = random.pick(3);
  t.first_hard = random.chance(50);
  t.second_hard = random.chance(50);
  t.estimates = random.chance(d.training() ? 80 : 60);
  t.days = random.chance(70);
  t.memory = random.chance(50);
  t.gpu_hours = random.chance(30);
  t.kv_cache = random.chance(50);
  return t;
}

/// The claims a mistake needs to show: a slip or a point needs its claim, and no goodput a
/// claimed time (missing-goodput asks for it only where the plan states a time or a cost).
TailDraw with_claims_for(TailDraw t, Mistake mistake) {
  if (mistake == Mistake::unit_slip) t.estimates = t.gpu_hours = true;
  if (mistake == Mistake::point_estimate || mistake == Mistake::no_goodput) t.estimates = t.days = true;
  if (mistake == Mistake::claim_off) t.estimates = true;
  return t;
}

/// The [[targets]] and [estimates], from the plan's estimates: targets with room to spare,
/// claims as planlint computes them (ranges where an assumption moves them).
std::string write_tail(const Draw& d, const Estimates& estimates, const TailDraw& t) {
  Writer w;
  const Mistake m = d.mistake;
  const auto metric = [&](const char* name) { return estimates.find(name); };
  int target_index = 0;
  const auto target = [&](const char* name, const std::string& max, bool hard) {
    w.line("[[targets]]");
    w.line("name = \"target {}\"", target_index++);
    w.line("metric = \"{}\"", name);
    w.line("max = \"{}\"", max);
    w.line("hard = {}", hard ? "true" : "false");
    w.line("");
  };
  if (d.training()) {
    const MetricValue* days = metric("train.days");
    const MetricValue* cost = metric("cost.total");
    if (m == Mistake::target_missed && days)
      target("train.days", claim_days(days->value / 2), true);
    else if (t.targets > 0 && days)
      target("train.days", fmt::format("{:.0f} d", std::ceil(days->high.value_or(days->value) / 86400 * 1.2)),
             t.first_hard);
    if (t.targets > 1 && cost) target("cost.total", claim_dollars(cost->high.value_or(cost->value) * 1.3), t.second_hard);
    if (!t.estimates) return std::move(w.text());
    w.comment_block(d, 4);
    w.line("[estimates]");
    if (const MetricValue* flops = metric("train.flops"))
      w.line("\"train.flops\" = \"{:.3g} FLOP\"", flops->value * (m == Mistake::claim_off ? 2 : 1));
    if (days && t.days) {
      if (m == Mistake::point_estimate || !days->has_range())
        w.line("\"train.days\" = \"{}\"", claim_days(days->value));
      else
        w.line("\"train.days\" = {{ value = \"{}\", low = \"{}\", high = \"{}\" }}", claim_days(days->value),
               claim_days(*days->low), claim_days(*days->high));
    }
    if (const MetricValue* memory = metric("train.memory.total"); memory && t.memory)
      w.line("\"train.memory.total\" = \"{:.3g} GB\"", memory->value / 1e9);
    if (const MetricValue* hours = metric("train.gpu_hours"); hours && t.gpu_hours) {
      if (m == Mistake::unit_slip)  // GPU-seconds written as GPU-hours: 3600× too large
        w.line("\"train.gpu_hours\" = \"{:.3g} GPU-h\"", hours->value);
      else if (hours->has_range())
        w.line("\"train.gpu_hours\" = {{ value = \"{:.3g} GPU-h\", low = \"{:.3g} GPU-h\", high = \"{:.3g} GPU-h\" }}",
               hours->value / 3600, *hours->low / 3600, *hours->high / 3600);
      else
        w.line("\"train.gpu_hours\" = \"{:.3g} GPU-h\"", hours->value / 3600);
    }
  } else {
    if (const MetricValue* ttft = metric("infer.ttft"); ttft && m == Mistake::target_missed)
      target("infer.ttft", fmt::format("{:.3g} ms", ttft->value * 1000 / 2), true);
    else if (t.targets > 0 && ttft && d.sla_ttft_ms)
      target("infer.ttft", fmt::format("{} ms", *d.sla_ttft_ms), t.first_hard);
    if (!t.estimates) return std::move(w.text());
    w.comment_block(d, 4);
    w.line("[estimates]");
    if (const MetricValue* weights = metric("infer.weights"))
      w.line("\"infer.weights\" = \"{:.3g} GB\"", weights->value / 1e9 * (m == Mistake::claim_off ? 2 : 1));
    if (const MetricValue* kv = metric("infer.kv_cache"); kv && t.kv_cache)
      w.line("\"infer.kv_cache\" = \"{:.3g} GB\"", kv->value / 1e9);
  }
  w.line("");
  return std::move(w.text());
}

/// False when the draw needs more GPUs than a plan books (16,384): the plan is redrawn.
bool draw_training(Draw& d, Random& random) {
  const Model& model = *d.model;
  const bool finetune = d.kind[0] == 'f';
  d.tokens = finetune ? model.n * 0.01 * (1 + random.pick(5)) : model.n * 20.0 * (1 + random.pick(10));
  d.precision = d.gpu->dense_peak(Precision::bf16) ? "bf16" : "fp16";
  if (d.gpu->dense_peak(Precision::fp8) && random.chance(20)) d.precision = "fp8";
  d.seq_len = 2048 << random.pick(3);
  d.micro_batch = 1 + random.pick(2);
  d.tp = model.n > 30e9 ? 8 : model.n > 10e9 ? 4 << random.pick(2) : 1 << random.pick(3);
  d.pp = model.n > 100e9 ? 4 << random.pick(2) : model.n > 30e9 ? 1 << random.pick(2) : 1;
  d.zero = 1 + random.pick(3);
  d.full_recompute = random.chance(30);
  d.mfu_percent = 35 + random.pick(16);
  d.goodput_percent = 85 + random.pick(10);
  d.has_margin = random.chance(90);
  d.margin_tenths = 1 + random.pick(3);
  // GPUs for a run of 10–90 days at the drawn MFU, in whole nodes of whole model replicas.
  const double peak = *d.gpu->dense_peak(*parse_precision(d.precision));
  const double gpu_seconds = 6 * model.n * d.tokens / (peak * d.mfu_percent / 100.0);
  const double days = finetune ? 1 + random.pick(5) : 10 + random.pick(80);
  const long replica = std::max(8L, static_cast<long>(d.tp) * d.pp);
  const long needed = static_cast<long>(std::ceil(gpu_seconds / (days * 86400)));
  d.count = std::max(replica, (needed + replica - 1) / replica * replica);
  // Enough micro-batches per pipeline that the bubble stays small ((pp − 1) / m ≤ 20%).
  d.steps_per_dp = d.pp > 1 ? 8 * d.pp : 1 << random.pick(3);
  return d.count <= 16384;
}

void draw_inference(Draw& d, Random& random) {
  const Model& model = *d.model;
  d.weights = d.gpu->dense_peak(Precision::fp8) && random.chance(50) ? "fp8" : "bf16";
  const double weight_bytes = model.n * (d.weights == "fp8" ? 1 : 2);
  d.tp = 1;
  while (d.tp < 8 && weight_bytes / d.tp > 0.5 * d.gpu->hbm_bytes) d.tp *= 2;
  d.context = 2048 << random.pick(3);
  d.prompt_tokens = d.context / 4 << random.pick(2);
  d.output_tokens = d.context / 8;
  d.concurrency = 8 << random.pick(4);
  d.replicas = 1 + random.pick(16);
  d.count = static_cast<long>(d.replicas) * d.tp;
  d.mfu_percent = 35 + random.pick(20);
}

/// Nothing when the draw is out of reach (draw_training).
std::optional<Draw> draw_plan(int index, Random& random) {
  Draw d;
  d.index = index;
  const int kind_roll = random.pick(100);
  d.kind = kind_roll < 60 ? "training" : kind_roll < 85 ? "inference" : "finetune";
  d.model = &random.one_of(models);
  d.gpu = Catalog::builtin().find(random.one_of(gpus));
  d.updated_month = 1 + random.pick(11);
  d.updated_day = 1 + random.pick(28);
  d.review = random.chance(50);
  d.kv_heads = random.chance(70);
  d.vocab = random.chance(50) ? 128256 : 32000;
  for (int i = 0; i < 5; ++i) d.comment_picks.push_back(random.pick(32));
  d.price_dollars = 2 + random.pick(3);
  if (d.training() && !draw_training(d, random)) return std::nullopt;
  if (!d.training()) draw_inference(d, random);
  return d;
}

/// Sets the inference SLAs with room above the latency bounds planlint computes for the plan.
bool set_slas(Draw& d, const Estimates& estimates) {
  const MetricValue* ttft = estimates.find("infer.ttft");
  const MetricValue* itl = estimates.find("infer.itl_at_concurrency");
  if (!itl) itl = estimates.find("infer.itl");
  if (!ttft || !itl) return false;
  d.sla_ttft_ms = static_cast<long>(std::ceil(ttft->value * 2 * 10)) * 100;  // 2×, whole 100 ms
  d.sla_itl_ms = static_cast<long>(std::ceil(itl->value * 1.5 * 100)) * 10;  // 1.5×, whole 10 ms
  return true;
}

/// Changes what the finding of `rule` names, the way a plan's author would; false when there is
/// nothing left to change (the plan is redrawn).
bool repair(Draw& d, std::string_view rule, const Estimates& estimates) {
  const auto doubled = [&](int& degree, int limit) {
    if (degree >= limit) return false;
    degree *= 2;
    return true;
  };
  if (rule == "memory-fit") {
    if (d.zero < 3) return ++d.zero, true;
    if (!d.full_recompute) return d.full_recompute = true, true;
    if (d.micro_batch > 1) return d.micro_batch = 1, true;
    if (d.tp < 8) return d.count *= 2, doubled(d.tp, 8);
    return d.count *= 2, doubled(d.pp, 16);
  }
  if (rule == "interconnect-bottleneck" || rule == "pipeline-bubble") return doubled(d.steps_per_dp, 256);
  if (rule == "attention-flops") return d.seq_len > 2048 && (d.seq_len /= 2, true);
  if (rule == "inference-memory-fit" || rule == "batch-decode-bound" || rule == "peak-concurrency") {
    if (d.concurrency > 8) return d.concurrency /= 2, true;
    if (d.context > 2048) return d.context /= 2, d.prompt_tokens = std::min(d.prompt_tokens, d.context / 2), true;
    if (d.tp < 8) return d.tp *= 2, d.count = static_cast<long>(d.replicas) * d.tp, true;
    return false;
  }
  if (rule == "sla-unreachable" || rule == "decode-bound") return set_slas(d, estimates);
  return false;
}

LintOptions oracle_options() {
  LintOptions options;
  options.today = Date{2026, 12, 1};  // scripts/bench's --today
  options.full_estimates = true;      // the claims' ranges
  return options;
}

FileResult lint_plan(const std::string& text, int index, const LintOptions& options) {
  auto source = std::make_shared<const SourceFile>(fmt::format("{:05}.toml", index), text);
  return lint_source(std::move(source), options);
}

/// The first warning or error of `result`, or nullptr when it has notes at most.
const Diagnostic* first_problem(const FileResult& result) {
  for (const Diagnostic& diagnostic : result.diagnostics)
    if (diagnostic.severity != Severity::note) return &diagnostic;
  return nullptr;
}

bool draws(const FileResult& result, std::string_view rule) {
  return std::any_of(result.diagnostics.begin(), result.diagnostics.end(),
                     [&](const Diagnostic& d) { return d.rule == rule; });
}

/// The mistake a plan can carry: one it has no place for becomes one it has.
Mistake placed(Mistake mistake, const Draw& d) {
  if (!d.training() && (mistake == Mistake::no_goodput || mistake == Mistake::no_sharding ||
                        mistake == Mistake::unit_slip || mistake == Mistake::point_estimate ||
                        mistake == Mistake::tp_indivisible))
    return Mistake::key_typo;
  if (mistake == Mistake::sparse_peak && !d.gpu->sparse_peak(*parse_precision(d.training() ? d.precision : d.weights)))
    mistake = Mistake::bits_for_bytes;
  // A TPU's chips talk over ICI, not network cards: 400 GB/s a chip is no bit rate in bytes.
  if (mistake == Mistake::bits_for_bytes && d.gpu->scale_out() == ScaleOut::ici) return Mistake::key_typo;
  return mistake;
}

}  // namespace

std::string_view expected_rule(Mistake mistake) {
  switch (mistake) {
    case Mistake::none: return "";
    case Mistake::implausible_mfu: return "mfu-implausible";
    case Mistake::gpu_typo: return "unknown-gpu";
    case Mistake::bits_for_bytes: return "bits-for-bytes";
    case Mistake::sparse_peak: return "sparse-peak";
    case Mistake::key_typo: return "unknown-key";
    case Mistake::unit_slip: return "unit-slip";
    case Mistake::point_estimate: return "missing-range";
    case Mistake::unsourced_assumption: return "assumption-missing-source";
    case Mistake::no_goodput: return "missing-goodput";
    case Mistake::no_sharding: return "memory-fit";
    case Mistake::claim_off: return "estimate-mismatch";
    case Mistake::target_missed: return "hard-target-violated";
    case Mistake::range_inverted: return "assumption-range-inverted";
    case Mistake::assumption_mismatch: return "assumption-value-mismatch";
    case Mistake::assumption_stale: return "assumption-stale";
    case Mistake::tp_indivisible: return "tp-heads-indivisible";
  }
  return "";
}

std::string_view to_string(Mistake mistake) {
  switch (mistake) {
    case Mistake::none: return "none";
    case Mistake::implausible_mfu: return "implausible MFU";
    case Mistake::gpu_typo: return "GPU typo";
    case Mistake::bits_for_bytes: return "bits for bytes";
    case Mistake::sparse_peak: return "sparse peak";
    case Mistake::key_typo: return "key typo";
    case Mistake::unit_slip: return "unit slip";
    case Mistake::point_estimate: return "point estimate";
    case Mistake::unsourced_assumption: return "unsourced assumption";
    case Mistake::no_goodput: return "no goodput";
    case Mistake::no_sharding: return "no sharding";
    case Mistake::claim_off: return "claim off";
    case Mistake::target_missed: return "target missed";
    case Mistake::range_inverted: return "range inverted";
    case Mistake::assumption_mismatch: return "assumption mismatch";
    case Mistake::assumption_stale: return "assumption stale";
    case Mistake::tp_indivisible: return "tp indivisible";
  }
  return "?";
}

struct CorpusGenerator::State {
  State(std::uint64_t seed, Mix mix) : random(seed), mix(mix) {}
  Random random;
  Mix mix;
  LintOptions options = oracle_options();
  int redraws = 0;
};

CorpusGenerator::CorpusGenerator(std::uint64_t seed, Mix mix) : state_(std::make_unique<State>(seed, mix)) {}
CorpusGenerator::~CorpusGenerator() = default;
int CorpusGenerator::redraws() const { return state_->redraws; }

CorpusPlan CorpusGenerator::make(int index) {
  Random& random = state_->random;
  const LintOptions& options = state_->options;
  const bool drawn_mistaken = random.chance(20);  // drawn in every mix, so that each has the same plans
  const bool mistaken = state_->mix == Mix::heavy || (state_->mix == Mix::varied && drawn_mistaken);
  const auto mistake = static_cast<Mistake>(1 + random.pick(mistake_count));
  for (;;) {
    std::optional<Draw> drawn = draw_plan(index, random);
    if (!drawn) {
      ++state_->redraws;
      continue;
    }
    Draw& d = *drawn;
    bool clean = false;
    std::optional<FileResult> result;
    for (int repairs = 0; repairs < 16; ++repairs) {
      result = lint_plan(write_body(d), index, options);
      if (!result->estimates) break;
      const Diagnostic* problem = first_problem(*result);
      if (!problem && !d.training() && !d.sla_ttft_ms) {
        // An inference plan's SLAs come from its first estimates: objectives it can meet.
        if (!set_slas(d, *result->estimates)) break;
        continue;
      }
      if (!problem) {
        clean = true;
        break;
      }
      if (!repair(d, problem->rule, *result->estimates)) break;
    }
    if (!clean) {
      ++state_->redraws;
      continue;
    }
    const Estimates& estimates = *result->estimates;
    const TailDraw tail = draw_tail(d, random);
    std::string text = write_body(d) + write_tail(d, estimates, tail);
    if (const Diagnostic* problem = first_problem(lint_plan(text, index, options)))
      // The claims and targets come from the plan's own estimates: a false alarm, or a bug
      // here, not a draw to retry.
      throw CorpusError(fmt::format("corpus plan {}: a coherent plan draws {}: {}\n{}", index, problem->rule,
                                    problem->message, text));
    if (!mistaken) return {std::move(text), Mistake::none};

    d.mistake = placed(mistake, d);
    d.misspelt_owner = state_->mix == Mix::heavy;
    text = write_body(d) + write_tail(d, estimates, with_claims_for(tail, d.mistake));
    const FileResult mistaken_result = lint_plan(text, index, options);
    if (!draws(mistaken_result, expected_rule(d.mistake))) {
      // ZeRO 0 is no mistake where the model fits without sharding.
      if (d.mistake == Mistake::no_sharding) {
        d.mistake = Mistake::key_typo;
        text = write_body(d) + write_tail(d, estimates, tail);
        if (draws(lint_plan(text, index, options), expected_rule(d.mistake))) return {std::move(text), d.mistake};
      }
      throw CorpusError(fmt::format("corpus plan {}: the mistake '{}' does not draw {}\n{}", index,
                                    to_string(d.mistake), expected_rule(d.mistake), text));
    }
    return {std::move(text), d.mistake};
  }
}

}  // namespace planlint::bench
