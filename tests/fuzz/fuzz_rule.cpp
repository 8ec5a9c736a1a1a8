// libFuzzer target: a user's rule file, as a pack from an untrusted pull request brings it: the
// loader (TOML, the rule's fields, its [options] and [let], every expression and placeholder
// parsed, substituted and checked), then, when it loads, the rule run over the example plans
// (a training plan with every collection, an inference plan, an MoE plan, a QLoRA fine-tune)
// and the findings rendered as text. The input is the rule file's text. Besides crashes and
// sanitizer reports it checks that a rule that does not load says why, at a place in the file.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "planlint/emit/text.hpp"
#include "planlint/lint/lint.hpp"
#include "planlint/rules/rule_set.hpp"
#include "planlint/source/source_file.hpp"

using namespace planlint;

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

const std::vector<std::shared_ptr<const SourceFile>>& example_plans() {
  static const std::vector<std::shared_ptr<const SourceFile>> plans = [] {
    std::vector<std::shared_ptr<const SourceFile>> out;
    for (const char* name : {"llama-70b-pretrain.toml", "inference-serving.toml", "moe-pretrain.toml",
                             "finetune-qlora.toml"}) {
      const std::string path = std::string(PLANLINT_SOURCE_DIR) + "/examples/" + name;
      std::string text = read_file(path);
      if (text.empty()) {
        std::fprintf(stderr, "fuzz_rule: cannot read %s\n", path.c_str());
        std::abort();
      }
      out.push_back(std::make_shared<const SourceFile>(name, std::move(text)));
    }
    return out;
  }();
  return plans;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  (void)example_plans();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto file = std::make_shared<const SourceFile>(
      "fuzz-rule.toml", std::string(reinterpret_cast<const char*>(data), size));
  RuleSet rules;
  std::vector<Diagnostic> errors;
  if (!rules.load(file, errors)) {
    if (errors.empty()) std::abort();  // a rule that does not load says why
    for (const Diagnostic& error : errors) {
      const Span& span = error.primary.span;
      if (error.message.empty() || (span.known() && span.begin.line > file->line_count() + 1)) std::abort();
    }
    return 0;
  }
  LintOptions options;
  options.rules = &rules;
  options.today = Date{2026, 12, 1};
  options.full_estimates = false;
  for (const std::shared_ptr<const SourceFile>& plan : example_plans()) {
    FileResult result = lint_source(plan, options);
    Report report;
    report.files.push_back(plan);
    report.diagnostics = std::move(result.diagnostics);
    std::ostringstream out;
    emit_text(out, report, TextStyle{false});
  }
  return 0;
}
