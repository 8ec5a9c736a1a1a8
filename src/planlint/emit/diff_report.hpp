#pragma once
/// `planlint diff`'s output formats (docs/review.md): one table, as the report's formats are.
/// The renderers show what run_diff() found (change/model.hpp); they compute nothing.
///
///     render_diff(std::cout, run.report, DiffFormat::markdown);   // a pull-request comment
#include <cstddef>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "planlint/change/model.hpp"

namespace planlint {

enum class DiffFormat { text, markdown, json, github };

struct DiffFormatSpec {
  std::string_view name;  ///< --format NAME
  DiffFormat format;
};

/// Every format, in the order `--help` lists them; the first is the default.
std::span<const DiffFormatSpec> diff_formats();
std::vector<std::string> diff_format_names();
const DiffFormatSpec* find_diff_format(std::string_view name);

/// The most characters GitHub takes in a pull-request comment.
inline constexpr std::size_t github_comment_limit = 65536;
/// The hidden line the Markdown starts with, by which a script finds the comment to update.
inline constexpr std::string_view diff_comment_marker = "<!-- planlint-diff -->";

struct DiffStyle {
  bool color = false;  ///< text: ANSI colours in the findings
  /// markdown: the most bytes the comment may hold (every character is at least one); the
  /// plans' sections that do not fit are left out, with a note that says how many.
  std::size_t markdown_limit = github_comment_limit;
  /// github: what the annotations' file paths are relative to (emit/github.hpp).
  std::string repository_root, working_directory;
};

void render_diff(std::ostream& out, const DiffReport& report, DiffFormat format, const DiffStyle& style = {});

}  // namespace planlint
