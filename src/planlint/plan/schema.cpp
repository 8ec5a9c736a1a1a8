/// The plan format's sections and keys: one row per key, with everything planlint and its docs
/// say about it (docs/development.md, "Adding a plan key").
#include "planlint/plan/schema.hpp"

#include <iterator>
#include <stdexcept>
#include <string>

#include "planlint/plan/key_rows.hpp"

namespace planlint {

namespace {
using namespace key_rows;

constexpr SectionSpec all_sections[] = {
    {"plan", false, true, "what the plan is and who answers for it"},
    {"model", false, true, "the model being trained or served"},
    {"training", false, false, "the training run (kind = training or finetune)"},
    {"inference", false, false, "the inference service (kind = inference)"},
    {"cluster", false, true, "the accelerators and their network"},
    {"capacity", true, false, "the capacity bought as a mix: reserved, on-demand and preemptible slices of the job's GPUs, each with its share, price and goodput"},
    {"targets", true, false, "goals with hard and soft constraints"},
    {"assumptions", true, false, "the assumption list, with sources and ranges"},
    {"estimates", false, false, "what the document claims, by metric name"},
    {"benchmarks", true, false, "measured results"},
    {"tolerances", false, false, "overrides of the tolerance tiers"},
    {"stages", true, false, "the run's stages in order, each the plan with its own training keys and GPU count"},
};
static_assert(std::size(all_sections) == plan_section_count);

const std::vector<std::string_view> compute_precisions = {"fp32", "tf32", "bf16", "fp16", "fp8", "fp6", "fp4"};
// Stored precisions of weights and KV caches: the plain 4- and 6-bit names count the elements
// alone, the block-scaled formats their scales too (docs/estimates.md, "Bytes per element").
const std::vector<std::string_view> weight_precisions = {"bf16", "fp16",  "fp8",   "int8",  "int4",
                                                         "fp6",  "mxfp6", "fp4",   "nvfp4", "mxfp4"};
const std::vector<std::string_view> kv_precisions = {"bf16", "fp16", "fp8", "int8", "fp6", "mxfp6", "fp4", "nvfp4", "mxfp4"};

// Keys whose rows plan-format.md shows as one (`max` / `min`) share their doc.
constexpr std::string_view target_bound_doc =
    "the upper (`max`) or lower (`min`) bound, in the metric's dimension; exactly one of the two "
    "(both is a `bad-value` error, neither `missing-required`)";
constexpr std::string_view assumed_range_doc =
    "the assumed value and its plausible range, `low ≤ value ≤ high`, in the key's dimension";

std::vector<KeySpec> make_keys() {
  return {
      // [plan]
      text("plan", "name", "identifier shown in reports").required()
          .doc("identifier shown in reports and SARIF results"),
      choice("plan", "kind", "which estimates and rules apply", {"training", "finetune", "inference"}).required()
          .doc("which estimates and rules apply; `finetune` uses the training estimates"),
      text("plan", "owner", "who answers for the plan"),
      date("plan", "updated", "when the numbers were last reviewed")
          .doc("when the numbers were last reviewed; `plan-stale` notes plans older than 180 days"),
      choice("plan", "status", "review state; governance rules may be stricter for approved",
             {"draft", "review", "approved"})
          .doc("review state; governance rules may be stricter for `approved`"),
      date("plan", "start", "when the plan's GPUs are first needed")
          .doc("when the plan's GPUs are first needed: a training run's first day, a service's launch; the HTML "
               "report adds up the GPUs of plans that run at the same time"),
      // [model]
      count("model", "params", "total parameters N", "parameters").required().doc(R"(total parameters N (`"70B"`))"),
      count("model", "active_params", "parameters active per token (MoE)", "parameters")
          .doc("parameters active per token (MoE); compute uses N_a, memory uses N")
          .derived("`params`", {"model.params"}),
      count("model", "layers", "transformer layers L"),
      count("model", "hidden", "model width d_model").doc("model width d_model (h)"),
      count("model", "heads", "attention heads a").doc("attention (query) heads a"),
      count("model", "kv_heads", "key/value heads (GQA/MQA)")
          .doc("key/value heads for GQA (8 for Llama-3-70B) or MQA (1); sizes the KV cache")
          .derived("`heads` (no GQA)", {"model.heads"}),
      count("model", "head_dim", "dimension of one head").derived("`hidden / heads`", {"model.hidden", "model.heads"}),
      count("model", "vocab", "vocabulary size"),
      flag("model", "tied_embeddings", "the output layer shares the input embedding's matrix")
          .doc("the output layer shares the input embedding's V × h matrix (GPT-3, Gemma, Llama 3.2 1B/3B); "
               "counted once in `model.structure_params`, twice when `false` (Llama 3 8B–405B, Mistral, DeepSeek)")
          .fixed_flag(false),
      choice("model", "architecture", "dense or mixture of experts", {"dense", "moe"})
          .doc(R"(dense or mixture of experts; `"moe"` requires `active_params` (else `missing-required`))")
          .fixed_choice("dense"),
      choice("model", "mlp",
             "MLP kind: gelu (two matrices; GPT, BERT), or gated with three matrices: swiglu (Llama, Mistral, "
             "Qwen), geglu (Gemma); sizes the MLP's activations and parameters",
             {"gelu", "swiglu", "geglu"})
          .doc("MLP kind: GeLU (two matrices; GPT-3), or a gated MLP of three: SwiGLU (Llama, Mistral, Qwen), "
               "GeGLU (Gemma); sizes the MLP's activations and parameters (docs/estimates.md, \"Activations\", "
               "\"Parameters from the structure\")")
          .fixed_choice("gelu"),
      count("model", "ffn_hidden", "MLP inner width F")
          .doc("MLP inner width F (53248 for Llama 3 405B)")
          .derived("4 · `hidden` (gelu), 8 · `hidden` / 3 (swiglu, geglu)", {"model.hidden", "model.mlp"}),
      count("model", "experts", "MoE: routed experts per MoE layer E (256 for DeepSeek-V3)")
          .doc("MoE: routed experts per MoE layer E (8 for Mixtral, 256 for DeepSeek-V3); with "
               "`experts_per_token` it splits the parameters into routed experts and the rest (`train.moe.*`), "
               "which expert parallelism shards differently"),
      count("model", "experts_per_token", "MoE: routed experts each token is sent to, k (top-k routing)")
          .doc("MoE: routed experts a token is sent to, k (top-k routing); sizes the all-to-all"),
      whole_number("model", "shared_experts",
                   "MoE: shared experts every token passes through, counted with the dense parameters", "count", huge)
          .doc("MoE: experts every token passes through (DeepSeek's 1); counted with the dense parameters")
          .fixed(0)
          .when("when `experts` is stated"),
      count("model", "expert_ffn_hidden", "MoE: MLP inner width of one expert F_e")
          .doc(R"(MoE: MLP inner width of one expert F_e; the routed experts then hold `moe_layers` · E · m · h · F_e )"
               R"(parameters (m = 3 matrices for `mlp = "swiglu"`, 2 for gelu), and `moe-active-params` checks )"
               "`active_params` against them"),
      count("model", "moe_layers", "MoE: layers whose MLP is a mixture of experts")
          .doc("MoE: layers whose MLP is a mixture of experts (58 of DeepSeek-V3's 61)")
          .derived("`layers` (when `experts` is stated)", {"model.layers"}),
      count("model", "kv_lora_rank",
            "MLA (DeepSeek-V2/V3): the compressed KV latent's width d_c, which the KV cache holds")
          .doc("MLA (DeepSeek-V2/V3): width d_c of the compressed KV latent; the KV cache is then (d_c + "
               "`qk_rope_head_dim`) · L elements a token, held whole on every GPU of a tensor-parallel group (divided "
               "over the ranks of `inference.dp_attention`)"),
      count("model", "q_lora_rank", "MLA: the compressed query latent's width d_c'")
          .doc("MLA: width d_c' of the compressed query latent (1536 for DeepSeek-V3, none for DeepSeek-V2-Lite, "
               "whose queries are projected directly); sizes the attention's parameters"),
      count("model", "qk_rope_head_dim", "MLA: the decoupled RoPE key's width d_h^R, cached beside the latent")
          .doc("MLA: width d_h^R of the decoupled RoPE key cached beside the latent (64 for DeepSeek-V2/V3)"),
      count("model", "qk_head_dim", "width of one head's queries and keys, d_qk (MLA: wider than its values)")
          .doc("width of one head's queries and keys, d_qk, where it differs from the values' (MLA: DeepSeek-V3's "
               "192 = 128 + 64 RoPE); with `v_head_dim` it sizes the attention FLOPs, a · (d_qk + d_v) a key "
               "(docs/estimates.md, \"Attention\")")
          .derived("`head_dim`"),
      count("model", "v_head_dim", "width of one head's values, d_v")
          .doc("width of one head's values, d_v (DeepSeek-V3's 128); sizes the attention FLOPs with `qk_head_dim`")
          .derived("`head_dim`"),
      amount("model", "sliding_window", "tokens a sliding-window (local) attention layer attends, W", {tokens},
             "tokens")
          .doc("tokens a sliding-window (local) attention layer attends and caches, W: 4096 for Mistral 7B v0.1 "
               "and Gemma 2, 1024 for Gemma 3; such a layer's KV cache and attention FLOPs count min(context, W) "
               "tokens (docs/estimates.md, \"Attention\")"),
      whole_number("model", "global_layers",
                   "layers with full (global) attention beside the sliding-window ones", "count", huge)
          .doc("layers with full (global) attention; the other `layers` − `global_layers` attend `sliding_window` "
               "tokens. Gemma 2 27B alternates them (23 of 46), Gemma 3 27B has 5 local to 1 global (10 of 62), "
               "Mistral 7B v0.1 windows every layer (0)")
          .fixed(0)
          .when("when `sliding_window` is stated"),
      amount("model", "max_context", "longest sequence the model takes, in tokens", {tokens}, "tokens")
          .doc("longest sequence the model takes (its model card's context length: 8192 for Gemma 2, 131072 for "
               "Gemma 3 27B); `context-beyond-max` reports a `training.seq_len`, `inference.context` or "
               "`inference.prompt_tokens` above it"),
      // [training]
      amount("training", "tokens", "training tokens D", {tokens}, "tokens").required()
          .doc(R"(training tokens D (`"15T"`))"),
      choice("training", "precision", "compute precision; selects the catalog peak", compute_precisions)
          .doc("compute precision; selects the catalog's dense peak")
          .derived(R"(`"bf16"` (`"fp16"` on a GPU without BF16 tensor cores, a V100))"),
      choice("training", "optimizer", "sets the model-state bytes per parameter",
             {"adamw", "adam", "sgd", "adafactor", "lion"})
          .doc("sets the model-state bytes per parameter (mixed-precision AdamW: 2 weights + 2 gradients + 12 "
               "optimizer = 16)")
          .fixed_choice("adamw"),
      amount("training", "bytes_per_param", "model-state bytes per parameter (overrides optimizer)", {bytes}, "bytes")
          .doc("explicit model-state bytes per parameter (`0.6` for a QLoRA base); overrides `optimizer`")
          .derived("from `optimizer`"),
      amount("training", "seq_len", "sequence length S", {tokens}, "tokens"),
      amount("training", "micro_batch", "micro-batch size b per GPU", {sequences}, "sequences").whole_sequences(),
      amount("training", "global_batch", "global batch per optimizer step, in sequences or tokens",
             {sequences, tokens}, "sequences")
          .whole_sequences()
          .doc(R"(global batch per optimizer step: sequences (`2048`, `"2048 seq"`) or tokens (`"4M tokens"`))"),
      degree("training", "tp", "tensor parallel degree").doc("tensor-parallel degree t").fixed(1),
      degree("training", "pp", "pipeline parallel degree").doc("pipeline-parallel degree p").fixed(1),
      degree("training", "virtual_stages",
             "model chunks per GPU of an interleaved pipeline schedule (Megatron-LM's virtual pipeline stages, v); "
             "the bubble is (pp − 1) / (v · m)")
          .doc("model chunks per GPU of an interleaved pipeline schedule (Megatron-LM's virtual pipeline stages, "
               "v): each GPU holds v chunks of L / (p · v) layers, and the bubble is (p − 1) / (v · m) "
               "(`train.pipeline_bubble`); 1 is the plain 1F1B schedule")
          .fixed(1),
      choice("training", "offload", "model states or activations kept in host memory",
             {"none", "optimizer", "activations", "optimizer+activations"})
          .doc("what is kept in the host CPU's memory and moved over `cluster.host_bandwidth` each step: "
               "`optimizer` (ZeRO-Offload: the gradients and optimizer states, the step run on the CPU; HBM keeps "
               "the 16-bit weights), `activations` (each layer's stored activations, sent to the host after its "
               "forward pass and fetched for its backward), or both")
          .fixed_choice("none"),
      choice("training", "pipeline_schedule", "pipeline schedule",
             {"1f1b", "zb-h1", "zb-h2", "zb-v", "dualpipe"})
          .doc("pipeline schedule: `1f1b` (one forward, one backward; interleaved with `virtual_stages`), the "
               "zero-bubble schedules that split the backward into input and weight gradients (Qi et al. 2024): "
               "`zb-h1` (a third of 1F1B's bubble at its memory), `zb-h2` (no bubble, (2p − 1)/p of its "
               "activations), `zb-v` (no bubble, two chunks a GPU, 1F1B's memory), and `dualpipe` (DeepSeek-V3's "
               "bidirectional schedule: (p − 2)/(3m) bubble, two copies of the parameters, p + 1 micro-batches' "
               "activations; p even)")
          .fixed_choice("1f1b"),
      degree("training", "dp", "data parallel degree")
          .doc("data-parallel degree")
          .derived("`cluster.count / (tp · pp · cp)`; when that is not a whole number, a `bad-value` error on "
                   "`cluster.count`",
                   {"cluster.count", "training.tp", "training.pp", "training.cp"}),
      degree("training", "cp", "context parallel degree").doc("context-parallel degree").fixed(1),
      degree("training", "ep", "expert parallel degree")
          .doc("expert-parallel degree (MoE): the routed experts are split over ep ranks of dp (each holds E / ep "
               "of them), ZeRO shards them over the dp / ep ranks that hold the same ones, and every MoE layer runs "
               "an all-to-all across the ep group (`train.comm.alltoall_*`)")
          .fixed(1),
      flag("training", "sequence_parallel", "sequence parallelism")
          .doc("Megatron sequence parallelism; divides the non-tensor-parallel activations by t")
          .derived("`true` when `tp > 1`", {"training.tp"}),
      whole_number("training", "zero", "ZeRO / FSDP sharding stage over dp", "stage", 3)
          .doc("ZeRO / FSDP stage over dp: 1 shards optimizer states, 2 also gradients, 3 also weights")
          .fixed(0),
      choice("training", "recompute", "activation recomputation", {"none", "selective", "full"})
          .fixed_choice("selective"),
      flag("training", "flash_attention", "attention scores are not stored")
          .doc("attention scores are not stored (drops the 5·a·S/h activation term)")
          .fixed_flag(true),
      flag("training", "dropout",
           "the model trains with dropout, whose 1-byte masks are stored for the backward pass (GPT-3, Megatron-LM's "
           "GPT); false for models trained without it (Llama, Mistral)")
          .doc("the model trains with dropout, whose 1-byte masks are kept for the backward pass (GPT-3, "
               "Megatron-LM's GPT); `false` for models trained without it (Llama, Mistral): 2 bytes · S·b·h a "
               "layer fewer")
          .fixed_flag(true),
      count("training", "first_stage_layers",
            "transformer layers on the first pipeline stage (Megatron-LM's --decoder-first-pipeline-num-layers)")
          .doc("transformer layers on the first pipeline stage (Megatron-LM's "
               "`--decoder-first-pipeline-num-layers`); with 1F1B that stage holds pp micro-batches of them")
          .derived("`layers / pp`"),
      amount("training", "activation_memory", "measured activation memory per GPU", {bytes}, "bytes")
          .doc("measured activation memory per GPU; replaces the Korthikanti estimate")
          .derived("from the formula"),
      fraction("training", "mfu", "model FLOPs utilisation assumed")
          .doc("model FLOPs utilisation assumed, against 6·N_a·D and the dense peak"),
      flag("training", "mfu_counts_attention",
           "training.mfu counts the attention FLOPs (PaLM's and Megatron-LM's MFU do): time and cost divide "
           "(6 · N_a + train.attention_flops_per_token) · D by it; false: it was measured against 6 · N_a · D")
          .doc("which basis `mfu` is on. `true`: it counts the attention FLOPs, `train.attention_flops_per_token` "
               "(12·L·h·S a token, counted as `attention_flops` says), as PaLM's and Megatron-LM's MFU do, and the "
               "GPU time divides (6·N_a + that)·D by it (needs `model.layers`, `model.hidden`, `training.seq_len`); "
               "`false`: it was measured against 6·N_a·D alone. Unstated, the time divides 6·N_a·D by it, and "
               "`attention-flops` asks when the attention is more than the cost tolerance"),
      choice("training", "attention_flops",
             "how the attention FLOPs are counted: full (every key, PaLM and Megatron-LM) or causal (the keys "
             "before each token, half: MaxText, FlashAttention)",
             {"full", "causal"})
          .doc("how `train.attention_flops_per_token` counts the attention's scores and weighted values: `full`, "
               "every key of the sequence for every query (PaLM's 12 · L · H · Q · T, Megatron-LM's formula), or "
               "`causal`, only the keys before each query, half of it (MaxText's MFU, FlashAttention's "
               "benchmarks). State the counting of the MFU or per-token FLOPs the plan quotes")
          .fixed_choice("full"),
      flag("training", "mfu_counts_recompute",
           "training.mfu counts full recomputation's second forward pass (a hardware FLOPs utilisation, 8 · N a "
           "token): with recompute = \"full\", time and cost divide 4/3 of the model FLOPs by it; false: it is "
           "model FLOPs utilisation")
          .doc("whether `mfu` counts full recomputation's second forward pass (a hardware FLOPs utilisation: the "
               "hardware runs 8·N_a a token where the model FLOPs count 6·N_a). `true` with "
               R"(`recompute = "full"`: the GPU time and the step time divide 4/3 of the model FLOPs by it )"
               "(Narayanan et al. 2021 §5.1); with selective or no recomputation it changes nothing. `false` or "
               "unstated: `mfu` is model FLOPs utilisation; `recompute-flops` asks when the recomputation is full"),
      fraction("training", "goodput", "useful fraction of wall time")
          .doc("useful fraction of wall time (failures, restarts, checkpoint stalls)"),
      factor("training", "schedule_margin", "multiplier from wall time to the committed schedule (1.2–1.3 typical)"),
      time("training", "checkpoint_interval", "how often a checkpoint is written")
          .doc(R"(how often a checkpoint is written (`"1 h"`))"),
      time("training", "checkpoint_write_time", "how long one checkpoint write stalls training")
          .doc(R"(how long one checkpoint write stalls training (`"60 s"`))"),
      count("training", "lora_rank", "finetune: LoRA rank").doc("finetune: LoRA rank r"),
      choice("training", "lora_targets", "finetune: the matrices LoRA adapts", {"all-linear", "attention", "qv"})
          .doc("finetune: the matrices that carry LoRA adapters, each r · (d_in + d_out) parameters: `all-linear` "
               "(every attention and MLP projection, QLoRA's setting and PEFT's name for it), `attention` (the query, "
               "key, value and output projections), `qv` (the query and value projections, Hu et al. 2021)")
          .fixed_choice("all-linear")
          .when("with `lora_rank`"),
      choice("training", "quantized_base", "finetune: precision of the frozen base (int4 for QLoRA)", weight_precisions)
          .doc("finetune: precision of the frozen base (`int4` for QLoRA)"),
      // [inference]
      choice("inference", "weights", "weight precision", weight_precisions)
          .doc("weight precision (bytes per element: 2, 2, 1, 1, 0.5; `fp6` 0.75, `mxfp6` 0.78125, `fp4` 0.5, "
               "`nvfp4` 0.5625 and `mxfp4` 0.53125 with their block scales); `fp8`, the FP6 and the FP4 formats also "
               "select that peak for prefill on a GPU that has one")
          .fixed_choice("bf16"),
      choice("inference", "kv_precision", "KV cache precision", kv_precisions)
          .doc("KV-cache precision, in the bytes per element of `weights`")
          .fixed_choice("bf16"),
      amount("inference", "context", "tokens per sequence held in the KV cache", {tokens}, "tokens")
          .doc("tokens per sequence held in the KV cache (prompt + generated)"),
      amount("inference", "prompt_tokens", "prompt tokens per request", {tokens}, "tokens"),
      amount("inference", "output_tokens", "generated tokens per request", {tokens}, "tokens"),
      amount("inference", "concurrency", "concurrent sequences one replica must hold", {sequences}, "sequences")
          .whole_sequences(),
      amount("inference", "mean_concurrency", "mean concurrent sequences of the demand", {sequences}, "sequences")
          .doc("mean concurrent sequences of the demand (whole service)"),
      factor("inference", "peak_factor", "peak demand / mean demand (3–5 typical)"),
      degree("inference", "tp", "tensor-parallel GPUs of a replica's pipeline stage")
          .doc("tensor-parallel degree of a replica: the GPUs of one pipeline stage, which split its weights and "
               "KV heads (with `dp_attention`, its attention ranks); a replica is tp · pp GPUs")
          .fixed(1),
      degree("inference", "pp", "pipeline stages of a replica, each of tp GPUs")
          .doc("pipeline stages of a replica: its layers split into pp stages of tp GPUs each, which divides the "
               "weights and the KV cache a GPU holds by pp (vLLM's and SGLang's `--pipeline-parallel-size`); one "
               "sequence still passes every stage in turn, so the single-sequence decode bound does not gain from "
               "it")
          .fixed(1),
      degree("inference", "ep", "expert-parallel degree of an MoE replica's stage, dividing tp")
          .doc("MoE: the routed experts of a stage split over ep of its tp GPUs, each holding E / ep whole experts "
               "(tensor-parallel over the other tp / ep: TensorRT-LLM's `moe_expert_parallel_size`, SGLang's "
               "`--ep-size`; vLLM's `--enable-expert-parallel` is ep = tp). The experts take N_e / (tp · pp) of a "
               "GPU either way; the largest tensor-parallel group left, tp / ep, is what `tp-across-nodes` checks. "
               "Must divide tp, and needs `model.architecture = \"moe\"` (else `bad-value`)")
          .fixed(1),
      degree("inference", "dp_attention", "attention data-parallel ranks of a stage's tp GPUs (DP attention)")
          .doc("data-parallel attention: a stage's tp GPUs form dp_attention ranks of tp / dp_attention GPUs, each "
               "running the attention of its own sequences (SGLang's `--enable-dp-attention --dp N`, TensorRT-LLM's "
               "`enable_attention_dp` with N = tp, vLLM's `--data-parallel-size` with expert parallelism). A rank "
               "holds its sequences' KV cache only, so an MLA cache that tensor parallelism keeps whole on every "
               "GPU divides by N; each rank holds its own copy of the weights outside the routed experts (of an "
               "MoE model, told from them by `model.experts` and `experts_per_token`). Must divide tp (else "
               "`bad-value`)")
          .fixed(1),
      count("inference", "replicas", "model replicas")
          .derived("`floor(cluster.count / (tp · pp))`", {"cluster.count", "inference.tp", "inference.pp"}),
      choice("inference", "batching", "batching policy", {"static", "continuous"}).fixed_choice("continuous"),
      time("inference", "sla_ttft", "P99 time-to-first-token objective"),
      time("inference", "sla_itl", "P99 inter-token latency objective"),
      amount("inference", "tokens_per_s", "claimed per-sequence decode speed", {tokens_per_second}, "tokens/s")
          .doc("claimed per-sequence decode speed; `decode-bound` checks it"),
      fraction("inference", "mfu", "prefill MFU assumed for TTFT")
          .doc("prefill MFU used by the TTFT lower bound; state it (with an assumption) when your serving stack is "
               "measured lower or higher")
          .fixed(0.5),
      factor("inference", "tokens_per_step",
             "tokens one decode step emits per sequence: 1, or with speculative decoding 1 + the mean accepted "
             "draft tokens",
             16)
          .doc("tokens one decode step emits per sequence; with speculative decoding (EAGLE, Medusa, a draft "
               "model) 1 + the mean accepted draft tokens, 2–4 typical. A step reads the weights and KV cache once, "
               "so the decode bounds scale by it (docs/estimates.md)")
          .derived("1"),
      // [inference]: a disaggregated service's prefill pool
      text("inference", "prefill_gpu", "disaggregated: catalog id of the prefill pool's accelerator")
          .doc("disaggregated serving: catalog id of the prefill pool's accelerator. With it the service has a "
               "prefill pool of its own (DistServe, Splitwise, Mooncake; SGLang's and NVIDIA Dynamo's prefill and "
               "decode workers), which computes each prompt and sends its KV cache to the decode pool that "
               "`[cluster]` and the other `[inference]` keys describe; needs `prefill_count`. An unknown id is an "
               "`unknown-gpu` error"),
      amount("inference", "prefill_count", "disaggregated: GPUs of the prefill pool", {gpus}, "GPUs")
          .doc("disaggregated serving: GPUs of the prefill pool; `infer.cost_per_month` bills them beside "
               "`cluster.count`"),
      degree("inference", "prefill_tp", "disaggregated: tensor-parallel GPUs of a prefill replica's stage")
          .doc("disaggregated serving: a prefill replica's `tp`")
          .fixed(1)
          .when("with `prefill_gpu`"),
      degree("inference", "prefill_pp", "disaggregated: pipeline stages of a prefill replica")
          .doc("disaggregated serving: a prefill replica's `pp`")
          .fixed(1)
          .when("with `prefill_gpu`"),
      degree("inference", "prefill_ep", "disaggregated: expert-parallel degree of a prefill stage")
          .doc("disaggregated serving: a prefill stage's `ep`, dividing `prefill_tp`")
          .fixed(1)
          .when("with `prefill_gpu`"),
      degree("inference", "prefill_dp_attention", "disaggregated: attention data-parallel ranks of a prefill stage")
          .doc("disaggregated serving: a prefill stage's `dp_attention`, dividing `prefill_tp`")
          .fixed(1)
          .when("with `prefill_gpu`"),
      amount("inference", "prefill_hbm", "disaggregated: memory per prefill GPU", {bytes}, "bytes")
          .derived("the catalog entry of `prefill_gpu`"),
      amount("inference", "prefill_peak", "disaggregated: peak FLOP/s per prefill GPU", {flop_per_second}, "FLOP/s")
          .derived("the catalog's dense peak of `prefill_gpu` at the weights' compute precision"),
      // [cluster]
      text("cluster", "gpu", "catalog id of the accelerator, e.g. h100-sxm").required()
          .doc(R"(catalog id of the accelerator, e.g. `"h100-sxm"`, or a name or alias of the entry (`"H100"`: a )"
               "`gpu-alias` note names the id chosen); a name no entry answers to is an `unknown-gpu` error with a "
               "did-you-mean"),
      amount("cluster", "count", "GPUs in the job or service", {gpus}, "GPUs").required(),
      amount("cluster", "gpus_per_node", "GPUs per node (host)", {gpus}, "GPUs")
          .doc("GPUs per node: one host (an HGX baseboard's 8, a GB200 compute tray's 4, a TPU v5p host's 4), the "
               "unit that fails (`node_mtbf`), is priced (`price-per-node`) and holds the NICs; which traffic stays "
               "on the scale-up link is `scale_up_domain`'s")
          .fixed(8)
          .when("without a host in the catalog entry of `gpu`; with one, the host: 4 for `gb200` and `tpu-v5p`"),
      amount("cluster", "scale_up_domain", "GPUs per scale-up domain (NVLink, Infinity Fabric, ICI)", {gpus}, "GPUs")
          .doc("GPUs one scale-up domain joins: those one NVLink, Infinity Fabric or ICI fabric connects without a "
               "network card (72 in a GB200 NVL72 rack, 8 on an HGX H100 baseboard, a TPU slice's chips). Tensor, "
               "expert and data parallelism inside it run on `intra_node_bandwidth`; across domains on "
               "`inter_node_bandwidth`")
          .derived("min(`count`, the catalog entry's domain of `gpu`): a TPU slice is the job's chips, up to the "
                   "largest slice; without a domain in the entry, the host (`gpus_per_node`)",
                   {"cluster.count", "cluster.gpu", "cluster.gpus_per_node"}),
      amount("cluster", "peak", "peak FLOP/s per GPU the plan uses", {flop_per_second}, "FLOP/s")
          .doc("peak FLOP/s per GPU the plan uses; compared with the catalog (`sparse-peak`, `precision-peak`, "
               "`peak-mismatch`)")
          .derived("the catalog's dense peak of `gpu` at the compute precision"),
      amount("cluster", "hbm", "memory per GPU", {bytes}, "bytes").derived("the catalog entry of `gpu`"),
      bandwidth("cluster", "hbm_bandwidth", "memory bandwidth per GPU").derived("the catalog entry of `gpu`"),
      bandwidth("cluster", "intra_node_bandwidth", "per-GPU scale-up bandwidth (NVLink, Infinity Fabric, ICI)")
          .doc("per-GPU bandwidth of the scale-up link, both directions (NVLink 900 GB/s on an H100 SXM, ICI "
               "1200 GB/s on a TPU v5p): what traffic inside a scale-up domain runs at")
          .derived("the catalog entry of `gpu` (its scale-up link)"),
      amount("cluster", "host_memory", "host (CPU) memory per node", {bytes}, "bytes")
          .doc(R"(host (CPU) memory of one node of `gpus_per_node` GPUs (`"2 TB"` on a DGX H100): what )"
               "`training.offload` keeps there must fit it (`offload-host-memory`); no default, as hosts of the "
               "same GPU differ"),
      bandwidth("cluster", "host_bandwidth", "per-GPU bandwidth to host memory (PCIe, NVLink-C2C)")
          .doc("per-GPU bandwidth of the link to the host CPU's memory, both directions (PCIe Gen5 x16 128 GB/s "
               "on an H100 SXM, NVLink-C2C 900 GB/s on a GH200 or GB200): what `training.offload` moves at")
          .derived("the catalog entry of `gpu` (its host link)"),
      bandwidth("cluster", "inter_node_bandwidth", "per-GPU scale-out network bandwidth")
          .doc(R"(per-GPU bandwidth of the scale-out network between scale-up domains (`"400 Gbps"` = 50 GB/s, )"
               "one NIC per GPU)"),
      price("cluster", "USD per GPU-hour")
          .doc(R"(rental or amortised price (`"$3/GPU/h"`, `"3 USD/GPU-h"`, or `3`); a node's price )"
               R"((`"$14/node/h"`) is read divided by `gpus_per_node`, with a note (`node-price`); with )"
               "`[[capacity]]`, the price of a slice that states none"),
      time("cluster", "node_mtbf", "mean time between failures of one node")
          .doc(R"(mean time between failures of one node (host) of `gpus_per_node` GPUs (`"6300 h"`); )"
               "`checkpoint-interval` and `goodput-implausible` count the failures of the job's nodes with it"),
      fraction("cluster", "memory_reserve",
               "reserve for fragmentation and buffers, a fraction of the memory used (training, inference memory) "
               "or of HBM (inference concurrency)",
               true)
          .doc("reserve for allocator fragmentation and communication buffers, as a share of the memory a plan "
               "uses: `train.memory.reserve` and `infer.memory.total` add this fraction of the states and "
               "activations (training) or of the weights and KV cache (inference), so a plan fits while what it "
               "uses is at most HBM / (1 + reserve), 91% of HBM at 10%; `infer.max_concurrency` holds this "
               "fraction of HBM back, as serving engines' memory-utilisation setting does")
          .fixed(0.10),
      // [[capacity]]
      choice("capacity", "kind", "how the slice is bought", {"reserved", "on-demand", "preemptible"}).required()
          .doc("how the slice is bought: `reserved` (committed, cheapest dependable), `on-demand`, or `preemptible` "
               "(spot: cheapest, and reclaimed at the provider's will, which costs goodput)"),
      fraction("capacity", "share", "the slice's fraction of the job's GPUs").required()
          .doc(R"(the slice's fraction of the job's GPUs (`0.6` or `"60%"`); the slices' shares add up to 100% )"
               "(`capacity-shares`)"),
      price("capacity", "the slice's price, USD per GPU-hour")
          .doc(R"(the slice's price per GPU-hour, written as `cluster.price` is (`"$1.20/GPU/h"`; a node's )"
               R"(`"$9.60/node/h"` is read divided by `cluster.gpus_per_node`, with a `node-price` note))")
          .derived("`cluster.price`", {"cluster.price"}),
      fraction("capacity", "goodput", "useful fraction of the slice's wall time")
          .doc("useful fraction of wall time the job would have on this capacity alone: a preemptible slice's "
               "states its preemptions' loss (`preemptible-goodput`); `train.goodput` is the shares' weighted mean")
          .derived("`training.goodput`", {"training.goodput"}),
      // [[targets]]
      text("targets", "name", "what the target is called").required().doc("what the target is called in reports"),
      of_kind("targets", "metric", K::metric, "the metric the target bounds").required()
          .doc("a metric planlint computes, e.g. `train.days`, `cost.total`, `infer.max_concurrency`"),
      of_kind("targets", "max", K::any_quantity, "upper bound, in the metric's dimension").doc(target_bound_doc),
      of_kind("targets", "min", K::any_quantity, "lower bound, in the metric's dimension").doc(target_bound_doc),
      flag("targets", "hard", "a hard target is an error when violated, a soft one a warning")
          .doc("a hard target that the recomputed metric violates is an error (`hard-target-violated`), a soft "
               "one a warning")
          .fixed_flag(true),
      // [[assumptions]]
      text("assumptions", "id", "unique id of the assumption").required()
          .doc("a unique name for the assumption; a repeated id is a `bad-value` error"),
      of_kind("assumptions", "key", K::plan_key, "the plan key it justifies, e.g. training.mfu")
          .doc("the key it justifies, e.g. `training.mfu`, `training.goodput`, `cluster.price`, `inference.mfu`: a "
               "key of a table, or one `[[capacity]]` slice's `price` or `goodput`, the slice by what it is or by "
               "its place (`capacity[kind=preemptible].price`, `capacity[1].goodput`); not a field of every "
               "entry (`targets.max`, `capacity.price` are bad values)"),
      of_kind("assumptions", "value", K::any_quantity, "the assumed value").doc(assumed_range_doc),
      of_kind("assumptions", "low", K::any_quantity, "low end of the plausible range").doc(assumed_range_doc),
      of_kind("assumptions", "high", K::any_quantity, "high end of the plausible range").doc(assumed_range_doc),
      text("assumptions", "source", "where the number comes from")
          .doc("where the number comes from: benchmark, paper, vendor quote"),
      date("assumptions", "updated", "when the assumption was last checked")
          .doc("when it was last checked; `assumption-stale` warns after 180 days"),
      // [[benchmarks]]
      of_kind("benchmarks", "metric", K::metric, "the metric measured").required().doc("what was measured"),
      of_kind("benchmarks", "value", K::any_quantity, "the measured value").required()
          .doc("the measurement, in the metric's dimension"),
      date("benchmarks", "date", "when it was measured"),
      text("benchmarks", "source", "where it was measured").doc("where: run id, dashboard, report"),
      // [[stages]]: a stage's other keys are the [training] keys and cluster.count, read with
      // their own rows (loader.cpp, read_stage)
      text("stages", "name", "what the stage is called").required()
          .doc("what the stage is called (`\"pre-training\"`, `\"context-32k\"`), unique in the plan; findings and "
               "reports name the stage by it"),
      // [tolerances]
      fraction("tolerances", "capacity", "tolerance of capacity metrics")
          .doc("tolerance of capacity metrics (memory, bandwidth, concurrency)")
          .fixed(0.15),
      fraction("tolerances", "cost", "tolerance of cost metrics")
          .doc("tolerance of cost metrics (FLOPs, GPU-hours, days, cost)")
          .fixed(0.30),
      fraction("tolerances", "formula_vs_benchmark", "formula vs benchmark tolerance")
          .doc("allowed deviation of a benchmark from the formula")
          .fixed(0.25),
  };
}

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

std::span<const SectionSpec> plan_sections() { return all_sections; }

const std::vector<KeySpec>& plan_keys() {
  static const std::vector<KeySpec> keys = placed_keys();
  return keys;
}

}  // namespace planlint
