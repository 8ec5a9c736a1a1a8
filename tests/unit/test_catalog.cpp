#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <toml++/toml.h>

#include "integration_support.hpp"
#include "planlint/catalog/catalog.hpp"
#include "planlint/catalog/catalog_table.hpp"
#include "planlint/catalog/gpu_suggestion.hpp"

using planlint::Catalog;
using planlint::catalog_table_markdown;
using planlint::Diagnostic;
using planlint::DiagnosticSink;
using planlint::GpuSpec;
using planlint::GpuSuggestion;
using planlint::suggest_gpu;
using planlint::Precision;
using planlint::SourceFile;

namespace fs = std::filesystem;

namespace {

constexpr double tera = 1e12;
constexpr double giga = 1e9;

/// Catalog values are parsed from decimal text: equal to the table's figure up to rounding.
Approx exactly(double value) { return Approx(value).epsilon(1e-12).margin(0); }

const GpuSpec& builtin(std::string_view id) {
  const GpuSpec* gpu = Catalog::builtin().find(id);
  INFO("catalog id " << id);
  REQUIRE(gpu != nullptr);
  return *gpu;
}

double dense(const GpuSpec& gpu, Precision precision) {
  INFO(gpu.id << " dense " << planlint::to_string(precision));
  REQUIRE(gpu.dense_peak(precision).has_value());
  return *gpu.dense_peak(precision);
}

double sparse(const GpuSpec& gpu, Precision precision) {
  INFO(gpu.id << " sparse " << planlint::to_string(precision));
  REQUIRE(gpu.sparse_peak(precision).has_value());
  return *gpu.sparse_peak(precision);
}

/// Loads `text` as a catalog file named x.toml into an empty catalog.
std::vector<Diagnostic> load_errors(const std::string& text, Catalog* into = nullptr) {
  Catalog scratch;
  Catalog& catalog = into ? *into : scratch;
  planlint::DiagnosticSink errors;
  const bool ok = catalog.load(SourceFile("x.toml", text), errors).has_value();
  CHECK(ok == errors.empty());
  return errors.take();
}

/// A valid entry to build malformed files from.
const std::string valid_entry = R"([[gpu]]
id = "test-gpu"
name = "Test GPU"
hbm = "80 GB"
hbm_bandwidth = "3.35 TB/s"
sources = ["a datasheet"]
[gpu.dense]
bf16 = "989 TFLOPS"
)";

}  // namespace

TEST_CASE("precision names round-trip through parse_precision and to_string", "[catalog]") {
  for (Precision precision : planlint::all_precisions)
    CHECK(planlint::parse_precision(planlint::to_string(precision)) == precision);
  CHECK(planlint::parse_precision("bf16") == Precision::bf16);
  CHECK_FALSE(planlint::parse_precision("fp64").has_value());
  CHECK_FALSE(planlint::parse_precision("BF16").has_value());
}

TEST_CASE("a peak table holds a peak per precision and lists them in the enum's order", "[catalog]") {
  planlint::PeakTable peaks;
  CHECK(peaks.empty());
  CHECK(peaks.size() == 0);
  CHECK_FALSE(peaks.find(Precision::bf16).has_value());
  peaks.set(Precision::fp8, 1979e12);
  peaks.set(Precision::fp32, 67e12);
  peaks.set(Precision::bf16, 989e12);
  peaks.set_if_absent(Precision::fp16, 989e12);
  peaks.set_if_absent(Precision::fp8, 1.0);  // has one: kept
  CHECK_FALSE(peaks.empty());
  CHECK(peaks.size() == 4);
  CHECK(peaks.find(Precision::fp8) == 1979e12);
  CHECK_FALSE(peaks.find(Precision::int8).has_value());
  std::vector<Precision> order;
  std::vector<double> flops;
  for (auto [precision, peak] : peaks) {
    order.push_back(precision);
    flops.push_back(peak);
  }
  CHECK(order == std::vector<Precision>{Precision::fp32, Precision::bf16, Precision::fp16, Precision::fp8});
  CHECK(flops == std::vector<double>{67e12, 989e12, 989e12, 1979e12});
  peaks.set(Precision::fp4, 0.5);  // the last slot is listed too
  CHECK(peaks.size() == 5);
}

TEST_CASE("the builtin catalog holds each entry of gpus.toml once, in the file's order", "[catalog]") {
  // By property, not a copy of the list: a new entry in gpus.toml is one file, with no test to
  // edit. The file's order is the order of docs/catalog.md's table and of `planlint gpus`.
  toml::parse_result file = toml::parse_file((fs::path(PLANLINT_SOURCE_DIR) / "rules/catalog/gpus.toml").string());
  REQUIRE(file);
  const toml::array* entries = file.table()["gpu"].as_array();
  REQUIRE(entries);
  std::vector<std::string> in_file;
  for (const toml::node& entry : *entries) {
    REQUIRE(entry.is_table());
    in_file.push_back((*entry.as_table())["id"].value_or(std::string()));
  }
  const std::vector<std::string> ids = Catalog::builtin().ids();
  CHECK(ids == in_file);
  CHECK(std::set<std::string>(ids.begin(), ids.end()).size() == ids.size());
  // After the V100 and the A100s, their parts with less memory (docs/catalog.md): a real 40 GB
  // A100 plan must be able to name its GPU.
  for (const char* id : {"v100-sxm2", "v100-sxm2-16gb", "a100-sxm", "a100-sxm-40gb", "a100-pcie", "a100-pcie-40gb"}) {
    INFO(id);
    CHECK(Catalog::builtin().find(id) != nullptr);
  }
  CHECK(Catalog::builtin().find("h100") == nullptr);
  CHECK(&Catalog::builtin() == &Catalog::builtin());
}

TEST_CASE("docs/catalog.md's table is generated from the builtin catalog and up to date", "[catalog][docs]") {
  const std::string generated = catalog_table_markdown(Catalog::builtin());
  INFO("docs/catalog.md's table is out of date: PLANLINT_UPDATE_GOLDEN=1 build/tests/planlint_tests \"[catalog]\"");
  CHECK(planlint::test::generated_region(fs::path(PLANLINT_SOURCE_DIR) / "docs/catalog.md", "rewrites it. -->\n",
                                         "<!-- end of the generated table -->", generated) == generated);
}

TEST_CASE("the catalog table shows each entry's own figures, and a dash where it has none", "[catalog][docs]") {
  Catalog catalog;
  DiagnosticSink errors;
  const SourceFile file("gpus.toml", "[[gpu]]\nid = \"x1\"\nname = \"X One\"\nhbm = \"94 GB\"\n"
                                     "hbm_bandwidth = \"0.864 TB/s\"\nsources = [\"s\"]\n"
                                     "[gpu.dense]\nfp16 = \"835.5 TFLOPS\"\n");
  REQUIRE(static_cast<bool>(catalog.load(file, errors)));
  CHECK(catalog_table_markdown(catalog).ends_with(
      "| `x1` | X One | – | 835.5 TFLOPS | – | – | – | 94 GB | 0.864 TB/s | – | – |\n"));
}

TEST_CASE("the builtin catalog keeps the figures behind the known traps", "[catalog]") {
  // docs/catalog.md's known traps, as relations between an entry's figures: the figures
  // themselves are the catalog's, shown in the generated table.
  auto near = [](double a, double b) { return a == Approx(b).epsilon(0.02); };
  SECTION("a sparse peak is twice the dense one, up to the vendor's rounding; H100's equals its FP8 dense") {
    for (const GpuSpec& gpu : Catalog::builtin().gpus())
      if (auto sparse_bf16 = gpu.sparse_peak(Precision::bf16)) {
        INFO(gpu.id);
        CHECK(near(*sparse_bf16, 2 * dense(gpu, Precision::bf16)));
      }
    const GpuSpec& h100 = builtin("h100-sxm");
    CHECK(sparse(h100, Precision::bf16) == exactly(dense(h100, Precision::fp8)));
    CHECK(dense(h100, Precision::tf32) == exactly(dense(h100, Precision::bf16) / 2));
  }
  SECTION("the FP32 CUDA-core figure is below the tensor peak a plan must use") {
    CHECK(near(dense(builtin("rtx-4090"), Precision::fp32), dense(builtin("rtx-4090"), Precision::bf16) / 2));
    CHECK(near(dense(builtin("rtx-a6000"), Precision::fp32), dense(builtin("rtx-a6000"), Precision::bf16) / 4));
    CHECK_FALSE(builtin("rtx-a6000").dense_peak(Precision::fp8).has_value());
    CHECK_FALSE(builtin("v100-sxm2").dense_peak(Precision::bf16).has_value());
  }
  SECTION("h100-pcie is not the SXM part; h800 is the SXM part with a slower link") {
    CHECK(dense(builtin("h100-pcie"), Precision::bf16) < 0.8 * dense(builtin("h100-sxm"), Precision::bf16));
    CHECK(dense(builtin("h800-sxm"), Precision::bf16) == exactly(dense(builtin("h100-sxm"), Precision::bf16)));
    CHECK(*builtin("h800-sxm").link_bandwidth_bytes_per_s < *builtin("h100-sxm").link_bandwidth_bytes_per_s);
  }
  SECTION("the smaller memory parts have the same peaks and less memory") {
    for (auto [small, large] : {std::pair{"a100-sxm-40gb", "a100-sxm"}, std::pair{"a100-pcie-40gb", "a100-pcie"},
                                std::pair{"v100-sxm2-16gb", "v100-sxm2"}}) {
      INFO(small);
      CHECK(dense(builtin(small), Precision::fp16) == exactly(dense(builtin(large), Precision::fp16)));
      CHECK(builtin(small).hbm_bytes < builtin(large).hbm_bytes);
    }
  }
  SECTION("the parts published runs and rentals use, with their own figures") {
    // TPU v4 trained PaLM, Gopher and Chinchilla: 275 TFLOPS and 32 GiB, not v5e's 197 and 16 GB.
    CHECK(dense(builtin("tpu-v4"), Precision::bf16) == exactly(275e12));
    CHECK(builtin("tpu-v4").hbm_bytes == exactly(32.0 * 1024 * 1024 * 1024));
    CHECK(builtin("tpu-v4").scale_out() == planlint::ScaleOut::ici);
    // H20: H100's memory system with about 15% of its tensor peak.
    CHECK(dense(builtin("h20"), Precision::bf16) < 0.16 * dense(builtin("h100-sxm"), Precision::bf16));
    CHECK(builtin("h20").hbm_bytes > builtin("h100-sxm").hbm_bytes);
    // GH200's Hopper GPU: H100 SXM's peaks, more HBM.
    CHECK(near(dense(builtin("gh200"), Precision::bf16), dense(builtin("h100-sxm"), Precision::bf16)));
    CHECK(builtin("gh200").hbm_bytes == exactly(96e9));
    CHECK(dense(builtin("mi250x"), Precision::bf16) == exactly(383e12));
    CHECK(dense(builtin("l4"), Precision::fp8) == exactly(242.5e12));
    CHECK(dense(builtin("gaudi3"), Precision::bf16) == exactly(dense(builtin("gaudi3"), Precision::fp8)));
    CHECK(dense(builtin("gaudi2"), Precision::bf16) == exactly(432e12));
  }
  SECTION("Blackwell lists FP4") {
    CHECK(dense(builtin("b200"), Precision::fp4) == exactly(2 * dense(builtin("b200"), Precision::fp8)));
    CHECK(builtin("gb200").dense_peak(Precision::fp4).has_value());
  }
}

TEST_CASE("every builtin entry cites a source and lists sparse peaks only where sparsity exists",
          "[catalog]") {
  for (const GpuSpec& gpu : Catalog::builtin().gpus()) {
    INFO("catalog id " << gpu.id);
    CHECK_FALSE(gpu.name.empty());
    CHECK_FALSE(gpu.sources.empty());
    for (const std::string& source : gpu.sources) CHECK_FALSE(source.empty());
    CHECK_FALSE(gpu.notes.empty());
    CHECK(gpu.location.file == "rules/catalog/gpus.toml");
    CHECK(gpu.location.span.known());
    CHECK_FALSE(gpu.dense_peak_flops.empty());
    CHECK_FALSE(gpu.sparse_peak(Precision::fp32).has_value());
    for (auto [precision, peak] : gpu.sparse_peak_flops) {
      INFO("precision " << planlint::to_string(precision));
      // 2:4 sparsity doubles the dense tensor peak, up to the vendor's rounding. The L40S
      // datasheet prints 733 for BF16/FP16 with sparsity, 1.2% above 2 x 362.05; AMD prints the
      // MI355X's INT8 as 5 and 10.1 POPS.
      const double tolerance = gpu.id == "l40s" || gpu.id == "mi355x" ? 1.5e-2 : 1e-3;
      CHECK(peak == Approx(2 * dense(gpu, precision)).epsilon(tolerance));
    }
    if (auto bf16 = gpu.dense_peak(Precision::bf16)) CHECK(dense(gpu, Precision::fp16) == *bf16);
  }
  for (const char* id : {"v100-sxm2", "tpu-v5e", "tpu-v5p"})
    CHECK(builtin(id).sparse_peak_flops.empty());
  // Only the TPUs connect their chips without network cards.
  for (const GpuSpec& gpu : Catalog::builtin().gpus())
    CHECK(gpu.scale_out() == (gpu.id.starts_with("tpu-") ? planlint::ScaleOut::ici : planlint::ScaleOut::nic));
  for (const char* id : {"a100-sxm", "h100-sxm", "b200", "mi300x", "l40s", "rtx-4090"})
    CHECK_FALSE(builtin(id).sparse_peak_flops.empty());
}

TEST_CASE("a user catalog file overrides builtin entries and adds new ones", "[catalog]") {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("planlint-catalog-" +
                    std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  std::filesystem::create_directories(dir);
  const auto path = (dir / "my-gpus.toml").string();
  {
    std::ofstream out(path);
    out << R"toml(# our own measurements
[[gpu]]
id = "h800-sxm"
name = "NVIDIA H800 SXM5 (measured)"
hbm = "80 GB"
hbm_bandwidth = "3.35 TB/s"
link_bandwidth = "160 GB/s"
sources = ["DeepSeek-V3 technical report"]
[gpu.dense]
bf16 = "989 TFLOPS"

[[gpu]]
id = "our-mi355x-variant"
name = "AMD Instinct MI355X (our variant)"
hbm = "288 GB"
hbm_bandwidth = 8e12
sources = ["AMD Instinct MI355X datasheet"]
dense = { bf16 = "2.5 PFLOPS", fp16 = 2.5e15 }
)toml";
  }
  const auto text = planlint::read_file(path);
  REQUIRE(text.has_value());

  Catalog catalog = Catalog::builtin();
  planlint::DiagnosticSink errors;
  CHECK(catalog.load(SourceFile(path, *text), errors));
  CHECK(errors.empty());
  std::filesystem::remove_all(dir);

  CHECK(catalog.gpus().size() == Catalog::builtin().gpus().size() + 1);
  const GpuSpec* h800 = catalog.find("h800-sxm");
  REQUIRE(h800 != nullptr);
  CHECK(h800->name == "NVIDIA H800 SXM5 (measured)");
  CHECK(*h800->link_bandwidth_bytes_per_s == exactly(160 * giga));
  CHECK_FALSE(h800->sparse_peak(Precision::bf16).has_value());
  CHECK(h800->location.file == path);
  CHECK(h800->location.span.begin.line == 2);
  CHECK(catalog.ids()[9] == "h800-sxm");  // replaced in place

  const GpuSpec* mi355x = catalog.find("our-mi355x-variant");
  REQUIRE(mi355x != nullptr);
  CHECK(catalog.ids().back() == "our-mi355x-variant");
  CHECK(dense(*mi355x, Precision::bf16) == exactly(2.5e15));
  CHECK(mi355x->hbm_bandwidth_bytes_per_s == exactly(8e12));
  CHECK_FALSE(mi355x->link_bandwidth_bytes_per_s.has_value());

  // A replacement that does not state its topology keeps the entry's: scale-up link, domain, host.
  {
    Catalog tpus = Catalog::builtin();
    planlint::DiagnosticSink tpu_errors;
    const std::string corrected = R"toml([[gpu]]
id = "tpu-v5p"
name = "TPU v5p (our measurement)"
hbm = "95 GB"
hbm_bandwidth = "2.6 TB/s"
sources = ["our benchmark"]
[gpu.dense]
bf16 = "459 TFLOPS"
[[gpu]]
id = "tpu-v5e"
name = "TPU v5e behind NICs"
hbm = "16 GB"
hbm_bandwidth = "0.82 TB/s"
scale_out = "nic"
sources = ["our lab"]
[gpu.dense]
bf16 = "197 TFLOPS"
)toml";
    CHECK(tpus.load(SourceFile("tpus.toml", corrected), tpu_errors));
    CHECK(tpus.find("tpu-v5p")->scale_out() == planlint::ScaleOut::ici);
    CHECK(tpus.find("tpu-v5p")->scale_up_domain == 6144);
    CHECK(tpus.find("tpu-v5p")->gpus_per_node == 4);
    CHECK(tpus.find("tpu-v5p")->hbm_bandwidth_bytes_per_s == exactly(2.6e12));
    CHECK(tpus.find("tpu-v5e")->scale_out() == planlint::ScaleOut::nic);
  }

  // The builtin catalog itself is untouched.
  CHECK(*Catalog::builtin().find("h800-sxm")->link_bandwidth_bytes_per_s == exactly(400 * giga));
  CHECK(Catalog::builtin().find("our-mi355x-variant") == nullptr);
}

TEST_CASE("a malformed catalog is reported at the line and column of the offending node",
          "[catalog]") {
  auto only_error = [](const std::vector<Diagnostic>& errors) -> Diagnostic {
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].rule == "invalid-catalog");
    CHECK(errors[0].severity == planlint::Severity::error);
    CHECK(errors[0].primary.file == "x.toml");
    return errors[0];
  };
  auto at = [](const Diagnostic& d, std::uint32_t line, std::uint32_t column) {
    INFO(d.message);
    CHECK(d.primary.span.begin.line == line);
    CHECK(d.primary.span.begin.column == column);
  };

  SECTION("the valid entry loads") {
    Catalog catalog;
    CHECK(load_errors(valid_entry, &catalog).empty());
    REQUIRE(catalog.find("test-gpu") != nullptr);
    CHECK(*catalog.find("test-gpu")->dense_peak(Precision::fp16) == exactly(989 * tera));
  }
  SECTION("invalid TOML") {
    const Diagnostic& d = only_error(load_errors("[[gpu]]\nid = \"a\"\nname = \n"));
    at(d, 3, 8);
    CHECK_THAT(d.message, Catch::Contains("invalid TOML"));
  }
  SECTION("a missing required key points at the entry's header") {
    const Diagnostic& d = only_error(load_errors(
        "# comment\n[[gpu]]\nid = \"x\"\nname = \"X\"\nhbm = \"80 GB\"\nsources = [\"s\"]\n"
        "dense = { bf16 = \"1 TFLOPS\" }\n"));
    at(d, 2, 1);
    CHECK_THAT(d.message, Catch::Contains("missing required key 'hbm_bandwidth'"));
    CHECK(d.key_path == "gpu[0].hbm_bandwidth");
  }
  SECTION("a peak with the wrong dimension") {
    std::string text = valid_entry + "fp8 = \"1979 GB/s\"\n";
    const Diagnostic& d = only_error(load_errors(text));
    at(d, 9, 7);
    CHECK_THAT(d.message, Catch::Contains("1979 GB/s"));
    CHECK(d.key_path == "gpu[0].dense.fp8");
  }
  SECTION("memory given as a bandwidth") {
    std::string text = valid_entry;
    text.replace(text.find("\"80 GB\""), 7, "\"80 GB/s\"");
    const Diagnostic& d = only_error(load_errors(text));
    at(d, 4, 7);
    CHECK(d.key_path == "gpu[0].hbm");
  }
  SECTION("a negative peak") {
    const Diagnostic& d = only_error(load_errors(valid_entry + "fp32 = -5\n"));
    at(d, 9, 8);
    CHECK_THAT(d.message, Catch::Contains("positive"));
  }
  SECTION("a quantity of the wrong TOML type") {
    const Diagnostic& d = only_error(load_errors(valid_entry + "fp32 = true\n"));
    at(d, 9, 8);
    CHECK_THAT(d.message, Catch::Contains("boolean"));
  }
  SECTION("scale_out is nic unless the entry says ici, which older catalogs write for scale_up_link = \"ici\"") {
    Catalog catalog;
    CHECK(load_errors(valid_entry, &catalog).empty());
    CHECK(catalog.find("test-gpu")->scale_out() == planlint::ScaleOut::nic);
    CHECK_FALSE(catalog.find("test-gpu")->scale_up_link.has_value());
    std::string text = valid_entry;
    text.insert(text.find("sources"), "scale_out = \"ici\"\n");
    CHECK(load_errors(text, &catalog).empty());
    CHECK(catalog.find("test-gpu")->scale_out() == planlint::ScaleOut::ici);
    CHECK(catalog.find("test-gpu")->scale_up_link == planlint::ScaleUpLink::ici);
  }
  SECTION("the scale-up domain: its link's kind, its size and the host's") {
    Catalog catalog;
    std::string text = valid_entry;
    text.insert(text.find("sources"), "scale_up_link = \"infinity-fabric\"\nscale_up_domain = 8\ngpus_per_node = 4\n");
    CHECK(load_errors(text, &catalog).empty());
    const GpuSpec& gpu = *catalog.find("test-gpu");
    CHECK(gpu.scale_up_link == planlint::ScaleUpLink::infinity_fabric);
    CHECK(gpu.scale_up_domain == 8);
    CHECK(gpu.gpus_per_node == 4);
    CHECK(gpu.scale_out() == planlint::ScaleOut::nic);
  }
  SECTION("an unknown scale-up link names the kinds it may be") {
    std::string text = valid_entry;
    text.insert(text.find("sources"), "scale_up_link = \"nvswitch\"\n");
    const Diagnostic& d = only_error(load_errors(text));
    at(d, 6, 17);
    CHECK_THAT(d.message, Catch::Contains("unknown scale_up_link 'nvswitch'") && Catch::Contains("\"nvlink\"") &&
                              Catch::Contains("\"infinity-fabric\"") && Catch::Contains("\"ici\""));
    CHECK(d.key_path == "gpu[0].scale_up_link");
  }
  SECTION("a scale-up domain that is not a whole number of accelerators") {
    std::string text = valid_entry;
    text.insert(text.find("sources"), "scale_up_domain = 7.5\n");
    const Diagnostic& d = only_error(load_errors(text));
    at(d, 6, 19);
    CHECK_THAT(d.message, Catch::Contains("whole number of accelerators"));
    CHECK(d.key_path == "gpu[0].scale_up_domain");
  }
  SECTION("scale_out = \"ici\" beside another scale-up link says which to keep") {
    std::string text = valid_entry;
    text.insert(text.find("sources"), "scale_up_link = \"nvlink\"\nscale_out = \"ici\"\n");
    const Diagnostic& d = only_error(load_errors(text));
    CHECK_THAT(d.message, Catch::Contains("scale_up_link says \"nvlink\""));
  }
  SECTION("an unknown scale_out names the two it may be and the scale-up link's key") {
    std::string text = valid_entry;
    text.insert(text.find("sources"), "scale_out = \"infiniband\"\n");
    const Diagnostic& d = only_error(load_errors(text));
    at(d, 6, 13);
    CHECK_THAT(d.message, Catch::Contains("unknown scale_out 'infiniband'") && Catch::Contains("\"nic\"") &&
                              Catch::Contains("\"ici\"") && Catch::Contains("scale_up_link"));
    CHECK(d.key_path == "gpu[0].scale_out");
  }
  SECTION("a scale_out that is not a string") {
    std::string text = valid_entry;
    text.insert(text.find("sources"), "scale_out = true\n");
    const Diagnostic& d = only_error(load_errors(text));
    at(d, 6, 13);
    CHECK_THAT(d.message, Catch::Contains("found a boolean"));
  }
  SECTION("an unknown precision lists the valid ones") {
    const Diagnostic& d = only_error(load_errors(valid_entry + "  fp64 = \"34 TFLOPS\"\n"));
    at(d, 9, 3);
    CHECK_THAT(d.message, Catch::Contains("unknown precision 'fp64'"));
    CHECK_THAT(d.message, Catch::Contains("fp32, tf32, bf16, fp16, fp8, int8, fp6, fp4"));
    CHECK(d.key_path == "gpu[0].dense.fp64");
  }
  SECTION("an unknown key lists the valid keys and suggests the closest") {
    std::string text = valid_entry;
    text.insert(text.find("sources"), "hbm_bandwith = \"1 TB/s\"\n");
    const Diagnostic& d = only_error(load_errors(text));
    at(d, 6, 1);
    CHECK_THAT(d.message, Catch::Contains("unknown key 'hbm_bandwith'"));
    CHECK(d.key_path == "gpu[0].hbm_bandwith");
    CHECK_THAT(d.message, Catch::Contains("id, name, aliases, hbm, hbm_bandwidth, link_bandwidth"));
    REQUIRE(d.help.has_value());
    CHECK_THAT(*d.help, Catch::Contains("'hbm_bandwidth'"));
  }
  SECTION("an unknown top-level key") {
    const Diagnostic& d = only_error(load_errors("gpus = []\n" + valid_entry));
    at(d, 1, 1);
    CHECK_THAT(*d.help, Catch::Contains("'gpu'"));
  }
  SECTION("an empty sources array") {
    std::string text = valid_entry;
    text.replace(text.find("[\"a datasheet\"]"), 15, "[]");
    const Diagnostic& d = only_error(load_errors(text));
    at(d, 6, 11);
    CHECK_THAT(d.message, Catch::Contains("at least one source"));
  }
  SECTION("a duplicate id in one file points at the second and notes the first") {
    Catalog catalog;
    const Diagnostic& d = only_error(load_errors(valid_entry + "\n" + valid_entry, &catalog));
    at(d, 11, 6);
    CHECK_THAT(d.message, Catch::Contains("duplicate id \"test-gpu\""));
    REQUIRE(d.related.size() == 1);
    CHECK(d.related[0].location.span.begin.line == 1);
    CHECK(catalog.gpus().size() == 1);  // the valid first entry is kept
  }
  SECTION("a malformed quantity points inside the string") {
    const Diagnostic& d = only_error(load_errors(valid_entry + "fp8 = \"1979 TFLOPS/\"\n"));
    CHECK(d.primary.span.begin.line == 9);
    CHECK(d.primary.span.begin.column > 7);
    CHECK_THAT(d.message, Catch::Contains("invalid quantity"));
  }
  SECTION("columns count bytes after non-ASCII text") {
    std::string text = valid_entry;
    text.replace(text.find("\"Test GPU\""), 10, "\"Tést\"");
    text.replace(text.find("[\"a datasheet\"]"), 15, "[\"é\", 5]");
    const Diagnostic& d = only_error(load_errors(text));
    // `5` after "é" (two bytes) is byte column 18 though it is code point 17.
    at(d, 6, 18);
  }
  SECTION("other entries still load when one is invalid") {
    Catalog catalog;
    std::string bad = valid_entry;
    bad.replace(bad.find("test-gpu"), 8, "bad-gpu");
    bad.replace(bad.find("989 TFLOPS"), 10, "989 TB");
    CHECK(load_errors(valid_entry + bad, &catalog).size() == 1);
    CHECK(catalog.find("test-gpu") != nullptr);
    CHECK(catalog.find("bad-gpu") == nullptr);
  }
}

TEST_CASE("an unknown GPU name is matched to the catalog GPU of the same model only", "[catalog][suggest]") {
  // An edit distance alone offered "h200-sxm" for "b200-sxm": a different GPU with less than
  // half the peak, written into the plan by a fix.
  const std::vector<std::string> ids = Catalog::builtin().ids();
  struct Case {
    const char* name;
    std::vector<std::string> ids;
    bool certain;
  };
  const Case cases[] = {
      {"b200-sxm", {"b200"}, true},
      {"H100_SXM", {"h100-sxm"}, true},
      {"h100-sxn", {"h100-sxm", "h100-pcie", "h100-nvl"}, true},
      {"h100", {"h100-sxm", "h100-pcie", "h100-nvl"}, false},
      {"a100", {"a100-sxm", "a100-sxm-40gb", "a100-pcie", "a100-pcie-40gb"}, false},
      {"a100-80gb", {"a100-sxm", "a100-sxm-40gb", "a100-pcie", "a100-pcie-40gb"}, false},
      {"mi300", {"mi300x"}, true},
      {"x9000", {}, false},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    const GpuSuggestion suggestion = suggest_gpu(c.name, ids);
    CHECK(suggestion.ids == c.ids);
    CHECK(suggestion.certain == c.certain);
  }
}
