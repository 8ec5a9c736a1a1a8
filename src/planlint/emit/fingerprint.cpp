#include "planlint/emit/fingerprint.hpp"

#include <cstdint>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "planlint/emit/repository_path.hpp"

namespace planlint {

std::string finding_fingerprint(std::string_view file, std::string_view rule,
                                std::string_view key_path, std::size_t ordinal) {
  // FNV-1a, 64 bits: stable across platforms and releases (std::hash is neither).
  std::uint64_t hash = 0xcbf29ce484222325ull;
  auto mix = [&](std::string_view text) {
    for (unsigned char c : text) {
      hash ^= c;
      hash *= 0x100000001b3ull;
    }
    hash ^= 0xff;  // separator, so ("ab","c") and ("a","bc") differ
    hash *= 0x100000001b3ull;
  };
  mix(file);
  mix(rule);
  mix(key_path);
  mix(std::to_string(ordinal));
  return fmt::format("{:016x}", hash);
}

std::vector<std::string> finding_fingerprints(const std::vector<Diagnostic>& diagnostics,
                                              const std::string& repository_root,
                                              const std::string& working_directory) {
  std::vector<std::string> fingerprints;
  fingerprints.reserve(diagnostics.size());
  std::map<std::tuple<std::string, std::string, std::string>, std::size_t> ordinals;
  std::string uri;  // of the file before, findings being sorted by file
  for (std::size_t i = 0; i < diagnostics.size(); ++i) {
    const Diagnostic& d = diagnostics[i];
    if (i == 0 || d.primary.file != diagnostics[i - 1].primary.file)
      uri = artifact_uri(d.primary.file, repository_root, working_directory).uri;
    const std::size_t ordinal = ordinals[{uri, d.rule, d.key_path}]++;
    fingerprints.push_back(finding_fingerprint(uri, d.rule, d.key_path, ordinal));
  }
  return fingerprints;
}

}  // namespace planlint
