#include "planlint/plan/schema.hpp"

#include <algorithm>
#include <array>
#include <iterator>
#include <stdexcept>
#include <string>

#include "planlint/plan/name_index.hpp"

namespace planlint {

namespace {
using namespace units::dims;
using K = ValueKind;

constexpr SectionSpec all_sections[] = {
    {"plan", false, true, "what the plan is and who answers for it"},
    {"model", false, true, "the model being trained or served"},
    {"training", false, false, "the training run (kind = training or finetune)"},
    {"inference", false, false, "the inference service (kind = inference)"},
    {"cluster", false, true, "the accelerators and their network"},
    {"targets", true, false, "goals with hard and soft constraints"},
    {"assumptions", true, false, "the assumption list, with sources and ranges"},
    {"estimates", false, false, "what the document claims, by metric name"},
    {"benchmarks", true, false, "measured results"},
    {"tolerances", false, false, "overrides of the tolerance tiers"},
};
static_assert(std::size(all_sections) == plan_section_count);

const std::vector<std::string_view> compute_precisions = {"fp32", "tf32", "bf16", "fp16", "fp8", "fp4"};
constexpr double huge = 1e300;

std::vector<KeySpec> make_keys() {
  // Helpers for the common shapes of a row.
  auto count = [](std::string_view s, std::string_view k, std::string_view d, bool req = false) {
    return KeySpec{s, k, K::whole, d, {none}, "count", 1, {}, req, 0, huge, true};
  };
  auto degree = [](std::string_view s, std::string_view k, std::string_view d) {
    return KeySpec{s, k, K::whole, d, {none}, "count", 1, {}, false, 1, huge};
  };
  auto fraction = [](std::string_view s, std::string_view k, std::string_view d) {
    return KeySpec{s, k, K::quantity, d, {none}, "fraction", 1, {}, false, 0, 1, true};
  };
  auto amount = [](std::string_view s, std::string_view k, std::string_view d,
                   std::vector<units::Dimension> dims, std::string_view unit, bool req = false) {
    return KeySpec{s, k, K::quantity, d, std::move(dims), unit, 1, {}, req, 0, huge, true};
  };
  // A batch or a concurrency: whole sequences (value_reader.cpp).
  auto batch = [](KeySpec spec) {
    spec.whole_sequences = true;
    return spec;
  };
  auto choice = [](std::string_view s, std::string_view k, std::string_view d,
                   std::vector<std::string_view> choices, bool req = false) {
    return KeySpec{s, k, K::choice, d, {}, {}, 1, std::move(choices), req};
  };
  auto text = [](std::string_view s, std::string_view k, std::string_view d, bool req = false) {
    return KeySpec{s, k, K::string, d, {}, {}, 1, {}, req};
  };
  auto flag = [](std::string_view s, std::string_view k, std::string_view d) {
    return KeySpec{s, k, K::boolean, d};
  };
  auto date = [](std::string_view s, std::string_view k, std::string_view d) {
    return KeySpec{s, k, K::date, d};
  };
  auto time = [&](std::string_view s, std::string_view k, std::string_view d) {
    return amount(s, k, d, {seconds}, "seconds");
  };

  return {
      // [plan]
      text("plan", "name", "identifier shown in reports", true),
      choice("plan", "kind", "which estimates and rules apply", {"training", "finetune", "inference"}, true),
      text("plan", "owner", "who answers for the plan"),
      date("plan", "updated", "when the numbers were last reviewed"),
      choice("plan", "status", "review state; governance rules may be stricter for approved",
             {"draft", "review", "approved"}),
      // [model]
      count("model", "params", "total parameters N", true),
      count("model", "active_params", "parameters active per token (MoE); default params"),
      count("model", "layers", "transformer layers L"),
      count("model", "hidden", "model width d_model"),
      count("model", "heads", "attention heads a"),
      count("model", "kv_heads", "key/value heads (GQA/MQA); default heads"),
      count("model", "head_dim", "dimension of one head; default hidden / heads"),
      count("model", "vocab", "vocabulary size"),
      choice("model", "architecture", "dense or mixture of experts; default dense", {"dense", "moe"}),
      choice("model", "mlp",
             "MLP kind: gelu (two matrices; GPT, BERT) or swiglu (gated, three matrices; Llama, "
             "Mistral, Qwen); sizes the MLP's activations; default gelu",
             {"gelu", "swiglu"}),
      count("model", "ffn_hidden", "MLP inner width F; default 4 · hidden (gelu), 8 · hidden / 3 (swiglu)"),
      count("model", "experts", "MoE: routed experts per MoE layer E (256 for DeepSeek-V3)"),
      count("model", "experts_per_token", "MoE: routed experts each token is sent to, k (top-k routing)"),
      KeySpec{"model", "shared_experts", K::whole,
              "MoE: shared experts every token passes through, counted with the dense parameters; default 0",
              {none}, "count", 1, {}, false, 0, huge},
      count("model", "expert_ffn_hidden", "MoE: MLP inner width of one expert F_e"),
      count("model", "moe_layers", "MoE: layers whose MLP is a mixture of experts; default layers"),
      count("model", "kv_lora_rank",
            "MLA (DeepSeek-V2/V3): the compressed KV latent's width d_c, which the KV cache holds"),
      count("model", "qk_rope_head_dim", "MLA: the decoupled RoPE key's width d_h^R, cached beside the latent"),
      // [training]
      amount("training", "tokens", "training tokens D", {tokens}, "tokens", true),
      choice("training", "precision", "compute precision; selects the catalog peak; default bf16",
             compute_precisions),
      choice("training", "optimizer", "sets the model-state bytes per parameter",
             {"adamw", "adam", "sgd", "adafactor", "lion"}),
      amount("training", "bytes_per_param", "model-state bytes per parameter (overrides optimizer)",
             {bytes}, "bytes"),
      amount("training", "seq_len", "sequence length S", {tokens}, "tokens"),
      batch(amount("training", "micro_batch", "micro-batch size b per GPU", {sequences}, "sequences")),
      batch(amount("training", "global_batch", "global batch per optimizer step, in sequences or tokens",
                   {sequences, tokens}, "sequences")),
      degree("training", "tp", "tensor parallel degree; default 1"),
      degree("training", "pp", "pipeline parallel degree; default 1"),
      degree("training", "virtual_stages",
             "model chunks per GPU of an interleaved pipeline schedule (Megatron-LM's virtual "
             "pipeline stages, v); the bubble is (pp − 1) / (v · m); default 1"),
      degree("training", "dp", "data parallel degree; default cluster.count / (tp · pp · cp)"),
      degree("training", "cp", "context parallel degree; default 1"),
      degree("training", "ep", "expert parallel degree; default 1"),
      flag("training", "sequence_parallel", "sequence parallelism; default true when tp > 1"),
      KeySpec{"training", "zero", K::whole, "ZeRO / FSDP sharding stage over dp; default 0", {none},
              "stage", 1, {}, false, 0, 3},
      choice("training", "recompute", "activation recomputation; default selective",
             {"none", "selective", "full"}),
      flag("training", "flash_attention", "attention scores are not stored; default true"),
      flag("training", "dropout",
           "the model trains with dropout, whose 1-byte masks are stored for the backward pass "
           "(GPT-3, Megatron-LM's GPT); false for models trained without it (Llama, Mistral); default true"),
      count("training", "first_stage_layers",
            "transformer layers on the first pipeline stage (Megatron-LM's "
            "--decoder-first-pipeline-num-layers); default layers / pp"),
      amount("training", "activation_memory", "measured activation memory per GPU", {bytes}, "bytes"),
      fraction("training", "mfu", "model FLOPs utilisation assumed"),
      flag("training", "mfu_counts_attention",
           "training.mfu counts the attention FLOPs (PaLM's and Megatron-LM's MFU do): time and cost "
           "divide (6 · N_a + 12 · L · h · S) · D by it; false: it was measured against 6 · N_a · D"),
      flag("training", "mfu_counts_recompute",
           "training.mfu counts full recomputation's second forward pass (a hardware FLOPs utilisation, "
           "8 · N a token): with recompute = \"full\", time and cost divide 4/3 of the model FLOPs by it; "
           "false: it is model FLOPs utilisation"),
      fraction("training", "goodput", "useful fraction of wall time"),
      KeySpec{"training", "schedule_margin", K::quantity,
              "multiplier from wall time to the committed schedule (1.2–1.3 typical)", {none},
              "factor", 1, {}, false, 1, huge},
      time("training", "checkpoint_interval", "how often a checkpoint is written"),
      time("training", "checkpoint_write_time", "how long one checkpoint write stalls training"),
      count("training", "lora_rank", "finetune: LoRA rank"),
      choice("training", "quantized_base", "finetune: precision of the frozen base (int4 for QLoRA)",
             {"bf16", "fp16", "fp8", "int8", "int4"}),
      // [inference]
      choice("inference", "weights", "weight precision; default bf16", {"bf16", "fp16", "fp8", "int8", "int4"}),
      choice("inference", "kv_precision", "KV cache precision; default bf16", {"bf16", "fp16", "fp8", "int8"}),
      amount("inference", "context", "tokens per sequence held in the KV cache", {tokens}, "tokens"),
      amount("inference", "prompt_tokens", "prompt tokens per request", {tokens}, "tokens"),
      amount("inference", "output_tokens", "generated tokens per request", {tokens}, "tokens"),
      batch(amount("inference", "concurrency", "concurrent sequences one replica must hold", {sequences},
                   "sequences")),
      amount("inference", "mean_concurrency", "mean concurrent sequences of the demand", {sequences},
             "sequences"),
      KeySpec{"inference", "peak_factor", K::quantity, "peak demand / mean demand (3–5 typical)",
              {none}, "factor", 1, {}, false, 1, huge},
      degree("inference", "tp", "GPUs per replica; default 1"),
      count("inference", "replicas", "model replicas; default cluster.count / tp"),
      choice("inference", "batching", "default continuous", {"static", "continuous"}),
      time("inference", "sla_ttft", "P99 time-to-first-token objective"),
      time("inference", "sla_itl", "P99 inter-token latency objective"),
      amount("inference", "tokens_per_s", "claimed per-sequence decode speed", {tokens_per_second},
             "tokens/s"),
      KeySpec{"inference", "mfu", K::quantity, "prefill MFU assumed for TTFT; default 50%", {none},
              "fraction", 1, {}, false, 0, 1, true},
      KeySpec{"inference", "tokens_per_step", K::quantity,
              "tokens one decode step emits per sequence: 1, or with speculative decoding 1 + the mean "
              "accepted draft tokens; default 1",
              {none}, "factor", 1, {}, false, 1, 16},
      // [cluster]
      KeySpec{"cluster", "gpu", K::string, "catalog id of the accelerator, e.g. h100-sxm", {}, {}, 1,
              {}, true},
      amount("cluster", "count", "GPUs in the job or service", {gpus}, "GPUs", true),
      amount("cluster", "gpus_per_node", "GPUs per node; default 8", {gpus}, "GPUs"),
      amount("cluster", "peak", "peak FLOP/s per GPU the plan uses", {flop_per_second}, "FLOP/s"),
      amount("cluster", "hbm", "memory per GPU; default from the catalog", {bytes}, "bytes"),
      amount("cluster", "hbm_bandwidth", "memory bandwidth per GPU; default from the catalog",
             {bytes_per_second, bits_per_second}, "bytes/s"),
      amount("cluster", "intra_node_bandwidth", "per-GPU NVLink-class bandwidth; default from the catalog",
             {bytes_per_second, bits_per_second}, "bytes/s"),
      amount("cluster", "inter_node_bandwidth", "per-GPU network bandwidth",
             {bytes_per_second, bits_per_second}, "bytes/s"),
      KeySpec{"cluster", "price", K::quantity, "USD per GPU-hour", {usd_per_gpu_second},
              "USD per GPU-hour", 1.0 / 3600, {}, false, 0, huge},
      time("cluster", "node_mtbf", "mean time between failures of one node"),
      KeySpec{"cluster", "memory_reserve", K::quantity,
              "reserve for fragmentation and buffers, a fraction of the memory used (training, inference "
              "memory) or of HBM (inference concurrency); default 10%", {none},
              "fraction", 1, {}, false, 0, 1, false},
      // [[targets]]
      text("targets", "name", "what the target is called", true),
      KeySpec{"targets", "metric", K::metric, "the metric the target bounds", {}, {}, 1, {}, true},
      KeySpec{"targets", "max", K::any_quantity, "upper bound, in the metric's dimension"},
      KeySpec{"targets", "min", K::any_quantity, "lower bound, in the metric's dimension"},
      flag("targets", "hard", "a hard target is an error when violated, a soft one a warning; default true"),
      // [[assumptions]]
      text("assumptions", "id", "unique id of the assumption", true),
      KeySpec{"assumptions", "key", K::plan_key, "the plan key it justifies, e.g. training.mfu"},
      KeySpec{"assumptions", "value", K::any_quantity, "the assumed value"},
      KeySpec{"assumptions", "low", K::any_quantity, "low end of the plausible range"},
      KeySpec{"assumptions", "high", K::any_quantity, "high end of the plausible range"},
      text("assumptions", "source", "where the number comes from"),
      date("assumptions", "updated", "when the assumption was last checked"),
      // [[benchmarks]]
      KeySpec{"benchmarks", "metric", K::metric, "the metric measured", {}, {}, 1, {}, true},
      KeySpec{"benchmarks", "value", K::any_quantity, "the measured value", {}, {}, 1, {}, true},
      date("benchmarks", "date", "when it was measured"),
      text("benchmarks", "source", "where it was measured"),
      // [tolerances]
      fraction("tolerances", "capacity", "tolerance of capacity metrics; default 15%"),
      fraction("tolerances", "cost", "tolerance of cost metrics; default 30%"),
      fraction("tolerances", "formula_vs_benchmark", "formula vs benchmark tolerance; default 25%"),
  };
}
}  // namespace

std::span<const SectionSpec> plan_sections() { return all_sections; }

const SectionSpec* find_section(std::string_view name) {
  for (const SectionSpec& section : all_sections)
    if (section.name == name) return &section;
  return nullptr;
}

namespace {
/// make_keys() with each key's section_index and index_in_section set.
std::vector<KeySpec> placed_keys() {
  std::vector<KeySpec> keys = make_keys();
  std::size_t keys_in[plan_section_count] = {};
  for (KeySpec& key : keys) {
    const SectionSpec* section = find_section(key.section);
    if (!section) throw std::logic_error("plan key of no section: " + std::string(key.section));
    const auto index = static_cast<std::size_t>(section - all_sections);
    if (keys_in[index] == max_section_keys)
      throw std::logic_error("more than max_section_keys keys in [" + std::string(key.section) + "]");
    key.section_index = static_cast<std::uint8_t>(index);
    key.index_in_section = static_cast<std::uint8_t>(keys_in[index]++);
  }
  return keys;
}
}  // namespace

const std::vector<KeySpec>& plan_keys() {
  static const std::vector<KeySpec> keys = placed_keys();
  return keys;
}

const KeySpec* find_key(std::string_view section, std::string_view key) {
  // Each section's keys by their own names, which mostly fit the index's 16 compared bytes
  // where "section.key" joined did not: the loader looks up every key of every plan this way.
  static const std::array<std::vector<const KeySpec*>, plan_section_count> keys = [] {
    std::array<std::vector<const KeySpec*>, plan_section_count> of_section;
    for (const KeySpec& spec : plan_keys()) of_section[spec.section_index].push_back(&spec);
    return of_section;
  }();
  static const std::vector<NameIndex<const KeySpec*>> by_section = [] {
    std::vector<NameIndex<const KeySpec*>> indexes;
    for (const std::vector<const KeySpec*>& of_section : keys)
      indexes.emplace_back(of_section, [](const KeySpec* spec) { return spec->key; });
    return indexes;
  }();
  const SectionSpec* found = find_section(section);
  if (!found) return nullptr;
  const KeySpec* const* spec = by_section[static_cast<std::size_t>(found - all_sections)].find(key);
  return spec ? *spec : nullptr;
}

const KeySpec* find_key(std::string_view dotted_path) {
  // No section or key holds a '.' (a test checks): a path splits at its first, and is looked
  // up in its section's index, with no index of all the paths beside them.
  const std::size_t dot = dotted_path.find('.');
  if (dot == std::string_view::npos) return nullptr;
  return find_key(dotted_path.substr(0, dot), dotted_path.substr(dot + 1));
}

const std::vector<std::string_view>& element_field_names() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> all;
    for (const KeySpec& key : plan_keys())
      if (all_sections[key.section_index].array && std::find(all.begin(), all.end(), key.key) == all.end())
        all.push_back(key.key);
    return all;
  }();
  return names;
}

std::span<const KeySpec* const> element_fields_of(const SectionSpec& section) {
  static const auto by_section = [] {
    const std::vector<std::string_view>& names = element_field_names();
    std::array<std::vector<const KeySpec*>, plan_section_count> table;
    for (std::vector<const KeySpec*>& row : table) row.assign(names.size(), nullptr);
    for (const KeySpec& key : plan_keys())
      if (all_sections[key.section_index].array)
        table[key.section_index][static_cast<std::size_t>(std::find(names.begin(), names.end(), key.key) - names.begin())] = &key;
    return table;
  }();
  if (!section.array) return {};
  return by_section[static_cast<std::size_t>(&section - all_sections)];
}

namespace {
/// Whether `key` is a key of a table, not a field of each element of an array of tables.
bool names_one_value(const KeySpec& key) { return !plan_sections()[key.section_index].array; }
}  // namespace

const KeySpec* find_value_key(std::string_view dotted_path) {
  const KeySpec* key = find_key(dotted_path);
  return key && names_one_value(*key) ? key : nullptr;
}

const std::vector<std::string>& value_key_paths() {
  static const std::vector<std::string> paths = [] {
    std::vector<std::string> all;
    for (const KeySpec& key : plan_keys())
      if (names_one_value(key)) all.push_back(std::string(key.section) + "." + std::string(key.key));
    return all;
  }();
  return paths;
}

std::string element_field_refusal(std::string_view dotted_path) {
  const KeySpec* key = find_key(dotted_path);
  if (!key || names_one_value(*key)) return {};
  return "the " + std::string(key->key) + " field of every [[" + std::string(key->section) +
         "]] entry, not one plan value";
}

std::vector<std::string_view> keys_of(std::string_view section) {
  std::vector<std::string_view> keys;
  for (const KeySpec& spec : plan_keys())
    if (spec.section == section) keys.push_back(spec.key);
  return keys;
}

}  // namespace planlint
