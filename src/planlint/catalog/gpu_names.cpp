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

/// Calls `each` with the words of `name` in lower case, the leading vendor words left out while
/// a word follows. Views into one lower-cased copy: the unknown-GPU suggestion asks this of
/// every catalog id, where a vector of words each cost several allocations.
template <typename Each>
void for_each_model_word(std::string_view name, Each&& each) {
  std::string lowered(name);
  for (char& c : lowered) c = is_word_character(c) ? lower(c) : ' ';
  const std::string_view text(lowered);
  auto next_word = [&](std::size_t& at) -> std::string_view {
    const std::size_t begin = text.find_first_not_of(' ', at);
    if (begin == std::string_view::npos) {
      at = text.size();
      return {};
    }
    const std::size_t end = std::min(text.find(' ', begin), text.size());
    at = end;
    return text.substr(begin, end - begin);
  };
  std::size_t words = 0;
  for (std::size_t at = 0; !next_word(at).empty();) ++words;
  bool leading = true;
  std::size_t index = 0;
  for (std::size_t at = 0;; ++index) {
    const std::string_view word = next_word(at);
    if (word.empty()) break;
    if (leading && index + 1 < words &&
        std::find(vendor_words.begin(), vendor_words.end(), word) != vendor_words.end())
      continue;
    leading = false;
    each(word);
  }
}

}  // namespace

std::string gpu_name_key(std::string_view name) {
  std::string key;
  for_each_model_word(name, [&](std::string_view word) {
    const bool sxm_generation = word.size() > 3 && word.starts_with("sxm") &&
                                word.find_first_not_of("0123456789", 3) == std::string_view::npos;
    key += sxm_generation ? std::string_view("sxm") : word;
  });
  return key;
}

std::string gpu_model(std::string_view name) {
  std::string model;
  bool first = true;
  for_each_model_word(name, [&](std::string_view word) {
    if (first) model = word;
    first = false;
  });
  return model;
}

}  // namespace planlint
