#include "planlint/plan/defaults.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "planlint/diag/native_rules.hpp"
#include "planlint/plan/schema.hpp"

namespace planlint {

namespace {
using namespace units::dims;

/// The fixed default of `spec` (schema.cpp) as a plan value; nullopt for none.
std::optional<Scalar> fixed_value(const KeySpec& spec) {
  const KeyDefault& fallback = spec.by_default;
  if (const double* number = fallback.number()) return units::Quantity{*number, spec.dims.front()};
  if (const auto* choice = std::get_if<std::string_view>(&fallback.fixed)) return std::string(*choice);
  if (const bool* flag = std::get_if<bool>(&fallback.fixed)) return *flag;
  return std::nullopt;
}

/// The fixed defaults that hold wherever their section applies (no condition), by section.
const std::array<std::vector<std::pair<const KeySpec*, Scalar>>, plan_section_count>& unconditional_defaults() {
  static const auto by_section = [] {
    std::array<std::vector<std::pair<const KeySpec*, Scalar>>, plan_section_count> table;
    for (const KeySpec& spec : plan_keys())
      if (auto value = fixed_value(spec); value && spec.by_default.how.empty())
        table[spec.section_index].emplace_back(&spec, std::move(*value));
    return table;
  }();
  return by_section;
}

class Defaulter {
 public:
  Defaulter(Plan& plan) : plan_(plan) {}

  /// Sets `section.key`, a plan key, unless the plan states it.
  void set(std::string_view section, std::string_view key, Scalar value,
           Origin origin = Origin::default_, Span span = {}) {
    const KeySpec* spec = find_key(section, key);
    if (!spec) throw std::logic_error(fmt::format("a default for {}.{}, not a plan key", section, key));
    set(*spec, std::move(value), origin, span);
  }
  void set(const KeySpec& spec, Scalar value, Origin origin = Origin::default_, Span span = {}) {
    PlanTable& table = plan_.sections.of(spec);
    if (table.values.find(spec)) return;
    // A stated but invalid or misspelt value gets no default: `zero = 4` is not ZeRO-0.
    if (!plan_.invalid_keys.empty() || !plan_.misspellings.empty()) {
      // Joined by hand: every default of a plan with a misspelling asks, and fmt's formatting
      // cost twenty times the join.
      std::string path;
      path.reserve(spec.section.size() + 1 + spec.key.size());
      path.append(spec.section).append(1, '.').append(spec.key);
      if (plan_.states_unread(path)) return;
    }
    if (!span.known()) span = table.header;
    table.values.emplace(spec, PlanValue{std::move(value), span, Span{}, origin});
  }
  void set_quantity(std::string_view section, std::string_view key, double value,
                    units::Dimension dim, Origin origin = Origin::default_, Span span = {}) {
    set(section, key, units::Quantity{value, dim}, origin, span);
  }
  /// Sets the fixed default of `section.key` (one with a condition, which the caller checked).
  void set_fixed(std::string_view section, std::string_view key) {
    const KeySpec* spec = find_key(section, key);
    std::optional<Scalar> value = spec ? fixed_value(*spec) : std::nullopt;
    if (!value) throw std::logic_error(fmt::format("{}.{} has no fixed default", section, key));
    set(*spec, std::move(*value));
  }
  /// Sets every fixed default of `section` that holds wherever the section applies.
  void set_fixed_defaults(std::string_view section) {
    const auto index = static_cast<std::size_t>(find_section(section) - plan_sections().data());
    for (const auto& [spec, value] : unconditional_defaults()[index]) set(*spec, value);
  }
  /// The number at `path`, else its key's fixed default (a stated value that is not valid has none).
  double number_or_default(std::string_view path) const {
    if (auto number = plan_.number(path)) return *number;
    return *find_key(path)->by_default.number();
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

/// The serving layout's degrees that split a stage's tp GPUs: the attention data-parallel ranks
/// and the expert-parallel degree each divide tp (SGLang, TensorRT-LLM and vLLM lay the ranks out
/// so), and expert parallelism needs experts. `pool`: "" for the replicas' keys, "prefill_" for a
/// disaggregated prefill pool's.
void check_serving_degrees(const Plan& plan, detail::Findings& findings, std::string_view pool, double tp) {
  for (const std::string_view name : {"dp_attention", "ep"}) {
    const std::string key = fmt::format("inference.{}{}", pool, name);
    const PlanValue* at = plan.find(key);
    const std::optional<double> degree = plan.number(key);
    if (!at || at->origin != Origin::plan || !degree) continue;
    const bool expert = name == "ep";
    if (expert && *degree > 1 && plan.text("model.architecture") != "moe") {
      Diagnostic& diag = findings.add(native_rules::bad_value, at->span, key,
                                      fmt::format("{} = {:g} splits the routed experts, but the model is dense "
                                                  "(model.architecture is not \"moe\")",
                                                  key, *degree));
      diag.help = fmt::format("remove {}, or state model.architecture = \"moe\" with its experts", key);
      continue;
    }
    const double per_rank = tp / *degree;
    if (per_rank >= 1 && std::floor(per_rank) == per_rank) continue;
    Diagnostic& diag = findings.add(
        native_rules::bad_value, at->span, key,
        fmt::format("{} = {:g} does not divide inference.{}tp = {:g}: {} split a stage's tp GPUs into equal groups",
                    key, *degree, pool, tp, expert ? "the expert-parallel ranks" : "the attention data-parallel ranks"));
    diag.help = fmt::format("use a divisor of tp ({:g} for every GPU of the stage), or a tp that {:g} divides", tp,
                            *degree);
  }
}

}  // namespace

std::optional<Precision> weight_compute_precision(std::string_view weights) {
  if (weights == "fp8") return Precision::fp8;
  if (weights == "fp6" || weights == "mxfp6") return Precision::fp6;
  if (weights == "fp4" || weights == "nvfp4" || weights == "mxfp4") return Precision::fp4;
  return std::nullopt;
}

std::string compute_precision(const Plan& plan, const Catalog& catalog) {
  if (plan.is_training())
    return plan.text("training.precision").value_or(default_training_precision(plan, catalog));
  return compute_precision(plan, catalog, "cluster.gpu");
}

std::string compute_precision(const Plan& plan, const Catalog& catalog, std::string_view gpu_path) {
  // Serving engines run FP8 weights on GPUs without FP8 tensor cores by dequantising them to
  // 16 bits in the matmul kernel (vLLM's FP8 Marlin on Ampere): the weights are read in 8 bits
  // and the arithmetic is 16-bit. The 16 bits are BF16, or FP16 on a GPU without BF16 (Volta).
  // A GPU the catalog does not know is taken at its word.
  const std::optional<std::string> gpu = plan.text(gpu_path);
  const GpuSpec* spec = gpu ? catalog.find(*gpu) : nullptr;
  // FP6 and FP4 weights likewise run at their own peak where the tensor cores have one (Blackwell,
  // CDNA 4: W4A4 and W6A6 GEMMs), and are dequantised to 16 bits elsewhere.
  if (const std::optional<Precision> low = weight_compute_precision(plan.text("inference.weights").value_or(""));
      low && (!spec || spec->dense_peak(*low)))
    return std::string(to_string(*low));
  if (spec && !spec->dense_peak(Precision::bf16) && spec->dense_peak(Precision::fp16)) return "fp16";
  return "bf16";
}

std::optional<double> job_scale_up_domain(const GpuSpec* gpu, std::optional<double> gpus_per_node, double count) {
  const std::optional<double> domain = gpu && gpu->scale_up_domain ? gpu->scale_up_domain : gpus_per_node;
  if (!domain) return std::nullopt;
  return std::min(count, *domain);
}

void apply_defaults(Plan& plan, const Catalog& catalog, detail::Findings& findings) {
  Defaulter d(plan);

  // [model]
  d.set_fixed_defaults("model");
  // GeLU's 4·h (Vaswani et al. 2017, GPT-3); a gated MLP's parameter-matched 2/3 of it (Shazeer
  // 2020, "GLU Variants Improve Transformer", §2), which Llama rounds up.
  if (auto hidden = plan.number("model.hidden"))
    d.set_quantity("model", "ffn_hidden", gated_mlp(plan.text("model.mlp").value_or("")) ? *hidden * 8 / 3 : *hidden * 4, none);
  if (auto params = plan.number("model.params")) d.set_quantity("model", "active_params", *params, none);
  // An MoE model's routed experts sit in every layer unless the plan says how many layers are MoE
  // (DeepSeek-V3: the first 3 of 61 are dense); no shared expert unless stated.
  if (plan.find("model.experts")) {
    d.set_fixed("model", "shared_experts");
    if (auto layers = plan.number("model.layers")) d.set_quantity("model", "moe_layers", *layers, none);
  }
  // A sliding window with no global layers stated windows every layer (Mistral 7B v0.1).
  if (plan.find("model.sliding_window")) d.set_fixed("model", "global_layers");
  if (auto heads = plan.number("model.heads")) {
    d.set_quantity("model", "kv_heads", *heads, none);
    if (auto hidden = plan.number("model.hidden"); hidden && *heads > 0)
      d.set_quantity("model", "head_dim", *hidden / *heads, none);
  }

  // [cluster]
  d.set_fixed_defaults("cluster");
  // The GPU's span is copied: setting a default adds to the table that holds cluster.gpu, which
  // moves its values.
  const PlanValue* gpu_value = plan.find("cluster.gpu");
  const GpuSpec* gpu_spec = gpu_value && gpu_value->text() ? catalog.find(*gpu_value->text()) : nullptr;
  const Span gpu_span = gpu_value ? gpu_value->span : Span{};
  if (gpu_spec && gpu_spec->gpus_per_node)
    d.set_quantity("cluster", "gpus_per_node", *gpu_spec->gpus_per_node, gpus, Origin::catalog, gpu_span);
  d.set_fixed("cluster", "gpus_per_node");
  // The scale-up domain a job gets: the catalog's, or the host without one; no more than the job's
  // GPUs, so that a TPU job's domain is its slice.
  if (auto count = plan.number("cluster.count")) {
    if (gpu_spec && gpu_spec->scale_up_domain && *gpu_spec->scale_up_domain <= *count)
      d.set_quantity("cluster", "scale_up_domain", *gpu_spec->scale_up_domain, gpus, Origin::catalog, gpu_span);
    else if (const std::optional<double> domain =
                 job_scale_up_domain(gpu_spec, plan.number("cluster.gpus_per_node"), *count))
      d.set_quantity("cluster", "scale_up_domain", *domain, gpus);
  }
  if (const GpuSpec* gpu = gpu_spec) {
    d.set_quantity("cluster", "hbm", gpu->hbm_bytes, bytes, Origin::catalog, gpu_span);
    d.set_quantity("cluster", "hbm_bandwidth", gpu->hbm_bandwidth_bytes_per_s, bytes_per_second,
                   Origin::catalog, gpu_span);
    if (gpu->link_bandwidth_bytes_per_s)
      d.set_quantity("cluster", "intra_node_bandwidth", *gpu->link_bandwidth_bytes_per_s,
                     bytes_per_second, Origin::catalog, gpu_span);
    if (auto precision = parse_precision(compute_precision(plan, catalog)))
      if (auto peak = gpu->dense_peak(*precision))
        d.set_quantity("cluster", "peak", *peak, flop_per_second, Origin::catalog, gpu_span);
  }

  // [training]
  if (plan.is_training() && plan.section("training").present) {
    d.set("training", "precision", default_training_precision(plan, catalog));
    d.set_fixed_defaults("training");
    if (plan.find("training.lora_rank")) d.set_fixed("training", "lora_targets");
    const double tp = d.number_or_default("training.tp");
    d.set("training", "sequence_parallel", tp > 1);
    const double model_parallel =
        tp * d.number_or_default("training.pp") * d.number_or_default("training.cp");
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
    d.set_fixed_defaults("inference");
    const double tp = d.number_or_default("inference.tp");
    const double replica_gpus = tp * d.number_or_default("inference.pp");
    if (auto count = plan.number("cluster.count"))
      if (*count >= replica_gpus) d.set_quantity("inference", "replicas", std::floor(*count / replica_gpus), none);
    check_serving_degrees(plan, findings, "", tp);
    // A disaggregated prefill pool: its layout's fixed defaults and its GPU's memory and peak.
    if (const PlanValue* prefill_gpu = plan.find("inference.prefill_gpu")) {
      // Copied: the defaults set below move the section's values.
      const Span at = prefill_gpu->span;
      const std::optional<std::string> id = plan.text("inference.prefill_gpu");
      for (const std::string_view key : {"prefill_tp", "prefill_pp", "prefill_ep", "prefill_dp_attention"})
        d.set_fixed("inference", key);
      check_serving_degrees(plan, findings, "prefill_", d.number_or_default("inference.prefill_tp"));
      if (!plan.find("inference.prefill_count")) {
        Diagnostic& diag = findings.add(native_rules::missing_required, at, "inference.prefill_count",
                                        "inference.prefill_gpu needs inference.prefill_count, the prefill pool's GPUs");
        diag.help = "add prefill_count (GPUs of the prefill pool) to [inference]";
      }
      if (const GpuSpec* gpu = id ? catalog.find(*id) : nullptr) {
        d.set_quantity("inference", "prefill_hbm", gpu->hbm_bytes, bytes, Origin::catalog, at);
        if (auto precision = parse_precision(compute_precision(plan, catalog, "inference.prefill_gpu")))
          if (auto peak = gpu->dense_peak(*precision))
            d.set_quantity("inference", "prefill_peak", *peak, flop_per_second, Origin::catalog, at);
      }
    }
  }

  d.set_fixed_defaults("tolerances");

  // [[targets]]: each entry's own
  const auto targets = static_cast<std::size_t>(find_section("targets") - plan_sections().data());
  for (PlanTable& target : plan.targets)
    for (const auto& [spec, value] : unconditional_defaults()[targets])
      if (!target.values.find(*spec)) target.values.emplace(*spec, PlanValue{value, target.header, {}, Origin::default_});
}

std::span<const std::string_view> default_sources(std::string_view key) {
  const KeySpec* spec = find_key(key);
  if (!spec) return {};
  return spec->by_default.sources;
}

}  // namespace planlint
