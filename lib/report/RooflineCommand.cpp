// `bwreport roofline`: what can a kernel reach on these nodes? From a
// kernel's counts (--adds --muls --loads --stores --word-bytes) or its
// --ai, against given ceilings (--peak-flops --bandwidth: the theoretical
// ones of a data sheet, say) and/or the measured ones of a survey file
// (/roofline/nodes: per node the FMA peak and GEMM against STREAM Triad).
#include <boost/program_options/options_description.hpp>
#include <boost/program_options/variables_map.hpp>
#include <cmath>
#include <cstdint>
#include <optional>
#include <ostream>

#include "core/Errors.hpp"
#include "core/OptionText.hpp"
#include "core/PrintableText.hpp"
#include "h5/ResultFile.hpp"
#include "report/CommandOptions.hpp"
#include "report/ReportCommand.hpp"
#include "roofline/KernelRoofline.hpp"
#include "roofline/RooflineResults.hpp"
#include "roofline/RooflineTables.hpp"

namespace po = boost::program_options;

namespace bws::report {
namespace {

const char* const kUsage = "Usage: bwreport roofline (--adds N --muls N --loads N --stores N [--word-bytes B] | --ai X)\n"
                           "                         [--peak-flops F --bandwidth B] [--type double|float] [FILE]\n";

enum class CeilingType { Double, Float };

struct RooflineOptions : TypedOptions {
  std::optional<double> adds, muls, loads, stores, ai, peak_flops, bandwidth;
  std::uint64_t word_bytes = 8;
  std::optional<CeilingType> type;
};

const OptionSchema<RooflineOptions>& roofline_schema() {
  using O = RooflineOptions;
  constexpr double kMaxCount = 1e9;  // per kernel point: more is a typo
  static const OptionSchema<O> schema({
      bind_optional(real_option("adds", "", 0, kMaxCount, "FLOP", "floating-point additions per kernel point"), &O::adds),
      bind_optional(real_option("muls", "", 0, kMaxCount, "FLOP", "floating-point multiplications per kernel point"),
                    &O::muls),
      bind_optional(real_option("loads", "", 0, kMaxCount, "words", "words loaded from memory per point"), &O::loads),
      bind_optional(real_option("stores", "", 0, kMaxCount, "words", "words stored to memory per point"), &O::stores),
      bind_option(whole_option("word-bytes", "8", 1, 64, "bytes", "bytes per word: 4 (float) or 8 (double)"),
                  &O::word_bytes),
      bind_optional(real_option("ai", "", 0, 1e6, "FLOP/byte",
                                "the kernel's arithmetic intensity, instead of --loads/--stores (with --adds/--muls "
                                "the imbalance factor is still applied)")
                        .above_min(),
                    &O::ai),
      bind_optional(real_option("peak-flops", "", 0, 1e21, "FLOP/s", "a given compute ceiling (e.g. 1036.8e9)")
                        .above_min(),
                    &O::peak_flops),
      bind_optional(real_option("bandwidth", "", 0, 1e18, "B/s", "a given memory bandwidth ceiling (e.g. 119e9)")
                        .above_min(),
                    &O::bandwidth),
      bind_optional(one_of_option("type", "", {"double", "float"},
                                  "which measured ceilings of FILE: double (FMA peak, DGEMM) or float (FMA peak, "
                                  "SGEMM); default: float with --word-bytes 4, else double")
                        .called("type"),
                    &O::type),
  });
  return schema;
}

po::options_description roofline_options() {
  po::options_description desc("bwreport roofline options");
  add_command_options(desc, roofline_schema().list());
  return desc;
}

roofline::KernelDescription kernel_of(const RooflineOptions& o) {
  const auto adds = o.adds, muls = o.muls, loads = o.loads, stores = o.stores;
  if (adds.has_value() != muls.has_value())
    throw UsageError(std::string(adds ? "--adds" : "--muls") + " needs " + (adds ? "--muls" : "--adds") +
                     "; allowed: both or neither");
  if (o.ai) {
    if (loads || stores)
      throw UsageError("--ai: give either --ai or --loads/--stores, not both; allowed: one of them");
    roofline::KernelDescription k;
    k.ai = *o.ai;
    k.adds = adds;
    k.muls = muls;
    if (adds && !std::isfinite(k.imbalance()))
      throw UsageError("--adds/--muls: both are 0; allowed: counts with at least one > 0");
    return k;
  }
  if (!adds || !loads || !stores)
    throw UsageError(std::string(!adds ? "--adds" : !loads ? "--loads" : "--stores") +
                     " is missing; allowed: --adds, --muls, --loads and --stores together, or --ai");
  const model::KernelCounts counts{*adds, *muls, *loads, *stores, static_cast<double>(o.word_bytes)};
  const roofline::KernelDescription k = roofline::kernel_from_counts(counts);
  if (!std::isfinite(k.ai) || !(k.ai > 0))
    throw UsageError("--loads/--stores/--adds/--muls: no traffic or no operations (AI " + std::to_string(k.ai) +
                     "); allowed: loads + stores > 0 and adds + muls > 0");
  return k;
}

// Per node: the FMA peak and the GEMM, each against the Triad.
std::vector<roofline::CeilingPair> measured_ceilings(const std::string& path, bool use_float) {
  const auto file = h5::ResultReader::open(path);
  if (!file.exists(std::string("/") + roofline::kNodesPath))
    throw UsageError(printable_text(path, 200) + " has no /" + roofline::kNodesPath +
                     "; allowed: a file of bwsurvey --tests roofline (or a survey that included it)");
  // Host names come from the file: escaped before they are printed.
  const Table nodes = with_printable_text(file.read_table(roofline::kNodesPath));
  std::vector<roofline::CeilingPair> pairs;
  for (std::size_t r = 0; r < nodes.rows(); ++r) {
    const roofline::Ceilings c = roofline::ceilings_of_row(nodes, r);
    const std::string host = nodes.get_string(r, "host");
    pairs.push_back({std::string("FMA peak ") + (use_float ? "float" : "double"), host,
                     use_float ? c.fma_float_flop_per_s : c.fma_double_flop_per_s, c.triad_Bps});
    const double gemm = use_float ? c.gemm_float_flop_per_s : c.gemm_double_flop_per_s;
    pairs.push_back({std::string(use_float ? "SGEMM" : "DGEMM") + (std::isfinite(gemm) ? "" : " (not available)"), host,
                     gemm, c.triad_Bps});
  }
  return pairs;
}

int run(const CommandArgs& args, std::ostream& out) {
  const po::options_description desc = roofline_options();
  const ParsedCommand parsed = parse_command("roofline", args, desc, 0, 1);  // FILE is optional
  if (parsed.help) {
    out << kUsage << desc;
    return kExitOk;
  }
  const RooflineOptions o = roofline_schema().read(command_config(parsed.options), false);
  const roofline::KernelDescription kernel = kernel_of(o);

  std::vector<roofline::CeilingPair> ceilings;
  if (o.peak_flops.has_value() != o.bandwidth.has_value())
    throw UsageError(std::string(o.peak_flops ? "--peak-flops needs --bandwidth" : "--bandwidth needs --peak-flops") +
                     "; allowed: both or neither");
  if (o.peak_flops) ceilings.push_back({"given", "-", *o.peak_flops, *o.bandwidth});
  if (!parsed.positional.empty()) {
    // 4-byte words: the float ceilings (Andreolli et al.'s single-precision Iso3DFD).
    bool use_float = o.word_bytes == 4;
    if (o.type) use_float = *o.type == CeilingType::Float;
    for (auto& pair : measured_ceilings(parsed.positional[0], use_float)) ceilings.push_back(std::move(pair));
  }
  if (ceilings.empty())
    throw UsageError("no ceilings: give --peak-flops and --bandwidth, or a survey FILE with /roofline/nodes");

  for (const std::string& line : roofline::kernel_lines(kernel)) out << line << "\n";
  out << "\n";
  for (const std::string& line : roofline::ceiling_lines(kernel, ceilings)) out << line << "\n";
  out << "\nattainable = min(compute, AI x bandwidth); with imbalance: x the imbalance factor (Andreolli et al.). "
         "GFLOP/s and GB/s are 1e9.\n";
  return kExitOk;
}

}  // namespace

ReportCommand roofline_command() {
  return {"roofline", "roofline ...   a kernel's attainable FLOP/s against given and measured ceilings",
          [](const CommandArgs& args, std::ostream& out) { return with_command_name("roofline", run, args, out); }};
}

}  // namespace bws::report
