#pragma once
/// Whether findings' fixes, made together, still leave a valid plan: the TOML of the file (of
/// each plan block, in a Markdown doc) parses after them, and no key is renamed onto another
/// key of its table. A fix that would break the file is dropped, with a note that says why;
/// the others are made (collect_fixes, edits.hpp).
#include <string>
#include <vector>

#include "planlint/diag/diagnostic.hpp"
#include "planlint/fix/edits.hpp"
#include "planlint/source/source_file.hpp"

namespace planlint::fix::detail {

/// A finding's edits, which make one change together.
struct Candidate {
  const Diagnostic* finding = nullptr;
  std::vector<TextEdit> edits;  ///< sorted
};

/// The candidates (their edits not overlapping one another's) that can be made together:
/// - a rename of a key (an edit that replaces exactly a key of the document) is dropped when
///   its table has the new name already, and with the other renames to the same name in the
///   same table when there are several (two misspellings of one key): which to keep is the
///   author's choice;
/// - then the rest are made, and the text parsed once; when it does not parse, the candidates
///   with an edit on the line of the error are dropped and the rest tried again, a few times,
///   before every candidate is dropped.
/// `notes` gets a line for each candidate dropped ("plan.toml:26:1: ..."), its text under the
/// printable policy.
std::vector<Candidate> keep_valid(const SourceFile& source, std::vector<Candidate> candidates,
                                  std::vector<std::string>& notes);

}  // namespace planlint::fix::detail
