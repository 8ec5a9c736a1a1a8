#include "planlint/catalog/gpu_names.hpp"

#include <algorithm>
#include <array>
#include <vector>

namespace planlint {

namespace {

/// Vendors' names printed before the model ("NVIDIA H100 80GB HBM3", as nvidia-smi shows it).
constexpr std::array<std::string_view, 4> vendor_words = {"nvidia", "amd", "intel", "google"};

bool is_word_character(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

/// The words of `name` in lower case, the leading vendor words left out while a word follows.
std::vector<std::string> model_words(std::string_view name) {
  std::vector<std::string> words;
  std::string word;
  for (std::size_t i = 0; i <= name.size(); ++i) {
    if (i < name.size() && is_word_character(name[i])) {
      word += lower(name[i]);
      continue;
    }
    if (!word.empty()) words.push_back(std::move(word));
    word.clear();
  }
  std::size_t first = 0;
  while (first + 1 < words.size() &&
         std::find(vendor_words.begin(), vendor_words.end(), words[first]) != vendor_words.end())
    ++first;
  words.erase(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(first));
  return words;
}

}  // namespace

std::string gpu_name_key(std::string_view name) {
  std::string key;
  for (const std::string& word : model_words(name)) {
    const bool sxm_generation = word.size() > 3 && word.starts_with("sxm") &&
                                word.find_first_not_of("0123456789", 3) == std::string::npos;
    key += sxm_generation ? std::string_view("sxm") : std::string_view(word);
  }
  return key;
}

std::string gpu_model(std::string_view name) {
  const std::vector<std::string> words = model_words(name);
  return words.empty() ? std::string() : words.front();
}

}  // namespace planlint
