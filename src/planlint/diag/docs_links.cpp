#include "planlint/diag/docs_links.hpp"

// Set for this file only (CMakeLists.txt), so that changing it rebuilds nothing else.
#ifndef PLANLINT_DOCS_URL
#define PLANLINT_DOCS_URL "https://github.com/planlint/planlint/blob/v" PLANLINT_VERSION "/docs/"
#endif

namespace planlint {

std::string_view build_docs_url() { return PLANLINT_DOCS_URL; }

std::string rule_docs_url(std::string_view docs_url, std::string_view rule) {
  std::string url(docs_url);
  if (!url.empty() && url.back() != '/') url += '/';
  url += "rules/";
  url += rule;
  url += ".md";
  return url;
}

}  // namespace planlint
