#include "planlint/catalog/catalog_table.hpp"

#include <optional>

#include <fmt/format.h>

namespace planlint {

namespace {

/// `value / scale` in `unit`, in the shortest form that round-trips a datasheet's figure
/// (835.5 TFLOPS, 0.864 TB/s), or "–" without a figure.
std::string figure(std::optional<double> value, double scale, const char* unit) {
  if (!value) return "–";
  return fmt::format("{:.6g} {}", *value / scale, unit);
}

}  // namespace

std::string catalog_table_markdown(const Catalog& catalog) {
  constexpr double tera = 1e12, giga = 1e9;
  std::string out =
      "| id | name | FP32 (non-tensor) | BF16/FP16 dense | FP8 dense | BF16 sparse | HBM | HBM bandwidth | link |\n"
      "|---|---|---|---|---|---|---|---|---|\n";
  for (const GpuSpec& gpu : catalog.gpus()) {
    // A GPU without BF16 (Volta) shows its FP16 tensor peak in the BF16/FP16 column.
    std::optional<double> half = gpu.dense_peak(Precision::bf16);
    if (!half) half = gpu.dense_peak(Precision::fp16);
    out += fmt::format("| `{}` | {} | {} | {} | {} | {} | {} | {} | {} |\n", gpu.id, gpu.name,
                       figure(gpu.dense_peak(Precision::fp32), tera, "TFLOPS"), figure(half, tera, "TFLOPS"),
                       figure(gpu.dense_peak(Precision::fp8), tera, "TFLOPS"),
                       figure(gpu.sparse_peak(Precision::bf16), tera, "TFLOPS"),
                       figure(gpu.hbm_bytes, giga, "GB"), figure(gpu.hbm_bandwidth_bytes_per_s, tera, "TB/s"),
                       figure(gpu.link_bandwidth_bytes_per_s, giga, "GB/s"));
  }
  return out;
}

}  // namespace planlint
