// The benchmark corpus's plans as a property of the rules: planlint computes a coherent plan's
// claims and targets, so they must hold, and a plan with one mistake must draw the rule that
// names it (corpus_plans.hpp). The generator checks both as it makes each plan.
#include <map>
#include <string>

#include <catch2/catch.hpp>

#include "corpus_plans.hpp"
#include "support.hpp"
#include "short_plans.hpp"

using planlint::bench::CorpusError;
using planlint::bench::CorpusGenerator;
using planlint::bench::CorpusPlan;
using planlint::bench::Mistake;

// 2,400 plans of another seed than scripts/bench's: every kind of plan, GPU and mistake (ZeRO 0
// draws memory-fit only where the model needs sharding, a few plans in a thousand). Under ASan a
// plan takes ~50 times as long (68 s for 2,400): there the paths are what is checked, not the mix.
constexpr int corpus_plans = planlint::test::under_address_sanitizer ? 600 : 2400;

TEST_CASE("the bench corpus's coherent plans draw notes at most, and each mistake draws its rule", "[corpus]") {
  CorpusGenerator generator(7);
  std::map<Mistake, int> plans_by_mistake;
  for (int i = 0; i < corpus_plans; ++i) {
    try {
      ++plans_by_mistake[generator.make(i).mistake];
    } catch (const CorpusError& error) {
      FAIL(error.what());
    }
  }
  INFO("redrawn: " << generator.redraws());
  // One in five carries a mistake: the coherent share stays near four in five.
  CHECK(plans_by_mistake[Mistake::none] >= corpus_plans * 3 / 4);
  CHECK(plans_by_mistake[Mistake::none] <= corpus_plans * 17 / 20);
  if (corpus_plans < 2400) return;
  for (int kind = 1; kind <= planlint::bench::mistake_count; ++kind) {
    const auto mistake = static_cast<Mistake>(kind);
    INFO(planlint::bench::to_string(mistake));
    CHECK(plans_by_mistake[mistake] > 0);
  }
}

TEST_CASE("the bench corpus is the same for the same seed", "[corpus]") {
  CorpusGenerator first(2026), second(2026), other(2027);
  bool differs = false;
  for (int i = 0; i < 20; ++i) {
    const CorpusPlan a = first.make(i), b = second.make(i), c = other.make(i);
    CHECK(a.text == b.text);
    CHECK(a.mistake == b.mistake);
    differs = differs || a.text != c.text;
  }
  CHECK(differs);
}

TEST_CASE("scripts/bench's clean and heavy corpora are the varied corpus's plans without and with mistakes",
          "[corpus]") {
  using planlint::bench::Mix;
  CorpusGenerator varied(2026), clean(2026, Mix::clean), heavy(2026, Mix::heavy);
  int varied_mistakes = 0;
  for (int i = 0; i < 30; ++i) {
    const CorpusPlan v = varied.make(i), c = clean.make(i), h = heavy.make(i);
    const auto first_line = [](const std::string& text) { return text.substr(0, text.find('\n')); };
    CHECK(first_line(c.text) == first_line(v.text));  // the same model, GPUs and kind
    CHECK(first_line(h.text) == first_line(v.text));
    if (v.mistake == Mistake::none) CHECK(c.text == v.text);
    else CHECK(h.mistake == v.mistake);
    varied_mistakes += v.mistake != Mistake::none;
    CHECK(c.mistake == Mistake::none);
    CHECK(h.mistake != Mistake::none);
    CHECK(h.text.find("\nownr = ") != std::string::npos);  // a second finding besides the mistake's
    CHECK(c.text.find("\nownr = ") == std::string::npos);
  }
  CHECK(varied_mistakes > 0);
}

TEST_CASE("scripts/bench's short corpus: plans of about half a kilobyte with two findings each", "[corpus]") {
  // short_plan() lints each plan as it makes it and throws unless it draws exactly a misspelt
  // key and its one rule's finding; every mistake of the rotation is among the first ten.
  for (int i = 0; i < 40; ++i) {
    INFO("short plan " << i);
    try {
      const std::string text = planlint::bench::short_plan(i);
      CHECK(text.size() >= 350);
      CHECK(text.size() <= 700);
      CHECK(text == planlint::bench::short_plan(i));
    } catch (const CorpusError& error) {
      FAIL(error.what());
    }
  }
}
