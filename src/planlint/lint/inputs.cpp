#include "planlint/lint/inputs.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>

#include "planlint/lint/batch.hpp"
#include "planlint/lint/path_order.hpp"
#include "planlint/lint/search_filter.hpp"
#include "planlint/markdown/markdown.hpp"
#include "planlint/parallel/parallel_in_order.hpp"
#include "planlint/plan/loader.hpp"
#include "planlint/source/repository.hpp"
#include "planlint/source/source_file.hpp"

namespace planlint {

namespace fs = std::filesystem;

namespace {

bool hidden(const fs::path& path) {
  const std::string name = path.filename().string();
  return name.size() > 1 && name[0] == '.' && name != "..";
}

enum class Candidate { plan, no_plan, unreadable };

/// Whether a file holds a plan: a top-level [plan] table, or a Markdown ```toml block with one.
/// The text read to decide is kept in `text` for the lint. A file over the size limit is kept
/// (without its text), so that its lint says so rather than a folder run passing over a plan
/// in silence; a file that cannot be read is `unreadable`, with the reason in `error`.
Candidate holds_plan(const fs::path& path, std::size_t max_file_bytes, std::optional<std::string>& text,
                     std::optional<FileIdentity>& identity, const InputReader& reader, std::optional<Error>& error) {
  Result<std::string> read = reader.read(path.string(), max_file_bytes, identity);
  if (!read) {
    std::error_code ec;
    const auto size = fs::file_size(path, ec);
    if (!ec && size > max_file_bytes) return Candidate::plan;
    error = Error(read.error().message, Location{path.string(), {}});
    return Candidate::unreadable;
  }
  text = *std::move(read);
  const bool plan = is_markdown_path(path.string()) ? !plan_blocks(*text).empty() : toml_holds_plan(*text);
  if (!plan) text.reset();
  return plan ? Candidate::plan : Candidate::no_plan;
}

/// Collects the candidate files under `folder` (*.toml, Markdown), not entering hidden folders,
/// node_modules or symbolic links to folders, nor what `filter` leaves out; `relative` is
/// `folder` from the searched folder ("" or ending in '/'). In a folder a .gitignore ignores
/// (`ignored`), entered because git tracks files in it, only those are kept. A folder that
/// cannot be listed, or a candidate whose type cannot be told (a symbolic link loop), is an
/// error; a dangling link is not a file.
void find_candidates(const fs::path& folder, const std::string& relative, bool ignored, std::vector<fs::path>& found,
                     std::optional<Error>& error, const InputReader& reader, SearchFilter& filter) {
  Result<std::vector<fs::directory_entry>> entries = reader.list(folder);
  if (!entries) {
    error = Error(entries.error().message, Location{folder.string(), {}});
    return;
  }
  const std::size_t levels = filter.ignores.size();
  if (filter.gitignore && !ignored)
    for (const fs::directory_entry& entry : *entries)
      if (entry.path().filename() == ".gitignore") {
        std::error_code ec;
        if (entry.is_regular_file(ec)) push_gitignore(folder, filter.root_from_repository + relative, filter, reader);
      }
  // What a .gitignore leaves out, unless git tracks it (or, a folder, files in it).
  auto left_out = [&](const std::string& path, bool directory, bool& in_ignored) {
    if (filter.excluded(path, directory)) return true;
    in_ignored = ignored || filter.gitignored(path, directory);
    return in_ignored && !filter.tracked_by_git(path, directory);
  };
  for (const fs::directory_entry& entry : *entries) {
    std::error_code ec;
    const std::string name = entry.path().filename().string();
    bool in_ignored = false;
    if (entry.is_directory(ec) && !entry.is_symlink(ec)) {
      if (hidden(entry.path()) || name == "node_modules" || left_out(relative + name, true, in_ignored)) continue;
      find_candidates(entry.path(), relative + name + "/", in_ignored, found, error, reader, filter);
      if (error) break;
      continue;
    }
    if (!is_toml_path(entry.path().string()) && !is_markdown_path(entry.path().string())) continue;
    if (left_out(relative + name, false, in_ignored)) continue;
    // A regular file's type came with the listing; only a symbolic link needs a stat.
    if (entry.is_regular_file(ec)) {
      found.push_back(entry.path());
      continue;
    }
    const fs::file_status status = entry.status(ec);  // through a symbolic link
    if (status.type() == fs::file_type::not_found) continue;  // a dangling link
    if (ec) {
      error = Error(ec.message(), Location{entry.path().string(), {}});
      break;
    }
    if (fs::is_regular_file(status)) found.push_back(entry.path());
  }
  while (filter.ignores.size() > levels) filter.ignores.pop();
}

/// A candidate as the search read it: in `files` when it holds a plan, the search's error when
/// it could not be read.
struct ScannedFile {
  Candidate candidate = Candidate::no_plan;
  Input input;
  std::optional<Error> error;
};

void search_folder(const fs::path& folder, std::vector<Input>& files, std::optional<Error>& error,
                   std::size_t max_file_bytes, const InputReader& reader, unsigned jobs, const SearchOptions& options) {
  std::vector<fs::path> found;
  SearchFilter filter = make_filter(folder, options, reader);
  find_candidates(folder, "", false, found, error, reader, filter);
  if (error) return;
  std::sort(found.begin(), found.end(), path_order_less);
  // Reading every candidate to scan it is most of a folder's search: the run's workers share
  // it, and the files come back in sorted order, the first unreadable one the error.
  const std::size_t chunk = batch_size(found.size(), jobs);
  parallel_in_order(
      (found.size() + chunk - 1) / chunk, jobs,
      [&](std::size_t c) {
        std::vector<ScannedFile> scanned;
        for (std::size_t i = c * chunk; i < std::min(found.size(), (c + 1) * chunk); ++i) {
          ScannedFile& file = scanned.emplace_back();
          file.input.path = found[i].string();
          file.input.found_in_folder = true;
          file.candidate = holds_plan(found[i], max_file_bytes, file.input.text, file.input.identity, reader, file.error);
          if (file.candidate == Candidate::unreadable) break;
        }
        return scanned;
      },
      [&](std::size_t, std::vector<ScannedFile> scanned) {
        for (ScannedFile& file : scanned) {
          if (error) return;
          if (file.candidate == Candidate::plan) files.push_back(std::move(file.input));
          if (file.candidate == Candidate::unreadable) error = std::move(file.error);
        }
      });
}

}  // namespace

Result<std::string> InputReader::read(const std::string& path, std::size_t max_bytes,
                                      std::optional<FileIdentity>& identity) const {
  return read_file(path, max_bytes, &identity);
}

Result<std::vector<fs::directory_entry>> InputReader::list(const fs::path& folder) const {
  std::vector<fs::directory_entry> entries;
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) entries.push_back(*it);
  if (ec) return Error(ec.message(), Location{folder.string(), {}});
  return entries;
}

bool toml_holds_plan(std::string_view text) {
  // The scan answers for nearly every file without the full parse that linting repeats.
  switch (scan_for_plan_table(text)) {
    case PlanScan::yes: return true;
    case PlanScan::no: return false;
    case PlanScan::unsure: break;
  }
  return looks_like_plan(text);
}

Result<std::vector<Input>> expand_inputs(const std::vector<std::string>& paths, bool skip_non_plans,
                                         std::size_t max_file_bytes, const InputReader& reader, unsigned jobs,
                                         const SearchOptions& search) {
  const std::optional<Input>& standard_input = search.standard_input;
  std::vector<Input> files;
  std::optional<Error> error;
  for (const std::string& path : paths) {
    if (path == "-" && standard_input) {
      const bool plan = is_markdown_path(standard_input->path) ? !plan_blocks(*standard_input->text).empty()
                                                                 : toml_holds_plan(*standard_input->text);
      if (!skip_non_plans || plan) files.push_back(*standard_input);
      continue;
    }
    std::error_code ec;
    fs::file_status status = fs::status(path, ec);
    if (ec || !fs::exists(status)) return Error("No such file or directory", Location{path, {}});
    if (fs::is_directory(status)) {
      search_folder(path, files, error, max_file_bytes, reader, jobs, search);
      if (error) return *std::move(error);
    } else if (!skip_non_plans) {
      files.push_back(Input{path, std::nullopt});
    } else {
      std::optional<std::string> text;
      std::optional<FileIdentity> identity;
      switch (holds_plan(path, max_file_bytes, text, identity, reader, error)) {
        case Candidate::plan: files.push_back(Input{path, std::move(text), identity}); break;
        case Candidate::no_plan: break;
        case Candidate::unreadable: return *std::move(error);
      }
    }
  }
  // One file named twice (`plans/a.toml` and its absolute path, `./a.toml`, a folder and a
  // file in it, a hard link) is linted once, under the first name: twice, its findings and
  // SARIF results were doubled, with fingerprints of two names.
  std::vector<Input> unique;
  std::set<std::string> seen_names;
  std::set<FileIdentity> seen_files;
  for (Input& file : files) {
    // A file the search read has its identity from that read; one named and not yet read
    // (or not a regular file) is looked at here.
    if (!file.identity && !file.standard_input) {
      struct stat status {};
      if (::stat(file.path.c_str(), &status) == 0 && S_ISREG(status.st_mode))
        file.identity = FileIdentity{static_cast<std::uint64_t>(status.st_dev), static_cast<std::uint64_t>(status.st_ino)};
    }
    const bool first = file.identity ? seen_files.insert(*file.identity).second
                                     : seen_names.insert(fs::path(file.path).lexically_normal().string()).second;
    if (first) unique.push_back(std::move(file));
  }
  return unique;
}

}  // namespace planlint
