#pragma once
/// What one GPU of a catalog entry rents for at most, for an entry with prices and one without.
#include <optional>

#include "planlint/catalog/catalog.hpp"

namespace planlint {

/// The most one GPU of an entry rents for, per GPU-hour, and whose rates say so.
struct PriceReference {
  const GpuSpec* entry = nullptr;  ///< the entry whose [gpu.price] it is: the GPU's own, or the nearest priced one
  double high = 0;                 ///< USD per GPU-second
};

/// What one GPU of `gpu` rents for at most, per GPU-hour: its own highest rate ([gpu.price]
/// high); for an entry without prices, the highest rate of the nearest priced entry, scaled by
/// the ratio of the two dense BF16 peaks (a part's class, which its rent follows). Nearest: a
/// variant of the same model (gpu_model: h100-pcie from h100-sxm, at 756/989 of its rate), else
/// the entry nearest in dense BF16 peak (an L40S, 362 TFLOPS, from the A100's $5.12 at 312
/// TFLOPS: $5.94). nullopt when `gpu` has no BF16 peak or no entry has prices.
std::optional<PriceReference> price_reference(const Catalog& catalog, const GpuSpec& gpu);

}  // namespace planlint
