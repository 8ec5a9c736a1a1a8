#pragma once
/// Internals of the estimation engine: reading a metric's inputs with their provenance,
/// recording the ones that are missing, and writing the formula and arithmetic of the result.
/// The formulas themselves live in training_compute.cpp, training_memory.cpp,
/// training_comm.cpp and inference.cpp; compute.cpp runs them and adds the ranges.
#include <array>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "planlint/estimate/estimates.hpp"
#include "planlint/estimate/layout_formulas.hpp"
#include "planlint/metrics/metric_table.hpp"

namespace planlint::detail {

/// A value as the arithmetic shows it: readable units (units::format), fractions as percent
/// for the keys whose base unit is a fraction.
std::string show_plan_value(std::string_view path, double value, units::Dimension dim);
/// A metric value as reports show it: readable units; a fraction metric as percent.
std::string show_metric_value(const MetricSpec& metric, double value);
/// show_metric_value() of the metric's value or an end of its range; a metric outside the
/// table (a test's) in the readable unit of its dimension.
std::string show_metric_value(const MetricValue& metric, double value);
/// A plain number ("4096", "7B", "0.6").
std::string show_count(double value);
/// A fraction as percent ("40%", "16.7%").
std::string show_percent(double fraction);

/// A plan value replaced for one evaluation of the ranges, in base units (`training.mfu` →
/// 0.5).
struct Override {
  const KeySpec* spec = nullptr;
  double value = 0;
  /// The [[capacity]] slice whose field `spec` is (capacity.price, capacity.goodput); no_slice
  /// for a table's key.
  std::size_t slice = no_slice;
  static constexpr std::size_t no_slice = static_cast<std::size_t>(-1);
};
/// The ranged keys and the slices' fields an assumption ranges, found by a scan: a map compared
/// strings for every input of every metric of the ranges' evaluations.
using Overrides = std::vector<Override>;

/// The override of `key` at `value`: a table's key ("training.mfu") or a slice's field as the
/// metrics' inputs name it ("capacity[1].price", SliceField::path); its spec is null for
/// another key.
Override override_at(std::string_view key, double value);

/// One evaluation of every metric of the plan's kind with `overrides` in place of the plan's
/// values, with the arithmetic and without the provenance: what the sensitivity's bars
/// (sensitivity.hpp) recompute at an assumption's end.
Estimates evaluate_overridden(const Plan& plan, const Catalog& catalog, const Overrides& overrides);

/// The values of one evaluation by Metric, NaN where a metric is absent: all that the ranges'
/// evaluations keep.
using MetricValues = std::array<double, metric_count>;

/// One evaluation of every metric: the plan, the catalog, the overridden assumptions, and the
/// metrics computed so far (formulas read earlier metrics from it).
class EstimateContext {
 public:
  /// What the metrics keep besides their values: their arithmetic (what a finding's note
  /// shows), and with it their provenance (formula, inputs, notes: what `planlint report`
  /// shows, and what the ranges' range keys are found through).
  enum class Record { values, arithmetic, provenance };

  EstimateContext(const Plan& plan, const Catalog& catalog, const Overrides& overrides,
                  Record record = Record::provenance)
      : plan_(plan), catalog_(catalog), overrides_(overrides), record_(record) {}

  /// The arithmetic is recorded.
  bool with_text() const { return record_ != Record::values; }
  /// The formula, inputs and notes are recorded.
  bool with_provenance() const { return record_ == Record::provenance; }

  const Plan& plan() const { return plan_; }
  /// Whether this evaluation replaces some plan values (one of the ranges' evaluations).
  bool has_overrides() const { return !overrides_.empty(); }
  const Catalog& catalog() const { return catalog_; }
  Estimates& estimates() { return estimates_; }
  Estimates take() { return std::move(estimates_); }
  /// With Record::values the metrics go here instead of into estimates().
  MetricValues& values() { return values_; }

  /// The value of `path` for this evaluation: the override, else the plan's (defaults
  /// included); nullopt when the plan has no quantity there.
  std::optional<double> number(std::string_view path) const;
  /// The plan's value at `path` (defaults included, no override).
  const PlanValue* find(std::string_view path) const { return plan_.find(path); }
  /// The plan's text at `path`, if it holds one.
  std::optional<std::string> text(std::string_view path) const { return plan_.text(path); }
  /// The override of the key `spec` (nullptr: none) in this evaluation.
  std::optional<double> override_of(const KeySpec* spec, std::size_t slice = Override::no_slice) const {
    for (const Override& override : overrides_)
      if (spec && override.spec == spec && override.slice == slice) return override.value;
    return std::nullopt;
  }

  /// How a missing plan key is named in `Estimates::absent()`: the key, with the reason when
  /// the catalog should have supplied it ("cluster.peak (the catalog has no bf16 peak for
  /// v100-sxm2)").
  std::string missing_name(std::string_view path) const;

  /// The note of an input the catalog supplied ("catalog h100-sxm dense bf16 peak"); made once
  /// per evaluation.
  const std::string& catalog_note(std::string_view path);

 private:
  const Plan& plan_;
  const Catalog& catalog_;
  const Overrides& overrides_;
  Record record_ = Record::provenance;
  Estimates estimates_;
  MetricValues values_ = nan_values();
  static MetricValues nan_values() {
    MetricValues values;
    values.fill(std::numeric_limits<double>::quiet_NaN());
    return values;
  }
  std::optional<std::string> peak_note_, catalog_note_;
};

/// How a number reads in the arithmetic ("989 TFLOPS", "40%"), made only when the arithmetic is
/// read: a recipe (the value, its dimension and the key or metric that says how to show it) or
/// a text. Formats with fmt as that text.
class TermText {
 public:
  TermText() = default;
  TermText(const char* text) : text_(text) {}  // NOLINT: a string literal ("?")

  /// show_plan_value(path, value, dim); `path` must be a string literal's view.
  static TermText plan_value(std::string_view path, double value, units::Dimension dim) {
    return TermText(Kind::plan_value, path, value, dim);
  }
  /// show_metric_value(metric, value).
  static TermText metric_value(Metric metric, double value) {
    TermText text(Kind::metric_value, {}, value, {});
    text.metric_ = metric;
    return text;
  }
  /// show_count(value).
  static TermText count(double value) { return TermText(Kind::count, {}, value, {}); }
  /// units::format(value, dim).
  static TermText quantity(double value, units::Dimension dim) {
    return TermText(Kind::quantity, {}, value, dim);
  }
  /// Made by `render`, a callable returning the text (a text built of other terms, "(4M × 8192)").
  template <typename Render>
  static TermText deferred(Render render) {
    TermText text;
    text.kind_ = Kind::deferred;
    text.recipe_ = make_text_recipe(std::move(render));
    return text;
  }

  std::string str() const;

 private:
  enum class Kind { text, plan_value, metric_value, count, quantity, deferred };
  TermText(Kind kind, std::string_view key, double value, units::Dimension dim)
      : kind_(kind), key_(key), value_(value), dim_(dim) {}

  Kind kind_ = Kind::text;
  /// Views only, of string literals: terms are copied into every metric's arithmetic recipe.
  std::string_view text_;  ///< Kind::text
  std::string_view key_;   ///< the plan key that says how the value reads
  Metric metric_ = Metric::train_flops;  ///< Kind::metric_value
  double value_ = 0;
  units::Dimension dim_;
  std::shared_ptr<const TextRecipe> recipe_;  ///< Kind::deferred
};

/// A number inside a formula and how it reads in the arithmetic.
struct Term {
  double value = 0;
  TermText text;
};

/// The text of a term given to arithmetic(): a Term's, a TermText itself, or a view of a string
/// literal (CountedRecompute::text).
inline const TermText& text_of(const Term& term) { return term.text; }
inline const TermText& text_of(const TermText& text) { return text; }
inline std::string_view text_of(std::string_view literal) { return literal; }
template <typename T>
using TextOf = std::decay_t<decltype(text_of(std::declval<const T&>()))>;

/// A metric's arithmetic for MetricBuilder::finish(): `format` with the texts of `terms`
/// (Terms, or TermTexts such as TermText::count(x)), formatted only when the arithmetic is read.
///
///     m.finish(tp.value * heads.value, "tp · kv_heads", arithmetic("{} × {}", tp, heads));
template <typename... Terms>
auto arithmetic(fmt::format_string<const TextOf<Terms>&...> format, const Terms&... terms) {
  return [format = fmt::string_view(format), ... texts = TextOf<Terms>(text_of(terms))] {
    return fmt::vformat(format, fmt::make_format_args(texts...));
  };
}

/// Builds one metric: collects its inputs (or the names of the missing ones), then sets the
/// metric with its formula and arithmetic, or records it as absent. A missing input reads as
/// NaN so that the formula code runs straight through; finish() discards the result then.
///
///     MetricBuilder m(context, Metric::train_flops);
///     Term n = m.plan("model.active_params"), d = m.plan("training.tokens");
///     m.finish(6 * n.value * d.value, "6 · N_a · D", arithmetic("6 × {} × {}", n, d));
class MetricBuilder {
 public:
  /// Plan keys are named by string literals (the terms' texts view them).
  MetricBuilder(EstimateContext& context, Metric metric);

  /// A quantity of the plan (stated, defaulted or from the catalog).
  Term plan(std::string_view path);
  /// A quantity of the plan that the formula can do without; nothing is recorded when absent.
  std::optional<Term> optional_plan(std::string_view path);
  /// A quantity an element of an array of tables states (a [[capacity]] slice's price), recorded
  /// as the input `name` ("capacity[0].price"); `shown_as`, a string literal's view, is the key
  /// whose unit it reads in ("capacity.share": a percentage). nullopt, nothing recorded, when
  /// the element does not state it.
  std::optional<Term> optional_element(const PlanTable& element, std::string_view shown_as, std::string name);
  /// A parallel degree (training.cp) as an input when it is above 1; nullopt at 1 or absent,
  /// where it changes nothing and the formula and its arithmetic leave it out.
  std::optional<Term> degree_above_one(std::string_view path) {
    if (context_.number(path).value_or(1) <= 1) return std::nullopt;
    return plan(path);
  }
  /// A string or boolean of the plan ("selective", "true"), recorded as an input; nullopt
  /// (and missing) when absent. `used_value` is what the formula takes from it, if anything.
  std::optional<std::string> choice(std::string_view path, double used_value = 0, std::string note = {});
  /// Another metric; when it is absent, its missing inputs become this metric's.
  Term metric(Metric metric);
  /// metric(), its text the metric's own arithmetic without its " = value": for a metric that is
  /// another one for this plan (a dense model's weights read are its weights), whose arithmetic
  /// then shows the terms rather than one figure.
  Term metric_terms(Metric metric);

  /// Records a missing input by name (a plan key, possibly with a reason).
  void missing(std::string name);
  bool complete() const { return missing_.empty(); }
  /// `prefix` and `rest` as one formula ("4/3 · " "train.flops / (P · MFU)"), joined only when
  /// the formula is recorded (with provenance): a check's evaluations never read it.
  std::string formula(std::string_view prefix, std::string_view rest) const {
    return context_.with_provenance() ? fmt::format("{}{}", prefix, rest) : std::string();
  }
  /// Adds a note on what the formula leaves out or bounds for this plan.
  void note(std::string text);
  /// Adds a description to the input already recorded as `name`.
  void describe_input(std::string_view name, std::string note);

  /// Sets the metric when every input is there, else records it as absent. `arithmetic`
  /// makes the substituted formula (a callable returning std::string, called when the
  /// arithmetic is read, so it captures by value); " = <value>" is appended to it, unless it
  /// is the value's own text.
  template <typename Render>
  void finish(double value, std::string_view formula, Render arithmetic) {
    if (!complete()) return set_absent();
    if (!context_.with_text()) return set_value(value, {}, {});
    const Metric metric = metric_;
    set_value(value, formula, LazyText::deferred([arithmetic = std::move(arithmetic), metric, value] {
                std::string text(arithmetic());
                // A metric that is one term ("26 GB": a dense model's weights read) reads as it.
                if (std::string shown = show_metric_value(metric_spec(metric), value); shown != text)
                  text += " = " + shown;
                return text;
              }));
  }
  /// A fixed arithmetic text ("0 B").
  void finish(double value, std::string_view formula, const char* arithmetic) {
    finish(value, formula, [arithmetic] { return std::string(arithmetic); });
  }

 private:
  void add_input(MetricInput input);
  void set_absent();
  void set_value(double value, std::string_view formula, LazyText arithmetic);

  EstimateContext& context_;
  Metric metric_;
  /// What the metric records besides its value: made only when the context records more
  /// than values (a range's evaluations, half of all, need none of it).
  std::optional<MetricValue> value_;
  std::vector<std::string> missing_;
};


/// train.attention_flops_per_token, when the plan's MFU counts the attention FLOPs
/// (training.mfu_counts_attention = true): the GPU time and the step time divide them by the MFU
/// too. Recorded on `m`; nullopt when the MFU does not count them.
std::optional<Term> counted_attention(EstimateContext& context, MetricBuilder& m);
/// The h of the attention FLOPs 12 · L · h · S: the query width heads · head_dim (PaLM appendix B's
/// H · Q) where the plan states a head_dim that makes it differ from model.hidden (a note says
/// so), else model.hidden. Its inputs are recorded on `m` (attention.cpp).
Term attention_width(EstimateContext& context, MetricBuilder& m);

/// 4/3 when the plan's MFU counts full recomputation's second forward pass (a hardware FLOPs
/// utilisation: training.mfu_counts_recompute = true with training.recompute = "full"): the
/// hardware runs 8 · N a token where the model FLOPs count 6 · N, so the GPU time and the step
/// time divide 4/3 of the model FLOPs by it (Narayanan et al. 2021 §5.1: 8 · T · P / (n · X);
/// Chowdhery et al. 2022 appendix B, HFU). Selective recomputation redoes the attention core
/// only, a few percent (Korthikanti et al. 2022), and counts as 1. Its inputs are recorded on
/// `m`. The factor is 1, with empty texts, when the MFU does not count a recomputation.
struct CountedRecompute {
  double factor = 1;
  std::string_view formula;  ///< "4/3 · ", put before the GPU time's formula, or ""
  std::string_view text;     ///< "4/3 × ", put before its arithmetic, or ""
};
CountedRecompute counted_recompute(EstimateContext& context, MetricBuilder& m);

/// Tokens per optimizer step: global_batch in tokens, or in sequences × seq_len. Its inputs
/// are recorded on `m`.
Term training_tokens_per_step(EstimateContext& context, MetricBuilder& m);
/// The value of `metric` in this evaluation, if it was computed.
std::optional<double> computed_metric(EstimateContext& context, Metric metric);
/// model.architecture = "moe".
bool is_moe(const EstimateContext& context);
/// Bytes a stored element of a weight, KV-cache or compute-copy precision takes, its block
/// scales included ("nvfp4": 4 bits and an 8-bit scale per 16 elements, 0.5625); none for a name
/// that is no storage precision (docs/estimates.md, "Bytes per element").
std::optional<double> stored_element_bytes(std::string_view precision);

/// Matrices of h × F in one MLP: a gated MLP's gate, up and down projections (SwiGLU, GeGLU),
/// GeLU's two (model_structure.cpp).
double mlp_matrices(const EstimateContext& context);

/// The model-state bytes per parameter the plan's optimizer (or bytes_per_param, or LoRA base)
/// gives, split as the ZeRO stages shard them; its inputs are recorded on `m`
/// (training_memory.cpp).
layout::StateBytes model_state_bytes(EstimateContext& context, MetricBuilder& m);
/// training.offload: what the plan keeps in host memory (training_memory.cpp).
struct Offload {
  bool optimizer = false, activations = false;
  bool any() const { return optimizer || activations; }
};
Offload training_offload(const EstimateContext& context);
/// The model-state bytes the plan states or its optimizer gives, before offload moves the
/// gradients and optimizer states to the host (what train.offload.state_bytes holds).
layout::StateBytes plan_state_bytes(EstimateContext& context, MetricBuilder& m);
/// plan_state_bytes() of LoRA's adapters.
layout::StateBytes plan_adapter_state_bytes(EstimateContext& context, MetricBuilder& m);
/// A LoRA fine-tune whose adapters planlint counts apart from its frozen base
/// (train.memory.adapter_states): no training.bytes_per_param overrides the states.
bool lora_adapters_counted(const EstimateContext& context);
/// The bytes per parameter of LoRA's adapters, the plan optimizer's (2 + 2 + 12 with AdamW); its
/// inputs are recorded on `m` (training_memory.cpp).
layout::StateBytes adapter_state_bytes(EstimateContext& context, MetricBuilder& m);

/// The activation bytes per token and layer in units of h of the plan's architecture
/// (Korthikanti et al. 2022, table 2, with its own widths): `kept` whole on every tensor-parallel
/// rank, `split` over tp.
struct LayerBytes {
  double kept = 10, split = 24;  ///< per token, in units of h
  bool gpt_shape = true;         ///< kept = 10 and split = 24: table 2's own figures
  std::string parts;             ///< how kept + split add up, for a shape other than GPT-3's
};
/// The plan states widths that make its layers other than GPT-3's shape (kv_heads, head_dim,
/// mlp, ffn_hidden, dropout, expert widths, MLA).
bool activation_shape_stated(EstimateContext& context);
/// The bytes of a layer of the stated shape; its inputs are recorded on `m`.
LayerBytes activation_layer_bytes(EstimateContext& context, MetricBuilder& m, double layers, double hidden,
                                  double heads);

/// The metric groups, each a function that adds its metrics to the context.
void estimate_training_compute(EstimateContext& context);
void estimate_training_memory(EstimateContext& context);
void estimate_training_comm(EstimateContext& context);
/// Mixture of experts (training_moe.cpp): the parameter split, run before the memory, and the
/// expert all-to-all, run after the step time.
void estimate_training_moe_params(EstimateContext& context);
void estimate_training_alltoall(EstimateContext& context);
/// LoRA's adapter parameters (model_structure.cpp, beside the shapes they are counted from), run
/// before the memory.
void estimate_lora_adapter_params(EstimateContext& context);
void estimate_inference(EstimateContext& context);
/// cost.price and, for a training plan, train.goodput: the plan's, or its [[capacity]] mix's
/// (capacity.cpp); run before the time and cost metrics that read them.
void estimate_capacity(EstimateContext& context);
void estimate_inference_reads(EstimateContext& context);
/// The parameters the model's structural keys give (both kinds of plan; model_structure.cpp).
void estimate_model_structure(EstimateContext& context);
/// The catalog's figures of the plan's GPU (both kinds of plan).
void estimate_hardware(EstimateContext& context);

}  // namespace planlint::detail

template <>
struct fmt::formatter<planlint::detail::TermText> : fmt::formatter<std::string_view> {
  template <typename Context>
  auto format(const planlint::detail::TermText& text, Context& context) const {
    const std::string rendered = text.str();
    return fmt::formatter<std::string_view>::format(rendered, context);
  }
};
