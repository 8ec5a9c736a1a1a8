#include "planlint/embed/embedded_files.hpp"

namespace planlint::embed {

std::string_view find(std::string_view path) {
  for (const EmbeddedFile& file : files())
    if (file.path == path) return file.contents;
  return {};
}

}  // namespace planlint::embed
