#include "roofline/RooflinePlan.hpp"

#include <algorithm>
#include <cstdio>

#include "core/Errors.hpp"
#include "core/OptionText.hpp"
#include "core/Sizes.hpp"
#include "roofline/Gemm.hpp"
#include "stream/StreamPlan.hpp"
#include "topology/Topology.hpp"

namespace bws::roofline {
namespace {

constexpr std::uint64_t kPage = 4096;
constexpr std::uint64_t round_up(std::uint64_t x, std::uint64_t to) { return (x + to - 1) / to * to; }

std::string isas_allowed() {
  std::string text = "auto";
  for (VectorIsa isa : supported_isas()) text += ", " + std::string(isa_name(isa));
  return text;
}

VectorIsa parse_isa(const std::string& text, bool& is_auto) {
  const std::string t = lower_text(trim_text(text));
  is_auto = t == "auto";
  if (is_auto) return widest_supported_isa();
  const auto isa = isa_from_name(t);
  if (!isa)
    throw UsageError(option_flag(kIsaOption) + ": unknown instruction set '" + text + "'; allowed on this CPU: " +
                     isas_allowed());
  if (!isa_supported(*isa))
    throw UsageError(option_flag(kIsaOption) + ": '" + t + "' is not supported by this CPU (or its OS); allowed: " +
                     isas_allowed());
  return *isa;
}

// Bytes of every rank's matrices on the node for a size n.
void layout_gemm(RooflineParams& p, std::uint64_t n) {
  p.gemm_n = n;
  // One matrix, in double (float needs half): whole pages, then the offset.
  p.gemm_matrix_stride_bytes = round_up(matrix_bytes(n, StreamType::Double), kPage) + kMatrixOffsetBytes;
  // A, B and C of one thread, rounded to a page so each thread's area starts on its own page.
  p.gemm_thread_stride_bytes = round_up(3 * p.gemm_matrix_stride_bytes, kPage);
  p.gemm_buffer_bytes = static_cast<std::uint64_t>(p.threads) * p.gemm_thread_stride_bytes;
}

void resolve_gemm(RooflineParams& p, const Config& config, const NodeContext& node) {
  const std::string text = trim_text(option_text(config, kGemmNOption, kGemmNDefault));
  p.gemm_n_auto = lower_text(text) == "auto";
  std::uint64_t n = node.quick ? kQuickGemmN : kAutoGemmN;
  if (!p.gemm_n_auto) n = parse_whole_number(text, kGemmNOption, kMinGemmN, kMaxGemmN);
  if (!p.gemm) {  // nothing is allocated for it; the size is still checked
    p.gemm_n = n;
    return;
  }
  const std::uint64_t memory = node.topology.info().node_memory_bytes;
  const auto fits = [&](std::uint64_t size) {
    layout_gemm(p, size);
    return memory == 0 || static_cast<double>(p.gemm_buffer_bytes) * p.ranks_on_node <=
                              kGemmMemoryFraction * static_cast<double>(memory);
  };
  if (p.gemm_n_auto)
    while (n > kMinGemmN && !fits(n)) n /= 2;
  if (!fits(n)) {
    char share[64];
    std::snprintf(share, sizeof share, "%.0f%%", 100 * kGemmMemoryFraction);
    throw UsageError(option_flag(kGemmNOption) + " " + std::to_string(n) + ": 3 matrices of " +
                     format_bytes(static_cast<double>(matrix_bytes(n, StreamType::Double))) + " for each of " +
                     std::to_string(p.threads) + " threads x " + std::to_string(p.ranks_on_node) +
                     (p.ranks_on_node == 1 ? " rank" : " ranks") + " need " +
                     format_bytes(static_cast<double>(p.gemm_buffer_bytes) * p.ranks_on_node) + ", more than " +
                     share + " of this node's " + format_bytes(static_cast<double>(memory)) + "; allowed: " +
                     std::to_string(kMinGemmN) + ".." + std::to_string(kMaxGemmN) + " within that, or auto");
  }
}

// The Triad follows the STREAM options (so it measures what --tests stream
// measures on this rank), in double.
void resolve_triad(RooflineParams& p, const Config& config, const NodeContext& node) {
  Config triad_config = config;
  triad_config.set(stream::kTypeOption, "double");
  triad_config.set(stream::kNtimesOption, std::to_string(stream::kMinNtimes));  // its own reps count here
  const stream::StreamParams s = stream::plan_stream(triad_config, node);
  p.triad_elements = s.elements;
  p.triad_stores = s.runs.front().stores;
  p.triad_layout = s.runs.front().layout;
}

}  // namespace

void add_roofline_options(boost::program_options::options_description& desc) {
  add_text_option(desc, kIsaOption, kIsaDefault,
                  "Roofline: instruction set of the FMA peak kernel: auto (the widest this CPU and OS support), "
                  "avx512f, avx-fma, avx, sse2 or scalar");
  add_text_option(desc, kMinTimeOption, kMinTimeDefault,
                  "Roofline: seconds an FMA peak sample lasts at least (its loop count is calibrated); allowed "
                  "0.0001..60 (--quick with the default: 0.01)");
  add_text_option(desc, kRepsOption, kRepsDefault,
                  "Roofline: timed samples of each kernel (FMA, GEMM, Triad) after one warm-up, the best counts; "
                  "allowed 1..1000 (--quick with the default: 3)");
  add_text_option(desc, kGemmNOption, kGemmNDefault,
                  "Roofline: n of the n x n DGEMM/SGEMM each pinned thread runs (one BLAS thread each); 'auto' = "
                  "1024 (--quick: 512), halved until all ranks' matrices fit in 20% of the node's memory; allowed "
                  "64..16384. The Triad uses the --stream.elements, --stream.stores and --stream.offset-bytes rules, "
                  "in double");
}

RooflineParams plan_roofline(const Config& config, const NodeContext& node) {
  RooflineParams p;
  p.threads = std::max(1, node.threads);
  p.ranks_on_node = std::max(1, node.ranks_on_node);
  p.isa = parse_isa(option_text(config, kIsaOption, kIsaDefault), p.isa_auto);

  const std::string min_time_allowed = "0.0001..60 seconds";
  p.min_time_seconds = parse_real_number(option_text(config, kMinTimeOption, kMinTimeDefault), kMinTimeOption,
                                         min_time_allowed);
  if (p.min_time_seconds < kMinMinTimeSeconds || p.min_time_seconds > kMaxMinTimeSeconds)
    throw UsageError(option_flag(kMinTimeOption) + ": '" + option_text(config, kMinTimeOption, kMinTimeDefault) +
                     "' is out of range; allowed: " + min_time_allowed);
  if (node.quick && option_defaulted(config, kMinTimeOption)) p.min_time_seconds = kQuickMinTimeSeconds;

  p.reps = static_cast<int>(
      parse_whole_number(option_text(config, kRepsOption, kRepsDefault), kRepsOption, kMinReps, kMaxReps));
  if (node.quick && option_defaulted(config, kRepsOption)) p.reps = kQuickReps;

  p.gemm = blas_available();
  resolve_gemm(p, config, node);
  resolve_triad(p, config, node);
  return p;
}

std::string describe_roofline(const RooflineParams& p) {
  char text[320];
  std::snprintf(text, sizeof text, "%s FMA peak (%g s samples), %s, Triad %llu elements/array (%s stores), %d repetitions",
                std::string(isa_name(p.isa)).c_str(), p.min_time_seconds,
                p.gemm ? ("DGEMM/SGEMM n=" + std::to_string(p.gemm_n) + " per thread").c_str()
                       : "no GEMM (built without a BLAS)",
                static_cast<unsigned long long>(p.triad_elements), std::string(stream::store_name(p.triad_stores)).c_str(),
                p.reps);
  return text;
}

}  // namespace bws::roofline
