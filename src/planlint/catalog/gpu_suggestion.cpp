#include "planlint/catalog/gpu_suggestion.hpp"

#include "planlint/catalog/gpu_names.hpp"
#include "planlint/diag/suggest.hpp"

namespace planlint {

GpuSuggestion suggest_gpu(std::string_view name, const std::vector<std::string>& catalog_ids) {
  GpuSuggestion suggestion;
  const std::string name_key = gpu_name_key(name);
  for (const std::string& id : catalog_ids)
    if (gpu_name_key(id) == name_key) return GpuSuggestion{{id}, true};
  const std::string model = gpu_model(name);
  if (model.empty()) return suggestion;
  // The same model, or one it begins ("mi300" of "mi300x").
  for (const std::string& id : catalog_ids)
    if (gpu_model(id).starts_with(model)) suggestion.ids.push_back(id);
  if (suggestion.ids.size() > 1) {
    // A typo in the variant ("h100-sxn"): the closest variant is the one meant.
    std::vector<std::string_view> variants(suggestion.ids.begin(), suggestion.ids.end());
    if (auto closest = closest_match(name, variants)) {
      std::erase(suggestion.ids, *closest);
      suggestion.ids.insert(suggestion.ids.begin(), *closest);
      suggestion.certain = true;
    }
    return suggestion;
  }
  // "b200-sxm" for the catalog's "b200": the model has one entry, so it is the one meant.
  suggestion.certain = suggestion.ids.size() == 1;
  return suggestion;
}

}  // namespace planlint
