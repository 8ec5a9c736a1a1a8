#pragma once
/// XPath over the HTML pages planlint writes (XHTML), with Debian's xmllint: the report tests'
/// one reader of a page's structure.
#include <filesystem>
#include <string>

#include <catch2/catch.hpp>

#include "integration_support.hpp"

namespace planlint::test {

/// xmllint's answer to an XPath expression over `file`, trailing space trimmed (XHTML: match
/// elements by local-name(), they are in the XHTML namespace).
inline std::string xpath(const std::filesystem::path& file, const std::string& expression) {
  std::string output;
  const int status = run_command(system_tool("xmllint", "libxml2-utils") + " --nonet --xpath " + quote(expression) +
                                     " " + quote(file.string()),
                                 output);
  INFO(expression << "\n" << output);
  REQUIRE(status == 0);
  while (!output.empty() && (output.back() == '\n' || output.back() == ' ')) output.pop_back();
  return output;
}

}  // namespace planlint::test
