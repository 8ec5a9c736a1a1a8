#include "planlint/rules/rule_file.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include <fmt/format.h>
#include <toml++/toml.h>

#include "planlint/diag/native_rules.hpp"
#include "planlint/diag/suggest.hpp"
#include "planlint/expr/bindings.hpp"
#include "planlint/expr/check.hpp"
#include "planlint/plan/schema.hpp"
#include "planlint/source/string_span.hpp"
#include "planlint/source/toml_limits.hpp"
#include "planlint/source/toml_span.hpp"
#include "planlint/rules/placeholder_units.hpp"
#include "planlint/rules/plan_environment.hpp"
#include "planlint/rules/rule_types.hpp"

namespace planlint {

namespace {

using detail::to_span;

const std::vector<std::string_view> rule_keys = {
    "id", "group", "severity", "summary", "applies", "check", "at", "related", "message",
    "help", "docs", "each", "options", "fix", "fix_safety", "native", "let", "supersedes", "error_when"};

class RuleLoader {
 public:
  RuleLoader(std::shared_ptr<const SourceFile> file, std::vector<Diagnostic>& errors, std::size_t* pack_nodes_left,
             RuleOrigin origin)
      : file_(std::move(file)), errors_(errors), pack_nodes_left_(pack_nodes_left), origin_(origin) {
    if (pack_nodes_left_ && *pack_nodes_left_ < expr::max_substituted_rule_nodes) {
      let_budget_.left = *pack_nodes_left_;
      let_budget_.exhausted = fmt::format("the rules loaded together grow past {} nodes once their lets are written out {}",
                                          expr::max_substituted_pack_nodes, pack_node_limit_note);
    } else {
      let_budget_.left = expr::max_substituted_rule_nodes;
      let_budget_.exhausted = fmt::format(
          "the rule's expressions grow past {} nodes together once their lets are written out",
          expr::max_substituted_rule_nodes);
    }
  }

  std::optional<CompiledRule> run() {
    const std::size_t budget = let_budget_.left;
    std::optional<CompiledRule> rule = compile();
    report_swallowed();
    if (pack_nodes_left_) *pack_nodes_left_ -= budget - let_budget_.left;
    if (failed_) return std::nullopt;
    return rule;
  }

 private:
  std::optional<CompiledRule> compile() {
    TomlResult parsed = parse_toml(file_->text(), file_->path());
    if (!parsed) {
      Span span = to_span(parsed.error().source, *file_);
      error(span, fmt::format("invalid TOML: {}", parsed.error().description));
      return std::nullopt;
    }
    const toml::table& table = *parsed;
    for (auto&& [key, node] : table) {
      // `native` marks planlint's own structure checks, written in C++: a pack's rule that
      // set it loaded with its check switched off.
      if (key.str() == "native" && origin_ == RuleOrigin::pack) {
        error(to_span(key.source(), *file_),
              "unknown key 'native' in a rule file: it marks planlint's built-in checks written in C++; a "
              "pack's rule is checked by its `check` expression");
        continue;
      }
      if (std::find(rule_keys.begin(), rule_keys.end(), key.str()) != rule_keys.end()) continue;
      std::string message = fmt::format("unknown key '{}' in a rule file", key.str());
      if (auto suggestion = closest_match(key.str(), rule_keys))
        message += fmt::format("; did you mean '{}'?", *suggestion);
      error(to_span(key.source(), *file_), message);
    }

    CompiledRule rule;
    rule.file = file_;
    RuleDescriptor& d = rule.descriptor;
    d.origin = file_->path();
    d.native = table["native"].value_or(false);
    d.id = required_string(table, "id");
    d.group = required_string(table, "group");
    d.summary = required_string(table, "summary");
    d.docs = required_string(table, "docs");
    std::string severity = required_string(table, "severity");
    if (!d.id.empty() && !is_rule_id(d.id))
      error(span_of(table, "id"), fmt::format("rule id '{}' must be kebab-case (memory-fit)", d.id));
    if (!severity.empty()) {
      if (auto level = parse_severity(severity)) d.severity = *level;
      else error(span_of(table, "severity"), fmt::format("severity '{}' must be error, warning or note", severity));
    }
    // A native rule's fix is made in C++; its file says how safe it is.
    const std::string fix_safety = optional_string(table, "fix_safety");
    if (fix_safety == "safe") d.fix = FixSafety::safe;
    else if (fix_safety == "unsafe") d.fix = FixSafety::unsafe;
    else if (!fix_safety.empty())
      error(span_of(table, "fix_safety"), fmt::format("fix_safety '{}' must be safe or unsafe", fix_safety));
    if (d.native) return failed_ ? std::nullopt : std::optional(std::move(rule));

    rule.each = optional_string(table, "each");
    if (!rule.each.empty() && rule.each != "targets" && rule.each != "assumptions" &&
        rule.each != "estimates" && rule.each != "benchmarks" && rule.each != "capacity") {
      std::string message = fmt::format(
          "each = '{}': a rule iterates over targets, assumptions, estimates, benchmarks or capacity", rule.each);
      constexpr std::string_view collections[] = {"targets", "assumptions", "estimates", "benchmarks", "capacity"};
      if (auto suggestion = closest_match(rule.each, std::vector<std::string_view>(std::begin(collections), std::end(collections))))
        message += fmt::format("; did you mean '{}'?", *suggestion);
      error(span_of(table, "each"), message);
    }
    read_options(table, rule);

    RuleTypeEnvironment names(rule.each, rule.options);
    read_lets(table, names);
    if (const toml::node* applies = table.get("applies"))
      rule.applies = expression(*applies, "applies", names, /*boolean=*/true, rule);
    if (const toml::node* check = table.get("check"))
      rule.check = expression(*check, "check", names, true, rule);
    else
      missing(table, "check", " (the expression that must hold)");
    if (const toml::node* error_when = table.get("error_when")) {
      rule.error_when = expression(*error_when, "error_when", names, true, rule);
      if (d.severity == Severity::error)
        error(span_of(table, "error_when"), "error_when raises a finding to an error, and the rule's severity is error already");
    }

    if (const toml::node* at = table.get("at")) {
      if (at->is_string() && at->as_string()->get().find('{') != std::string::npos) {
        rule.at_template = message_template(*at, "at", names, rule);
      } else if (at->is_string()) {
        at_keys_.push_back(at->as_string()->get());
      } else if (const toml::array* list = at->as_array()) {
        for (const toml::node& item : *list)
          if (item.is_string()) {
            at_keys_.push_back(item.as_string()->get());
            check_location_value(to_span(item.source(), *file_), at_keys_.back(), names);  // at the element
          } else {
            error(to_span(item.source(), *file_), "at lists plan keys as strings");
          }
      } else {
        error(to_span(at->source(), *file_), "at must be a plan key or a list of plan keys");
      }
      if (at->is_string() && !at_keys_.empty()) check_location_value(to_span(at->source(), *file_), at_keys_.front(), names);
    }
    if (const toml::node* related = table.get("related")) {
      if (const toml::array* list = related->as_array()) {
        for (const toml::node& item : *list) {
          if (!item.is_string()) {
            error(to_span(item.source(), *file_), "related lists plan keys as strings");
            continue;
          }
          std::string path = item.as_string()->get();
          check_location_value(to_span(item.source(), *file_), path, names);
          related_keys_.push_back(std::move(path));
        }
      } else {
        error(to_span(related->source(), *file_), "related must be an array of plan keys");
      }
    }
    read_supersedes(table, d.id);
    if (const toml::node* message = table.get("message")) {
      if (message->is_string() &&
          message->as_string()->get().find_first_not_of(" \t\r\n") == std::string::npos)
        error(to_span(message->source(), *file_), "'message' must not be empty: it is the finding's text");
      else
        rule.message = message_template(*message, "message", names, rule);
    } else {
      missing(table, "message");
    }
    if (const toml::node* help = table.get("help")) rule.help = message_template(*help, "help", names, rule);
    if (const toml::node* fix = table.get("fix")) {
      rule.fix = message_template(*fix, "fix", names, rule);
      // A fix no one vouched for changes a plan only when asked (--unsafe-fixes).
      if (d.fix == FixSafety::none) d.fix = FixSafety::unsafe;
    } else if (d.fix != FixSafety::none && !(origin_ == RuleOrigin::builtin && native_rules::is_layout_fixed(d.id))) {
      // A built-in rule of native_rules::layout_fixed has its fix made in C++: the nearest layout.
      error(span_of(table, "fix_safety"), "fix_safety says how safe the rule's fix is, and the rule has no 'fix'");
    }
    if (failed_) return std::nullopt;
    rule.own_names(at_keys_, related_keys_, superseded_ids_, metric_names_);
    return rule;
  }

  /// `supersedes = ["estimate-mismatch"]`: rule ids, other than the rule's own. Whether each
  /// names a loaded rule is known once every pack is loaded (RuleSet::check_supersedes).
  void read_supersedes(const toml::table& table, const std::string& id) {
    const toml::node* supersedes = table.get("supersedes");
    if (!supersedes) return;
    const toml::array* list = supersedes->as_array();
    if (!list) {
      error(to_span(supersedes->source(), *file_), "supersedes must be an array of rule ids");
      return;
    }
    for (const toml::node& item : *list) {
      const Span span = to_span(item.source(), *file_);
      if (!item.is_string() || !is_rule_id(item.as_string()->get())) {
        error(span, "supersedes lists rule ids as strings (\"estimate-mismatch\")");
        continue;
      }
      const std::string& superseded = item.as_string()->get();
      if (superseded == id) {
        error(span, fmt::format("rule {} cannot supersede itself", id));
        continue;
      }
      if (std::find(superseded_ids_.begin(), superseded_ids_.end(), superseded) == superseded_ids_.end())
        superseded_ids_.push_back(superseded);
    }
  }

  void error(Span span, std::string message) {
    failed_ = true;
    // An option whose default was rejected is not declared: its uses are not a second error.
    for (const std::string& name : rejected_options_)
      if (message.find(fmt::format("unknown option '{}'", name)) != std::string::npos) return;
    Diagnostic& d = errors_.emplace_back();
    d.rule = problem_kinds::invalid_rule;
    d.severity = Severity::error;
    d.message = std::move(message);
    d.primary = Location{file_->path(), span};
  }

  Span span_of(const toml::table& table, std::string_view key) {
    if (const toml::node* node = table.get(key)) return to_span(node->source(), *file_);
    return Span{{1, 1}, {1, 2}};
  }

  /// A required key that is not there. In TOML every key after `[options]` belongs to it, so a
  /// rule file with `[options]` first has its own keys there: those are noted for one error
  /// (report_swallowed) rather than one "missing" each.
  void missing(const toml::table& table, std::string_view key, std::string_view what = {}) {
    for (std::string_view header : {"options", "let"}) {
      const toml::table* swallowing = table[header].as_table();
      if (!swallowing) continue;
      for (auto&& [name, node] : *swallowing) {
        if (name.str() != key) continue;
        // read_options noted it already when [options] swallowed it.
        if (std::none_of(swallowed_.begin(), swallowed_.end(), [&](const auto& noted) { return noted.second == key; }))
          swallowed_.emplace_back(to_span(name.source(), *file_), std::string(key));
        swallowing_header_ = std::string(header);
        swallowing_line_ = swallowing->source().begin.line;
        failed_ = true;
        return;
      }
    }
    error(Span{{1, 1}, {1, 2}}, fmt::format("missing required key '{}'{}", key, what));
  }

  /// One error at the first of the rule's keys found inside [options], naming the others.
  void report_swallowed() {
    if (swallowed_.empty()) return;
    std::sort(swallowed_.begin(), swallowed_.end());
    const auto& [at, key] = swallowed_.front();
    std::string others;
    for (std::size_t i = 1; i < swallowed_.size(); ++i)
      others += fmt::format("{}'{}'",
                            i == 1 ? (swallowed_.size() == 2 ? ", and so is " : ", and so are ")
                                   : i + 1 == swallowed_.size() ? " and " : ", ",
                            swallowed_[i].second);
    error(at, fmt::format("key '{}' is inside [{}] (opened at line {}){}: the rule's own keys must come before "
                          "[{}], since every key after a table header belongs to that table",
                          key, swallowing_header_, swallowing_line_, others, swallowing_header_));
  }

  std::string required_string(const toml::table& table, std::string_view key) {
    const toml::node* node = table.get(key);
    if (!node) {
      missing(table, key);
      return {};
    }
    if (!node->is_string()) {
      error(to_span(node->source(), *file_), fmt::format("'{}' must be a string", key));
      return {};
    }
    if (node->as_string()->get().empty()) {
      error(to_span(node->source(), *file_),
            fmt::format("'{}' must not be empty{}", key,
                        key == "group" ? ": name the rule's group (memory, org, ...), which --select and --ignore take"
                                       : ""));
      return {};
    }
    return node->as_string()->get();
  }

  std::string optional_string(const toml::table& table, std::string_view key) {
    const toml::node* node = table.get(key);
    if (!node) return {};
    if (!node->is_string()) {
      error(to_span(node->source(), *file_), fmt::format("'{}' must be a string", key));
      return {};
    }
    return node->as_string()->get();
  }

  void read_options(const toml::table& table, CompiledRule& rule) {
    const toml::node* options = table.get("options");
    if (!options) return;
    if (!options->is_table()) {
      error(to_span(options->source(), *file_), "options must be a table: [options] name = default");
      return;
    }
    for (auto&& [key, node] : *options->as_table()) {
      const std::string name(key.str());
      // `applies`, `help`, `at` written after [options] belong to it: the rule would load
      // without its precondition, help or place (required keys are missed, and noted, anyway).
      if (std::find(rule_keys.begin(), rule_keys.end(), name) != rule_keys.end()) {
        const bool noted = std::any_of(swallowed_.begin(), swallowed_.end(),
                                       [&](const auto& swallowed) { return swallowed.second == name; });
        if (!noted) swallowed_.emplace_back(to_span(key.source(), *file_), name);
        swallowing_header_ = "options";
        swallowing_line_ = options->source().begin.line;
        failed_ = true;
        continue;
      }
      if (node.is_integer() || node.is_floating_point()) {
        rule.options[name] = expr::Value{units::Quantity{node.value_or(0.0), units::dims::none}};
      } else if (node.is_boolean()) {
        rule.options[name] = expr::Value{node.as_boolean()->get()};
      } else if (node.is_string()) {
        const std::string& text = node.as_string()->get();
        units::QuantityResult parsed = units::parse_quantity(text);
        if (auto* q = std::get_if<units::Quantity>(&parsed)) {
          rule.options[name] = expr::Value{*q};
        } else if (const auto* problem = std::get_if<units::QuantityError>(&parsed);
                   problem && !text.empty() && (std::isdigit(static_cast<unsigned char>(text.front())) ||
                                                text.front() == '$' || text.front() == '.' || text.front() == '-')) {
          // "80 GBB" read as a string: the error came where the option is used, as "cannot
          // compare bytes with a string", not here.
          error(to_span(node.source(), *file_),
                fmt::format("option '{}' = \"{}\" is not a quantity: {}", name, text, problem->message));
          rejected_options_.push_back(name);
        } else {
          rule.options[name] = expr::Value{text};
        }
      } else {
        error(to_span(node.source(), *file_), fmt::format("option '{}' must be a number, quantity, string or boolean", name));
      }
    }
  }

  /// `[let]`: names for sub-expressions, in file order; each may use the names above it.
  void read_lets(const toml::table& table, const expr::TypeEnvironment& names) {
    const toml::node* let = table.get("let");
    if (!let) return;
    if (!let->is_table()) {
      error(to_span(let->source(), *file_), "let must be a table: [let] name = \"expression\"");
      return;
    }
    std::vector<std::pair<const toml::key*, const toml::node*>> entries;
    for (auto&& [key, node] : *let->as_table()) entries.emplace_back(&key, &node);
    // toml++ keeps a table's keys sorted by name; the file's order is the order of definition.
    std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
      const toml::source_position x = a.first->source().begin, y = b.first->source().begin;
      return x.line != y.line ? x.line < y.line : x.column < y.column;
    });
    for (std::size_t i = 0; i < entries.size(); ++i)
      lets_.push_back({std::string(entries[i].first->str()), compile_let(table, entries, i, names)});
  }

  /// The tree of the let `entries[i]`, its lets written out; null after reporting why it has
  /// none (its uses then fail without a second error).
  expr::NodePtr compile_let(const toml::table& table,
                            const std::vector<std::pair<const toml::key*, const toml::node*>>& entries,
                            std::size_t i, const expr::TypeEnvironment& names) {
    const auto& [key, node] = entries[i];
    const std::string name(key->str());
    const Span key_span = to_span(key->source(), *file_);
    if (std::find(rule_keys.begin(), rule_keys.end(), name) != rule_keys.end()) {
      // A required key after [let], missing from the rule's own keys, is reported once with
      // the others by report_swallowed; any other rule key is a let's name that cannot be.
      const bool required = name == "id" || name == "group" || name == "severity" || name == "summary" ||
                            name == "check" || name == "message" || name == "docs";
      if (!required || table.get(name))
        error(key_span, fmt::format("let '{}': that is the name of a key of the rule file; a let cannot "
                                    "take it, and the rule's own keys belong before [let] (every key after "
                                    "a table header belongs to that table)",
                                    name));
      return nullptr;
    }
    if (std::string problem = let_name_problem(name, names); !problem.empty()) {
      error(key_span, fmt::format("let '{}': {}", name, problem));
      return nullptr;
    }
    if (!node->is_string()) {
      error(to_span(node->source(), *file_), fmt::format("let '{}' must be an expression in a string", name));
      return nullptr;
    }
    const std::string& text = node->as_string()->get();
    const Span span = to_span(node->source(), *file_);
    expr::ParseResult parsed = expr::parse_expression(text, resolve_path);
    if (auto* syntax = std::get_if<expr::SyntaxError>(&parsed)) {
      error(span_in_string(*file_, span, text, syntax->offset), fmt::format("in let '{}': {}", name, syntax->message));
      return nullptr;
    }
    const expr::Node& own = *std::get<expr::NodePtr>(parsed);
    for (std::size_t j = i; j < entries.size(); ++j) {
      const std::string other(entries[j].first->str());
      const expr::Node* use = expr::find_name(own, other);
      if (!use) continue;
      error(span_in_string(*file_, span, text, use->begin),
            j == i ? fmt::format("let '{}' uses itself", name)
                   : fmt::format("let '{}' uses '{}', which is defined below it (line {}): a let may use only "
                                 "the names above it",
                                 name, other, entries[j].first->source().begin.line));
      return nullptr;
    }
    auto substituted = expr::substitute(std::get<expr::NodePtr>(parsed), lets_, &let_budget_);
    if (auto* problem = std::get_if<expr::SubstitutionError>(&substituted)) {
      report_substitution(span, text, fmt::format("let '{}'", name), *problem);
      return nullptr;
    }
    expr::NodePtr tree = std::get<expr::NodePtr>(substituted);
    // A let is checked as a placeholder is (it may pair a value with ''); where it is used,
    // the expression around it is checked again with its contents written out.
    auto checked = expr::check_placeholder(*tree, names);
    if (auto* problem = std::get_if<expr::CheckError>(&checked)) {
      error(span_in_string(*file_, span, text, problem->offset), fmt::format("in let '{}': {}", name, problem->message));
      return nullptr;
    }
    return tree;
  }

  /// A substitution's error, unless it is the use of a let whose own error is reported already.
  void report_substitution(Span span, const std::string& text, std::string_view where,
                           const expr::SubstitutionError& problem) {
    if (problem.message.empty()) failed_ = true;
    else error(span_in_string(*file_, span, text, problem.offset), fmt::format("in {}: {}", where, problem.message));
  }

  /// Why `name` cannot be a let's name, or "".
  static std::string let_name_problem(const std::string& name, const expr::TypeEnvironment& names) {
    auto lower = [](char c) { return c >= 'a' && c <= 'z'; };
    auto name_char = [&](char c) { return lower(c) || (c >= '0' && c <= '9') || c == '_'; };
    if (name.empty() || !lower(name.front()) || !std::all_of(name.begin(), name.end(), name_char))
      return "a let's name is lower case letters, digits and '_', starting with a letter (weights_per_gpu)";
    for (std::string_view word : {"and", "or", "not", "in", "if", "then", "else", "true", "false"})
      if (name == word) return "that is a keyword of the expression language";
    const auto& functions = expr::function_names();
    if (std::find(functions.begin(), functions.end(), name) != functions.end())
      return "that is the name of a function";
    std::string ignored;
    if (names.path_type(name, ignored)) return "that name already means something in an expression";
    for (std::string_view root : {"est", "it", "options", "plan"})
      if (name == root) return "that name begins the paths of the plan and its estimates";
    for (const SectionSpec& section : plan_sections())
      if (name == section.name) return "that name begins the paths of the plan and its estimates";
    return {};
  }

  void note_metrics(const expr::Node& node, CompiledRule& rule) {
    if (node.kind == expr::Node::Kind::path && node.text.starts_with("est.")) {
      std::string name(node.text.substr(4));
      for (std::string_view suffix : {".low", ".high"})
        if (name.ends_with(suffix)) {
          name.resize(name.size() - suffix.size());
          rule.reads_metric_ranges = true;
        }
      if (std::find(metric_names_.begin(), metric_names_.end(), name) == metric_names_.end())
        metric_names_.push_back(name);
    }
    for (const expr::Node* child : node.children) note_metrics(*child, rule);
  }

  expr::NodePtr expression(const toml::node& node, std::string_view key,
                           const expr::TypeEnvironment& names, bool boolean, CompiledRule& rule) {
    if (!node.is_string()) {
      error(to_span(node.source(), *file_), fmt::format("'{}' must be an expression in a string", key));
      return nullptr;
    }
    const std::string& text = node.as_string()->get();
    const Span span = to_span(node.source(), *file_);
    expr::ParseResult parsed = expr::parse_expression(text, resolve_path);
    if (auto* syntax = std::get_if<expr::SyntaxError>(&parsed)) {
      error(span_in_string(*file_, span, text, syntax->offset),
            fmt::format("in {}: {}", key, syntax->message));
      return nullptr;
    }
    auto substituted = expr::substitute(std::get<expr::NodePtr>(parsed), lets_, &let_budget_);
    if (auto* problem = std::get_if<expr::SubstitutionError>(&substituted)) {
      report_substitution(span, text, key, *problem);
      return nullptr;
    }
    expr::NodePtr tree = std::get<expr::NodePtr>(substituted);
    auto checked = expr::check(*tree, names);
    if (auto* problem = std::get_if<expr::CheckError>(&checked)) {
      error(span_in_string(*file_, span, text, problem->offset),
            fmt::format("in {}: {}", key, problem->message));
      return nullptr;
    }
    const expr::Type& type = std::get<expr::Type>(checked);
    if (boolean && type.kind != expr::Type::Kind::boolean && type.kind != expr::Type::Kind::any) {
      error(span, fmt::format("{} must be a condition (true or false), not {}", key, expr::describe(type)));
      return nullptr;
    }
    note_metrics(*tree, rule);
    return tree;
  }

  MessageTemplate message_template(const toml::node& node, std::string_view key,
                                   const expr::TypeEnvironment& names, CompiledRule& rule) {
    if (!node.is_string()) {
      error(to_span(node.source(), *file_), fmt::format("'{}' must be a string", key));
      return {};
    }
    const std::string& text = node.as_string()->get();
    auto compiled = compile_template(text, names, lets_, &let_budget_);
    if (auto* problem = std::get_if<TemplateError>(&compiled); problem && problem->message.empty()) {
      failed_ = true;  // the use of a let whose own error is reported already
      return {};
    }
    if (auto* problem = std::get_if<TemplateError>(&compiled)) {
      error(span_in_string(*file_, to_span(node.source(), *file_), text, problem->offset),
            fmt::format("in {}: {}", key, problem->message));
      return {};
    }
    MessageTemplate result = std::get<MessageTemplate>(compiled);
    for (const MessageTemplate::Part& part : result.parts)
      if (part.expression) note_metrics(*part.expression, rule);
    return result;
  }

  /// `at` and `related` name places in the plan: plan keys, `it` or `it.FIELD`.
  void check_location_value(Span span, const std::string& path, const expr::TypeEnvironment& names) {
    if (path == "it") return;
    std::string problem;
    if (path.starts_with("est.") || path.starts_with("options.")) {
      error(span, fmt::format("'{}' is not a place in the plan: name a plan key such as cluster.gpu", path));
      return;
    }
    if (!names.path_type(path, problem)) error(span, problem);
  }

  std::shared_ptr<const SourceFile> file_;
  std::vector<Diagnostic>& errors_;
  bool failed_ = false;
  std::vector<std::pair<Span, std::string>> swallowed_;  ///< required keys found inside [options] or [let]
  std::string swallowing_header_ = "options";
  std::int64_t swallowing_line_ = 1;  ///< the line of its header
  std::vector<expr::Binding> lets_;  ///< the [let] names, in file order
  std::size_t* pack_nodes_left_;  ///< what the rules loaded before left of max_substituted_pack_nodes
  RuleOrigin origin_;
  std::vector<std::string> rejected_options_;  ///< options whose default is not a quantity
  expr::NodeBudget let_budget_;   ///< nodes the rule's lets may still copy
  /// The rule's `at` keys, `related` keys and the metrics it reads, until CompiledRule::own_names.
  std::vector<std::string> at_keys_, related_keys_, superseded_ids_, metric_names_;
};

}  // namespace

bool is_rule_id(std::string_view id) {
  // By hand rather than with std::regex: libstdc++ builds a regex's bracket tables through the
  // locale on every construction, which cost 40% of a one-plan run when done per rule file.
  auto lower = [](char c) { return c >= 'a' && c <= 'z'; };
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  if (id.empty() || !lower(id.front())) return false;
  for (std::size_t i = 1; i < id.size(); ++i) {
    const char c = id[i];
    if (lower(c) || digit(c)) continue;
    // A hyphen separates two non-empty segments: never doubled, never last.
    if (c != '-' || i + 1 == id.size() || id[i + 1] == '-') return false;
  }
  return true;
}

namespace {

/// `text` without the spaces around it.
std::string_view trimmed(std::string_view text) {
  const std::size_t first = text.find_first_not_of(' ');
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(' ') - first + 1);
}

/// Whether `text` has the word `then` outside quoted strings: `{if c then a else b}` is a
/// placeholder's conditional, `{if c}` a section's.
bool has_then(std::string_view text) {
  auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t i = expr::find_outside_strings(text, 0, "t"); i < text.size();
       i = expr::find_outside_strings(text, i + 1, "t"))
    if (text.substr(i).starts_with("then") && (i == 0 || !word_char(text[i - 1])) &&
        (i + 4 == text.size() || !word_char(text[i + 4])))
      return true;
  return false;
}

/// A section of a template being compiled, not yet closed by its `{/if}`.
struct OpenSection {
  std::size_t offset = 0;             ///< of its `{if` in the template's text
  std::vector<std::size_t> branches;  ///< its if_, else_if and else_ parts
  bool has_else = false;
};

/// A placeholder's or a condition's tree, substituted and checked, and its type.
using CompiledExpression = std::variant<std::pair<expr::NodePtr, expr::Type>, TemplateError>;

CompiledExpression compile_expression(std::string_view source, std::size_t offset, bool condition,
                                      const expr::TypeEnvironment& names, std::span<const expr::Binding> lets,
                                      expr::NodeBudget* let_budget) {
  expr::ParseResult parsed = expr::parse_expression(source, resolve_path);
  if (auto* syntax = std::get_if<expr::SyntaxError>(&parsed)) return TemplateError{offset + syntax->offset, syntax->message};
  auto substituted = expr::substitute(std::get<expr::NodePtr>(parsed), lets, let_budget);
  if (auto* problem = std::get_if<expr::SubstitutionError>(&substituted))
    return TemplateError{offset + problem->offset, problem->message};
  expr::NodePtr tree = std::get<expr::NodePtr>(substituted);
  auto checked = condition ? expr::check(*tree, names) : expr::check_placeholder(*tree, names);
  if (auto* problem = std::get_if<expr::CheckError>(&checked)) return TemplateError{offset + problem->offset, problem->message};
  const expr::Type type = std::get<expr::Type>(checked);
  if (condition && type.kind != expr::Type::Kind::boolean && type.kind != expr::Type::Kind::any)
    return TemplateError{offset, fmt::format("a section's condition must be true or false, not {}", expr::describe(type))};
  return std::pair{std::move(tree), type};
}

}  // namespace

std::variant<MessageTemplate, TemplateError> compile_template(std::string_view text,
                                                               const expr::TypeEnvironment& names,
                                                               std::span<const expr::Binding> lets,
                                                               expr::NodeBudget* let_budget) {
  using Part = MessageTemplate::Part;
  auto owned = std::make_shared<MessageTemplate::Owned>();
  auto keep = [&owned](std::string text) -> std::string_view { return owned->texts.emplace_back(std::move(text)); };
  std::string literal;
  std::vector<OpenSection> open;
  // Ends the literal with a part of `kind` (a placeholder's unit and rounding for one); returns
  // its place.
  auto add_part = [&](Part::Kind kind, expr::NodePtr tree, std::string_view unit = {},
                      Rounding rounding = Rounding::nearest) {
    Part part;
    part.kind = kind;
    part.unit = unit;
    part.rounding = rounding;
    part.literal = keep(std::move(literal));
    part.expression = tree.get();
    owned->parts.push_back(part);
    if (tree) owned->trees.push_back(std::move(tree));
    literal.clear();
    return owned->parts.size() - 1;
  };
  // A branch of the innermost open section, after the one before it.
  auto add_branch = [&](Part::Kind kind, expr::NodePtr condition) {
    OpenSection& section = open.back();
    const std::size_t part = add_part(kind, std::move(condition));
    owned->parts[section.branches.back()].next = static_cast<std::uint32_t>(part);
    section.branches.push_back(part);
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '}' && i + 1 < text.size() && text[i + 1] == '}') {
      literal += '}';
      ++i;
      continue;
    }
    if (c != '{') {
      literal += c;
      continue;
    }
    if (i + 1 < text.size() && text[i + 1] == '{') {
      literal += '{';
      ++i;
      continue;
    }
    // The placeholder ends at the first '}' outside a quoted string; its unit follows the
    // last ':' outside quotes ({if x then 'a:b' else 'c':GB} is not a thing, but quotes are).
    std::size_t close = std::string_view::npos, colon = std::string_view::npos;
    for (std::size_t j = expr::find_outside_strings(text, i + 1, ":}"); j < text.size();
         j = expr::find_outside_strings(text, j + 1, ":}")) {
      if (text[j] == '}') {
        close = j;
        break;
      }
      colon = j - i - 1;
    }
    if (close == std::string_view::npos) return TemplateError{i, "'{' without a closing '}'"};
    std::string_view inside = text.substr(i + 1, close - i - 1);

    // A section's `{else}`, `{/if}`, `{else if C}` or `{if C}`: a `{if ...}` whose rest parses
    // as a whole expression opens a section; `{if c then a else b}` is a placeholder.
    const std::string_view word = trimmed(inside);
    const std::size_t word_offset = i + 1 + static_cast<std::size_t>(word.data() - inside.data());
    if (word == "else" || word == "/if") {
      if (open.empty())
        return TemplateError{i, fmt::format("'{{{}}}' without an '{{if ...}}' before it", word)};
      if (word == "else") {
        if (open.back().has_else) return TemplateError{i, "a second '{else}' in one section"};
        add_branch(Part::Kind::else_, nullptr);
        open.back().has_else = true;
      } else {
        const std::size_t end = add_part(Part::Kind::end_if, nullptr);
        for (std::size_t branch : open.back().branches) owned->parts[branch].end = static_cast<std::uint32_t>(end);
        owned->parts[open.back().branches.back()].next = static_cast<std::uint32_t>(end);
        open.pop_back();
      }
      i = close;
      continue;
    }
    const bool else_if = word.starts_with("else if ");
    if (else_if || word.starts_with("if ")) {
      const std::size_t skip = else_if ? 8 : 3;
      const std::string_view condition = word.substr(skip);
      CompiledExpression compiled =
          compile_expression(condition, word_offset + skip, true, names, lets, let_budget);
      // `{if c then a else b}` does not parse as a condition: it is a placeholder, below.
      const auto* error = std::get_if<TemplateError>(&compiled);
      const bool placeholder = !else_if && error && expr::parse_expression(condition).index() != 0 &&
                               has_then(inside);
      if (!placeholder) {
        if (error) return *error;
        expr::NodePtr tree = std::move(std::get<0>(compiled).first);
        if (else_if) {
          if (open.empty()) return TemplateError{i, "'{else if ...}' without an '{if ...}' before it"};
          if (open.back().has_else) return TemplateError{i, "'{else if ...}' after the section's '{else}'"};
          add_branch(Part::Kind::else_if, std::move(tree));
        } else {
          const std::size_t part = add_part(Part::Kind::if_, std::move(tree));
          open.push_back(OpenSection{i, {part}, false});
        }
        i = close;
        continue;
      }
    }

    std::string unit;
    Rounding rounding = Rounding::nearest;
    if (colon != std::string_view::npos) {
      unit = std::string(inside.substr(colon + 1));
      inside = inside.substr(0, colon);
      // "GB up", "up": the rounding is the last word after the colon.
      const std::size_t space = unit.rfind(' ');
      const std::string last = space == std::string::npos ? unit : unit.substr(space + 1);
      if (last == "up" || last == "down") {
        rounding = last == "up" ? Rounding::up : Rounding::down;
        unit = space == std::string::npos ? std::string() : unit.substr(0, unit.find_last_not_of(' ', space) + 1);
      }
    }
    CompiledExpression compiled = compile_expression(inside, i + 1, false, names, lets, let_budget);
    if (auto* error = std::get_if<TemplateError>(&compiled)) return *error;
    auto [tree, type] = std::move(std::get<0>(compiled));
    if (rounding != Rounding::nearest && type.kind != expr::Type::Kind::number &&
        type.kind != expr::Type::Kind::any)
      return TemplateError{i + 1, fmt::format("'{}' rounds a number, not {}",
                                              rounding == Rounding::up ? "up" : "down", expr::describe(type))};
    if (!unit.empty()) {
      if (type.kind != expr::Type::Kind::number && type.kind != expr::Type::Kind::any)
        return TemplateError{i + 1, fmt::format("':{}' formats a number, not {}", unit, expr::describe(type))};
      std::size_t at = 0;
      if (std::string problem = display_unit_problem(unit, type.dim, at); !problem.empty())
        return TemplateError{i + 1 + inside.size() + 1 + at, std::move(problem)};
    }
    add_part(Part::Kind::placeholder, std::move(tree), keep(std::move(unit)), rounding);
    i = close;
  }
  if (!open.empty()) return TemplateError{open.back().offset, "'{if ...}' without its '{/if}'"};
  add_part(Part::Kind::placeholder, nullptr);
  MessageTemplate result;
  result.parts = owned->parts;
  result.owned = std::move(owned);
  return result;
}

std::optional<CompiledRule> load_rule_file(std::shared_ptr<const SourceFile> file,
                                           std::vector<Diagnostic>& errors, std::size_t* pack_nodes_left,
                                           RuleOrigin origin) {
  return RuleLoader(std::move(file), errors, pack_nodes_left, origin).run();
}

}  // namespace planlint
