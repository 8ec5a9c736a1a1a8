// The built-in rules and catalog are compiled at build time (src/gen/planlint_gen.cpp): the data
// a run uses must be exactly what loading the rule files and gpus.toml gives, field by field
// and expression node by node, so that the generator cannot drift from the loaders.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "planlint/catalog/catalog.hpp"
#include "planlint/embed/embedded_files.hpp"
#include "planlint/rules/compiled_rule.hpp"
#include "planlint/rules/rule_set.hpp"

using namespace planlint;

namespace {

/// Same bits: 0.1 written and read back must be 0.1, not merely close.
bool same_double(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0 || (std::isnan(a) && std::isnan(b));
}

bool same_quantity(const units::Quantity& a, const units::Quantity& b) {
  return same_double(a.value, b.value) && a.dim == b.dim && a.bare_b == b.bare_b &&
         a.percent == b.percent;
}

/// Compares two expression trees; `where` names the place of the first difference.
void compare(const expr::Node* generated, const expr::Node* parsed, const std::string& where) {
  INFO(where);
  REQUIRE(bool(generated) == bool(parsed));
  if (!parsed) return;
  CHECK(generated->kind == parsed->kind);
  CHECK(generated->begin == parsed->begin);
  CHECK(generated->end == parsed->end);
  CHECK(same_quantity(generated->quantity, parsed->quantity));
  CHECK(generated->text == parsed->text);
  CHECK(generated->boolean == parsed->boolean);
  CHECK(generated->op == parsed->op);
  CHECK(generated->function == parsed->function);
  CHECK(generated->ref.space == parsed->ref.space);
  CHECK(generated->ref.index == parsed->ref.index);
  REQUIRE(generated->children.size() == parsed->children.size());
  for (std::size_t i = 0; i < parsed->children.size(); ++i)
    compare(generated->children[i], parsed->children[i], fmt::format("{}/{}", where, i));
}

void compare(const MessageTemplate& generated, const MessageTemplate& parsed,
             const std::string& where) {
  INFO(where);
  REQUIRE(generated.parts.size() == parsed.parts.size());
  for (std::size_t i = 0; i < parsed.parts.size(); ++i) {
    CHECK(generated.parts[i].literal == parsed.parts[i].literal);
    CHECK(generated.parts[i].unit == parsed.parts[i].unit);
    CHECK(generated.parts[i].rounding == parsed.parts[i].rounding);
    CHECK(generated.parts[i].kind == parsed.parts[i].kind);
    CHECK(generated.parts[i].next == parsed.parts[i].next);
    CHECK(generated.parts[i].end == parsed.parts[i].end);
    compare(generated.parts[i].expression, parsed.parts[i].expression,
            fmt::format("{}.parts[{}]", where, i));
  }
}

void compare(const std::optional<MessageTemplate>& generated,
             const std::optional<MessageTemplate>& parsed, const std::string& where) {
  INFO(where);
  REQUIRE(generated.has_value() == parsed.has_value());
  if (parsed) compare(*generated, *parsed, where);
}

bool same_value(const expr::Value& a, const expr::Value& b) {
  if (a.data.index() != b.data.index()) return false;
  if (const auto* q = a.quantity()) return same_quantity(*q, *b.quantity());
  if (const auto* text = a.text()) return *text == *b.text();
  if (const auto* flag = a.boolean()) return *flag == *b.boolean();
  if (const auto* date = a.date()) return *date == *b.date();
  const expr::List& x = *a.list();
  const expr::List& y = *b.list();
  if (x.size() != y.size()) return false;
  for (std::size_t i = 0; i < x.size(); ++i)
    if (!same_value(x[i], y[i])) return false;
  return true;
}

}  // namespace

TEST_CASE("the generated built-in rules equal the rule files loaded at run time",
          "[rules][builtin]") {
  const RuleSet parsed = RuleSet::from_embedded_text();
  const RuleSet& generated = RuleSet::builtin();
  REQUIRE(generated.rules().size() == parsed.rules().size());
  REQUIRE(parsed.rules().size() >= 40);
  for (std::size_t r = 0; r < parsed.rules().size(); ++r) {
    const CompiledRule& a = *generated.rules()[r];
    const CompiledRule& b = *parsed.rules()[r];
    const std::string& id = b.descriptor.id;
    INFO("rule " << id);
    CHECK(a.descriptor.id == b.descriptor.id);
    CHECK(a.descriptor.group == b.descriptor.group);
    CHECK(a.descriptor.severity == b.descriptor.severity);
    CHECK(a.descriptor.summary == b.descriptor.summary);
    CHECK(a.descriptor.docs == b.descriptor.docs);
    CHECK(a.descriptor.native == b.descriptor.native);
    CHECK(a.descriptor.fix == b.descriptor.fix);
    CHECK(a.descriptor.origin == b.descriptor.origin);
    CHECK(a.each == b.each);
    compare(a.applies.get(), b.applies.get(), fmt::format("{}.applies", id));
    compare(a.check.get(), b.check.get(), fmt::format("{}.check", id));
    CHECK(std::ranges::equal(a.at, b.at));
    compare(a.at_template, b.at_template, fmt::format("{}.at", id));
    CHECK(std::ranges::equal(a.related, b.related));
    CHECK(std::ranges::equal(a.supersedes, b.supersedes));
    compare(a.message, b.message, fmt::format("{}.message", id));
    compare(a.help, b.help, fmt::format("{}.help", id));
    compare(a.fix, b.fix, fmt::format("{}.fix", id));
    REQUIRE(a.options.size() == b.options.size());
    for (auto x = a.options.begin(), y = b.options.begin(); y != b.options.end(); ++x, ++y) {
      CHECK(x->first == y->first);
      CHECK(same_value(x->second, y->second));
    }
    CHECK(std::ranges::equal(a.metrics_used, b.metrics_used));
    CHECK(a.reads_metric_ranges == b.reads_metric_ranges);

    // The rule's file: the parsed one holds it, the generated one makes it from the same text.
    REQUIRE(b.file);
    const auto source = rule_source(a);
    REQUIRE(source);
    CHECK(source->path() == b.file->path());
    CHECK(source->text() == b.file->text());
    CHECK(rule_source(a) == source);  // made once
  }
}

TEST_CASE("the generated built-in catalog equals gpus.toml loaded at run time",
          "[catalog][builtin]") {
  const Catalog parsed = Catalog::from_embedded_text();
  const Catalog& generated = Catalog::builtin();
  REQUIRE(generated.gpus().size() == parsed.gpus().size());
  REQUIRE(!parsed.gpus().empty());
  for (std::size_t i = 0; i < parsed.gpus().size(); ++i) {
    const GpuSpec& a = generated.gpus()[i];
    const GpuSpec& b = parsed.gpus()[i];
    INFO("gpu " << b.id);
    CHECK(a.id == b.id);
    CHECK(a.name == b.name);
    CHECK(a.aliases == b.aliases);
    auto same_peaks = [](const planlint::PeakTable& x, const planlint::PeakTable& y) {
      if (x.size() != y.size()) return false;
      for (auto p = x.begin(), q = y.begin(); p != x.end(); ++p, ++q)
        if ((*p).precision != (*q).precision || !same_double((*p).flops, (*q).flops)) return false;
      return true;
    };
    CHECK(same_peaks(a.dense_peak_flops, b.dense_peak_flops));
    CHECK(same_peaks(a.sparse_peak_flops, b.sparse_peak_flops));
    CHECK(same_double(a.hbm_bytes, b.hbm_bytes));
    CHECK(same_double(a.hbm_bandwidth_bytes_per_s, b.hbm_bandwidth_bytes_per_s));
    REQUIRE(a.link_bandwidth_bytes_per_s.has_value() == b.link_bandwidth_bytes_per_s.has_value());
    if (b.link_bandwidth_bytes_per_s)
      CHECK(same_double(*a.link_bandwidth_bytes_per_s, *b.link_bandwidth_bytes_per_s));
    CHECK(a.scale_up_link == b.scale_up_link);
    CHECK(a.scale_up_domain == b.scale_up_domain);
    CHECK(a.gpus_per_node == b.gpus_per_node);
    CHECK(a.sources == b.sources);
    CHECK(a.notes == b.notes);
    REQUIRE(a.price.has_value() == b.price.has_value());
    if (b.price) {
      CHECK(same_double(a.price->low, b.price->low));
      CHECK(same_double(a.price->high, b.price->high));
      CHECK(a.price->source == b.price->source);
      CHECK(a.price->updated == b.price->updated);
    }
    CHECK(a.location.file == b.location.file);
    CHECK(a.location.span == b.location.span);
  }
}

TEST_CASE("the built-in catalog carries the GPUs' rental prices", "[catalog][builtin]") {
  const GpuSpec* l4 = Catalog::builtin().find("l4");
  REQUIRE(l4);
  REQUIRE(l4->price.has_value());
  CHECK(l4->price->high * 3600 == Approx(1.67));
  CHECK(l4->price->updated == "2024-06-01");
}

TEST_CASE("a copy of the built-in catalog still takes a user's entries", "[catalog][builtin]") {
  Catalog catalog = Catalog::builtin();
  const std::size_t before = catalog.gpus().size();
  DiagnosticSink errors;
  REQUIRE(catalog.load(SourceFile("mine.toml", R"([[gpu]]
id = "my-gpu"
name = "My GPU"
hbm = "96 GB"
hbm_bandwidth = "4 TB/s"
sources = ["datasheet"]
dense = { bf16 = "1000 TFLOPS" }
)"),
                       errors));
  CHECK(errors.empty());
  CHECK(catalog.gpus().size() == before + 1);
  REQUIRE(catalog.find("my-gpu"));
  CHECK(catalog.find("my-gpu")->dense_peak(Precision::fp16) == 1e15);
}
