#pragma once
/// Catch2 v3 under the Catch2 v2 names the tests use (<catch2/catch.hpp>, Catch::Contains,
/// Approx). Debian 12 ships Catch2 v2 and Ubuntu 24.04 v3; tests/CMakeLists.txt puts this
/// folder first on the include path only with v3, whose Catch2WithMain gives the main().
#include <string>

#include <catch2/catch_all.hpp>

namespace Catch {

inline Matchers::StringContainsMatcher Contains(const std::string& text,
                                                CaseSensitive sensitivity = CaseSensitive::Yes) {
  return Matchers::ContainsSubstring(text, sensitivity);
}
using Matchers::EndsWith;
using Matchers::Matches;
using Matchers::StartsWith;
using Matchers::VectorContains;

namespace Detail {
using Catch::Approx;
}  // namespace Detail

}  // namespace Catch

using Catch::Approx;
