#pragma once
/// The plans of the benchmark corpus (bench_make_corpus, scripts/bench), and the property the
/// suite checks on them (test_corpus_plans.cpp): a coherent plan draws notes at most, and a
/// plan with one mistake draws the rule that names it.
///
/// The mix resembles the plans a team keeps in its repository: training, inference and
/// fine-tuning plans of 1B–405B models on the catalog's GPUs, commented, with sourced
/// [[assumptions]], [[targets]] and [estimates]. Four in five are coherent: their parallelism
/// fits the cluster, their memory fits the GPU, their targets hold and their claims are what
/// planlint computes, so they draw notes at most (a plan not reviewed for 180 days, full
/// recomputation). One in five carries one of sixteen mistakes (a typo, a sparse peak, a unit
/// slip, bits for bytes, an implausible MFU, a claim or a target the plan does not meet, an
/// assumption that is inverted, unsourced, stale or not the plan's value, ...) and whatever
/// follows from it.
///
/// Coherent is checked, not hoped for: a plan's parameters are drawn, the plan is linted with
/// the library and the built-in rules, and a warning or an error repairs what it names (a
/// larger batch for a throttled all-reduce, a higher ZeRO stage for memory that does not
/// fit, ...) or redraws the plan; its claims and targets are then written from its own
/// estimates. A coherent plan that draws a warning once its claims are in, or a mistake its
/// rule misses, is a CorpusError: a false alarm or a missed error of planlint (or a bug here).
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

namespace planlint::bench {

/// The mistakes a plan can carry; `none` for the coherent four in five.
enum class Mistake {
  none,
  implausible_mfu,       // training.mfu (inference.mfu) = 75%
  gpu_typo,              // cluster.gpu = "h100-sxn"
  bits_for_bytes,        // inter_node_bandwidth = "400 GB/s"
  sparse_peak,           // cluster.peak = the GPU's sparse peak
  key_typo,              // hmb = "80 GB"
  unit_slip,             // train.gpu_hours claimed in GPU-seconds
  point_estimate,        // train.days claimed as a point where its assumptions are ranges
  unsourced_assumption,  // the MFU's [[assumptions]] entry without a source
  no_goodput,            // training.goodput left out
  no_sharding,           // zero = 0 where the model needs sharding to fit
  claim_off,             // train.flops (infer.weights) claimed at twice what the plan implies
  target_missed,         // a hard target at half what the plan implies
  range_inverted,        // the MFU assumption's low above its value
  assumption_mismatch,   // the MFU assumption's range above the plan's MFU
  assumption_stale,      // the price assumption last checked in 2025-01
  tp_indivisible,        // tp = 7: no model's heads divide by it
};
inline constexpr int mistake_count = 16;  ///< the kinds after `none`

/// The rule that must report `mistake` ("" for none).
std::string_view expected_rule(Mistake mistake);
std::string_view to_string(Mistake mistake);

struct CorpusPlan {
  std::string text;
  Mistake mistake = Mistake::none;
};

/// A coherent plan that draws a warning or an error, or a mistake that its rule misses.
class CorpusError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Which plans carry a mistake: one in five (the mix above); none (scripts/bench's clean
/// corpus); or every plan, with a misspelt `owner` key besides, so that every plan draws at
/// least two findings (its findings-heavy corpus). The three mixes of a seed are the same plans.
enum class Mix { varied, clean, heavy };

/// Makes the corpus's plans in order: deterministic for a seed and a mix.
class CorpusGenerator {
 public:
  explicit CorpusGenerator(std::uint64_t seed, Mix mix = Mix::varied);
  ~CorpusGenerator();
  CorpusGenerator(const CorpusGenerator&) = delete;
  CorpusGenerator& operator=(const CorpusGenerator&) = delete;

  /// Plan number `index` (its name and the comment on its first line); throws CorpusError.
  CorpusPlan make(int index);
  /// How many draws were redrawn so far: out of reach, or not repaired in 16 steps.
  int redraws() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace planlint::bench
