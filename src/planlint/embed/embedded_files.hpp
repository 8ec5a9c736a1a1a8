#pragma once
/// The data files compiled into the binary (rules/**/*.toml): the GPU catalog and the built-in
/// rules. Generated at build time by cmake/EmbedFilesScript.cmake.
#include <span>
#include <string_view>

namespace planlint::embed {

struct EmbeddedFile {
  std::string_view path;      ///< relative to the repository root, e.g. "rules/catalog/gpus.toml"
  std::string_view contents;  ///< the file's bytes
};

/// Every embedded file, sorted by path.
std::span<const EmbeddedFile> files();

/// The embedded file at `path`, or an empty view when there is none.
std::string_view find(std::string_view path);

}  // namespace planlint::embed
