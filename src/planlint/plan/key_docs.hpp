#pragma once
/// The plan keys as docs/plan-format.md's tables show them, generated from their specs
/// (schema.cpp), and the texts the plan schema and the editor share with them.
///
///     key_table_markdown(*find_section("cluster"));   // "| key | type | plain number | ..."
///     default_text(*find_key("cluster.gpus_per_node"));   // "8"
#include <string>

#include "planlint/plan/schema.hpp"

namespace planlint {

/// The key's type as a user writes it: "count", "fraction", `"dense"`, `"moe"`, "bool", with
/// ", **required**" for a required key.
std::string key_type_text(const KeySpec& key);
/// The key's default: a fixed value as a plan writes it ("8", "10%", `"dense"`, `true`), with
/// its condition ("0 (when `experts` is stated)"), or how a derived one follows ("`hidden /
/// heads`"); empty for none. Markdown.
std::string default_text(const KeySpec& key);
/// The table of `section`'s keys (key | type | plain number | default | range | meaning),
/// without the columns that none of its keys fills; keys with the same row share one
/// (`max` / `min`).
std::string key_table_markdown(const SectionSpec& section);

}  // namespace planlint
