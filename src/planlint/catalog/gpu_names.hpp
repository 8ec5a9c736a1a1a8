#pragma once
/// How a GPU's name is compared with the catalog's ids, names and aliases: the same key for
/// "H100 SXM5", "h100_sxm" and "NVIDIA H100-SXM" ("h100sxm").
///
///     gpu_name_key("NVIDIA A100-SXM4-80GB") == gpu_name_key("a100 sxm 80gb")  // "a100sxm80gb"
#include <string>
#include <string_view>

namespace planlint {

/// The words of `name` (split at every character that is not an ASCII letter or digit), in
/// lower case, joined without separators; leading vendor words (NVIDIA, AMD, Intel, Google)
/// dropped while a word follows, and the SXM generation left out ("sxm5" is "sxm": one part is
/// sold as SXM, SXM4 and SXM5 in different tables).
std::string gpu_name_key(std::string_view name);

/// The model of a GPU id or name: its first word in lower case after the vendor words
/// ("a100" of "A100-80GB", "h100" of "NVIDIA H100 SXM5"); the variants of one model differ in
/// peak and memory, so only they are offered for a name not in the catalog.
std::string gpu_model(std::string_view name);

}  // namespace planlint
