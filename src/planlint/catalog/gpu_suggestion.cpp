#include "planlint/catalog/gpu_suggestion.hpp"

#include <cctype>

#include "planlint/diag/suggest.hpp"

namespace planlint {
namespace {

/// Lower case without separators: "H100_SXM" and "h100 sxm" are "h100sxm".
std::string folded(std::string_view name) {
  std::string out;
  for (char c : name)
    if (c != '-' && c != '_' && c != ' ') out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

/// The model: lower case, up to the first separator ("a100" of "A100-80GB", "b200" of "b200").
std::string model_of(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (c == '-' || c == '_' || c == ' ') break;
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

}  // namespace

GpuSuggestion suggest_gpu(std::string_view name, const std::vector<std::string>& catalog_ids) {
  GpuSuggestion suggestion;
  const std::string name_folded = folded(name);
  for (const std::string& id : catalog_ids)
    if (folded(id) == name_folded) return GpuSuggestion{{id}, true};
  const std::string model = model_of(name);
  if (model.empty()) return suggestion;
  // The same model, or one it begins ("mi300" of "mi300x").
  for (const std::string& id : catalog_ids)
    if (model_of(id).starts_with(model)) suggestion.ids.push_back(id);
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
