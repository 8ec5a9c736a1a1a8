#include "planlint/estimate/corrected.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include <fmt/format.h>

#include "planlint/diag/native_rules.hpp"
#include "planlint/estimate/run_totals.hpp"
#include "planlint/plan/assumed_keys.hpp"
#include "planlint/plan/element_keys.hpp"
#include "planlint/plan/schema.hpp"
#include "planlint/source/toml_lexer.hpp"
#include "planlint/units/quantity.hpp"

namespace planlint {

namespace {

/// A fix's replacement as a value reads it, through the one TOML lexer: a string decoded
/// ("\"989 TFLOPS\"" → 989 TFLOPS, `quoted`), anything else (a number) as it is.
struct ReplacementText {
  std::string text;
  bool quoted = false;
};
/// nullopt for a replacement that is not one whole value.
std::optional<ReplacementText> replacement_text(const std::string& replacement) {
  TomlLexer lexer(replacement);
  const TomlToken token = lexer.next();
  if (!token.is_string()) return ReplacementText{replacement, false};
  TomlStringValue value;
  if (token.end != replacement.size() || !decode_toml_string(replacement, token, value)) return std::nullopt;
  return ReplacementText{std::move(value.text), true};
}

/// The fix's value in the key's base unit, and whether it was written in bits (as the loader
/// reads it: value_reader.cpp); nullopt when it does not read as the key's quantity.
std::optional<std::pair<double, bool>> read_fix_value(const KeySpec& key, const std::string& replacement) {
  if ((key.kind != ValueKind::quantity && key.kind != ValueKind::whole) || key.dims.empty()) return std::nullopt;
  const units::Dimension base = key.dims.front();
  const std::optional<ReplacementText> read_text = replacement_text(replacement);
  if (!read_text) return std::nullopt;
  const std::string* text = &read_text->text;
  if (!read_text->quoted) {
    double number = 0;
    const char* end = text->data() + text->size();
    if (std::from_chars(text->data(), end, number).ptr != end || !std::isfinite(number)) return std::nullopt;
    return std::pair{number * key.plain_number_scale, false};
  }
  const units::QuantityResult parsed = units::parse_quantity(*text);
  const units::Quantity* read = std::get_if<units::Quantity>(&parsed);
  if (!read) return std::nullopt;
  units::Quantity quantity = units::resolve(*read, base);
  if (read->dim.dimensionless() && !base.dimensionless()) quantity.value *= key.plain_number_scale;
  bool in_bits = false;
  if (quantity.dim == units::dims::bits_per_second && base == units::dims::bytes_per_second &&
      std::find(key.dims.begin(), key.dims.end(), quantity.dim) != key.dims.end()) {
    quantity = units::Quantity{quantity.value / 8, base};
    in_bits = true;
  }
  if (quantity.dim != base || !std::isfinite(quantity.value)) return std::nullopt;
  return std::pair{quantity.value, in_bits};
}

}  // namespace

std::string once_text(std::span<const InputCorrection> corrections) {
  std::string text;
  for (std::size_t i = 0; i < corrections.size(); ++i) {
    if (i > 0) text += i + 1 == corrections.size() ? " and " : ", ";
    const InputCorrection& c = corrections[i];
    text += c.stage.empty() ? fmt::format("{} is {}", c.key, c.value)
                            : fmt::format("{} of stage '{}' is {}", c.key, c.stage, c.value);
  }
  return text;
}

std::string fixes_text(std::span<const InputCorrection> corrections) {
  std::vector<std::string> rules;
  for (const InputCorrection& c : corrections)
    if (std::find(rules.begin(), rules.end(), c.rule) == rules.end()) rules.push_back(c.rule);
  if (rules.size() == 1) return rules.front() + "'s fix";
  std::string text = "the fixes of ";
  for (std::size_t i = 0; i < rules.size(); ++i) {
    if (i > 0) text += i + 1 == rules.size() ? " and " : ", ";
    text += rules[i];
  }
  return text;
}

namespace {

/// A correctable value's place: a key of a table ("cluster.peak"), or a field of one
/// [[capacity]] slice ("capacity[1].price"), which cost.price's and train.goodput's blends read.
struct ValuePlace {
  const KeySpec* key = nullptr;
  std::optional<std::size_t> slice;
};

std::optional<ValuePlace> place_of(std::string_view path) {
  if (const KeySpec* key = find_key(path)) return ValuePlace{key, std::nullopt};
  if (const std::optional<SliceField> slice = slice_field_by_place(path)) return ValuePlace{slice->field, slice->slice};
  return std::nullopt;
}

const PlanValue* value_at(const Plan& plan, const ValuePlace& place) {
  if (!place.slice) return plan.find(*place.key);
  return *place.slice < plan.capacity.size() ? plan.capacity[*place.slice].values.find(place.key->key) : nullptr;
}

/// The key path a reader knows the value by: a slice by what it is ("capacity[kind=spot].price").
std::string shown_key(const Plan& plan, const ValuePlace& place, std::string_view path) {
  if (!place.slice) return std::string(path);
  const std::string name = element_names("capacity", plan.capacity).at(*place.slice);
  return name.empty() ? std::string(path) : fmt::format("capacity[{}].{}", name, place.key->key);
}

}  // namespace

std::vector<InputCorrection> input_corrections(const Plan& plan, std::span<const Diagnostic> findings) {
  std::vector<InputCorrection> corrections;
  for (const Diagnostic& d : findings) {
    if (d.suppression || d.fixes.size() != 1) continue;
    // A loader's fix writes what planlint already reads (node-price's per-GPU price, gpu-alias's
    // id): nothing to correct.
    if (std::find(native_rules::all.begin(), native_rules::all.end(), d.rule) != native_rules::all.end()) continue;
    const std::optional<ValuePlace> place = place_of(d.key_path);
    if (!place) continue;
    // Only a value the file states, replaced whole: the fix's edit is at the value's span, in
    // the plan's tables or a stage's.
    const Span& at = d.fixes.front().location.span;
    const auto stated_at = [&](const Plan& in) {
      const PlanValue* stated = value_at(in, *place);
      return stated && stated->origin == Origin::plan && stated->span == at;
    };
    const Stage* stage = nullptr;
    if (!stated_at(plan)) {
      const auto own = std::find_if(plan.stages.begin(), plan.stages.end(),
                                    [&](const Stage& s) { return stated_at(*s.plan); });
      if (own == plan.stages.end()) continue;
      stage = &*own;
    }
    const auto read = read_fix_value(*place->key, d.fixes.front().replacement);
    if (!read) continue;
    // Two findings fixing one value: the first (in the order the rules ran) wins.
    if (std::any_of(corrections.begin(), corrections.end(),
                    [&](const InputCorrection& c) { return c.finding_key == d.key_path && c.span == at; }))
      continue;
    corrections.push_back({shown_key(plan, *place, d.key_path), replacement_text(d.fixes.front().replacement)->text,
                           d.rule, read->first, read->second, at, stage ? stage->name : std::string(), d.key_path});
  }
  return corrections;
}

namespace {

/// Writes the corrections of a value `plan` holds at the place they replace; whether any did.
bool apply_corrections(Plan& plan, std::span<const InputCorrection> corrections) {
  bool applied = false;
  for (const InputCorrection& correction : corrections) {
    const ValuePlace place = *place_of(correction.finding_key);
    const PlanValue* stated = value_at(plan, place);
    if (!stated || stated->span != correction.span) continue;
    PlanValue value = *stated;
    value.value = units::Quantity{correction.base_value, place.key->dims.front()};
    value.in_bits = correction.in_bits;
    TableValues& table = place.slice ? plan.capacity[*place.slice].values : plan.sections.of(*place.key).values;
    table.insert_or_assign(*place.key, std::move(value));
    applied = true;
  }
  return applied;
}

}  // namespace

std::optional<CorrectedInputs> corrected_inputs(const Plan& plan, const Catalog& catalog,
                                                std::span<const Diagnostic> findings, EstimateScope scope) {
  std::vector<InputCorrection> corrections = input_corrections(plan, findings);
  if (corrections.empty()) return std::nullopt;
  CorrectedInputs corrected{plan, Estimates{}, {}, std::move(corrections)};
  apply_corrections(corrected.plan, corrected.corrections);
  // A stage holds the plan's value where it inherits it (same span) and its own elsewhere: each
  // stage that holds a corrected value runs on a corrected copy.
  for (Stage& stage : corrected.plan.stages) {
    Plan own = *stage.plan;
    if (apply_corrections(own, corrected.corrections)) stage.plan = std::make_shared<const Plan>(std::move(own));
  }
  // The one evaluation path: estimate() of the plan as the fixes write it, and of its stages.
  RunEstimates estimated = estimate_run(corrected.plan, catalog, scope);
  corrected.estimates = std::move(estimated.run);
  corrected.stage_estimates = std::move(estimated.stages);
  return corrected;
}

}  // namespace planlint
