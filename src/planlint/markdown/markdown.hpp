#pragma once
/// Plans inside Markdown capacity docs: the fenced ```toml blocks that hold a [plan] table.
///
///     for (const PlanBlock& block : plan_blocks(doc))
///       lint_text(source, block_text(doc, block), options, block.first_line);  // the doc's lines
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "planlint/diag/result.hpp"

namespace planlint {

/// The content lines of one fenced block (1-based, inclusive; the fences excluded).
struct PlanBlock {
  std::uint32_t first_line = 0;
  std::uint32_t last_line = 0;  ///< < first_line for an empty block
  std::size_t begin = 0;        ///< the byte of the doc that starts first_line
  std::size_t end = 0;          ///< the byte past last_line's line break (or the doc's end)
};

/// True for *.md and *.markdown paths.
bool is_markdown_path(std::string_view path);

/// The ```toml (or ~~~toml) fenced blocks of `doc` that hold a top-level [plan] table header, in
/// document order. A block left open runs to the end of the doc (CommonMark). A fence inside
/// an HTML comment (`<!--` at the start of a line, up to the line that holds `-->`) is comment
/// text, as CommonMark reads it, and not a block.
std::vector<PlanBlock> plan_blocks(std::string_view doc);

/// plan_blocks(doc), when there are no more than `max_plans` of them (--max-plans-per-file):
/// a real capacity doc holds one to a few plans, and the limit names what a generated one
/// holds (docs/hardening.md). The error's span is the first extra block's opening fence.
Result<std::vector<PlanBlock>> plan_blocks(std::string_view doc, std::size_t max_plans);

/// The text of `block`'s lines in `doc`, line breaks included: parsed on its own, its line 1 is
/// the doc's line block.first_line (lint_text's `first_line` maps it back), its columns the
/// doc's. A view of `doc`: a doc's blocks cost what the same plans cost as files.
std::string_view block_text(std::string_view doc, const PlanBlock& block);

}  // namespace planlint
