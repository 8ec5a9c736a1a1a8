#include "planlint/catalog/catalog_table.hpp"

#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

namespace planlint {

namespace {

/// `value / scale` in `unit`, in the shortest form that round-trips a datasheet's figure
/// (835.5 TFLOPS, 0.864 TB/s), or "–" without a figure.
std::string figure(std::optional<double> value, double scale, const char* unit) {
  if (!value) return "–";
  return fmt::format("{:.6g} {}", *value / scale, unit);
}

/// The scale-up domain as a reader says it: "72 × NVLink", "≤ 6144 × ICI" for a TPU's largest
/// slice, "–" without one.
std::string domain_text(const GpuSpec& gpu) {
  if (!gpu.scale_up_domain && !gpu.scale_up_link) return "–";
  const std::string link = gpu.scale_up_link ? std::string(display_name(*gpu.scale_up_link)) : "scale-up link";
  if (!gpu.scale_up_domain) return link;
  return fmt::format("{}{:g} × {}", gpu.scale_up_link == ScaleUpLink::ici ? "≤ " : "", *gpu.scale_up_domain, link);
}

}  // namespace

std::string catalog_table_markdown(const Catalog& catalog) {
  constexpr double tera = 1e12, giga = 1e9;
  std::string out =
      "| id | name | FP32 (non-tensor) | BF16/FP16 dense | FP8 dense | FP4 dense | BF16 sparse | HBM | HBM bandwidth | "
      "link | scale-up domain |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const GpuSpec& gpu : catalog.gpus()) {
    // A GPU without BF16 (Volta) shows its FP16 tensor peak in the BF16/FP16 column.
    std::optional<double> half = gpu.dense_peak(Precision::bf16);
    if (!half) half = gpu.dense_peak(Precision::fp16);
    std::string name = gpu.name;
    for (std::size_t i = 0; i < gpu.aliases.size(); ++i)
      name += fmt::format("{}`{}`", i == 0 ? "; also " : ", ", gpu.aliases[i]);
    out += fmt::format("| `{}` | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", gpu.id, name,
                       figure(gpu.dense_peak(Precision::fp32), tera, "TFLOPS"), figure(half, tera, "TFLOPS"),
                       figure(gpu.dense_peak(Precision::fp8), tera, "TFLOPS"),
                       figure(gpu.dense_peak(Precision::fp4), tera, "TFLOPS"),
                       figure(gpu.sparse_peak(Precision::bf16), tera, "TFLOPS"),
                       figure(gpu.hbm_bytes, giga, "GB"), figure(gpu.hbm_bandwidth_bytes_per_s, tera, "TB/s"),
                       figure(gpu.link_bandwidth_bytes_per_s, giga, "GB/s"), domain_text(gpu));
  }
  return out;
}

std::string catalog_listing_text(const Catalog& catalog) {
  std::string out;
  for (const GpuSpec& gpu : catalog.gpus()) {
    out += fmt::format("{}  {}\n", gpu.id, gpu.name);
    if (!gpu.aliases.empty()) out += fmt::format("  also named    {}\n", fmt::join(gpu.aliases, ", "));
    std::string dense, sparse;
    for (auto [precision, peak] : gpu.dense_peak_flops)
      dense += fmt::format("{}{} {}", dense.empty() ? "" : ", ", to_string(precision), figure(peak, 1e12, "TFLOPS"));
    for (auto [precision, peak] : gpu.sparse_peak_flops)
      sparse += fmt::format("{}{} {}", sparse.empty() ? "" : ", ", to_string(precision), figure(peak, 1e12, "TFLOPS"));
    out += fmt::format("  dense peaks   {}\n", dense);
    if (!sparse.empty()) out += fmt::format("  sparse peaks  {} (2:4 structured sparsity)\n", sparse);
    out += fmt::format("  memory        {}, {}\n", figure(gpu.hbm_bytes, 1e9, "GB"),
                       figure(gpu.hbm_bandwidth_bytes_per_s, 1e12, "TB/s"));
    out += fmt::format("  link          {}\n", gpu.link_bandwidth_bytes_per_s
                                                   ? figure(gpu.link_bandwidth_bytes_per_s, 1e9, "GB/s") + " per GPU"
                                                   : std::string("none listed"));
    if (gpu.host_bandwidth_bytes_per_s)
      out += fmt::format("  host link     {} per GPU\n", figure(gpu.host_bandwidth_bytes_per_s, 1e9, "GB/s"));
    std::string domain = gpu.scale_up_domain ? fmt::format("{:g} GPUs", *gpu.scale_up_domain) : std::string("the host");
    if (gpu.scale_up_domain && gpu.scale_up_link == ScaleUpLink::ici) domain = "a slice of up to " + domain;
    if (gpu.scale_up_link) domain += fmt::format(" over {}", display_name(*gpu.scale_up_link));
    if (gpu.gpus_per_node) domain += fmt::format("; hosts of {:g}", *gpu.gpus_per_node);
    out += fmt::format("  scale-up      {}\n", domain);
    for (const std::string& source : gpu.sources) out += fmt::format("  source        {}\n", source);
    out += '\n';
  }
  out += fmt::format("{} accelerators (docs/catalog.md; a team's own: [lint] catalog in .planlint.toml)\n",
                     catalog.gpus().size());
  return out;
}

std::string catalog_listing_json(const Catalog& catalog) {
  using json = nlohmann::ordered_json;
  json entries = json::array();
  for (const GpuSpec& gpu : catalog.gpus()) {
    json entry = json::object();
    entry["id"] = gpu.id;
    entry["name"] = gpu.name;
    entry["aliases"] = gpu.aliases;
    entry["hbm_bytes"] = gpu.hbm_bytes;
    entry["hbm_bandwidth_bytes_per_s"] = gpu.hbm_bandwidth_bytes_per_s;
    entry["link_bandwidth_bytes_per_s"] =
        gpu.link_bandwidth_bytes_per_s ? json(*gpu.link_bandwidth_bytes_per_s) : json(nullptr);
    entry["host_bandwidth_bytes_per_s"] =
        gpu.host_bandwidth_bytes_per_s ? json(*gpu.host_bandwidth_bytes_per_s) : json(nullptr);
    entry["scale_up_link"] = gpu.scale_up_link ? json(std::string(to_string(*gpu.scale_up_link))) : json(nullptr);
    entry["scale_up_domain"] = gpu.scale_up_domain ? json(*gpu.scale_up_domain) : json(nullptr);
    entry["gpus_per_node"] = gpu.gpus_per_node ? json(*gpu.gpus_per_node) : json(nullptr);
    entry["scale_out"] = std::string(to_string(gpu.scale_out()));
    json dense = json::object(), sparse = json::object();
    for (auto [precision, peak] : gpu.dense_peak_flops) dense[std::string(to_string(precision))] = peak;
    for (auto [precision, peak] : gpu.sparse_peak_flops) sparse[std::string(to_string(precision))] = peak;
    entry["dense_peak_flops"] = std::move(dense);
    entry["sparse_peak_flops"] = std::move(sparse);
    entry["notes"] = gpu.notes;
    entry["sources"] = gpu.sources;
    entries.push_back(std::move(entry));
  }
  return entries.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace planlint
