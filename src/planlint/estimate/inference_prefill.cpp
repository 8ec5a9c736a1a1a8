/// A disaggregated service's prefill pool (docs/estimates.md, "Disaggregated prefill and
/// decode"; Zhong et al. 2024, "DistServe", OSDI): the prefill pool computes each prompt on
/// its own GPUs and sends the prompt's KV cache to the decode pool of [cluster] and [inference],
/// so TTFT counts the prefill pool and the transfer (inference.cpp, ttft), and each pool's GPUs
/// must hold what they hold.
#include <fmt/format.h>

#include "planlint/estimate/inference_terms.hpp"

namespace planlint::detail {

// The prompt's cache sits on the GPUs of the prefill rank that computed it, each of which sends
// its share over its own network port: a lower bound, since it counts every port of the rank
// busy and none of the decode side's.
void kv_transfer_seconds(EstimateContext& context) {
  MetricBuilder m(context, Metric::infer_kv_transfer_seconds);
  const Term per_token = m.metric(Metric::infer_kv_per_token);
  const Term prompt = m.plan("inference.prompt_tokens");
  const Term bandwidth = m.plan("cluster.inter_node_bandwidth");
  const Term tp = m.plan("inference.prefill_tp");
  const ServingLayout layout = serving_layout(context, m, Pool::prefill);
  const double senders = tp.value / layout.ranks() * layout.stages();
  std::string gpus = "tp";
  if (layout.dp) gpus += " / dp_attention";
  if (layout.pp) gpus += " · pp";
  m.finish(per_token.value * prompt.value / (bandwidth.value * senders),
           "kv_per_token · prompt_tokens / (inter_node_bandwidth · " + gpus +
               ") (the prefill rank's GPUs, each sending its share over its own port)",
           [=] {
             std::string text = fmt::format("{} × {} / ({} × {}", per_token.text, prompt.text, bandwidth.text, tp.text);
             if (layout.dp) text += fmt::format(" / {}", layout.dp->text);
             if (layout.pp) text += fmt::format(" × {}", layout.pp->text);
             return text + ")";
           });
}

// The least a prefill GPU holds: its share of the weights (as a decode GPU's, by its own tp, pp
// and attention ranks) and one prompt's KV cache on the GPUs of the rank that computes it, with
// the reserve.
void prefill_memory(EstimateContext& context) {
  MetricBuilder m(context, Metric::infer_prefill_memory);
  const Term model = m.metric(Metric::infer_weights);
  const Term per_token = m.metric(Metric::infer_kv_per_token);
  const Term prompt = m.plan("inference.prompt_tokens");
  const Term tp = m.plan("inference.prefill_tp");
  const Term reserve = m.plan("cluster.memory_reserve");
  const ServingLayout layout = serving_layout(context, m, Pool::prefill);
  const KvReplication kv = kv_replication_terms(context, m, layout, Pool::prefill);
  const double gpus = tp.value * layout.stages();
  const double per_gpu =
      (model.value * layout.weight_copies() + per_token.value * prompt.value * kv.value * layout.ranks()) / gpus;
  m.finish(per_gpu * (1 + reserve.value),
           "(" + layout.weights_formula() + " + kv_per_token · prompt_tokens · kv_replication" +
               (layout.dp ? " · dp_attention" : "") + ") / " + std::string(layout.gpus_formula()) +
               " · (1 + memory_reserve) (the prefill pool's layout; one prompt's cache)",
           [=] {
             return fmt::format("({} + {} × {} × {}{}) / {} × (1 + {})", layout.weights_text(model), per_token.text,
                                prompt.text, units::format(kv.value, units::dims::none),
                                layout.dp ? fmt::format(" × {}", layout.dp->text) : std::string(),
                                layout.gpus_text(tp), reserve.text);
           });
}

}  // namespace planlint::detail
