#include "planlint/plan/loader.hpp"

#include <algorithm>
#include <array>
#include <set>
#include <unordered_map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "planlint/catalog/gpu_names.hpp"
#include "planlint/catalog/gpu_suggestion.hpp"
#include "planlint/diag/native_rules.hpp"
#include "planlint/diag/suggest.hpp"
#include "planlint/plan/defaults.hpp"
#include "planlint/metrics/metric_table.hpp"
#include "planlint/plan/schema.hpp"
#include "planlint/plan/stage_findings.hpp"
#include "planlint/plan/value_reader.hpp"
#include "planlint/source/columns.hpp"
#include "planlint/source/toml_limits.hpp"

namespace planlint {

namespace {

/// The keys of section `name` with a default, fixed or derived: the most values
/// apply_defaults() adds to its table, reserved with the stated ones so that none moves.
std::size_t section_defaults(std::string_view name) {
  static const std::array<std::uint8_t, plan_section_count> counts = [] {
    std::array<std::uint8_t, plan_section_count> n{};
    for (const KeySpec& key : plan_keys())
      if (!key.by_default.none()) ++n[key.section_index];
    return n;
  }();
  const SectionSpec* section = find_section(name);
  return section ? counts[static_cast<std::size_t>(section - plan_sections().data())] : 0;
}

using detail::Findings;
using detail::KeyPath;

/// The keys a plan must state, in plan_keys() order: a few of the schema's, which
/// check_required() walks for every section and every element of every plan.
const std::vector<const KeySpec*>& required_keys() {
  static const std::vector<const KeySpec*> keys = [] {
    std::vector<const KeySpec*> required;
    for (const KeySpec& key : plan_keys())
      if (key.required) required.push_back(&key);
    return required;
  }();
  return keys;
}

std::vector<std::string_view> section_names() {
  std::vector<std::string_view> names;
  for (const SectionSpec& section : plan_sections()) names.push_back(section.name);
  return names;
}

}  // namespace

namespace detail {

/// Walks the TOML document section by section.
class Loader {
 public:
  Loader(std::shared_ptr<const SourceFile> source, const Catalog& catalog, DiagnosticSink& findings,
         std::string_view toml_text, std::uint32_t first_line)
      : source_(std::move(source)), catalog_(catalog), toml_text_(toml_text),
        first_line_(first_line), findings_(*source_, findings, first_line) {}

  /// The TOML parse, then the plan read from the document; the syntax error when the text is
  /// not valid TOML.
  Result<Plan> load();

 private:
  void read_document(const toml::table& root);
  /// `where` names the table in an unknown key's message ("[training] of stage 'long-context'");
  /// empty: "[section]".
  void read_table(const toml::table& table, std::string_view section, const std::string& prefix,
                  PlanTable& out, std::string_view where = {});
  void read_array(const toml::node& node, const toml::key& key, const SectionSpec& section);
  void read_element(const toml::table& table, std::string_view section, std::size_t index,
                    const std::string& prefix, PlanTable& out);
  void read_estimates(const toml::table& table, const std::string& prefix);
  void read_stage(const toml::table& table, std::size_t index, const std::string& prefix, Span header);
  /// Plan::stages from the [[stages]] read: each `base` (the plan before its defaults, which a
  /// stage's values may change) with the stage's values, its defaults applied.
  void build_stages(const Plan& base);
  void read_claim(const toml::node& node, const toml::key& key, const std::string& metric);
  /// The unknown-key finding; `suggestion`, when given, receives its did-you-mean.
  Diagnostic& unknown_key(const toml::key& key, std::string_view where, const std::string& path,
                   const std::vector<std::string_view>& candidates, std::string* suggestion = nullptr);
  /// Records `[written]` or `written = ...` as a misspelling of `path` (Plan::misspellings)
  /// when `table` does not also write the right name.
  void note_misspelling(const toml::table& table, std::string_view right, std::string path,
                        const toml::key& written);
  void check_required();
  /// The required keys of `section` each of `elements` lacks, as missing-required findings:
  /// the plan's own (`first` 0), or a stage's (`first` where note_written counted them,
  /// `stage_prefix` "stages[1].", `stage` " of stage 'long'").
  void check_elements(const std::vector<PlanTable>& elements, std::string_view section, std::size_t first = 0,
                      std::string_view stage_prefix = {}, std::string_view stage = {});
  /// The accelerator at `path` (cluster.gpu, inference.prefill_gpu): a catalog id, an alias of one, or unknown-gpu.
  void check_gpu(std::string_view path);
  void convert_node_price();
  /// `price` (at `path`) divided by gpus_per_node, with its note, when it is written per node.
  std::optional<PlanValue> node_price_per_gpu(const PlanValue& price, const std::string& path);

  std::shared_ptr<const SourceFile> source_;
  const Catalog& catalog_;
  std::string_view toml_text_;
  std::uint32_t first_line_;  ///< the plan's first line in the source (load_plan)
  Findings findings_;
  detail::ValueReader reader_{findings_};
  Plan plan_;
  /// A [[stages]] element as read: its values by their [training] or [cluster] key.
  struct StageDraft {
    std::string name;
    Span header, name_span;
    std::vector<TableValues::Entry> values;
    std::vector<Claim> claims;
    std::vector<PlanTable> assumptions;     ///< [[stages.assumptions]]
    std::vector<PlanTable> targets;         ///< [[stages.targets]]
    std::vector<std::string> invalid_keys;  ///< as Plan::invalid_keys ("training.zero")
    std::vector<Plan::Misspelling> misspellings;  ///< as Plan::misspellings ("training.seq_len")
  };
  std::vector<StageDraft> stage_drafts_;
  /// The keys the file states, valid or not: the key and the element of its array of tables
  /// (`in_section` for a section's key). Recorded in a list while the file is read and sorted
  /// once when first asked: check_required() asks for every required key of every element (a
  /// plan of 100,000 [[assumptions]] states 300,000 keys), and a node of a hashed set for each
  /// key read was a seventh of a plain plan's allocations.
  static constexpr std::size_t in_section = static_cast<std::size_t>(-1);
  /// Where the elements of the stages' [[stages.assumptions]] are counted in written_, apart
  /// from the plan's own elements: above them (fewer than max_array_entries), and low enough
  /// that max_array_entries stages of as many elements stay below in_section in a 32-bit
  /// size_t (the WebAssembly build's).
  static constexpr std::size_t stage_element_base = std::size_t{1} << 31;
  using WrittenKey = std::pair<const KeySpec*, std::size_t>;
  mutable std::vector<WrittenKey> written_;
  mutable bool written_sorted_ = true;
  void note_written(const KeySpec* key, std::size_t element) {
    written_.emplace_back(key, element);
    written_sorted_ = false;
  }
  bool written(const KeySpec* key, std::size_t element = in_section) const {
    if (!key) return false;
    if (!written_sorted_) {
      std::sort(written_.begin(), written_.end(), std::less<>());
      written_sorted_ = true;
    }
    return std::binary_search(written_.begin(), written_.end(), WrittenKey{key, element}, std::less<>());
  }
};

Result<Plan> Loader::load() {
  // Whether the text toml++ parsed is ASCII (then its columns need no conversion); set by
  // parse_toml before it parses, so a syntax error's position uses it too.
  bool ascii = false;
  auto root = parse_toml(toml_text_, source_->path(), &ascii);
  findings_.assume_ascii(ascii);
  if (!root) {
    Span span = findings_.span(root.error().source);
    span.end = Position{span.begin.line, after_character(source_->line(span.begin.line), span.begin.column)};
    Diagnostic& d = findings_.add(native_rules::toml_syntax, span, "",
                                  fmt::format("invalid TOML: {}", root.error().description));
    d.help = "fix the syntax; planlint checks nothing else in a file that is not valid TOML";
    return Error(d.message, d.primary, d.help);
  }
  plan_.source = source_;
  // Sized once: a plan states a few dozen keys.
  written_.reserve(64);
  read_document(*root);
  root = toml::table();  // the document is not needed past here
  check_required();
  check_gpu("cluster.gpu");
  check_gpu("inference.prefill_gpu");
  // A stage derives its defaults from its own values: from the plan before its defaults.
  std::optional<Plan> before_defaults;
  if (!stage_drafts_.empty()) before_defaults = plan_;
  apply_defaults(plan_, catalog_, findings_);
  convert_node_price();
  if (before_defaults) build_stages(std::move(*before_defaults));
  return std::move(plan_);
}

Diagnostic& Loader::unknown_key(const toml::key& key, std::string_view where, const std::string& path,
                         const std::vector<std::string_view>& candidates, std::string* suggestion_out) {
  Span span = findings_.span(key.source());
  Diagnostic& d = findings_.add(native_rules::unknown_key, span, path,
                                fmt::format("unknown key '{}' in {}", key.str(), where));
  const KeySpec* elsewhere = nullptr;
  for (const KeySpec& spec : plan_keys())
    if (spec.key == key.str() && !elsewhere) elsewhere = &spec;
  const bool parallel_degree = key.str() == "pp" || key.str() == "ep" || key.str() == "cp" || key.str() == "dp";
  if (key.str() == "dp" && path.starts_with("inference.")) {
    // Data parallelism in serving is the replicas.
    d.help = "[inference] has no 'dp': the copies of the model that serve side by side are inference.replicas "
             "(default floor(cluster.count / (tp · pp))); attention data-parallel ranks inside a replica are "
             "inference.dp_attention";
  } else if (elsewhere && elsewhere->section == "training" && parallel_degree && path.starts_with("inference.")) {
    // Not a misplaced key: serving has its own layouts, which planlint sizes as tp GPUs.
    d.help = fmt::format("[inference] has no '{}': a serving replica is inference.tp · inference.pp GPUs, laid "
                         "out by inference.ep and inference.dp_attention (training.{} is the training layout)",
                         key.str(), key.str());
  } else if (elsewhere && std::find(candidates.begin(), candidates.end(), key.str()) == candidates.end()) {
    const SectionSpec* home = find_section(elsewhere->section);
    d.help = home && home->array
                 ? fmt::format("'{}' is a key of [[{}]]", key.str(), elsewhere->section)
                 : fmt::format("'{}' is a key of [{}]: move it there", key.str(), elsewhere->section);
  } else if (auto suggestion = closest_match(key.str(), candidates)) {
    d.help = fmt::format("did you mean '{}'?", *suggestion);
    d.fixes.push_back(FixEdit{Location{source_->path(), span}, *suggestion});
    if (suggestion_out) *suggestion_out = std::move(*suggestion);
  } else if (!candidates.empty()) {
    std::string list;
    for (std::size_t i = 0; i < candidates.size(); ++i)
      list += (i ? ", " : "") + std::string(candidates[i]);
    d.help = fmt::format("valid keys here: {}", list);
  }
  return d;
}

void Loader::note_misspelling(const toml::table& table, std::string_view right, std::string path,
                              const toml::key& written) {
  if (table.contains(right)) return;
  plan_.misspellings.push_back(Plan::Misspelling{std::move(path), std::string(written.str())});
}

void Loader::read_document(const toml::table& root) {
  for (auto&& [key, node] : root) {
    const SectionSpec* section = find_section(key.str());
    if (!section) {
      std::string suggestion;
      Diagnostic& d = unknown_key(key, "the plan (top level)", std::string(key.str()), section_names(), &suggestion);
      // A table under a misspelt section name; a stray top-level value is no section.
      if (!suggestion.empty() && !root.contains(suggestion) && (node.is_table() || node.is_array_of_tables())) {
        const SectionSpec* meant = find_section(suggestion);
        if (meant && meant->required)
          *d.help += fmt::format(" [{}] is a required section, and planlint reads nothing written under [{}]",
                                suggestion, key.str());
        note_misspelling(root, suggestion, suggestion, key);
      }
      continue;
    }
    const std::string name(section->name);
    if (section->array) {
      read_array(node, key, *section);
      continue;
    }
    if (!node.is_table()) {
      Diagnostic& d = findings_.add(native_rules::bad_value, findings_.span(node.source()), name,
                                    fmt::format("'{}' must be a table: [{}]", name, name));
      d.help = fmt::format("write the section as a table header [{}] followed by its keys", name);
      continue;
    }
    const toml::table& table = *node.as_table();
    if (name == "estimates") {
      plan_.estimates_header = findings_.span(table.source());
      read_estimates(table, "");
      // toml++ iterates keys in sorted order; claims are kept in the order of the file.
      std::stable_sort(plan_.estimates.begin(), plan_.estimates.end(),
                       [](const Claim& a, const Claim& b) { return a.key_span < b.key_span; });
      continue;
    }
    PlanTable& out = plan_.sections[name];
    out.values.reserve(table.size() + section_defaults(name));  // and the defaults apply_defaults adds
    out.present = true;
    out.header = findings_.span(table.source());
    read_table(table, name, name, out);
  }
  if (auto kind = plan_.text("plan.kind")) {
    plan_.kind = *kind == "inference" ? PlanKind::inference
                 : *kind == "finetune" ? PlanKind::finetune
                                       : PlanKind::training;
  }
}

void Loader::read_table(const toml::table& table, std::string_view section,
                        const std::string& prefix, PlanTable& out, std::string_view where) {
  reader_.set_section(&table);
  for (auto&& [key, node] : table) {
    const KeyPath path{prefix, key.str()};
    const KeySpec* spec = find_key(section, key.str());
    if (!spec) {
      std::string suggestion;
      Diagnostic& d = unknown_key(key, where.empty() ? fmt::format("[{}]", section) : std::string(where), path.str(),
                                  keys_of(section), &suggestion);
      if (!suggestion.empty()) note_misspelling(table, suggestion, fmt::format("{}.{}", prefix, suggestion), key);
      // Clusters are often sized in nodes; planlint counts GPUs.
      if (section == "cluster" && (key.str() == "nodes" || key.str() == "node_count")) {
        const auto nodes = node.value<double>();
        const double per_node = table["gpus_per_node"].value<double>().value_or(
            *find_key("cluster", "gpus_per_node")->by_default.number());
        d.help = nodes ? fmt::format("planlint counts GPUs: write count = nodes × gpus_per_node, count = {:.15g} ({:.15g} × {:.15g})",
                                     *nodes * per_node, *nodes, per_node)
                       : std::string("planlint counts GPUs: write count = nodes × gpus_per_node");
      }
      continue;
    }
    note_written(spec, in_section);
    if (auto value = reader_.read(node, key, *spec, path))
      out.values.insert_or_assign(*spec, std::move(*value));
    else
      plan_.invalid_keys.push_back(path.str());
  }
  reader_.set_section(nullptr);
}

void Loader::read_array(const toml::node& node, const toml::key& key, const SectionSpec& section) {
  const std::string name(section.name);
  if (!node.is_array_of_tables() || !node.as_array()) {
    Diagnostic& d = findings_.add(native_rules::bad_value, findings_.span(node.source()), name,
                                  fmt::format("'{}' must be an array of tables: [[{}]]", name, name));
    d.help = fmt::format("write each entry under its own [[{}]] header", name);
    return;
  }
  (void)key;
  if (const std::size_t entries = node.as_array()->size(); entries > max_array_entries) {
    // Refused whole: the entries past a cut would be a plan other than the one written.
    Diagnostic& d = findings_.add(
        native_rules::bad_value, findings_.span(node.source()), name,
        fmt::format("[[{}]] holds {} entries, over planlint's fixed limit of {} entries in one array of tables; "
                    "none of them is read",
                    name, entries, max_array_entries));
    d.help = fmt::format("a plan states a few dozen [[{}]]; split a generated list into plans of its own", name);
    return;
  }
  if (name == "stages" && node.as_array()->size() > max_stages) {
    // Each stage is a copy of the plan, estimated on its own: the limit keeps the work in
    // proportion to the file.
    Diagnostic& d = findings_.add(native_rules::bad_value, findings_.span(node.source()), name,
                                  fmt::format("[[stages]] holds {} entries, over planlint's fixed limit of {} stages; "
                                              "none of them is read",
                                              node.as_array()->size(), max_stages));
    d.help = "a run has a few stages: merge stages that share their settings";
    return;
  }
  if (name == "capacity" && node.as_array()->size() > max_capacity_slices) {
    // Every stage carries the mix: the limit keeps the slices times the stages small.
    Diagnostic& d = findings_.add(native_rules::bad_value, findings_.span(node.source()), name,
                                  fmt::format("[[capacity]] holds {} entries, over planlint's fixed limit of {} "
                                              "slices; none of them is read",
                                              node.as_array()->size(), max_capacity_slices));
    d.help = "a mix has a few slices: merge the slices of one kind at their share-weighted price";
    return;
  }
  // The array as a whole has the first element's place (a finding about all of its entries).
  if (PlanTable& whole = plan_.sections[name]; !node.as_array()->empty() && !whole.present) {
    whole.present = true;
    whole.header = findings_.span(node.as_array()->front().source());
  }
  std::size_t index = 0;
  for (const toml::node& element : *node.as_array()) {
    const std::string prefix = fmt::format("{}[{}]", name, index++);
    if (name == "stages") {
      read_stage(*element.as_table(), index - 1, prefix, findings_.span(element.source()));
      continue;
    }
    PlanTable out;
    out.values.reserve(element.is_table() ? element.as_table()->size() + 1 : 0);
    out.present = true;
    out.header = findings_.span(element.source());
    read_element(*element.as_table(), section.name, index - 1, prefix, out);
    if (name == "targets") plan_.targets.push_back(std::move(out));
    else if (name == "assumptions") plan_.assumptions.push_back(std::move(out));
    else if (name == "capacity") plan_.capacity.push_back(std::move(out));
    else plan_.benchmarks.push_back(std::move(out));
  }
}

/// An element of [[targets]], [[assumptions]] or [[benchmarks]]: its quantities take their
/// dimension from the metric or plan key the element names, so those are read first.
void Loader::read_element(const toml::table& table, std::string_view section, std::size_t index,
                          const std::string& prefix, PlanTable& out) {
  struct Deferred {
    const toml::key* key;
    const toml::node* node;
    const KeySpec* spec;
  };
  std::vector<Deferred> deferred;
  for (auto&& [key, node] : table) {
    const KeyPath path{prefix, key.str()};
    const KeySpec* spec = find_key(section, key.str());
    if (!spec) {
      std::string suggestion;
      unknown_key(key, fmt::format("[[{}]]", section), path.str(), keys_of(section), &suggestion);
      if (!suggestion.empty()) note_misspelling(table, suggestion, fmt::format("{}.{}", prefix, suggestion), key);
      continue;
    }
    note_written(spec, index);
    if (spec->kind == ValueKind::any_quantity) {
      deferred.push_back({&key, &node, spec});
      continue;
    }
    if (auto value = reader_.read(node, key, *spec, path))
      out.values.insert_or_assign(*spec, std::move(*value));
  }

  detail::QuantityContext context;
  std::string metric_unit;  // what context.base_unit views
  const KeySpec* range_spec = nullptr;
  if (const PlanValue* metric = out.find("metric"); metric && metric->text()) {
    if (const MetricSpec* m = find_metric(*metric->text())) {
      context.dims = {&m->dim, 1};
      context.plain_number_scale = m->plain.scale;
      metric_unit = plain_number_unit(*m);
      context.base_unit = metric_unit;
    }
  } else if (const PlanValue* key = out.find("key"); key && key->text()) {
    if (const KeySpec* target = find_key(*key->text());
        target && (target->kind == ValueKind::quantity || target->kind == ValueKind::whole)) {
      context = detail::context_of(*target);
      range_spec = target;
    }
  }
  for (auto [key, node, spec] : deferred) {
    if (auto value = reader_.read_quantity(*node, *key, context, range_spec, KeyPath{prefix, key->str()}))
      out.values.insert_or_assign(*spec, std::move(*value));
  }

  if (section == "targets" && out.find("max") && out.find("min")) {
    Diagnostic& d = findings_.add(native_rules::bad_value, out.find("min")->key_span, prefix + ".min",
                                  "a target takes exactly one of max and min, not both");
    d.help = "split it into two targets";
  }
}

/// A [[stages]] element: `name`, and the stage's [training] keys and cluster.count as
/// sub-tables (`training.seq_len = 32768`, `cluster.count = 1024`), read by their keys' own
/// rows, and its claims ([stages.estimates]).
void Loader::read_stage(const toml::table& table, std::size_t index, const std::string& prefix, Span header) {
  StageDraft draft;
  draft.header = header;
  static const std::vector<std::string_view> stage_keys = {"name",      "training",    "cluster",
                                                           "estimates", "assumptions", "targets"};
  for (auto&& [key, node] : table) {
    const std::string_view name = key.str();
    const KeyPath path{prefix, name};
    if (name == "name") {
      const KeySpec& spec = *find_key("stages", "name");
      note_written(&spec, index);
      if (auto value = reader_.read(node, key, spec, path); value && value->text()) {
        draft.name = *value->text();
        draft.name_span = value->span;
      }
      continue;
    }
    const toml::table* sub = node.as_table();
    if (name == "training" && sub) {
      PlanTable read;
      const std::size_t invalid_before = plan_.invalid_keys.size();
      const std::size_t misspelt_before = plan_.misspellings.size();
      // toml++ gives a table's keys in order: the stage's name, when it has one, is read.
      const std::string stage = draft.name.empty() ? fmt::format("stage {}", index + 1)
                                                   : fmt::format("stage '{}'", draft.name);
      read_table(*sub, "training", path.str(), read, fmt::format("[training] of {}", stage));
      // A stage's invalid value or misspelt key is the stage's, under the key the stage's plan reads.
      for (std::size_t i = invalid_before; i < plan_.invalid_keys.size(); ++i)
        draft.invalid_keys.push_back(plan_.invalid_keys[i].substr(prefix.size() + 1));
      for (std::size_t i = misspelt_before; i < plan_.misspellings.size(); ++i)
        draft.misspellings.push_back(
            Plan::Misspelling{plan_.misspellings[i].path.substr(prefix.size() + 1), plan_.misspellings[i].written});
      for (const TableValues::Entry& entry : read.values.entries()) draft.values.push_back(entry);
      continue;
    }
    if (name == "cluster" && sub) {
      const KeySpec& count = *find_key("cluster", "count");
      const std::string cluster_prefix = path.str();
      for (auto&& [cluster_key, value_node] : *sub) {
        const KeyPath cluster_path{cluster_prefix, cluster_key.str()};
        if (cluster_key.str() != "count") {
          Diagnostic& d = findings_.add(
              native_rules::unknown_key, findings_.span(cluster_key.source()), cluster_path.str(),
              fmt::format("unknown key '{}' in a stage's cluster: a stage changes cluster.count only", cluster_key.str()));
          d.help = "a stage runs on the plan's GPUs: set the other [cluster] keys in [cluster], or write the stage as "
                   "a plan of its own";
          continue;
        }
        if (auto value = reader_.read(value_node, cluster_key, count, cluster_path))
          draft.values.emplace_back(&count, std::move(*value));
        else
          draft.invalid_keys.push_back("cluster.count");
      }
      continue;
    }
    if (name == "estimates" && sub) {
      std::vector<Claim> plan_claims = std::move(plan_.estimates);
      plan_.estimates.clear();
      read_estimates(*sub, "");
      draft.claims = std::move(plan_.estimates);
      plan_.estimates = std::move(plan_claims);
      std::stable_sort(draft.claims.begin(), draft.claims.end(),
                       [](const Claim& a, const Claim& b) { return a.key_span < b.key_span; });
      continue;
    }
    if ((name == "assumptions" || name == "targets") && node.is_array_of_tables() &&
        node.as_array()->size() <= max_array_entries) {
      // The stage's own assumptions, for the keys it sets (its MFU), each in place of the plan's
      // entry for its key; its own targets, on its metrics (the plan's are the whole run's).
      const SectionSpec& section = *find_section(name);
      std::vector<PlanTable>& elements = name == "targets" ? draft.targets : draft.assumptions;
      std::size_t element = 0;
      for (const toml::node& entry : *node.as_array()) {
        PlanTable out;
        out.present = true;
        out.header = findings_.span(entry.source());
        // Written apart from the plan's own entries: their required keys are checked below.
        read_element(*entry.as_table(), section.name, stage_element_base + index * max_array_entries + element,
                     fmt::format("{}.{}[{}]", prefix, name, element), out);
        ++element;
        elements.push_back(std::move(out));
      }
      continue;
    }
    if (std::find(stage_keys.begin(), stage_keys.end(), name) != stage_keys.end()) {
      Diagnostic& d = findings_.add(native_rules::bad_value, findings_.span(node.source()), path.str(),
                                    fmt::format("a stage's '{}' must be a table of keys", name));
      d.help = fmt::format("write its keys as {}.KEY = VALUE inside the [[stages]] entry", name);
      continue;
    }
    // A [training] key written at the stage's top level is the likeliest slip: say where it goes.
    std::string suggestion;
    Diagnostic& d = unknown_key(key, "[[stages]]", path.str(), stage_keys, &suggestion);
    if (find_key("training", name)) {
      d.help = fmt::format("a stage's training keys sit under training: write training.{} = ...", name);
      d.fixes.clear();
    }
  }
  // The required keys of the stage's own elements (the plan's are check_required's).
  const std::string stage = draft.name.empty() ? fmt::format(" of stage {}", index + 1)
                                               : fmt::format(" of stage '{}'", draft.name);
  const std::size_t first = stage_element_base + index * max_array_entries;
  check_elements(draft.assumptions, "assumptions", first, prefix + ".", stage);
  check_elements(draft.targets, "targets", first, prefix + ".", stage);
  if (!table.contains("name")) {
    Diagnostic& d = findings_.add(native_rules::missing_required, header, prefix + ".name",
                                  fmt::format("missing required key 'name' in [[stages]] #{}", index + 1));
    d.help = "add name (what the stage is called: \"pre-training\", \"context-32k\")";
  }
  if (!draft.name.empty()) {
    for (const StageDraft& earlier : stage_drafts_)
      if (earlier.name == draft.name) {
        Diagnostic& d = findings_.add(native_rules::bad_value, draft.name_span, prefix + ".name",
                                      fmt::format("stage name \"{}\" is used twice", draft.name));
        d.related.push_back({Location{source_->path(), earlier.name_span}, "first used here"});
        d.help = "give every stage its own name: findings and reports name a stage by it";
        break;
      }
  }
  stage_drafts_.push_back(std::move(draft));
}

void Loader::build_stages(const Plan& base) {
  if (!plan_.is_training()) {
    Diagnostic& d = findings_.add(native_rules::bad_value, stage_drafts_.front().header, "stages",
                                  "[[stages]] divides a training run: an inference plan has none");
    d.help = "remove [[stages]], or write each service as a plan of its own";
    return;
  }
  std::vector<Stage> stages;
  // Each stage's defaults are set as the plan's are, their findings kept apart: one that only
  // some stages make names them (a stage's tp that the plan's GPU count does not divide).
  std::vector<std::string> names;
  std::vector<std::vector<Diagnostic>> found(1);  // [0]: the whole run's, which the plan's are
  for (StageDraft& draft : stage_drafts_) {
    if (draft.name.empty()) draft.name = fmt::format("stage {}", stages.size() + 1);
    Plan stage = base;
    // A node's price as the plan's reads it, per GPU (convert_node_price).
    if (const KeySpec& price = *find_key("cluster", "price"); plan_.find(price) && plan_.find(price)->origin == Origin::plan)
      stage.sections.of(price).values.insert_or_assign(price, PlanValue(*plan_.find(price)));
    stage.capacity = plan_.capacity;  // the slices' prices per GPU, as the plan's read them
    for (auto& [spec, value] : draft.values) stage.sections.of(*spec).values.insert_or_assign(*spec, std::move(value));
    stage.estimates = std::move(draft.claims);
    stage.targets = std::move(draft.targets);  // the plan's [[targets]] are the whole run's
    if (!draft.assumptions.empty()) {
      auto key_of = [](const PlanTable& entry) {
        const PlanValue* key = entry.find("key");
        return key && key->text() ? *key->text() : std::string();
      };
      std::erase_if(stage.assumptions, [&](const PlanTable& entry) {
        return std::any_of(draft.assumptions.begin(), draft.assumptions.end(),
                           [&](const PlanTable& own) { return !key_of(own).empty() && key_of(own) == key_of(entry); });
      });
      for (PlanTable& own : draft.assumptions) stage.assumptions.push_back(std::move(own));
    }
    // A key the stage states and planlint cannot read (an invalid value, a misspelt name) is
    // the stage's unknown, not the plan's value: the metrics that need it say so.
    auto forget = [&stage](std::string_view path) {
      const KeySpec* spec = find_value_key(path);
      if (!spec) return;
      PlanTable& table = stage.sections.of(*spec);
      if (!table.values.find(*spec)) return;
      TableValues kept;
      for (const TableValues::Entry& entry : table.values.entries())
        if (entry.first != spec) kept.emplace(*entry.first, PlanValue(entry.second));
      table.values = std::move(kept);
    };
    for (std::string& key : draft.invalid_keys) {
      forget(key);
      stage.invalid_keys.push_back(std::move(key));
    }
    for (Plan::Misspelling& misspelling : draft.misspellings) {
      forget(misspelling.path);
      stage.misspellings.push_back(std::move(misspelling));
    }
    DiagnosticSink stage_sink;
    Findings stage_findings(*source_, stage_sink, first_line_);
    apply_defaults(stage, catalog_, stage_findings);
    found.push_back(stage_sink.take());
    names.push_back(draft.name);
    stages.push_back(Stage{std::move(draft.name), draft.header, draft.name_span,
                           std::make_shared<const Plan>(std::move(stage))});
  }
  plan_.stages = std::move(stages);
  merge_stage_findings(names, found, findings_.sink().items());
}

void Loader::read_estimates(const toml::table& table, const std::string& prefix) {
  for (auto&& [key, node] : table) {
    const std::string metric = prefix.empty() ? std::string(key.str())
                                              : prefix + "." + std::string(key.str());
    // An unquoted dotted key (train.days = ...) nests tables: flatten them back to the name,
    // unless the table is a range claim { value, low, high }.
    if (const toml::table* sub = node.as_table();
        sub && !find_metric(metric) && !sub->contains("value") && !sub->contains("low") &&
        !sub->contains("high")) {
      read_estimates(*sub, metric);
      continue;
    }
    if (!find_metric(metric)) {
      unknown_key(key, "[estimates] (not a metric planlint computes)", "estimates." + metric,
                  metric_name_list());
      continue;
    }
    read_claim(node, key, metric);
  }
}

void Loader::read_claim(const toml::node& node, const toml::key& key, const std::string& metric) {
  const MetricSpec& m = *find_metric(metric);
  const std::string metric_unit = plain_number_unit(m);
  const detail::QuantityContext context{{&m.dim, 1}, m.plain.scale, true, metric_unit};
  Claim claim;
  claim.metric = metric;
  claim.key_span = findings_.span(key.source());
  const std::string path = "estimates." + metric;
  if (const toml::table* range = node.as_table()) {
    for (auto&& [part, value] : *range) {
      const KeyPath part_path{path, part.str()};
      std::optional<PlanValue>* slot = part.str() == "value" ? &claim.value
                                       : part.str() == "low" ? &claim.low
                                       : part.str() == "high" ? &claim.high
                                                              : nullptr;
      if (!slot) {
        unknown_key(part, "a range claim", part_path.str(), {"value", "low", "high"});
        continue;
      }
      *slot = reader_.read_quantity(value, part, context, nullptr, part_path);
    }
  } else {
    claim.value = reader_.read_quantity(node, key, context, nullptr, KeyPath{"estimates", metric});
  }
  plan_.estimates.push_back(std::move(claim));
}

void Loader::check_elements(const std::vector<PlanTable>& elements, std::string_view section, std::size_t first,
                            std::string_view stage_prefix, std::string_view stage) {
  const std::string_view shown = stage.empty() ? "" : "stages.";
  // An element's key written under a misspelt name has its one finding, the misspelling's.
  const auto misspelt = [&](const std::string& path) {
    return !plan_.misspellings.empty() && plan_.misspelt(path);
  };
  static const KeySpec* const max = find_key("targets", "max");
  static const KeySpec* const min = find_key("targets", "min");
  // The paths are written only for a key that is missing: most elements have them all.
  const auto element = [&](std::size_t i) { return fmt::format("{}{}[{}]", stage_prefix, section, i); };
  for (std::size_t i = 0; i < elements.size(); ++i) {
    for (const KeySpec* required : required_keys()) {
      const KeySpec& key = *required;
      if (key.section != section || written(&key, first + i)) continue;
      std::string path = fmt::format("{}.{}", element(i), key.key);
      if (misspelt(path)) continue;
      Diagnostic& d = findings_.add(native_rules::missing_required, elements[i].header, std::move(path),
                                    fmt::format("missing required key '{}' in [[{}{}]] #{}{}", key.key, shown, section,
                                                i + 1, stage));
      d.help = fmt::format("add {} ({})", key.key, key.description);
    }
    if (section != "targets" || written(max, first + i) || written(min, first + i)) continue;
    std::string path = element(i);
    if (misspelt(path + ".max") || misspelt(path + ".min")) continue;
    Diagnostic& d = findings_.add(native_rules::missing_required, elements[i].header, std::move(path),
                                  fmt::format("[[{}targets]] #{}{} has no bound: give max or min", shown, i + 1, stage));
    d.help = "add max = \"...\" (or min) in the metric's unit";
  }
}

void Loader::check_required() {
  // A section that is not there has no place of its own: the plan's first character stands
  // for the whole plan (line 1 of a plan file, the first line of a Markdown block).
  const Span plan_start{{first_line_, 1},
                        {first_line_, after_character(source_->line(first_line_), 1)}};
  auto missing_section = [&](std::string_view name) {
    Diagnostic& d = findings_.add(native_rules::missing_required, plan_start, std::string(name),
                                  fmt::format("missing required section [{}]", name));
    d.help = fmt::format("add a [{}] table: {}", name, find_section(name)->description);
  };
  for (const SectionSpec& section : plan_sections()) {
    const bool needed = section.required || (section.name == "training" && plan_.is_training() &&
                                             plan_.text("plan.kind"));
    const PlanTable& table = plan_.section(section.name);
    if (!section.array && needed && !table.present) {
      // A section written under a misspelt name has its one finding, the misspelling's.
      if (!plan_.misspelt(section.name)) missing_section(section.name);
      continue;
    }
    if (section.array || !table.present) continue;
    for (const KeySpec* required : required_keys()) {
      const KeySpec& key = *required;
      if (key.section != section.name || written(&key)) continue;
      if (!plan_.misspellings.empty() && plan_.misspelt(fmt::format("{}.{}", key.section, key.key))) continue;
      Diagnostic& d = findings_.add(
          native_rules::missing_required, table.header, fmt::format("{}.{}", key.section, key.key),
          fmt::format("missing required key '{}' in [{}]", key.key, section.name));
      d.help = fmt::format("add {} ({})", key.key, key.description);
    }
  }
  check_elements(plan_.targets, "targets");
  check_elements(plan_.assumptions, "assumptions");
  check_elements(plan_.benchmarks, "benchmarks");
  check_elements(plan_.capacity, "capacity");
  // One finding for each reuse of an id, pointing at its first use (N copies of one id are N − 1
  // findings, not one for every pair).
  std::unordered_map<std::string_view, const PlanValue*> first_use;
  for (std::size_t i = 0; i < plan_.assumptions.size(); ++i) {
    const PlanValue* id = plan_.assumptions[i].find("id");
    if (!id || !id->text()) continue;
    const auto [first, inserted] = first_use.emplace(*id->text(), id);
    if (inserted) continue;
    Diagnostic& d = findings_.add(native_rules::bad_value, id->span, fmt::format("assumptions[{}].id", i),
                                  fmt::format("assumption id \"{}\" is used twice", *id->text()));
    d.related.push_back({Location{source_->path(), first->second->span}, "first used here"});
    d.help = "give every assumption its own id";
  }
  if (plan_.text("model.architecture") == "moe" && !written(find_key("model", "active_params"))) {
    const PlanValue* arch = plan_.find("model.architecture");
    Diagnostic& d = findings_.add(native_rules::missing_required, arch->span, "model.active_params",
                                  "architecture = \"moe\" requires model.active_params");
    d.help = "add active_params: the parameters active per token (compute uses them)";
  }
}

/// Where a plan's author finds the catalog's ids, with what tells parts apart.
constexpr std::string_view gpus_listing_note =
    "`planlint gpus` lists the catalog's GPUs with their aliases, peaks, memory and links";

/// A price the file writes per node ("$14/node/h", as cloud price lists quote instances) is
/// the node's GPUs' price: each GPU's is it divided by cluster.gpus_per_node (stated, or the
/// catalog's host, or the default), which planlint reads, with a note and a fix that writes it.
/// So is each [[capacity]] slice's price.
void Loader::convert_node_price() {
  const KeySpec& key = *find_key("cluster", "price");
  if (const PlanValue* price = plan_.find(key))
    if (std::optional<PlanValue> per_gpu = node_price_per_gpu(*price, "cluster.price"))
      plan_.sections.of(key).values.insert_or_assign(key, std::move(*per_gpu));
  const KeySpec& slice_key = *find_key("capacity", "price");
  for (std::size_t i = 0; i < plan_.capacity.size(); ++i)
    if (const PlanValue* price = plan_.capacity[i].values.find(slice_key))
      if (std::optional<PlanValue> per_gpu = node_price_per_gpu(*price, fmt::format("capacity[{}].price", i)))
        plan_.capacity[i].values.insert_or_assign(slice_key, std::move(*per_gpu));
}

std::optional<PlanValue> Loader::node_price_per_gpu(const PlanValue& price, const std::string& path) {
  if (price.origin != Origin::plan || !price.quantity()) return std::nullopt;
  const std::string written = source_text(*source_, price.span);
  if (written.find('"') == std::string::npos || node_price_as_gpu_price(written).empty()) return std::nullopt;
  const double gpus = plan_.number("cluster.gpus_per_node").value_or(1);
  if (!(gpus >= 1)) return std::nullopt;  // a gpus_per_node the plan states unreadably: price stays the node's

  PlanValue per_gpu = price;
  per_gpu.value = units::Quantity{price.quantity()->value / gpus, price.quantity()->dim};
  // Cents at most, as a price list writes them ("$1.75", "$12.29").
  auto dollars = [](double usd_per_gpu_second) {
    std::string text = fmt::format("{:.2f}", usd_per_gpu_second * 3600);
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
    return "$" + text + "/GPU/h";
  };
  const std::string shown = dollars(per_gpu.quantity()->value);
  Diagnostic& d = findings_.add(
      native_rules::node_price, price.span, path,
      fmt::format("{} {} is a node's price: planlint reads it as {}, divided by the {} GPUs of a node", path,
                  written, shown, gpus));
  d.severity = Severity::note;
  d.help = fmt::format("write one GPU's price: price = \"{}\"", shown);
  d.fixes.push_back(FixEdit{Location{source_->path(), price.span}, fmt::format("\"{}\"", shown)});
  return per_gpu;
}

void Loader::check_gpu(std::string_view path) {
  const PlanValue* gpu = plan_.find(path);
  if (!gpu || !gpu->text()) return;
  const std::string written = *gpu->text();
  const GpuMatch match = catalog_.resolve(written);
  if (match.exact) return;
  if (match.gpu) {
    // Another name of one entry ("H100", "a100-80gb", "NVIDIA H100 SXM5"): the plan reads as
    // that entry, so every estimate and rule runs on it, and a note names the id chosen.
    const GpuSpec& chosen = *match.gpu;
    Diagnostic& d = findings_.add(native_rules::gpu_alias, gpu->span, std::string(path),
                                  fmt::format("GPU '{}' is read as the catalog's '{}' ({})", written, chosen.id,
                                              chosen.name));
    d.severity = Severity::note;
    std::vector<std::string> variants;
    const std::string model = gpu_model(chosen.id);
    for (const GpuSpec& other : catalog_.gpus())
      if (&other != &chosen && gpu_model(other.id) == model) variants.push_back(fmt::format("'{}'", other.id));
    if (!variants.empty())
      d.notes.push_back(fmt::format("other parts of the model have other peaks and memory: {}", fmt::join(variants, ", ")));
    d.help = fmt::format("write the id: gpu = \"{}\"", chosen.id);
    d.fixes.push_back(FixEdit{Location{source_->path(), gpu->span}, fmt::format("\"{}\"", chosen.id)});
    PlanValue resolved = *gpu;
    resolved.value = chosen.id;
    const KeySpec* key = find_key(path);
    plan_.sections.of(*key).values.insert_or_assign(*key, std::move(resolved));
    return;
  }
  Diagnostic& d = findings_.add(native_rules::unknown_gpu, gpu->span, std::string(path),
                                fmt::format("unknown GPU '{}': not in the catalog", written));
  if (!match.candidates.empty()) {
    // Two catalog files give one name to different entries: the plan's author must choose.
    std::vector<std::string> ids;
    for (const GpuSpec* candidate : match.candidates) ids.push_back(fmt::format("'{}'", candidate->id));
    d.message = fmt::format("unknown GPU '{}': more than one catalog entry answers to it", written);
    d.help = fmt::format("name the entry: {}", fmt::join(ids, " or "));
    d.notes.push_back(std::string(gpus_listing_note));
    return;
  }
  const GpuSuggestion suggestion = suggest_gpu(written, catalog_.ids());
  if (suggestion.certain) {
    d.help = fmt::format("did you mean '{}'?", suggestion.ids[0]);
    d.fixes.push_back(FixEdit{Location{source_->path(), gpu->span}, fmt::format("\"{}\"", suggestion.ids[0])});
  } else if (!suggestion.ids.empty()) {
    // Variants differ in peak and memory (h100-sxm 989 TFLOPS, h100-pcie 756): the plan's
    // author must choose, so there is no fix.
    std::string choices;
    for (std::size_t i = 0; i < suggestion.ids.size(); ++i)
      choices += fmt::format("{}'{}'", i == 0 ? "" : i + 1 == suggestion.ids.size() ? " or " : ", ", suggestion.ids[i]);
    d.help = fmt::format("name the variant: {}", choices);
  } else {
    d.help = "add the GPU to a catalog file of your own ([lint] catalog in .planlint.toml)";
  }
  // The catalog's ids are not listed: `planlint gpus` shows them with what tells variants apart.
  d.notes.push_back(std::string(gpus_listing_note));
}

}  // namespace detail

Result<Plan> load_plan(std::shared_ptr<const SourceFile> source, const Catalog& catalog, DiagnosticSink& findings,
                       std::optional<std::string_view> toml_text, std::uint32_t first_line) {
  std::string_view text = toml_text ? *toml_text : std::string_view(source->text());
  return detail::Loader(std::move(source), catalog, findings, text, first_line).load();
}

bool looks_like_plan(std::string_view text) {
  auto root = parse_toml(text);
  return root && (*root)["plan"].is_table();
}

}  // namespace planlint
