#pragma once
/// docs/catalog.md's table of accelerators, made from a catalog so the doc cannot drift from
/// rules/catalog/gpus.toml (test_catalog.cpp compares the two):
///
///     std::string table = catalog_table_markdown(Catalog::builtin());
#include <string>

#include "planlint/catalog/catalog.hpp"

namespace planlint {

/// One Markdown table row per entry, in the catalog's order: id, name (and aliases), the
/// FP32 (non-tensor), dense BF16/FP16, FP8 and FP4 and sparse BF16 peaks, HBM, its bandwidth,
/// the GPU's link and its scale-up domain ("–" where the entry has no figure).
std::string catalog_table_markdown(const Catalog& catalog);

/// `planlint gpus`: each entry as a block of text, its id and name, its aliases, its dense (and
/// sparse) peak at every precision it supports, its HBM, HBM bandwidth, link, scale-up domain
/// and host, and its sources.
std::string catalog_listing_text(const Catalog& catalog);

/// `planlint gpus --format json`: an array of the entries, each value in the unit its key
/// names: {"id", "name", "aliases": [...], "hbm_bytes", "hbm_bandwidth_bytes_per_s",
/// "link_bandwidth_bytes_per_s" (null without a link), "scale_up_link" ("nvlink", ...; null),
/// "scale_up_domain" and "gpus_per_node" (accelerators; null), "scale_out", "dense_peak_flops":
/// {precision: FLOP/s}, "sparse_peak_flops": {...}, "notes", "sources": [...]}.
std::string catalog_listing_json(const Catalog& catalog);

}  // namespace planlint
