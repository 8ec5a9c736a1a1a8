#pragma once
/// The defaults of the plan keys, added to a loaded plan as values with Origin::default_ or
/// Origin::catalog (never with a plan span), so estimates and rules see one resolved plan. A
/// fixed default is the key's own (KeySpec::by_default, schema.cpp); a derived one is computed
/// here, from the keys its spec names.
#include <span>
#include <string_view>

#include "planlint/catalog/catalog.hpp"
#include "planlint/plan/plan.hpp"
#include "planlint/plan/value_reader.hpp"

namespace planlint {

/// The compute precision whose catalog peak applies: training.precision (default bf16); for
/// inference fp8, fp6 or fp4 when the weights are in that precision (weight_compute_precision)
/// and the GPU has its peak, else bf16, or fp16 on a GPU without BF16 (a V100) (int8/int4
/// weights, and fp8 weights on a GPU without an FP8 peak, as an A100, are weight-only
/// quantization that computes in 16 bits).
std::string compute_precision(const Plan& plan, const Catalog& catalog);
/// compute_precision of an inference plan on the accelerator at `gpu_path` ("inference.prefill_gpu").
std::string compute_precision(const Plan& plan, const Catalog& catalog, std::string_view gpu_path);

/// The tensor-core precision that inference.weights computes in where the GPU has its peak:
/// "fp8" → fp8, "fp6" and "mxfp6" → fp6, "fp4", "nvfp4" and "mxfp4" → fp4; none for the others.
std::optional<Precision> weight_compute_precision(std::string_view weights);

/// The scale-up domain a job of `count` GPUs gets when the plan does not state it: the catalog's
/// (`gpu`'s), or the host (`gpus_per_node`) without one; no more than the job's GPUs, so that a
/// TPU job's domain is its slice. None when neither is known.
std::optional<double> job_scale_up_domain(const GpuSpec* gpu, std::optional<double> gpus_per_node, double count);

/// Whether `model.mlp` names a gated MLP (SwiGLU, GeGLU: gate, up and down projections, three
/// matrices of h × F) rather than GeLU's two (Shazeer 2020, "GLU Variants Improve Transformer").
inline bool gated_mlp(std::string_view mlp) { return mlp == "swiglu" || mlp == "geglu"; }

/// Adds every default the plan does not state. Reports a cluster.count that does not divide
/// into tp · pp · cp (no data-parallel degree can be derived then).
void apply_defaults(Plan& plan, const Catalog& catalog, detail::Findings& findings);

/// The plan keys apply_defaults() computes the default of `key` from (model.active_params:
/// model.params; training.dp: cluster.count, training.tp, training.pp, training.cp), as its
/// spec names them; empty for a fixed default or a catalog figure. What a value a plan does not state rests on, so
/// that a slip in model.params is found behind a metric that reads model.active_params.
std::span<const std::string_view> default_sources(std::string_view key);

}  // namespace planlint
