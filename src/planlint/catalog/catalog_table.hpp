#pragma once
/// docs/catalog.md's table of accelerators, made from a catalog so the doc cannot drift from
/// rules/catalog/gpus.toml (test_catalog.cpp compares the two):
///
///     std::string table = catalog_table_markdown(Catalog::builtin());
#include <string>

#include "planlint/catalog/catalog.hpp"

namespace planlint {

/// One Markdown table row per entry, in the catalog's order: id, name, the FP32 (non-tensor),
/// dense BF16/FP16 and FP8 and sparse BF16 peaks, HBM, its bandwidth and the GPU's link ("–"
/// where the entry has no figure).
std::string catalog_table_markdown(const Catalog& catalog);

}  // namespace planlint
