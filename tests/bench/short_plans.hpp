#pragma once
/// scripts/bench's short corpus: plans of about half a kilobyte, as a team's first sketch of a
/// run or a service is, each with exactly two findings: a misspelt key and one rule's. Linting
/// such plans is mostly the fixed cost of a plan and of its findings' text, where the 1–2.6 KB
/// plans of corpus_plans.hpp spend more of it parsing. Checked as they are made: a plan that
/// does not draw exactly its two findings is a CorpusError.
#include <string>

namespace planlint::bench {

/// Short plan number `index`, deterministic; throws CorpusError.
std::string short_plan(int index);

}  // namespace planlint::bench
