#include "planlint/plan/defaults.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "planlint/diag/native_rules.hpp"
#include "planlint/plan/schema.hpp"

namespace planlint {

namespace {
using namespace units::dims;

class Defaulter {
 public:
  Defaulter(Plan& plan) : plan_(plan) {}

  /// Sets `section.key`, a plan key, unless the plan states it.
  void set(std::string_view section, std::string_view key, Scalar value,
           Origin origin = Origin::default_, Span span = {}) {
    const KeySpec* spec = find_key(section, key);
    if (!spec) throw std::logic_error(fmt::format("a default for {}.{}, not a plan key", section, key));
    PlanTable& table = plan_.sections.of(*spec);
    if (table.values.find(*spec)) return;
    // A stated but invalid or misspelt value gets no default: `zero = 4` is not ZeRO-0.
    if ((!plan_.invalid_keys.empty() || !plan_.misspellings.empty()) &&
        plan_.states_unread(fmt::format("{}.{}", section, key)))
      return;
    if (!span.known()) span = table.header;
    table.values.emplace(*spec, PlanValue{std::move(value), span, Span{}, origin});
  }
  void set_quantity(std::string_view section, std::string_view key, double value,
                    units::Dimension dim, Origin origin = Origin::default_, Span span = {}) {
    set(section, key, units::Quantity{value, dim}, origin, span);
  }
  double number_or(std::string_view path, double fallback) const {
    return plan_.number(path).value_or(fallback);
  }

 private:
  Plan& plan_;
};

}  // namespace

namespace {

/// A plan's training precision when it states none: bf16, or fp16 on a GPU whose tensor cores
/// have no BF16 (Volta: a V100 trains in FP16 mixed precision).
std::string default_training_precision(const Plan& plan, const Catalog& catalog) {
  if (auto gpu = plan.text("cluster.gpu"))
    if (const GpuSpec* spec = catalog.find(*gpu);
        spec && !spec->dense_peak(Precision::bf16) && spec->dense_peak(Precision::fp16))
      return "fp16";
  return "bf16";
}

}  // namespace

std::string compute_precision(const Plan& plan, const Catalog& catalog) {
  if (plan.is_training())
    return plan.text("training.precision").value_or(default_training_precision(plan, catalog));
  // Serving engines run FP8 weights on GPUs without FP8 tensor cores by dequantising them to
  // 16 bits in the matmul kernel (vLLM's FP8 Marlin on Ampere): the weights are read in 8 bits
  // and the arithmetic is 16-bit. The 16 bits are BF16, or FP16 on a GPU without BF16 (Volta).
  // A GPU the catalog does not know is taken at its word.
  const std::optional<std::string> gpu = plan.text("cluster.gpu");
  const GpuSpec* spec = gpu ? catalog.find(*gpu) : nullptr;
  const bool fp8 = plan.text("inference.weights") == "fp8";
  if (fp8 && (!spec || spec->dense_peak(Precision::fp8))) return "fp8";
  if (spec && !spec->dense_peak(Precision::bf16) && spec->dense_peak(Precision::fp16)) return "fp16";
  return "bf16";
}

void apply_defaults(Plan& plan, const Catalog& catalog, detail::Findings& findings) {
  Defaulter d(plan);

  // [model]
  d.set("model", "architecture", std::string("dense"));
  d.set("model", "mlp", std::string("gelu"));
  // GeLU's 4·h (Vaswani et al. 2017, GPT-3); SwiGLU's parameter-matched 2/3 of it (Shazeer
  // 2020, "GLU Variants Improve Transformer", §2), which Llama rounds up.
  if (auto hidden = plan.number("model.hidden"))
    d.set_quantity("model", "ffn_hidden", plan.text("model.mlp") == "swiglu" ? *hidden * 8 / 3 : *hidden * 4, none);
  if (auto params = plan.number("model.params")) d.set_quantity("model", "active_params", *params, none);
  // An MoE model's routed experts sit in every layer unless the plan says how many layers are MoE
  // (DeepSeek-V3: the first 3 of 61 are dense); no shared expert unless stated.
  if (plan.find("model.experts")) {
    d.set_quantity("model", "shared_experts", 0, none);
    if (auto layers = plan.number("model.layers")) d.set_quantity("model", "moe_layers", *layers, none);
  }
  if (auto heads = plan.number("model.heads")) {
    d.set_quantity("model", "kv_heads", *heads, none);
    if (auto hidden = plan.number("model.hidden"); hidden && *heads > 0)
      d.set_quantity("model", "head_dim", *hidden / *heads, none);
  }

  // [cluster]
  d.set_quantity("cluster", "gpus_per_node", 8, gpus);
  d.set_quantity("cluster", "memory_reserve", 0.10, none);
  const PlanValue* gpu_value = plan.find("cluster.gpu");
  if (gpu_value && gpu_value->text()) {
    if (const GpuSpec* gpu = catalog.find(*gpu_value->text())) {
      const Span at = gpu_value->span;
      d.set_quantity("cluster", "hbm", gpu->hbm_bytes, bytes, Origin::catalog, at);
      d.set_quantity("cluster", "hbm_bandwidth", gpu->hbm_bandwidth_bytes_per_s, bytes_per_second,
                     Origin::catalog, at);
      if (gpu->link_bandwidth_bytes_per_s)
        d.set_quantity("cluster", "intra_node_bandwidth", *gpu->link_bandwidth_bytes_per_s,
                       bytes_per_second, Origin::catalog, at);
      if (auto precision = parse_precision(compute_precision(plan, catalog)))
        if (auto peak = gpu->dense_peak(*precision))
          d.set_quantity("cluster", "peak", *peak, flop_per_second, Origin::catalog, at);
    }
  }

  // [training]
  if (plan.is_training() && plan.section("training").present) {
    d.set("training", "precision", default_training_precision(plan, catalog));
    d.set("training", "optimizer", std::string("adamw"));
    for (const char* degree : {"tp", "pp", "virtual_stages", "cp", "ep"}) d.set_quantity("training", degree, 1, none);
    const double tp = d.number_or("training.tp", 1);
    d.set("training", "sequence_parallel", tp > 1);
    d.set_quantity("training", "zero", 0, none);
    d.set("training", "recompute", std::string("selective"));
    d.set("training", "flash_attention", true);
    d.set("training", "dropout", true);
    const double model_parallel =
        tp * d.number_or("training.pp", 1) * d.number_or("training.cp", 1);
    if (auto count = plan.number("cluster.count"); count && !plan.find("training.dp")) {
      const double dp = *count / model_parallel;
      if (dp >= 1 && std::floor(dp) == dp) {
        d.set_quantity("training", "dp", dp, none);
      } else {
        const PlanValue* at = plan.find("cluster.count");
        Diagnostic& diag = findings.add(
            native_rules::bad_value, at->span, "cluster.count",
            fmt::format("cluster.count = {:g} GPUs does not divide into tp · pp · cp = {:g}: no "
                        "data-parallel degree follows",
                        *count, model_parallel));
        // No stated dp can help (parallelism-mismatch would report it): name the counts that divide.
        const double below = std::floor(dp) * model_parallel, above = std::ceil(dp) * model_parallel;
        diag.help = below >= model_parallel
                        ? fmt::format("make the GPU count a multiple of tp · pp · cp = {:g} ({:g} or {:g} GPUs), or "
                                      "choose a tp · pp · cp that divides {:g}",
                                      model_parallel, below, above, *count)
                        : fmt::format("book at least tp · pp · cp = {:g} GPUs, or choose a tp · pp · cp that "
                                      "divides {:g}",
                                      model_parallel, *count);
      }
    }
  }

  // [inference]
  if (!plan.is_training()) {
    d.set("inference", "weights", std::string("bf16"));
    d.set("inference", "kv_precision", std::string("bf16"));
    d.set_quantity("inference", "tp", 1, none);
    d.set("inference", "batching", std::string("continuous"));
    d.set_quantity("inference", "mfu", 0.5, none);
    if (auto count = plan.number("cluster.count")) {
      const double tp = d.number_or("inference.tp", 1);
      if (*count >= tp) d.set_quantity("inference", "replicas", std::floor(*count / tp), none);
    }
  }

  // [tolerances]
  d.set_quantity("tolerances", "capacity", 0.15, none);
  d.set_quantity("tolerances", "cost", 0.30, none);
  d.set_quantity("tolerances", "formula_vs_benchmark", 0.25, none);

  // [[targets]]
  const KeySpec& hard = *find_key("targets", "hard");
  for (PlanTable& target : plan.targets)
    if (!target.values.find(hard)) target.values.emplace(hard, PlanValue{true, target.header, {}, Origin::default_});
}

std::span<const std::string_view> default_sources(std::string_view key) {
  // The derived defaults of apply_defaults(), above: keep the two in step.
  using Keys = std::span<const std::string_view>;
  static constexpr std::string_view params[] = {"model.params"};
  static constexpr std::string_view heads[] = {"model.heads"};
  static constexpr std::string_view head_dim[] = {"model.hidden", "model.heads"};
  static constexpr std::string_view tp[] = {"training.tp"};
  static constexpr std::string_view ffn[] = {"model.hidden", "model.mlp"};
  static constexpr std::string_view dp[] = {"cluster.count", "training.tp", "training.pp", "training.cp"};
  static constexpr std::string_view replicas[] = {"cluster.count", "inference.tp"};
  static constexpr std::string_view moe_layers[] = {"model.layers"};
  if (key == "model.active_params") return Keys(params);
  if (key == "model.kv_heads") return Keys(heads);
  if (key == "model.head_dim") return Keys(head_dim);
  if (key == "training.sequence_parallel") return Keys(tp);
  if (key == "model.ffn_hidden") return Keys(ffn);
  if (key == "training.dp") return Keys(dp);
  if (key == "inference.replicas") return Keys(replicas);
  if (key == "model.moe_layers") return Keys(moe_layers);
  return {};
}

}  // namespace planlint
