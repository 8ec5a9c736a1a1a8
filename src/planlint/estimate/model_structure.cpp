/// The parameters a model's structural keys give (estimates.md, "Parameters from the structure"):
/// the embeddings, each layer's attention and MLP or experts, the routers. A headline
/// `model.params` or `model.active_params` far from them is a typo, an active count typed as the
/// total, or structural keys of another model: `param-count-mismatch` compares them.
#include <functional>
#include <optional>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "planlint/estimate/engine.hpp"
#include "planlint/plan/defaults.hpp"

namespace planlint::detail {

double mlp_matrices(const EstimateContext& context) {
  return gated_mlp(context.plan().text("model.mlp").value_or("")) ? 3 : 2;
}

namespace {

/// A term of the sum and how it reads ("2 × 128256 × 8192").
struct Part {
  double value = 0;
  std::function<std::string()> text;
};

/// The input and output embeddings, V · h each; one matrix when they are tied.
Part embeddings(EstimateContext& context, MetricBuilder& m, const Term& hidden) {
  const Term vocab = m.plan("model.vocab");
  const bool tied = context.plan().boolean("model.tied_embeddings").value_or(false);
  m.choice("model.tied_embeddings", tied ? 1 : 2);
  const double copies = tied ? 1 : 2;
  return {copies * vocab.value * hidden.value, [=] {
            return tied ? fmt::format("{} × {}", vocab.text, hidden.text)
                        : fmt::format("2 × {} × {}", vocab.text, hidden.text);
          }};
}

/// A head's query/key and value widths d_qk and d_v: d_h unless the plan states them apart (MLA).
std::pair<Term, Term> head_widths(MetricBuilder& m) {
  const std::optional<Term> qk_stated = m.optional_plan("model.qk_head_dim");
  const std::optional<Term> v_stated = m.optional_plan("model.v_head_dim");
  return {qk_stated ? *qk_stated : m.plan("model.head_dim"), v_stated ? *v_stated : m.plan("model.head_dim")};
}

/// One layer's attention projections. Multi-head and grouped-query attention: queries and
/// outputs a · d_qk and a · d_v wide, keys and values kv · d_qk and kv · d_v, each against h,
/// h · (a + kv) · (d_qk + d_v) together (Vaswani et al. 2017; Ainslie et al. 2023, GQA).
/// Multi-head latent attention (DeepSeek-AI 2024, "DeepSeek-V2", §2.1): the query down- and
/// up-projections h · d_c' + d_c' · a · d_qk (h · a · d_qk without a query latent), the joint KV
/// down-projection with the decoupled RoPE key h · (d_c + d_h^R), the KV up-projection
/// d_c · a · (d_qk − d_h^R + d_v), and the output a · d_v · h.
Part attention(EstimateContext& context, MetricBuilder& m, const Term& hidden) {
  const Term heads = m.plan("model.heads");
  const std::pair<Term, Term> widths = head_widths(m);
  const Term qk = widths.first, v = widths.second;
  if (!context.plan().find("model.kv_lora_rank")) {
    const Term kv = m.plan("model.kv_heads");
    return {hidden.value * (heads.value + kv.value) * (qk.value + v.value), [=] {
              return fmt::format("{} × ({} + {}) × ({} + {})", hidden.text, heads.text, kv.text, qk.text, v.text);
            }};
  }
  const Term latent = m.plan("model.kv_lora_rank");
  const Term rope = m.plan("model.qk_rope_head_dim");
  const std::optional<Term> q_latent = m.optional_plan("model.q_lora_rank");
  const double query = q_latent ? q_latent->value * (hidden.value + heads.value * qk.value)
                                : hidden.value * heads.value * qk.value;
  const double value = query + hidden.value * (latent.value + rope.value) +
                       latent.value * heads.value * (qk.value - rope.value + v.value) +
                       heads.value * v.value * hidden.value;
  return {value, [=] {
            const std::string q = q_latent ? fmt::format("{} × ({} + {} × {})", q_latent->text, hidden.text,
                                                         heads.text, qk.text)
                                           : fmt::format("{} × {} × {}", hidden.text, heads.text, qk.text);
            return fmt::format("{} + {} × ({} + {}) + {} × {} × ({} − {} + {}) + {} × {} × {}", q, hidden.text,
                               latent.text, rope.text, latent.text, heads.text, qk.text, rope.text, v.text,
                               heads.text, v.text, hidden.text);
          }};
}

/// An MoE model's expert keys: its MoE layers L_moe, routed experts E, of which a token is sent
/// to k, shared experts S, and an expert's MLP width F_e.
struct Moe {
  Term layers, experts, routed, shared, ffn;
  double matrices = 2;
};

void structure_params(EstimateContext& context) {
  MetricBuilder m(context, Metric::model_structure_params);
  const Term layers = m.plan("model.layers");
  const Term hidden = m.plan("model.hidden");
  const Part embedded = embeddings(context, m, hidden);
  const Part attended = attention(context, m, hidden);
  const double matrices = mlp_matrices(context);
  m.choice("model.mlp", matrices);
  const TermText matrices_text = TermText::count(matrices);
  // Norms (2 · h a layer), biases and learned position embeddings are left out: 0.01% of a 7B
  // model's parameters and less of a larger one's.
  double dense_layers = layers.value;
  Part experts{0, [] { return std::string(); }};
  if (is_moe(context) && context.plan().find("model.experts")) {
    Moe moe{m.plan("model.moe_layers"), m.plan("model.experts"), m.plan("model.experts_per_token"),
            m.plan("model.shared_experts"), m.plan("model.expert_ffn_hidden"), matrices};
    dense_layers = layers.value - moe.layers.value;
    // Each MoE layer: E routed and S shared experts of m · h · F_e, and a router of h · E.
    experts.value = moe.layers.value * ((moe.experts.value + moe.shared.value) * matrices * hidden.value * moe.ffn.value +
                                        hidden.value * moe.experts.value);
    experts.text = [=] {
      return fmt::format(" + {} × (({} + {}) × {} × {} × {} + {} × {})", moe.layers.text, moe.experts.text,
                         moe.shared.text, matrices_text, hidden.text, moe.ffn.text, hidden.text, moe.experts.text);
    };
  }
  Part dense_mlp{0, [] { return std::string(); }};
  if (dense_layers > 0) {
    const Term ffn = m.plan("model.ffn_hidden");
    dense_mlp.value = dense_layers * matrices * hidden.value * ffn.value;
    const bool all = dense_layers == layers.value;
    dense_mlp.text = [=] {
      return all ? std::string()
                 : fmt::format(" + {} × {} × {} × {}", TermText::count(dense_layers), matrices_text, hidden.text,
                               ffn.text);
    };
    if (all) {
      // A dense model: every layer holds its attention and its MLP.
      const double value = embedded.value + layers.value * (attended.value + matrices * hidden.value * ffn.value);
      return m.finish(value, "V · h · (2, or 1 tied) + L · (attention + m · h · F)", [=] {
        return fmt::format("{} + {} × ({} + {} × {} × {})", embedded.text(), layers.text, attended.text(),
                           matrices_text, hidden.text, ffn.text);
      });
    }
  }
  m.finish(embedded.value + layers.value * attended.value + dense_mlp.value + experts.value,
           "V · h · (2, or 1 tied) + L · attention + (L − L_moe) · m · h · F + L_moe · ((E + S) · m · h · F_e + h · E)",
           [=] {
             return fmt::format("{} + {} × ({}){}{}", embedded.text(), layers.text, attended.text(), dense_mlp.text(),
                                experts.text());
           });
}

// A token passes through every parameter but the routed experts it is not sent to:
// N − L_moe · (E − k) · m · h · F_e.
void structure_active_params(EstimateContext& context) {
  if (!is_moe(context) || !context.plan().find("model.experts")) return;
  MetricBuilder m(context, Metric::model_structure_active_params);
  const Term total = m.metric(Metric::model_structure_params);
  const Term layers = m.plan("model.moe_layers");
  const Term experts = m.plan("model.experts");
  const Term routed = m.plan("model.experts_per_token");
  const Term hidden = m.plan("model.hidden");
  const Term ffn = m.plan("model.expert_ffn_hidden");
  const double matrices = mlp_matrices(context);
  m.finish(total.value - layers.value * (experts.value - routed.value) * matrices * hidden.value * ffn.value,
           "model.structure_params − L_moe · (E − k) · m · h · F_e",
           arithmetic("{} − {} × ({} − {}) × {} × {} × {}", total, layers, experts, routed, TermText::count(matrices),
                      hidden, ffn));
}

/// Σ (d_in + d_out) over one layer's adapted attention projections (Hu et al. 2021: an adapter
/// on a d_out × d_in matrix is B · A, r · (d_in + d_out) parameters). Multi-head and grouped-query
/// attention: q h → a · d_qk, k and v h → kv · d_qk and kv · d_v, o a · d_v → h, together
/// 4h + (a + kv) · (d_qk + d_v); the query and value projections alone 2h + a · d_qk + kv · d_v.
/// MLA (DeepSeek-V2 §2.1): its down- and up-projections, each a matrix of its own.
std::optional<Part> adapted_attention(EstimateContext& context, MetricBuilder& m, const Term& hidden,
                                      std::string_view targets) {
  const Term heads = m.plan("model.heads");
  const std::pair<Term, Term> widths = head_widths(m);
  const Term qk = widths.first, v = widths.second;
  if (!context.plan().find("model.kv_lora_rank")) {
    const Term kv = m.plan("model.kv_heads");
    if (targets == "qv")
      return Part{2 * hidden.value + heads.value * qk.value + kv.value * v.value, [=] {
                    return fmt::format("2 × {} + {} × {} + {} × {}", hidden.text, heads.text, qk.text, kv.text, v.text);
                  }};
    return Part{4 * hidden.value + (heads.value + kv.value) * (qk.value + v.value), [=] {
                  return fmt::format("4 × {} + ({} + {}) × ({} + {})", hidden.text, heads.text, kv.text, qk.text,
                                     v.text);
                }};
  }
  if (targets == "qv") {
    m.missing("training.lora_targets = \"attention\" or \"all-linear\" (MLA has no value projection of its own: "
              "its KV up-projection yields keys and values)");
    return std::nullopt;
  }
  const Term latent = m.plan("model.kv_lora_rank");
  const Term rope = m.plan("model.qk_rope_head_dim");
  const std::optional<Term> q_latent = m.optional_plan("model.q_lora_rank");
  const double query = q_latent ? hidden.value + 2 * q_latent->value + heads.value * qk.value
                                : hidden.value + heads.value * qk.value;
  const double value = query + hidden.value + latent.value + rope.value + latent.value +
                       heads.value * (qk.value - rope.value + v.value) + heads.value * v.value + hidden.value;
  return Part{value, [=] {
                const std::string q = q_latent ? fmt::format("{} + 2 × {} + {} × {}", hidden.text, q_latent->text,
                                                             heads.text, qk.text)
                                               : fmt::format("{} + {} × {}", hidden.text, heads.text, qk.text);
                return fmt::format("{} + ({} + {} + {}) + ({} + {} × ({} − {} + {})) + ({} × {} + {})", q, hidden.text,
                                   latent.text, rope.text, latent.text, heads.text, qk.text, rope.text, v.text,
                                   heads.text, v.text, hidden.text);
              }};
}

// LoRA's trainable parameters: r · Σ (d_in + d_out) over the matrices training.lora_targets
// adapts, in every layer; with all-linear also each MLP's m matrices of h × F (an MoE layer's
// routed and shared experts each, its router not).
void lora_adapter_params(EstimateContext& context) {
  if (!context.plan().is_training() || !context.find("training.lora_rank")) return;
  MetricBuilder m(context, Metric::train_lora_adapter_params);
  const Term rank = m.plan("training.lora_rank");
  const std::string targets = context.text("training.lora_targets").value_or("all-linear");
  m.choice("training.lora_targets");
  const Term layers = m.plan("model.layers");
  const Term hidden = m.plan("model.hidden");
  const std::optional<Part> attended = adapted_attention(context, m, hidden, targets);
  if (!attended) return m.finish(0, "", "");
  if (targets != "all-linear")
    return m.finish(rank.value * layers.value * attended->value,
                    targets == "qv" ? "r · L · (2h + a · d_qk + kv · d_v) (query and value projections)"
                                    : "r · L · Σ (d_in + d_out) of the attention projections",
                    [=] { return fmt::format("{} × {} × ({})", rank.text, layers.text, attended->text()); });
  const double matrices = mlp_matrices(context);
  m.choice("model.mlp", matrices);
  const TermText matrices_text = TermText::count(matrices);
  if (is_moe(context) && context.plan().find("model.experts")) {
    const Term moe_layers = m.plan("model.moe_layers");
    const Term experts = m.plan("model.experts");
    const Term shared = m.plan("model.shared_experts");
    const Term expert_ffn = m.plan("model.expert_ffn_hidden");
    const double dense_layers = layers.value - moe_layers.value;
    const Term ffn = dense_layers > 0 ? m.plan("model.ffn_hidden") : Term{};
    const double value =
        rank.value * (layers.value * attended->value + dense_layers * matrices * (hidden.value + ffn.value) +
                      moe_layers.value * (experts.value + shared.value) * matrices * (hidden.value + expert_ffn.value));
    return m.finish(value,
                    "r · (L · attention + (L − L_moe) · m · (h + F) + L_moe · (E + S) · m · (h + F_e)), attention = "
                    "Σ (d_in + d_out) of its projections",
                    [=] {
                      const std::string dense =
                          dense_layers > 0 ? fmt::format(" + {} × {} × ({} + {})", TermText::count(dense_layers),
                                                         matrices_text, hidden.text, ffn.text)
                                           : std::string();
                      return fmt::format("{} × ({} × ({}){} + {} × ({} + {}) × {} × ({} + {}))", rank.text, layers.text,
                                         attended->text(), dense, moe_layers.text, experts.text, shared.text,
                                         matrices_text, hidden.text, expert_ffn.text);
                    });
  }
  const Term ffn = m.plan("model.ffn_hidden");
  m.finish(rank.value * layers.value * (attended->value + matrices * (hidden.value + ffn.value)),
           "r · L · (attention + m · (h + F)), attention = Σ (d_in + d_out) of its projections", [=] {
             return fmt::format("{} × {} × ({} + {} × ({} + {}))", rank.text, layers.text, attended->text(),
                                matrices_text, hidden.text, ffn.text);
           });
}

}  // namespace

void estimate_lora_adapter_params(EstimateContext& context) { lora_adapter_params(context); }

void estimate_model_structure(EstimateContext& context) {
  structure_params(context);
  structure_active_params(context);
}

}  // namespace planlint::detail
