/// The catalog's figures of the plan's GPU that the plan's own cluster figures are read against
/// (estimates.md, "GPU figures"): the dense peak at the compute precision, and a node's totals
/// (gpus_per_node × one GPU's figure), which a plan may have written where one GPU's belongs.
#include <cmath>

#include <fmt/format.h>

#include "planlint/estimate/engine.hpp"
#include "planlint/plan/defaults.hpp"

namespace planlint::detail {

namespace {

/// A figure of the plan's GPU in the catalog (`figure` of the catalog entry), recorded on `m` as the
/// input cluster.gpu with `what` ("dense bf16 peak"); missing with the reason when the plan names
/// no GPU, the catalog does not know it, or has no such figure for it.
template <typename Figure>
Term catalog_figure(EstimateContext& context, MetricBuilder& m, std::string_view what, units::Dimension dim,
                    Figure figure) {
  const std::optional<std::string> id = context.text("cluster.gpu");
  const GpuSpec* gpu = id ? context.catalog().find(*id) : nullptr;
  const std::optional<double> value = gpu ? figure(*gpu) : std::nullopt;
  if (!value) {
    m.missing(!id    ? std::string("cluster.gpu")
              : !gpu ? fmt::format("cluster.gpu (\"{}\" is not in the catalog)", *id)
                     : fmt::format("the catalog's {} of {}", what, gpu->id));
    return Term{std::nan(""), "?"};
  }
  m.choice("cluster.gpu", *value,
           context.with_provenance() ? fmt::format("catalog {} {}", gpu->id, what) : std::string());
  return Term{*value, TermText::quantity(*value, dim)};
}

void catalog_peak(EstimateContext& context) {
  MetricBuilder m(context, Metric::gpu_catalog_peak);
  const std::string precision = compute_precision(context.plan(), context.catalog());
  const std::optional<Precision> parsed = parse_precision(precision);
  const Term peak = catalog_figure(context, m, fmt::format("dense {} peak", precision), units::dims::flop_per_second,
                                   [&](const GpuSpec& gpu) { return parsed ? gpu.dense_peak(*parsed) : std::nullopt; });
  m.finish(peak.value, "the catalog's dense peak of cluster.gpu at the compute precision",
           [=] { return peak.text.str(); });
}

// An MFU range measured against the bf16 peak is this share of one measured against the peak of
// the plan's compute precision (0.5 for fp8 on an H100).
void bf16_peak_share(EstimateContext& context) {
  MetricBuilder m(context, Metric::gpu_bf16_peak_share);
  const Term bf16 = catalog_figure(context, m, "dense bf16 peak", units::dims::flop_per_second,
                                   [](const GpuSpec& gpu) { return gpu.dense_peak(Precision::bf16); });
  const Term peak = m.metric(Metric::gpu_catalog_peak);
  m.finish(bf16.value / peak.value, "dense bf16 peak / the dense peak at the compute precision",
           arithmetic("{} / {}", bf16, peak));
}

// The catalog's HBM is the marketed figure, which is GiB: an H100's five 16 GiB stacks are its
// "80 GB", 85.9 GB, what nvidia-smi shows. A plan may write either.
void hbm_gib(EstimateContext& context) {
  MetricBuilder m(context, Metric::gpu_hbm_gib);
  const Term hbm = catalog_figure(context, m, "HBM", units::dims::bytes,
                                  [](const GpuSpec& gpu) { return std::optional<double>(gpu.hbm_bytes); });
  constexpr double gib_per_gb = 1.073741824;  // 2^30 / 10^9
  m.finish(hbm.value * gib_per_gb, "the catalog's HBM read in GiB: hbm · 2^30 / 10^9",
           arithmetic("{} × 1.073741824", hbm));
}

/// A node's total of a figure of one GPU, gpus_per_node × it; `figure` reads the figure on `m`.
template <typename Figure>
void node_total(EstimateContext& context, Metric metric, std::string_view formula, Figure figure) {
  MetricBuilder m(context, metric);
  const Term one = figure(m);
  const Term per_node = m.plan("cluster.gpus_per_node");
  m.finish(one.value * per_node.value, formula,
           arithmetic("{} × {}", one, TermText::count(per_node.value)));
}

}  // namespace

void estimate_hardware(EstimateContext& context) {
  catalog_peak(context);
  bf16_peak_share(context);
  hbm_gib(context);
  auto catalog = [&](std::string_view what, units::Dimension dim, double GpuSpec::*field) {
    return [&context, what, dim, field](MetricBuilder& m) {
      return catalog_figure(context, m, what, dim, [field](const GpuSpec& gpu) { return std::optional(gpu.*field); });
    };
  };
  node_total(context, Metric::gpu_node_peak, "gpu.catalog_peak · gpus_per_node",
             [](MetricBuilder& m) { return m.metric(Metric::gpu_catalog_peak); });
  node_total(context, Metric::gpu_node_hbm, "the catalog's HBM · gpus_per_node",
             catalog("HBM", units::dims::bytes, &GpuSpec::hbm_bytes));
  node_total(context, Metric::gpu_node_hbm_gib, "gpu.hbm_gib · gpus_per_node",
             [](MetricBuilder& m) { return m.metric(Metric::gpu_hbm_gib); });
  node_total(context, Metric::gpu_node_hbm_bandwidth, "the catalog's HBM bandwidth · gpus_per_node",
             catalog("HBM bandwidth", units::dims::bytes_per_second, &GpuSpec::hbm_bandwidth_bytes_per_s));
}

}  // namespace planlint::detail
