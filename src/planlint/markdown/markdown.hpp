#pragma once
/// Plans inside Markdown capacity docs: the fenced ```toml blocks that hold a [plan] table.
///
///     for (const PlanBlock& block : plan_blocks(doc))
///       lint_text(source, blank_outside(doc, block), options);  // the doc's own line numbers
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
};

/// True for *.md and *.markdown paths.
bool is_markdown_path(std::string_view path);

/// The ```toml (or ~~~toml) fenced blocks of `doc` that hold a top-level [plan] table header, in
/// document order. A block left open runs to the end of the doc (CommonMark). A fence inside
/// an HTML comment (`<!--` at the start of a line, up to the line that holds `-->`) is comment
/// text, as CommonMark reads it, and not a block.
std::vector<PlanBlock> plan_blocks(std::string_view doc);

/// plan_blocks(doc), when there are no more than `max_plans` of them (--max-plans-per-file).
/// Each block is linted from a copy of the doc up to its end, so a doc's cost grows with
/// blocks × lines: the limit keeps a generated doc from taking minutes (docs/hardening.md). The
/// error's span is the first extra block's opening fence.
Result<std::vector<PlanBlock>> plan_blocks(std::string_view doc, std::size_t max_plans);

/// `doc` up to the end of `block` with every line before it blanked: its characters removed,
/// its line break kept, so that line and column numbers inside the block are the doc's own.
/// The lines after the block are left out.
std::string blank_outside(std::string_view doc, const PlanBlock& block);

}  // namespace planlint
