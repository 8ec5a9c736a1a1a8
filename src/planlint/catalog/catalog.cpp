#include "planlint/catalog/catalog.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "planlint/catalog/gpu_names.hpp"
#include "planlint/embed/builtin.hpp"
#include "planlint/embed/embedded_files.hpp"

namespace planlint {

std::optional<Precision> parse_precision(std::string_view text) {
  for (Precision precision : all_precisions)
    if (to_string(precision) == text) return precision;
  return std::nullopt;
}

std::string_view to_string(Precision precision) {
  switch (precision) {
    case Precision::fp32: return "fp32";
    case Precision::tf32: return "tf32";
    case Precision::bf16: return "bf16";
    case Precision::fp16: return "fp16";
    case Precision::fp8: return "fp8";
    case Precision::int8: return "int8";
    case Precision::fp6: return "fp6";
    case Precision::fp4: return "fp4";
  }
  return "?";
}

std::optional<ScaleUpLink> parse_scale_up_link(std::string_view text) {
  for (ScaleUpLink link : all_scale_up_links)
    if (to_string(link) == text) return link;
  return std::nullopt;
}

std::string_view to_string(ScaleUpLink link) {
  switch (link) {
    case ScaleUpLink::nvlink: return "nvlink";
    case ScaleUpLink::infinity_fabric: return "infinity-fabric";
    case ScaleUpLink::ici: return "ici";
    case ScaleUpLink::pcie: return "pcie";
    case ScaleUpLink::roce: return "roce";
  }
  return "?";
}

std::string_view display_name(ScaleUpLink link) {
  switch (link) {
    case ScaleUpLink::nvlink: return "NVLink";
    case ScaleUpLink::infinity_fabric: return "Infinity Fabric";
    case ScaleUpLink::ici: return "ICI";
    case ScaleUpLink::pcie: return "PCIe";
    case ScaleUpLink::roce: return "RoCE";
  }
  return "?";
}

std::string_view to_string(ScaleOut scale_out) { return scale_out == ScaleOut::ici ? "ici" : "nic"; }

std::optional<double> GpuSpec::dense_peak(Precision precision) const {
  return dense_peak_flops.find(precision);
}

std::optional<double> GpuSpec::sparse_peak(Precision precision) const {
  return sparse_peak_flops.find(precision);
}

const Catalog& Catalog::builtin() {
  // A function-local static: initialised once, thread-safe. The entries were parsed and checked
  // when planlint was built (planlint::builtin, generated); start-up only allocates them.
  // Never destroyed, like the built-in rules: nothing to free at exit.
  static const Catalog& catalog = *[] {
    auto* result = new Catalog;
    result->gpus_ = builtin::gpus();
    result->index_names();
    return result;
  }();
  return catalog;
}

Catalog Catalog::from_embedded_text() {
  // The embedded file goes through the same loader as a user's catalog, so a mistake in it is
  // reported like one in theirs (when planlint is built).
  Catalog result;
  const std::string_view text = embed::find(builtin_path);
  if (text.empty())
    throw std::logic_error(fmt::format("planlint was built without {}", builtin_path));
  DiagnosticSink errors;
  if (!result.load(SourceFile(std::string(builtin_path), std::string(text)), errors)) {
    const Diagnostic& first = errors.diagnostics().front();
    throw std::logic_error(fmt::format("the built-in catalog is invalid: {}:{}:{}: {}",
                                       first.primary.file, first.primary.span.begin.line,
                                       first.primary.span.begin.column, first.message));
  }
  return result;
}

const GpuSpec* Catalog::find(std::string_view id) const {
  for (const GpuSpec& gpu : gpus_)
    if (gpu.id == id) return &gpu;
  return nullptr;
}

GpuMatch Catalog::resolve(std::string_view name) const {
  if (const GpuSpec* gpu = find(name)) return GpuMatch{gpu, true, {}};
  GpuMatch match;
  const auto found = names_.find(gpu_name_key(name));
  if (found == names_.end()) return match;
  if (found->second.size() == 1) {
    match.gpu = &gpus_[found->second.front()];
    return match;
  }
  for (std::size_t entry : found->second) match.candidates.push_back(&gpus_[entry]);
  return match;
}

void Catalog::index_names() {
  names_.clear();
  for (std::size_t entry = 0; entry < gpus_.size(); ++entry) {
    const GpuSpec& gpu = gpus_[entry];
    auto add = [&](std::string_view name) {
      const std::string key = gpu_name_key(name);
      if (key.empty()) return;
      std::vector<std::size_t>& entries = names_[key];
      if (entries.empty() || entries.back() != entry) entries.push_back(entry);
    };
    add(gpu.id);
    add(gpu.name);
    for (const std::string& alias : gpu.aliases) add(alias);
  }
}

std::vector<std::string> Catalog::ids() const {
  std::vector<std::string> result;
  result.reserve(gpus_.size());
  for (const GpuSpec& gpu : gpus_) result.push_back(gpu.id);
  return result;
}

}  // namespace planlint
