#pragma once
/// Which catalog GPU a name that is not in the catalog may mean ("H100_SXM", "a100", "b200-sxm").
///
/// An edit distance alone is wrong here: "b200-sxm" is one letter from "h200-sxm", a different
/// GPU with less than half the peak, and a fix that a tool applies unattended would put it in
/// the plan. A GPU's model is its first word (gpu_model: "b200", "a100"); only ids of the
/// same model are offered, and the fix only when one id is meant.
#include <string>
#include <string_view>
#include <vector>

namespace planlint {

struct GpuSuggestion {
  /// Catalog ids the name may mean, the likeliest first; empty when none.
  std::vector<std::string> ids;
  /// Whether ids[0] is the one meant (same id up to case and separators, or the only variant
  /// of the model): safe to offer as a fix.
  bool certain = false;
};

GpuSuggestion suggest_gpu(std::string_view name, const std::vector<std::string>& catalog_ids);

}  // namespace planlint
