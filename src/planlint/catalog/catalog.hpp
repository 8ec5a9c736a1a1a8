#pragma once
/// The accelerator catalog (docs/catalog.md): dense and sparse peaks per precision, memory,
/// bandwidths, each entry with its sources. Data lives in rules/catalog/gpus.toml, parsed at build
/// time by the same code as a user's catalog file and compiled into the binary as data.
#include <array>
#include <cstddef>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "planlint/diag/diagnostic.hpp"
#include "planlint/diag/diagnostic_sink.hpp"
#include "planlint/diag/result.hpp"
#include "planlint/source/source_file.hpp"

namespace planlint {

/// Compute precisions that have a peak in the catalog.
enum class Precision { fp32, tf32, bf16, fp16, fp8, int8, fp6, fp4 };

std::optional<Precision> parse_precision(std::string_view text);  // "bf16" → bf16
std::string_view to_string(Precision precision);

/// Every precision, in the order of the enum (for listings: "fp32, tf32, bf16, ...").
inline constexpr Precision all_precisions[] = {Precision::fp32, Precision::tf32, Precision::bf16,
                                               Precision::fp16, Precision::fp8,  Precision::int8,
                                               Precision::fp6,  Precision::fp4};

/// Peak FLOP/s by precision: a slot per precision, in place (a catalog of 30 GPUs held 180
/// map nodes, allocated at every start). Iterates over the precisions it holds, in the order
/// of the enum, as (precision, flops) pairs.
class PeakTable {
 public:
  struct Entry {
    Precision precision;
    double flops;
  };
  class Iterator {
   public:
    Iterator(const PeakTable& table, std::size_t slot) : table_(&table), slot_(slot) { skip_absent(); }
    Entry operator*() const { return {all_precisions[slot_], *table_->slots_[slot_]}; }
    Iterator& operator++() {
      ++slot_;
      skip_absent();
      return *this;
    }
    bool operator==(const Iterator& other) const { return slot_ == other.slot_; }

   private:
    void skip_absent() {
      while (slot_ < precision_count && !table_->slots_[slot_]) ++slot_;
    }
    const PeakTable* table_;
    std::size_t slot_;
  };

  std::optional<double> find(Precision precision) const { return slots_[static_cast<std::size_t>(precision)]; }
  void set(Precision precision, double flops) { slots_[static_cast<std::size_t>(precision)] = flops; }
  /// Sets the peak of `precision` unless it has one.
  void set_if_absent(Precision precision, double flops) {
    if (!find(precision)) set(precision, flops);
  }
  bool empty() const { return begin() == end(); }
  std::size_t size() const {
    std::size_t count = 0;
    for (const auto& slot : slots_) count += slot.has_value();
    return count;
  }
  Iterator begin() const { return Iterator(*this, 0); }
  Iterator end() const { return Iterator(*this, precision_count); }

 private:
  static constexpr std::size_t precision_count = std::size(all_precisions);
  std::array<std::optional<double>, precision_count> slots_{};
};

/// The link that joins the accelerators of one scale-up domain (an HGX baseboard's or an NVL72
/// rack's NVLink, an MI300X platform's Infinity Fabric, a TPU slice's ICI), as against the
/// scale-out network of network cards between domains.
enum class ScaleUpLink { nvlink, infinity_fabric, ici, pcie, roce };

inline constexpr ScaleUpLink all_scale_up_links[] = {ScaleUpLink::nvlink, ScaleUpLink::infinity_fabric,
                                                     ScaleUpLink::ici, ScaleUpLink::pcie, ScaleUpLink::roce};

std::optional<ScaleUpLink> parse_scale_up_link(std::string_view text);  // "infinity-fabric" → infinity_fabric
std::string_view to_string(ScaleUpLink link);                            // "infinity-fabric"
std::string_view display_name(ScaleUpLink link);                         // "Infinity Fabric"

/// How the accelerators of different hosts reach each other: through network cards, or by the
/// chip-to-chip links of their scale-up domain with no network card in the path (a TPU slice's
/// ICI). Follows from the entry's scale-up link; older catalogs state it as `scale_out`.
enum class ScaleOut { nic, ici };

std::string_view to_string(ScaleOut scale_out);

/// What one GPU of a kind rents for, per GPU-hour, as a catalog entry's [gpu.price] gives it:
/// from the cheapest long-term or marketplace rate to the highest on-demand list price, with
/// where the figures come from and when they were read.
struct PriceRange {
  double low = 0, high = 0;  ///< USD per GPU-second
  std::string source;
  std::string updated;       ///< the date the prices were read, "2024-06-01"
};

struct GpuSpec {
  std::string id;    ///< catalog id, e.g. "h100-sxm"
  std::string name;  ///< marketing name, e.g. "NVIDIA H100 SXM5 80GB"
  /// Other names of the part ("H100", "H100 80GB HBM3" as nvidia-smi prints it): a plan's
  /// `cluster.gpu` that is one of them, or the name, reads as the id (Catalog::resolve).
  std::vector<std::string> aliases;
  /// Dense peak FLOP/s per precision (fp32 is the non-tensor CUDA-core figure); a precision the
  /// GPU does not support is absent. fp16 equals bf16 unless the entry says otherwise.
  PeakTable dense_peak_flops;
  /// Peak with 2:4 structured sparsity, where the vendor prints one (absent otherwise).
  PeakTable sparse_peak_flops;
  double hbm_bytes = 0;                   ///< memory per GPU as marketed (10^9-byte GB)
  double hbm_bandwidth_bytes_per_s = 0;
  /// The scale-up link's bandwidth per GPU, both directions (NVLink 900 GB/s on an H100 SXM).
  std::optional<double> link_bandwidth_bytes_per_s;
  /// The link to the host CPU's memory per GPU, both directions (PCIe Gen5 x16 128 GB/s on an
  /// H100 SXM, NVLink-C2C 900 GB/s on a GH200): what offload to host memory runs at.
  std::optional<double> host_bandwidth_bytes_per_s;
  std::optional<ScaleUpLink> scale_up_link;  ///< the scale-up link's kind, where the entry says
  /// Accelerators one scale-up domain joins (8 on an HGX baseboard, 72 in an NVL72 rack); for a
  /// TPU, whose slices a job sizes, the largest slice. Absent: the domain is the host.
  std::optional<double> scale_up_domain;
  std::optional<double> gpus_per_node;  ///< accelerators per host (4 in a GB200 compute tray)
  std::vector<std::string> sources;
  /// Rental prices per GPU-hour (`price-per-node` tells a node's price from a GPU's by them).
  std::optional<PriceRange> price;
  std::string notes;  ///< traps and disagreements between sources, for explanations; may be empty
  Location location;  ///< where the entry is defined (for diagnostics about the catalog)

  std::optional<double> dense_peak(Precision precision) const;
  std::optional<double> sparse_peak(Precision precision) const;
  ScaleOut scale_out() const { return scale_up_link == ScaleUpLink::ici ? ScaleOut::ici : ScaleOut::nic; }
};

/// What a name (a plan's `cluster.gpu`) names in a catalog (Catalog::resolve).
struct GpuMatch {
  const GpuSpec* gpu = nullptr;  ///< the entry it names; null when none or several answer to it
  bool exact = false;            ///< the name is the entry's id as written
  /// The entries whose id, name or an alias has the name's gpu_name_key, when several do.
  std::vector<const GpuSpec*> candidates;
};

class Catalog {
 public:
  /// The built-in catalog (rules/catalog/gpus.toml, compiled in), built once on first use.
  /// A user catalog starts from a copy: `Catalog c = Catalog::builtin(); c.load(file, problems);`
  static const Catalog& builtin();
  /// The built-in catalog parsed from its embedded text, as a user's catalog is: what the
  /// generator writes out and tests compare builtin() with. Throws std::logic_error when the
  /// file is invalid.
  static Catalog from_embedded_text();

  /// Where the built-in catalog is embedded: `embed::find(Catalog::builtin_path)`.
  static constexpr std::string_view builtin_path = "rules/catalog/gpus.toml";

  const GpuSpec* find(std::string_view id) const;
  /// The entry `name` names: the one of that id, else the one entry whose id, name or an alias
  /// is the same up to case, separators, vendor words and SXM generation (gpu_name_key):
  /// "H100 SXM5", "h100_sxm" and the alias "H100" are h100-sxm.
  GpuMatch resolve(std::string_view name) const;
  const std::vector<GpuSpec>& gpus() const { return gpus_; }
  std::vector<std::string> ids() const;

  /// Adds the valid entries of a catalog file; an entry with an existing id replaces it.
  /// Problems (bad TOML, a missing field, a bad quantity) are reported to `errors` at the file's
  /// line and column; then the result is the error "invalid catalog".
  Result<void> load(const SourceFile& file, DiagnosticSink& errors);

  /// load() of each file in turn (a config's `[lint] catalog` list: a later file's entry wins).
  /// A file that cannot be read is a problem without a position ("cannot read the catalog ...").
  Result<void> load_files(const std::vector<std::string>& paths, DiagnosticSink& errors);

 private:
  /// Fills names_: every entry's id, name and aliases by gpu_name_key.
  void index_names();

  std::vector<GpuSpec> gpus_;
  /// gpu_name_key of each id, name and alias → the entries (indices in gpus_) it names, each
  /// once: resolve() looks a name up in time of its length, whatever the catalog's size.
  std::unordered_map<std::string, std::vector<std::size_t>> names_;
};

}  // namespace planlint
