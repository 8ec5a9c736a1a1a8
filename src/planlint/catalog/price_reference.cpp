#include "planlint/catalog/price_reference.hpp"

#include <cmath>

#include "planlint/catalog/gpu_names.hpp"

namespace planlint {

std::optional<PriceReference> price_reference(const Catalog& catalog, const GpuSpec& gpu) {
  if (gpu.price) return PriceReference{&gpu, gpu.price->high};
  const std::optional<double> peak = gpu.dense_peak(Precision::bf16);
  if (!peak || *peak <= 0) return std::nullopt;
  // A priced variant of the same model first (h100-pcie from h100-sxm), else any priced entry.
  const std::string model = gpu_model(gpu.id);
  const GpuSpec* nearest = nullptr;
  double nearest_distance = 0, nearest_peak = 0;
  for (const bool same_model : {true, false}) {
    for (const GpuSpec& other : catalog.gpus()) {
      const std::optional<double> other_peak = other.dense_peak(Precision::bf16);
      if (!other.price || !other_peak || *other_peak <= 0) continue;
      if (same_model && gpu_model(other.id) != model) continue;
      // Nearest by ratio, not difference: 2× above is as far as 2× below.
      const double distance = std::abs(std::log(*peak / *other_peak));
      if (!nearest || distance < nearest_distance) {
        nearest = &other;
        nearest_distance = distance;
        nearest_peak = *other_peak;
      }
    }
    if (nearest) break;
  }
  if (!nearest) return std::nullopt;
  return PriceReference{nearest, nearest->price->high * *peak / nearest_peak};
}

}  // namespace planlint
