#pragma once
/// The source commit planlint was built from (cmake/SourceCommit.cmake): `git describe` of the
/// checkout at build time ("v0.2.0", "v0.2.0-3-g1a2b3c4d5e6f", "-dirty" after uncommitted
/// changes), or empty when the tree had no git metadata.
#include <string_view>

namespace planlint::cli {

std::string_view source_commit();

}  // namespace planlint::cli
