/// Mixture-of-experts training (estimates.md, "Mixture of experts"): the split of the parameters
/// into routed experts and the rest, which expert parallelism shards differently (Lepikhin et al.
/// 2020, GShard; Megatron-Core's MoE), and the expert all-to-all of every MoE layer (dispatch and
/// combine, forward and backward; DeepSeek-AI 2024, "DeepSeek-V3 Technical Report", §3.2.2).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "planlint/estimate/engine.hpp"

namespace planlint::detail {

std::optional<double> computed_metric(EstimateContext& context, Metric metric) {
  if (!context.with_text()) {
    const double value = context.values()[static_cast<std::size_t>(metric)];
    return std::isnan(value) ? std::nullopt : std::optional<double>(value);
  }
  if (const MetricValue* found = context.estimates().find(metric)) return found->value;
  return std::nullopt;
}

bool is_moe(const EstimateContext& context) { return context.text("model.architecture") == "moe"; }

namespace {

// The routed experts' parameters N_e. From the expert keys, moe_layers · E · m · h · F_e (each
// expert an MLP of m matrices of h × F_e); without expert_ffn_hidden, from the stated total and
// active parameters and the routing: N = N_d + N_e and N_a = N_d + N_e · k / E give
// N_e = (N − N_a) / (1 − k / E).
void expert_params(EstimateContext& context) {
  if (!is_moe(context)) return;
  MetricBuilder m(context, Metric::train_moe_expert_params);
  if (context.find("model.expert_ffn_hidden")) {
    const Term layers = m.plan("model.moe_layers");
    const Term experts = m.plan("model.experts");
    const Term hidden = m.plan("model.hidden");
    const Term ffn = m.plan("model.expert_ffn_hidden");
    const double matrices = mlp_matrices(context);
    m.choice("model.mlp", matrices);
    m.finish(layers.value * experts.value * matrices * hidden.value * ffn.value,
             "moe_layers · E · m · h · F_e (m = 3 matrices for SwiGLU, 2 for GeLU)",
             arithmetic("{} × {} × {} × {} × {}", layers, experts, TermText::count(matrices), hidden, ffn));
    return;
  }
  const Term n = m.plan("model.params");
  const Term active = m.plan("model.active_params");
  const Term experts = m.plan("model.experts");
  const Term routed = m.plan("model.experts_per_token");
  if (m.complete() && !(routed.value < experts.value))
    m.missing("model.experts_per_token below model.experts");
  m.finish((n.value - active.value) / (1 - routed.value / experts.value),
           "(N − N_a) / (1 − k / E) (N = N_d + N_e, N_a = N_d + N_e · k / E)",
           arithmetic("({} − {}) / (1 − {} / {})", n, active, routed, experts));
}

void dense_params(EstimateContext& context) {
  if (!is_moe(context)) return;
  MetricBuilder m(context, Metric::train_moe_dense_params);
  const Term n = m.plan("model.params");
  const Term routed = m.metric(Metric::train_moe_expert_params);
  if (m.complete() && !(routed.value < n.value))
    m.missing("model.params above the routed experts' parameters (the expert keys give more than model.params)");
  m.finish(n.value - routed.value, "N − N_e", arithmetic("{} − {}", n, routed));
}

// What the expert keys make of the active parameters, for the check against a stated
// model.active_params (moe-active-params): only from expert_ffn_hidden, since without it
// train.moe.expert_params is derived from model.active_params itself.
void active_params(EstimateContext& context) {
  if (!is_moe(context) || !context.find("model.expert_ffn_hidden")) return;
  MetricBuilder m(context, Metric::train_moe_active_params);
  const Term dense = m.metric(Metric::train_moe_dense_params);
  const Term routed = m.metric(Metric::train_moe_expert_params);
  const Term k = m.plan("model.experts_per_token");
  const Term experts = m.plan("model.experts");
  m.finish(dense.value + routed.value * k.value / experts.value, "N_d + N_e · k / E",
           arithmetic("{} + {} × {} / {}", dense, routed, k, experts));
}

// Ranks as Megatron-Core lays out an expert-parallel group: tp innermost, then cp, then ep; the
// group stays on the scale-up link while it fits one scale-up domain.
void ep_group_domains(EstimateContext& context) {
  if (!is_moe(context)) return;
  MetricBuilder m(context, Metric::train_comm_ep_group_domains);
  const Term t = m.plan("training.tp");
  const Term cp = m.plan("training.cp");
  const Term ep = m.plan("training.ep");
  const Term per_domain = m.plan("cluster.scale_up_domain");
  m.finish(layout::group_domains(t.value, cp.value, ep.value, per_domain.value), "⌈tp · cp · ep / scale_up_domain⌉",
           arithmetic("⌈{} × {} × {} / {}⌉", t, cp, ep, TermText::count(per_domain.value)));
}

// Each MoE layer sends every token's hidden vector to its k experts (dispatch) and their
// outputs back (combine), and the backward pass sends the gradients of both the other way: four
// all-to-alls a layer and micro-batch, of which a GPU keeps 1/ep local. The dispatch goes in FP8
// when the run computes in FP8 (DeepSeek-V3 §3.3.4: FP8 dispatch, BF16 combine and backward),
// otherwise every direction in 16 bits. A GPU holds tokens_per_step / (dp · tp · cp) of each
// step's tokens and moe_layers / pp of the MoE layers.
void alltoall_bytes(EstimateContext& context) {
  if (!is_moe(context)) return;
  MetricBuilder m(context, Metric::train_comm_alltoall_bytes);
  const Term ep = m.plan("training.ep");
  const Term k = m.plan("model.experts_per_token");
  const Term hidden = m.plan("model.hidden");
  const Term layers = m.plan("model.moe_layers");
  const Term tokens = training_tokens_per_step(context, m);
  const Term dp = m.plan("training.dp");
  const Term t = m.plan("training.tp");
  const Term p = m.plan("training.pp");
  const Term cp = m.plan("training.cp");
  const bool fp8 = context.text("training.precision") == "fp8";
  if (fp8) m.choice("training.precision", 1, "fp8: the dispatch sends 1 byte an element (DeepSeek-V3 §3.3.4)");
  const double element_bytes = (fp8 ? 1 : 2) + 2 + 2 + 2;
  if (m.complete() && ep.value > 1 && context.with_provenance())
    m.note("every routed copy of a token counts; routing that limits the nodes a token reaches (DeepSeek-V3 "
           "sends each token to at most 4 nodes and forwards it over NVLink) sends less across the network");
  m.finish(layout::alltoall_bytes(ep.value, k.value, hidden.value, element_bytes, layers.value, p.value, tokens.value,
                                  dp.value, t.value, cp.value),
           fp8 ? "(ep − 1)/ep · k · h · (1 + 2 + 2 + 2) B · moe_layers / pp · tokens_per_step / (dp · tp · cp) "
                 "(FP8 dispatch, BF16 combine; both again in BF16 backward)"
               : "(ep − 1)/ep · k · h · 4 · 2 B · moe_layers / pp · tokens_per_step / (dp · tp · cp) (dispatch "
                 "and combine, forward and backward, 16-bit)",
           arithmetic("{}/{} × {} × {} × {} × {} / {} × {} / ({} × {} × {})", TermText::count(ep.value - 1),
                      TermText::count(ep.value), k, hidden, TermText::quantity(element_bytes, units::dims::bytes),
                      layers, TermText::count(p.value), tokens, TermText::count(dp.value),
                      TermText::count(t.value), TermText::count(cp.value)));
}

// Within a scale-up domain the all-to-all runs on its link at one direction's rate (half the
// catalog's two-way figure). When the ep group spans domains, the share of a GPU's peers in other
// domains, (ep − e) / (ep − 1) with e = ep / ep_group_domains of them in its own, crosses the
// network at inter_node_bandwidth, and the rest overlaps it on the scale-up link.
void alltoall_seconds(EstimateContext& context) {
  if (!is_moe(context)) return;
  MetricBuilder m(context, Metric::train_comm_alltoall_seconds);
  const Term bytes = m.metric(Metric::train_comm_alltoall_bytes);
  const Term ep = m.plan("training.ep");
  if (m.complete() && ep.value <= 1)
    return m.finish(0, "no expert parallelism (ep = 1): every expert is local", "0 s");
  const Term domains = m.metric(Metric::train_comm_ep_group_domains);
  if (!m.complete()) return m.finish(0, "", "");
  if (domains.value > 1) {
    const Term bandwidth = m.plan("cluster.inter_node_bandwidth");
    const double local = ep.value / domains.value;
    m.finish(layout::alltoall_seconds(bytes.value, ep.value, domains.value, bandwidth.value, 0),
             "alltoall_bytes · (ep − e)/(ep − 1) / inter_node_bandwidth, e = ep / ep_group_domains peers in the "
             "GPU's own scale-up domain",
             arithmetic("{} × ({} − {}) / ({} − 1) / {}", bytes, ep, TermText::count(local), ep, bandwidth));
    return;
  }
  const Term bandwidth = m.plan("cluster.intra_node_bandwidth");
  m.finish(layout::alltoall_seconds(bytes.value, ep.value, domains.value, 0, bandwidth.value),
           "alltoall_bytes / (intra_node_bandwidth / 2) (the ep group within a scale-up domain; the link's figure "
           "counts both directions)",
           arithmetic("{} / ({} / 2)", bytes, bandwidth));
}

void alltoall_fraction(EstimateContext& context) {
  if (!is_moe(context)) return;
  MetricBuilder m(context, Metric::train_comm_alltoall_fraction);
  const Term seconds = m.metric(Metric::train_comm_alltoall_seconds);
  const Term step = m.metric(Metric::train_step_seconds);
  if (m.complete() && context.with_provenance() && seconds.value > 0)
    m.note("before overlap: DeepSeek-V3's DualPipe hides the all-to-all behind the computation of another "
           "micro-batch (§3.2.1), which needs the fraction below 1");
  m.finish(layout::step_fraction(seconds.value, step.value), "alltoall_seconds / step_seconds", arithmetic("{} / {}", seconds, step));
}

}  // namespace

void estimate_training_moe_params(EstimateContext& context) {
  expert_params(context);
  dense_params(context);
  active_params(context);
}

void estimate_training_alltoall(EstimateContext& context) {
  ep_group_domains(context);
  alltoall_bytes(context);
  alltoall_seconds(context);
  alltoall_fraction(context);
}

}  // namespace planlint::detail
