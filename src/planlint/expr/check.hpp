#pragma once
/// Static checking of rule expressions when a rule loads: names exist, functions get the right
/// arguments, and dimensions agree (`cluster.hbm <= 10%` compares bytes with a fraction).
#include <optional>
#include <string>

#include "planlint/expr/environment.hpp"
#include "planlint/expr/syntax.hpp"

namespace planlint::expr {

struct CheckError {
  std::size_t offset = 0;  ///< byte offset in the expression text
  std::string message;
};

/// The type of `node`, or the first error.
std::variant<Type, CheckError> check(const Node& node, const TypeEnvironment& environment);

/// check() of a message placeholder's expression, which prints a value: there, a conditional
/// (and the conditionals of its branches) may pair a value of any type with '' — print it, or
/// nothing: "{if exists(inference.sla_ttft) then inference.sla_ttft else ''}". The type is the
/// value's.
std::variant<Type, CheckError> check_placeholder(const Node& node, const TypeEnvironment& environment);

/// The dimension a catalog() field has ("dense_peak" → FLOP/s); nullopt for an unknown field.
std::optional<units::Dimension> catalog_field_dimension(std::string_view field);

/// The precisions peak_precision() tells apart, in the order it tries them: the FP32 CUDA-core
/// and TF32 figures, and the tensor peaks a plan at another precision may have copied.
const std::vector<std::string_view>& peak_precisions();

/// The function names of the language, for did-you-mean.
const std::vector<std::string_view>& function_names();

/// The metric names (metric('train.days'), it.metric of a claim) and the dotted plan keys
/// (value('training.mfu'), it.key of an assumption) as vocabularies: a string literal that
/// names one must be one of them.
const Vocabulary& metric_vocabulary();
const Vocabulary& plan_key_vocabulary();

}  // namespace planlint::expr
