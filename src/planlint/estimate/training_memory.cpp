/// Training memory per GPU (estimates.md, "Training memory per GPU"): model states sharded by
/// model parallelism and ZeRO (Rajbhandari et al. 2020), activations (Korthikanti et al. 2022),
/// and the reserve for fragmentation and communication buffers.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "planlint/estimate/engine.hpp"
#include "planlint/estimate/layout_formulas.hpp"
#include "planlint/plan/defaults.hpp"

namespace planlint::detail {

namespace {

using layout::StateBytes;

/// Mixed-precision training keeps 16-bit weights and gradients (2 + 2 bytes) and an fp32
/// master copy (4) beside the optimizer's own fp32 state:
///  - adam, adamw: momentum and variance, 4 + 4 + 4 = 12 (ZeRO paper §3.1, K = 12);
///  - sgd (with momentum) and lion (Chen et al. 2023; one momentum buffer): 4 + 4 = 8;
///  - adafactor (Shazeer & Stern 2018): factored second moments, O(rows + columns) per matrix,
///    and no momentum at its default β1 = 0: 4 (master copy) + ≈ 0.
std::optional<StateBytes> optimizer_bytes(std::string_view optimizer, std::string& note) {
  if (optimizer == "adamw" || optimizer == "adam") {
    note = "2 weights + 2 gradients + 12 optimizer (fp32 master, momentum, variance) bytes per parameter";
    return StateBytes{2, 2, 12};
  }
  if (optimizer == "sgd" || optimizer == "lion") {
    note = "2 weights + 2 gradients + 8 optimizer (fp32 master, momentum) bytes per parameter";
    return StateBytes{2, 2, 8};
  }
  if (optimizer == "adafactor") {
    note = "2 weights + 2 gradients + 4 optimizer (fp32 master; factored second moments ≈ 0, no "
           "momentum) bytes per parameter";
    return StateBytes{2, 2, 4};
  }
  return std::nullopt;
}

/// An explicit bytes_per_param k splits as k_w = 2, k_g = 2, k_o = k − 4; below 4 bytes (a
/// quantised frozen base) the weights take what there is first, then the gradients, so that
/// the stages still add up to k.
StateBytes split_override(double k) {
  StateBytes bytes;
  bytes.weights = std::min(2.0, k);
  bytes.gradients = std::min(2.0, k - bytes.weights);
  bytes.optimizer = std::max(0.0, k - 4);
  return bytes;
}

std::string bytes_text(double value) { return units::format(value, units::dims::bytes); }

layout::PipelineSchedule pipeline_schedule(const EstimateContext& context) {
  return layout::pipeline_schedule(context.text("training.pipeline_schedule").value_or("1f1b"));
}

// An MoE model's states with expert parallelism (Megatron-Core's MoE layout): the dense
// parameters N_d are split over M = tp · pp, the routed experts N_e over M · ep, since each ep
// rank of a data-parallel group holds E / ep of them. ZeRO shards each group over the ranks that
// hold the same parameters: the dense ones over dp · cp, the experts over dp · cp / ep, which is
// M · dp · cp GPUs for both. The bytes a stage leaves unsharded, u (k at ZeRO 0, k_w + k_g at 1,
// k_w at 2, none at 3), stay on each holder; the rest, k − u, is spread over M · dp · cp.
/// What the model states add to a model's share: LoRA's adapter states beside a frozen base
/// (train.memory.adapter_states), and the copies of the parameters a pipeline schedule keeps
/// (DualPipe's 2).
struct StatesExtras {
  std::optional<Term> adapters;
  double copies = 1;
};

/// Finishes the model states `m`: `value`, `formula` and `text` the model's share, with `extras`.
template <typename Render>
void finish_states(MetricBuilder& m, const StatesExtras& extras, double value, std::string_view formula,
                   Render text) {
  if (!extras.adapters && extras.copies == 1) return m.finish(value, formula, std::move(text));
  const std::optional<Term>& adapters = extras.adapters;
  const double copies = extras.copies;
  std::string sum = adapters ? fmt::format("adapter states + {}", formula) : std::string(formula);
  if (copies != 1)
    sum = fmt::format("{} × ({}) (DualPipe: each GPU holds its stages' parameters twice, DeepSeek-V3 table 2)",
                      show_count(copies), sum);
  m.finish(copies * ((adapters ? adapters->value : 0) + value), sum,
           [adapters, copies, text = std::move(text)] {
             const std::string share = adapters ? fmt::format("{} + {}", adapters->text, text()) : text();
             return copies != 1 ? fmt::format("{} × ({})", show_count(copies), share) : share;
           });
}

void moe_states(MetricBuilder& m, StateBytes k, int stage, Term t, Term p, const StatesExtras& extras) {
  const Term dense = m.metric(Metric::train_moe_dense_params);
  const Term experts = m.metric(Metric::train_moe_expert_params);
  const Term n = m.plan("model.params");
  const Term ep = m.plan("training.ep");
  const double unsharded = stage == 0 ? k.total() : stage == 1 ? k.weights + k.gradients : stage == 2 ? k.weights : 0;
  const double sharded = k.total() - unsharded;
  const auto held_text = [=] {
    return fmt::format("({} / ({} × {}) + {} / ({} × {} × {}))", dense.text, t.text, p.text, experts.text, t.text,
                       p.text, ep.text);
  };
  if (stage == 0)
    return finish_states(m, extras, layout::moe_states_bytes(k, 0, n.value, dense.value, experts.value, t.value, p.value, 1, 1, ep.value),
                    "k · (N_d / M + N_e / (M · ep)), M = tp · pp (ZeRO 0)",
                    [=] { return fmt::format("{} × {}", bytes_text(k.total()), held_text()); });
  const Term dp = m.plan("training.dp");
  const std::optional<Term> cp = m.degree_above_one("training.cp");
  const double value = layout::moe_states_bytes(k, stage, n.value, dense.value, experts.value, t.value, p.value,
                                                dp.value, cp ? cp->value : 1, ep.value);
  const auto sharded_text = [=] {
    return cp ? fmt::format("({} × {} × {} × {})", t.text, p.text, dp.text, cp->text)
              : fmt::format("({} × {} × {})", t.text, p.text, dp.text);
  };
  const std::string_view over = cp ? "(M · dp · cp)" : "(M · dp)";
  if (stage >= 3)
    return finish_states(m, extras, value, fmt::format("k · N / {}, M = tp · pp (ZeRO 3)", over),
                    [=] { return fmt::format("{} × {} / {}", bytes_text(k.total()), n.text, sharded_text()); });
  const std::string_view u = stage == 1 ? "(k_w + k_g)" : "k_w";
  const std::string_view rest = stage == 1 ? "k_o" : "(k_g + k_o)";
  finish_states(m, extras, value,
           fmt::format("{} · (N_d / M + N_e / (M · ep)) + {} · N / {}, M = tp · pp (ZeRO {}: experts sharded over "
                       "dp / ep, the dense parameters over dp)",
                       u, rest, over, stage),
           [=] {
             return fmt::format("{} × {} + {} × {} / {}", bytes_text(unsharded), held_text(), bytes_text(sharded),
                                n.text, sharded_text());
           });
}

}  // namespace

StateBytes plan_state_bytes(EstimateContext& context, MetricBuilder& m) {
  StateBytes k;
  const bool lora = context.find("training.lora_rank") != nullptr;
  if (auto stated = m.optional_plan("training.bytes_per_param")) {
    k = split_override(stated->value);
  } else if (context.plan().is_training() && context.text("plan.kind") == "finetune" && lora) {
    // LoRA (Hu et al. 2021) trains small adapters beside a frozen base: the base holds its
    // weights only, at quantized_base's precision (QLoRA: 4 bits, Dettmers et al. 2023), else
    // the training precision's; no gradients or optimizer states for it.
    const std::string base = context.text("training.quantized_base")
                                 .value_or(context.text("training.precision").value_or("bf16"));
    const double base_bytes = stored_element_bytes(base).value_or(2);
    k = StateBytes{base_bytes, 0, 0};
    m.plan("training.lora_rank");
    m.note(fmt::format("LoRA: the frozen base holds its weights only, {} a parameter ({}); the adapters' "
                       "weights, gradients and optimizer states are train.memory.adapter_states",
                       bytes_text(base_bytes), base));
  } else {
    std::string note;
    const PlanValue* optimizer = context.find("training.optimizer");
    const std::string name = optimizer && optimizer->text() ? *optimizer->text() : "";
    if (auto bytes = optimizer_bytes(name, note)) {
      k = *bytes;
      m.choice("training.optimizer", k.total(), note);
      // FP8 (or FP6, FP4) training keeps the 16-bit weights, their FP32 master copy and the
      // optimizer's FP32 states, and casts the weights to an 8-bit (6-, 4-bit) copy that the GEMMs
      // read, cached across a step's micro-batches (Micikevicius et al. 2022, "FP8 Formats for Deep
      // Learning": higher-precision master weights; NVIDIA Transformer Engine's FP8 weight caching,
      // `is_first_microbatch`; Megatron-Bridge's MXFP8 recipes: BF16 parameters and gradients, FP32
      // master parameters and Adam moments): k_w gains the copy's bytes.
      const std::string precision = context.text("training.precision").value_or("bf16");
      if (precision == "fp8" || precision == "fp6" || precision == "fp4") {
        const double copy = *stored_element_bytes(precision);
        k.weights += copy;
        m.choice("training.precision", copy,
                 fmt::format("{}: an {} copy of the weights beside the 16-bit weights and the FP32 master ({} a "
                             "parameter)",
                             precision, precision, bytes_text(copy)));
      }
    } else {
      m.missing("training.optimizer");
    }
  }
  return k;
}

Offload training_offload(const EstimateContext& context) {
  const layout::Offload offload = layout::offload_mode(context.text("training.offload").value_or("none"));
  return Offload{layout::offloads_optimizer(offload), layout::offloads_activations(offload)};
}

namespace {

/// With the optimizer offloaded (ZeRO-Offload, Ren et al. 2021 §4), the gradients and the
/// optimizer states live in host memory and the CPU runs the step: HBM keeps the weights only.
StateBytes in_hbm(EstimateContext& context, MetricBuilder& m, StateBytes k) {
  if (!training_offload(context).optimizer) return k;
  m.choice("training.offload", k.weights);
  m.note(fmt::format("optimizer offload: the gradients and optimizer states ({} a parameter) are in host memory "
                     "(train.offload.state_bytes); HBM keeps the weights",
                     bytes_text(k.gradients + k.optimizer)));
  return layout::hbm_state_bytes(k, true);
}

}  // namespace

StateBytes model_state_bytes(EstimateContext& context, MetricBuilder& m) {
  return in_hbm(context, m, plan_state_bytes(context, m));
}

bool lora_adapters_counted(const EstimateContext& context) {
  return context.plan().is_training() && context.text("plan.kind") == "finetune" &&
         context.find("training.lora_rank") != nullptr && context.find("training.bytes_per_param") == nullptr;
}

StateBytes adapter_state_bytes(EstimateContext& context, MetricBuilder& m) {
  return in_hbm(context, m, plan_adapter_state_bytes(context, m));
}

StateBytes plan_adapter_state_bytes(EstimateContext& context, MetricBuilder& m) {
  std::string note;
  const PlanValue* optimizer = context.find("training.optimizer");
  const std::optional<StateBytes> k =
      optimizer_bytes(optimizer && optimizer->text() ? *optimizer->text() : std::string(), note);
  if (!k) {
    m.missing("training.optimizer");
    return {};
  }
  m.choice("training.optimizer", k->total(), note);
  return *k;
}

namespace {

/// Finishes `m` with the states of n parameters at k bytes each, split over M = tp · pp and
/// sharded by the ZeRO stage, with `extras`.
void dense_states(MetricBuilder& m, const StateBytes& k, int stage, const Term& n, const Term& t, const Term& p,
                  const StatesExtras& extras) {
  const auto mp = [t, p] { return fmt::format("({} × {})", t.text, p.text); };
  // ZeRO 1 and 2 shard what a frozen base or an offloaded optimizer leaves none of: the states
  // are then ZeRO 0's, and read as them (no "+ 0 B × N / (M · dp)").
  const double sharded_bytes = stage == 1 ? k.optimizer : k.gradients + k.optimizer;
  if (stage == 0 || (stage < 3 && sharded_bytes == 0))
    return finish_states(m, extras, layout::dense_states_bytes(k, 0, n.value, t.value, p.value, 1, 1),
                         stage == 0 ? "k · N / M, M = tp · pp (ZeRO 0)"
                                    : "k · N / M, M = tp · pp (the ZeRO stage shards none of these bytes)",
                         [=] { return fmt::format("{} × {} / {}", bytes_text(k.total()), n.text, mp()); });
  const Term dp = m.plan("training.dp");
  // Context-parallel ranks hold the same weights and sum their gradients like data-parallel
  // ones, and ZeRO shards over both: Megatron-Core's distributed optimizer over its "data
  // parallel group with context parallel", DeepSpeed-Ulysses' ZeRO-3 over data and sequence
  // parallel ranks. A plan with cp > 1 shards over dp · cp.
  const std::optional<Term> cp = m.degree_above_one("training.cp");
  const auto sharded = [t, p, dp, cp] {
    return cp ? fmt::format("({} × {} × {} × {})", t.text, p.text, dp.text, cp->text)
              : fmt::format("({} × {} × {})", t.text, p.text, dp.text);
  };
  const double value = layout::dense_states_bytes(k, stage, n.value, t.value, p.value, dp.value, cp ? cp->value : 1);
  const std::string_view over = cp ? "(M · dp · cp)" : "(M · dp)";
  // ZeRO stages (Rajbhandari et al. 2020, §5): 1 shards the optimizer states over dp, 2 also
  // the gradients, 3 also the weights.
  switch (stage) {
    case 1:
      return finish_states(m, extras, value,
                           fmt::format("(k_w + k_g) · N / M + k_o · N / {}, M = tp · pp (ZeRO 1)", over), [=] {
                             return fmt::format("{} × {} / {} + {} × {} / {}", bytes_text(k.weights + k.gradients),
                                                n.text, mp(), bytes_text(k.optimizer), n.text, sharded());
                           });
    case 2:
      return finish_states(m, extras, value,
                           fmt::format("k_w · N / M + (k_g + k_o) · N / {}, M = tp · pp (ZeRO 2)", over), [=] {
                             return fmt::format("{} × {} / {} + {} × {} / {}", bytes_text(k.weights), n.text, mp(),
                                                bytes_text(k.gradients + k.optimizer), n.text, sharded());
                           });
    default:
      return finish_states(m, extras, value, fmt::format("k · N / {}, M = tp · pp (ZeRO 3)", over), [=] {
        return fmt::format("{} × {} / {}", bytes_text(k.total()), n.text, sharded());
      });
  }
}

// LoRA's adapters train as a model of their own (Hu et al. 2021): 16-bit weights and gradients
// and the optimizer's states (AdamW's 2 + 2 + 12 bytes a parameter, QLoRA keeps them in BF16 and
// FP32 as well: Dettmers et al. 2023 §3), split over tp · pp and sharded by ZeRO as the model's
// states are.
void memory_adapter_states(EstimateContext& context) {
  if (!lora_adapters_counted(context)) return;
  MetricBuilder m(context, Metric::train_memory_adapter_states);
  const Term n = m.metric(Metric::train_lora_adapter_params);
  const StateBytes k = adapter_state_bytes(context, m);
  const Term t = m.plan("training.tp");
  const Term p = m.plan("training.pp");
  const Term zero = m.plan("training.zero");
  dense_states(m, k, m.complete() ? static_cast<int>(zero.value) : 0, n, t, p, StatesExtras{});
}

/// Finishes `m` with the states of n parameters at k bytes each as the layout splits and shards
/// them: over tp · pp, ep for an MoE model's experts (`moe`), and ZeRO, with `extras`.
void sharded_states(EstimateContext& context, MetricBuilder& m, const StateBytes& k, const Term& n, bool moe,
                    StatesExtras extras) {
  const Term t = m.plan("training.tp");
  const Term p = m.plan("training.pp");
  const Term zero = m.plan("training.zero");
  const layout::PipelineSchedule schedule = pipeline_schedule(context);
  extras.copies = layout::schedule_parameter_copies(p.value, schedule);
  if (extras.copies != 1) m.choice("training.pipeline_schedule", extras.copies);

  const auto ep = context.number("training.ep");
  const int stage = m.complete() ? static_cast<int>(zero.value) : 0;
  if (moe && is_moe(context) && ep && *ep > 1 && computed_metric(context, Metric::train_moe_expert_params))
    return moe_states(m, k, stage, t, p, extras);
  if (moe && is_moe(context) && ep && *ep > 1)
    m.note(fmt::format("upper bound: ep = {} also splits the expert parameters, which model.experts and "
                       "model.experts_per_token would separate from the dense ones",
                       show_count(*ep)));
  dense_states(m, k, stage, n, t, p, extras);
}

void memory_states(EstimateContext& context) {
  MetricBuilder m(context, Metric::train_memory_states);
  // Memory holds every parameter, active or not (MoE: model.params, not active_params).
  const Term n = m.plan("model.params");
  const StateBytes k = model_state_bytes(context, m);
  // LoRA's adapter states add to the frozen base's; where their size is unknown (the model's
  // widths unstated) the base alone is a lower bound, said in a note.
  StatesExtras extras;
  if (lora_adapters_counted(context)) {
    if (computed_metric(context, Metric::train_memory_adapter_states)) {
      extras.adapters = m.metric(Metric::train_memory_adapter_states);
    } else if (const std::vector<std::string>* unknown =
                   context.estimates().missing_inputs(Metric::train_memory_adapter_states)) {
      m.note(fmt::format("a lower bound: without the LoRA adapters' states, whose size needs {}",
                         fmt::join(*unknown, ", ")));
    }
  }
  sharded_states(context, m, k, n, true, extras);
}

// ZeRO-Offload (Ren et al. 2021): the gradients and optimizer states the GPU would hold, sharded
// as they would be, kept in host memory instead; with LoRA, the adapters' (the frozen base has
// none).
void offload_state_bytes(EstimateContext& context) {
  if (!context.plan().is_training() || !training_offload(context).optimizer) return;
  MetricBuilder m(context, Metric::train_offload_state_bytes);
  const bool lora = lora_adapters_counted(context);
  const Term n = lora ? m.metric(Metric::train_lora_adapter_params) : m.plan("model.params");
  const StateBytes k = lora ? plan_adapter_state_bytes(context, m) : plan_state_bytes(context, m);
  sharded_states(context, m, layout::host_state_bytes(k), n, !lora, StatesExtras{});
}

// Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer Models",
// §4.1 and table 2: bytes of 16-bit activations per layer per micro-batch, written per token in
// units of h so that the architecture's own widths replace GPT-3's (docs/estimates.md,
// "Activations"). Per token and layer, with q = heads · head_dim and kv = kv_heads · head_dim:
//  - kept whole on every tensor-parallel rank (the 10 of 10 + 24/t): the two norms' inputs 4h,
//    the inputs of the QKV and first MLP projections 2h + 2h, the two dropout masks 2h (1 byte
//    each; none without dropout);
//  - split over tp (the 24): Q 2q, K and V 4kv, the attention output 2q (the output
//    projection's input), and the MLP inside: GeLU 4F (its input and output, 2F each; fused
//    bias-GeLU recomputes nothing else), SwiGLU 6F (the gate and up projections' output 4F,
//    which Megatron-LM's fused bias_swiglu keeps and recomputes SiLU from, and the product 2F);
//  - attention scores without flash attention or selective recompute: softmax output 2·a·S,
//    with dropout also its mask a·S and output 2·a·S (the 5·a·S of table 2).
// GPT-3's shape (q = kv = h, F = 4h, GeLU, dropout) gives table 2's 10 + 24 = 34.
LayerBytes layer_bytes(double h, double q, double kv, double ffn, bool swiglu, bool dropout, std::string_view kv_what,
                       std::string_view mlp_what) {
  LayerBytes bytes;
  bytes.kept = 8 + (dropout ? 2 : 0);
  const double mlp = (swiglu ? 6 : 4) * ffn;
  bytes.split = (4 * q + 4 * kv + mlp) / h;
  bytes.gpt_shape = dropout && !swiglu && q == h && kv == h && ffn == 4 * h;
  // The widths in full ("4 · 28672/h"), the parts in units of h as the formula adds them.
  bytes.parts = fmt::format("8 (norms and projection inputs){} + {} (Q and attention output, 4 · {:.7g}/h) + {} ({}, "
                            "4 · {:.7g}/h) + {} ({} {}MLP, {} · {:.7g}/h)",
                            dropout ? " + 2 (dropout masks)" : "", show_count(4 * q / h), q, show_count(4 * kv / h),
                            kv_what, kv, show_count(mlp / h), swiglu ? "SwiGLU" : "GeLU", mlp_what, swiglu ? 6 : 4, ffn);
  return bytes;
}

}  // namespace

bool activation_shape_stated(EstimateContext& context) {
  const auto stated = [&](std::string_view path) {
    const PlanValue* value = context.find(path);
    return value && value->origin == Origin::plan;
  };
  const bool moe_mlp = is_moe(context) && stated("model.expert_ffn_hidden");
  return stated("model.kv_heads") || stated("model.head_dim") || stated("model.mlp") || stated("model.ffn_hidden") ||
         stated("training.dropout") || moe_mlp || stated("model.kv_lora_rank");
}

LayerBytes activation_layer_bytes(EstimateContext& context, MetricBuilder& m, double layers, double hidden,
                                  double heads) {
  const auto stated = [&](std::string_view path) {
    const PlanValue* value = context.find(path);
    return value && value->origin == Origin::plan;
  };
  const bool dropout = context.plan().boolean("training.dropout").value_or(true);
  const bool swiglu = gated_mlp(context.text("model.mlp").value_or(""));
  const bool moe_mlp = is_moe(context) && stated("model.expert_ffn_hidden");
  const bool mla = stated("model.kv_lora_rank");
  const Term head_dim = m.plan("model.head_dim");
  // MLA (DeepSeek-V2 §2.1) keeps the compressed latent and the RoPE key, d_c + d_h^R a token, and
  // recomputes the keys' and values' up-projection in the backward pass (DeepSeek-V3 §3.2.3).
  const double kv = mla ? m.plan("model.kv_lora_rank").value + m.plan("model.qk_rope_head_dim").value
                        : m.plan("model.kv_heads").value * head_dim.value;
  double ffn = m.plan("model.ffn_hidden").value;
  if (moe_mlp) {
    // A token's MLP in an MoE layer is its k routed experts and the shared ones, each of width
    // F_e: (k + s) · F_e in place of F, averaged over the layers (moe_layers of L are MoE).
    const double moe = m.plan("model.moe_layers").value, k = m.plan("model.experts_per_token").value,
                 shared = m.plan("model.shared_experts").value, width = m.plan("model.expert_ffn_hidden").value;
    ffn = ((layers - moe) * ffn + moe * (k + shared) * width) / layers;
  }
  if (stated("model.mlp")) m.choice("model.mlp");
  if (stated("training.dropout")) m.choice("training.dropout");
  return layer_bytes(hidden, heads * head_dim.value, kv, ffn, swiglu, dropout,
                     mla ? "MLA latent and RoPE key" : "K and V", moe_mlp ? "(k + shared) experts' " : "");
}

namespace {

// With activation offload, what the first stage would hold in HBM is in host memory: the
// activations of its held layers, train.memory.activations (two layers' worth) × held / 2.
void offload_activation_bytes(EstimateContext& context, double held_layers, const std::string& held_text) {
  MetricBuilder m(context, Metric::train_offload_activation_bytes);
  const Term hbm = m.metric(Metric::train_memory_activations);
  m.finish(layout::offload_activation_bytes(hbm.value, held_layers),
           "train.memory.activations · H / 2, H the layers' worth the first pipeline stage holds (L with 1F1B)",
           [hbm, held_text] { return fmt::format("{} × {} / 2", hbm.text, held_text); });
}

void memory_activations(EstimateContext& context) {
  MetricBuilder m(context, Metric::train_memory_activations);
  if (auto measured = m.optional_plan("training.activation_memory")) {
    m.finish(measured->value, "training.activation_memory (measured)",
             [text = measured->text] { return text.str(); });
    return;
  }
  const Term layers = m.plan("model.layers");
  const Term seq = m.plan("training.seq_len");
  const Term micro = m.plan("training.micro_batch");
  const Term hidden = m.plan("model.hidden");
  const Term t = m.plan("training.tp");
  const Term cp = m.plan("training.cp");
  const auto recompute = m.choice("training.recompute");
  const auto flash = m.choice("training.flash_attention");
  const auto sp_text = m.choice("training.sequence_parallel");
  const bool sequence_parallel = sp_text == "true";
  const bool scores_kept = recompute == "none" && flash == "false";
  const bool dropout = context.plan().boolean("training.dropout").value_or(true);
  // The architecture's widths, where the plan states them (the defaults are GPT-3's shape).
  const bool shaped = recompute != "full" && activation_shape_stated(context);
  // The attention-score term 5·a·S/h needs the heads; so do the widths of a stated shape.
  const Term heads = scores_kept || shaped ? m.plan("model.heads") : Term{0, "0"};
  const LayerBytes shape_bytes =
      shaped ? activation_layer_bytes(context, m, layers.value, hidden.value, heads.value) : LayerBytes{};
  // The scores: softmax output 2·a·S, with dropout its mask and output too (5·a·S).
  const double score_bytes = dropout ? 5 : 2;
  // Sequence parallelism (or tp = 1) splits every stored tensor by t; plain tensor parallelism
  // only the ones inside the attention and MLP blocks (the 24/t part).
  const bool split_all = sequence_parallel || t.value == 1;
  const double kept = shape_bytes.kept, split = shape_bytes.split;
  layout::LayerActivations layer;
  layer.seq_len = seq.value;
  layer.micro_batch = micro.value;
  layer.hidden = hidden.value;
  layer.heads = heads.value;
  layer.kept = kept;
  layer.split = split;
  layer.score_bytes = score_bytes;
  layer.scores_kept = scores_kept;
  const double per_layer = layout::layer_activation_bytes(layer, recompute == "full", sequence_parallel, t.value);
  const bool gpt = !shaped || shape_bytes.gpt_shape;
  const std::string c_text = gpt ? "34" : show_count(kept + split);
  const std::string kept_text = gpt ? "10" : show_count(kept), split_text = gpt ? "24" : show_count(split);
  const std::string score_text = show_count(score_bytes);
  // Which of the formulas below applies, for the arithmetic (written only when it is read).
  enum class Shape { full, split_scores, split, tensor_scores, tensor };
  Shape shape = Shape::full;
  std::string formula;
  if (recompute == "full") {
    // Only each layer's 16-bit input (2·S·b·h bytes) is kept; the rest is recomputed.
    formula = split_all ? "L · 2·S·b·h / t (full recompute: only each layer's input is kept)"
                        : "L · 2·S·b·h (full recompute, no sequence parallelism: the input is "
                          "replicated over tp)";
    shape = Shape::full;
  } else if (split_all) {
    if (scores_kept) {
      formula = fmt::format("L · S·b·h·({} + {}·a·S/h) / t (no recompute, attention scores stored)", c_text, score_text);
      shape = Shape::split_scores;
    } else {
      formula = recompute == "selective"
                    ? fmt::format("L · S·b·h·{} / t (selective recompute: attention scores recomputed)", c_text)
                    : fmt::format("L · S·b·h·{} / t (flash attention: attention scores not stored)", c_text);
      shape = Shape::split;
    }
  } else {
    if (scores_kept) {
      formula = fmt::format("L · S·b·h·({} + {}/t + {}·a·S/(h·t)) (tensor parallel without sequence parallelism)",
                            kept_text, split_text, score_text);
      shape = Shape::tensor_scores;
    } else {
      formula = fmt::format("L · S·b·h·({} + {}/t) (tensor parallel without sequence parallelism, attention "
                            "scores not stored)",
                            kept_text, split_text);
      shape = Shape::tensor;
    }
  }
  if (shaped && !gpt)
    formula += fmt::format("; bytes per token and layer in units of h: {}", shape_bytes.parts);
  // Context parallelism gives each GPU S/cp of every sequence.
  if (cp.value > 1) formula += " / cp";
  // The first pipeline stage (Korthikanti et al. 2022, §4.2.3): with 1F1B it holds p
  // micro-batches of its L/p layers, L layers' worth; with first_stage_layers f, p · f layers'
  // worth; with an interleaved schedule of v chunks a GPU, (1 + (p − 1)/(p · v)) times that
  // (its warm-up runs (v + 1) · p − 1 chunks of L/(p · v) layers before the first backward).
  const auto first = m.optional_plan("training.first_stage_layers");
  const std::optional<Term> p = first ? std::optional<Term>(m.plan("training.pp")) : m.degree_above_one("training.pp");
  // The zero-bubble schedules and DualPipe place their own chunks (virtual_stages is 1F1B's); ZB-H2
  // and DualPipe keep more micro-batches in flight (layout::schedule_activation_factor).
  const layout::PipelineSchedule schedule = pipeline_schedule(context);
  const std::optional<Term> v = p && schedule == layout::PipelineSchedule::one_f_one_b
                                    ? m.degree_above_one("training.virtual_stages")
                                    : std::nullopt;
  const double in_flight = p ? layout::schedule_activation_factor(p->value, schedule) : 1;
  const double held_layers = layout::first_stage_held_layers(layers.value, first ? first->value : 0,
                                                             p ? p->value : 1, v ? v->value : 1) *
                             in_flight;
  if (first) formula += " (first pipeline stage: pp · first_stage_layers in place of L)";
  if (v) {
    formula += " · (1 + (pp − 1)/(pp · v)) (interleaved schedule: the first stage's extra in-flight micro-batches)";
  }
  // Activation offload (PyTorch's save_on_cpu, Megatron-Core's CPU offloading): each layer's
  // stored activations go to host memory after its forward pass and come back for its backward;
  // HBM holds two layers' worth of one micro-batch, the layer computing and the one in transfer.
  const bool offloaded = training_offload(context).activations;
  if (offloaded) m.choice("training.offload", layout::offloaded_held_layers);
  if (in_flight != 1) {
    m.choice("training.pipeline_schedule", in_flight);
    formula += schedule == layout::PipelineSchedule::zb_h2
                   ? " · (2p − 1)/p (ZB-H2: 2p − 1 micro-batches in flight on the first stage, Qi et al. 2024 §2.2)"
                   : " · (p + 1)/p (DualPipe: p + 1 micro-batches in flight, DeepSeek-V3 table 2)";
  }
  const double l = layers.value, s = seq.value, b = micro.value, h = hidden.value, a = heads.value,
               tp = t.value, c = cp.value;
  const std::string held_text =
      first ? fmt::format("({} × {})", show_count(p->value), show_count(first->value)) : show_count(l);
  std::string interleave_text =
      v ? fmt::format(" × (1 + ({} − 1) / ({} × {}))", show_count(p->value), show_count(p->value), show_count(v->value))
        : "";
  if (in_flight != 1)
    interleave_text += schedule == layout::PipelineSchedule::zb_h2
                           ? fmt::format(" × (2 × {} − 1) / {}", show_count(p->value), show_count(p->value))
                           : fmt::format(" × ({} + 1) / {}", show_count(p->value), show_count(p->value));
  const std::string held_layers_text = held_text + interleave_text;
  if (offloaded) {
    formula += "; activation offload: 2 layers' worth of one micro-batch in HBM (the layer computing and the one "
               "in transfer) in place of the first stage's held layers, which are in host memory";
    interleave_text.clear();
  }
  const std::string layers_text = offloaded ? show_count(layout::offloaded_held_layers) : held_text;
  const double hbm_layers = offloaded ? layout::offloaded_held_layers : held_layers;
  m.finish(layout::activations_bytes(hbm_layers, per_layer, cp.value), formula, [=] {
    const std::string sbh_text =
        fmt::format("{} × {} × {}", show_count(s), show_count(b), show_count(h));
    std::string arithmetic;
    switch (shape) {
      case Shape::full:
        arithmetic = fmt::format("{} × 2 × {}{}", layers_text, sbh_text,
                                 split_all ? fmt::format(" / {}", show_count(tp)) : "");
        break;
      case Shape::split_scores:
        arithmetic = fmt::format("{} × {} × ({} + {} × {} × {} / {}) / {}", layers_text, sbh_text, c_text,
                                 score_text, show_count(a), show_count(s), show_count(h), show_count(tp));
        break;
      case Shape::split:
        arithmetic = fmt::format("{} × {} × {} / {}", layers_text, sbh_text, c_text, show_count(tp));
        break;
      case Shape::tensor_scores:
        arithmetic = fmt::format("{} × {} × ({} + {} / {} + {} × {} × {} / ({} × {}))", layers_text, sbh_text,
                                 kept_text, split_text, show_count(tp), score_text, show_count(a), show_count(s),
                                 show_count(h), show_count(tp));
        break;
      case Shape::tensor:
        arithmetic = fmt::format("{} × {} × ({} + {} / {})", layers_text, sbh_text, kept_text, split_text,
                                 show_count(tp));
        break;
    }
    arithmetic += interleave_text;
    if (c > 1) arithmetic += fmt::format(" / {}", show_count(c));
    return arithmetic;
  });
  if (offloaded) offload_activation_bytes(context, held_layers, held_layers_text);
}

void memory_reserve(EstimateContext& context) {
  MetricBuilder m(context, Metric::train_memory_reserve);
  const Term reserve = m.plan("cluster.memory_reserve");
  const Term states = m.metric(Metric::train_memory_states);
  const Term activations = m.metric(Metric::train_memory_activations);
  m.finish(layout::memory_reserve_bytes(reserve.value, states.value, activations.value),
           "memory_reserve · (states + activations)",
           arithmetic("{} × ({} + {})", reserve, states, activations));
}

void memory_total(EstimateContext& context) {
  MetricBuilder m(context, Metric::train_memory_total);
  const Term states = m.metric(Metric::train_memory_states);
  const Term activations = m.metric(Metric::train_memory_activations);
  const Term reserve = m.metric(Metric::train_memory_reserve);
  m.finish(layout::memory_total_bytes(states.value, activations.value, reserve.value), "states + activations + reserve",
           arithmetic("{} + {} + {}", states, activations, reserve));
}

// The least memory per GPU the plan can need, what memory-fit holds to the HBM. An MoE model's
// states are an upper bound at ep > 1 (ep also splits the experts, which a plan does not size):
// below ZeRO 3 they are split ep ways at the least; ZeRO-3 already shards them over dp, whose
// ranks the ep ranks are. Without the activations the states and their reserve alone are a lower
// bound, and a plan that states no training.zero is held to the states ZeRO-3 would leave (a
// cost-only plan's default ZeRO 0 is no claim about how it shards).
void memory_lower_bound(EstimateContext& context) {
  const MetricValue* activations_found = context.estimates().find(Metric::train_memory_activations);
  const bool zero_stated = context.find("training.zero") && context.find("training.zero")->origin == Origin::plan;
  for (const Metric metric : {Metric::train_memory_lower_bound_states, Metric::train_memory_lower_bound}) {
    MetricBuilder m(context, metric);
    const Term zero = m.plan("training.zero");
    // With the expert split known (train.moe.expert_params) the states are exact.
    const bool split_known = computed_metric(context, Metric::train_moe_expert_params).has_value();
    const bool moe_split = is_moe(context) && !split_known && context.number("training.ep") &&
                           *context.number("training.ep") > 1 && zero.value < 3;
    // The states themselves, as memory-fit holds them, read with their own terms.
    const bool as_states = metric == Metric::train_memory_lower_bound_states && !moe_split &&
                           (activations_found || zero_stated);
    const Term states = as_states ? m.metric_terms(Metric::train_memory_states) : m.metric(Metric::train_memory_states);
    std::string formula = "train.memory.states";
    Term least = states;
    if (!activations_found && !zero_stated) {
      // ZeRO-3 over dp · cp: the states at the default ZeRO 0, k · N / M, over dp · cp.
      const Term dp = m.plan("training.dp");
      const Term cp = m.plan("training.cp");
      formula = "train.memory.states / (dp · cp) (ZeRO-3, the least any stage leaves: the plan states no training.zero)";
      least = Term{states.value / (dp.value * cp.value),
                   TermText::deferred(arithmetic("{} / ({} × {})", states, dp, cp))};
    } else if (moe_split) {
      const Term ep_term = m.plan("training.ep");
      formula = "train.memory.states / ep (MoE below ZeRO 3: at the least, ep splits every parameter)";
      least = Term{states.value / ep_term.value, TermText::deferred(arithmetic("{} / {}", states, ep_term))};
    }
    if (metric == Metric::train_memory_lower_bound_states) {
      m.finish(least.value, formula, [=] { return least.text.str(); });
      continue;
    }
    const Term reserve = m.plan("cluster.memory_reserve");
    if (!activations_found) {
      m.finish(least.value * (1 + reserve.value),
               "train.memory.lower_bound_states · (1 + memory_reserve) (no activations: the plan does not size them)",
               arithmetic("{} × (1 + {})", least, reserve));
      continue;
    }
    const Term activations = m.metric(Metric::train_memory_activations);
    m.finish(layout::memory_lower_bound_bytes(least.value, activations.value, reserve.value),
             "(train.memory.lower_bound_states + activations) · (1 + memory_reserve)",
             arithmetic("({} + {}) × (1 + {})", least, activations, reserve));
  }
}

// The fewest pipeline stages pp' at which the memory fits the HBM, the GPU count, tp and cp
// kept: each GPU then holds pp / pp' times the states (an upper bound: the ZeRO-sharded part
// shrinks as dp grows), and with 1F1B the first stage the same activations, L layers' worth.
void memory_min_pp(EstimateContext& context) {
  MetricBuilder m(context, Metric::train_memory_min_pp);
  const Term states = m.metric(Metric::train_memory_states);
  const Term activations = m.metric(Metric::train_memory_activations);
  const Term pp = m.plan("training.pp");
  const Term hbm = m.plan("cluster.hbm");
  const Term reserve = m.plan("cluster.memory_reserve");
  const double room = hbm.value / (1 + reserve.value) - activations.value;
  if (m.complete() && !(room > 0))
    m.missing("room for the model states (the activations and their reserve alone fill cluster.hbm)");
  m.finish(std::max(1.0, std::ceil(states.value * pp.value / room)),
           "⌈states · pp / (hbm / (1 + memory_reserve) − activations)⌉, at least 1",
           arithmetic("⌈{} × {} / ({} / (1 + {}) − {})⌉", states, pp, hbm, reserve, activations));
}

}  // namespace

void estimate_training_memory(EstimateContext& context) {
  estimate_training_moe_params(context);
  estimate_lora_adapter_params(context);
  memory_adapter_states(context);
  memory_states(context);
  offload_state_bytes(context);
  memory_activations(context);
  memory_reserve(context);
  memory_total(context);
  memory_lower_bound(context);
  memory_min_pp(context);
}

}  // namespace planlint::detail
