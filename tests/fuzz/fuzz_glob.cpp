// libFuzzer target: the glob matcher of .gitignore lines, --exclude and a config's `exclude`
// (src/planlint/lint/glob.hpp). The input is a pattern, a line break, and a path. Besides
// crashes and sanitizer reports, it checks that a match visits at most (pattern size + 1) ×
// path size pattern positions, and, on short inputs, that the verdict is that of git's own
// backtracking algorithm (tests/unit/wildmatch_reference.hpp). The whole input is also read as
// a .gitignore file and matched against the path.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "planlint/lint/gitignore.hpp"
#include "planlint/lint/glob.hpp"
#include "wildmatch_reference.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t line_break = input.find('\n');
  const std::string_view pattern = input.substr(0, line_break);
  const std::string_view path = line_break == std::string_view::npos ? std::string_view() : input.substr(line_break + 1);

  planlint::GlobSet globs;
  const std::size_t glob = globs.add(pattern);
  std::size_t steps = 0;
  const bool matched = globs.matches(glob, path, steps);
  if (steps > (pattern.size() + 1) * path.size()) std::abort();
  // The reference backtracks: exponential on long inputs, quick on these.
  if (pattern.size() <= 20 && path.size() <= 20 && matched != planlint::test::reference_wildmatch(pattern, path))
    std::abort();

  const planlint::IgnorePatterns lines(input);
  (void)lines.match(path, false);
  (void)lines.match(path, true);
  return 0;
}
