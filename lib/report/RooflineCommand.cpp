// `bwreport roofline`: what can a kernel reach on these nodes? From a
// kernel's counts (--adds --muls --loads --stores --word-bytes) or its
// --ai, against given ceilings (--peak-flops --bandwidth: the theoretical
// ones of a data sheet, say) and/or the measured ones of a survey file
// (/roofline/nodes: per node the FMA peak and GEMM against STREAM Triad).
#include <boost/program_options/options_description.hpp>
#include <boost/program_options/parsers.hpp>
#include <boost/program_options/positional_options.hpp>
#include <boost/program_options/variables_map.hpp>
#include <cmath>
#include <optional>
#include <ostream>

#include "core/Errors.hpp"
#include "core/OptionText.hpp"
#include "core/PrintableText.hpp"
#include "h5/ResultFile.hpp"
#include "report/ReportCommand.hpp"
#include "roofline/KernelRoofline.hpp"
#include "roofline/RooflineResults.hpp"
#include "roofline/RooflineTables.hpp"

namespace po = boost::program_options;

namespace bws::report {
namespace {

const char* const kUsage = "Usage: bwreport roofline (--adds N --muls N --loads N --stores N [--word-bytes B] | --ai X)\n"
                           "                         [--peak-flops F --bandwidth B] [--type double|float] [FILE]\n";

po::options_description roofline_options() {
  po::options_description desc("bwreport roofline options");
  desc.add_options()("help,h", "print this help and exit")(
      "adds", po::value<std::string>(), "floating-point additions per kernel point (a count >= 0)")(
      "muls", po::value<std::string>(), "floating-point multiplications per kernel point (a count >= 0)")(
      "loads", po::value<std::string>(), "words loaded from memory per point (a count >= 0)")(
      "stores", po::value<std::string>(), "words stored to memory per point (a count >= 0)")(
      "word-bytes", po::value<std::string>(), "bytes per word: 4 (float) or 8 (double); default 8")(
      "ai", po::value<std::string>(),
      "the kernel's arithmetic intensity in FLOP/byte, instead of --loads/--stores (with --adds/--muls the "
      "imbalance factor is still applied)")(
      "peak-flops", po::value<std::string>(), "a given compute ceiling in FLOP/s (e.g. 1036.8e9)")(
      "bandwidth", po::value<std::string>(), "a given memory bandwidth ceiling in B/s (e.g. 119e9)")(
      "type", po::value<std::string>(),
      "which measured ceilings of FILE: double (FMA peak, DGEMM) or float (FMA peak, SGEMM); default: float "
      "with --word-bytes 4, else double")("file", po::value<std::string>(),
                                          "a bwsurvey file with /roofline/nodes (bwsurvey --tests roofline)");
  return desc;
}

std::optional<double> count_option(const po::variables_map& vm, const char* key, const std::string& allowed) {
  if (!vm.count(key)) return std::nullopt;
  const double value = parse_real_number(vm[key].as<std::string>(), key, allowed);
  if (value < 0) throw UsageError(option_flag(key) + ": '" + vm[key].as<std::string>() + "' is negative; allowed: " + allowed);
  return value;
}

double positive_option(const po::variables_map& vm, const char* key, const std::string& allowed) {
  const double value = parse_real_number(vm[key].as<std::string>(), key, allowed);
  if (!(value > 0))
    throw UsageError(option_flag(key) + ": '" + vm[key].as<std::string>() + "' is out of range; allowed: " + allowed);
  return value;
}

roofline::KernelDescription kernel_of(const po::variables_map& vm) {
  const std::string count_allowed = "a count >= 0";
  const auto adds = count_option(vm, "adds", count_allowed), muls = count_option(vm, "muls", count_allowed);
  const auto loads = count_option(vm, "loads", count_allowed), stores = count_option(vm, "stores", count_allowed);
  double word_bytes = 8;
  if (vm.count("word-bytes")) word_bytes = positive_option(vm, "word-bytes", "a size in bytes > 0, e.g. 4 or 8");
  if (adds.has_value() != muls.has_value())
    throw UsageError(std::string(adds ? "--adds" : "--muls") + " needs " + (adds ? "--muls" : "--adds") +
                     "; allowed: both or neither");
  if (vm.count("ai")) {
    if (loads || stores)
      throw UsageError("--ai: give either --ai or --loads/--stores, not both; allowed: one of them");
    roofline::KernelDescription k;
    k.ai = positive_option(vm, "ai", "a FLOP/byte ratio > 0");
    k.adds = adds;
    k.muls = muls;
    if (adds && !std::isfinite(k.imbalance()))
      throw UsageError("--adds/--muls: both are 0; allowed: counts with at least one > 0");
    return k;
  }
  if (!adds || !loads || !stores)
    throw UsageError(std::string(!adds ? "--adds" : !loads ? "--loads" : "--stores") +
                     " is missing; allowed: --adds, --muls, --loads and --stores together, or --ai");
  const model::KernelCounts counts{*adds, *muls, *loads, *stores, word_bytes};
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
  po::positional_options_description positional;
  positional.add("file", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(desc).positional(positional).run(), vm);
  } catch (const po::unknown_option& e) {
    throw UsageError("unknown option '" + e.get_option_name() + "'; see bwreport roofline --help");
  } catch (const po::too_many_positional_options_error&) {
    throw UsageError("more than one FILE; allowed: one survey file");
  } catch (const po::error& e) {
    std::string text = e.what();
    for (char& c : text)
      if (c == '\n') c = ' ';
    throw UsageError(text);
  }
  if (vm.count("help")) {
    out << kUsage << desc;
    return kExitOk;
  }
  const roofline::KernelDescription kernel = kernel_of(vm);

  std::vector<roofline::CeilingPair> ceilings;
  if (vm.count("peak-flops") != vm.count("bandwidth"))
    throw UsageError(std::string(vm.count("peak-flops") ? "--peak-flops needs --bandwidth" : "--bandwidth needs --peak-flops") +
                     "; allowed: both or neither");
  if (vm.count("peak-flops"))
    ceilings.push_back({"given", "-", positive_option(vm, "peak-flops", "FLOP/s > 0, e.g. 1036.8e9"),
                        positive_option(vm, "bandwidth", "B/s > 0, e.g. 119e9")});
  if (vm.count("file")) {
    // 4-byte words: the float ceilings (Andreolli et al.'s single-precision Iso3DFD).
    bool use_float = vm.count("word-bytes") && positive_option(vm, "word-bytes", "a size in bytes > 0") == 4;
    if (vm.count("type")) {
      const std::string t = lower_text(trim_text(vm["type"].as<std::string>()));
      if (t != "double" && t != "float")
        throw UsageError("--type: '" + vm["type"].as<std::string>() + "' is not a type; allowed: double, float");
      use_float = t == "float";
    }
    for (auto& pair : measured_ceilings(vm["file"].as<std::string>(), use_float)) ceilings.push_back(std::move(pair));
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
