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

VectorIsa supported_isa(const RooflineOptions& o) {
  const std::optional<VectorIsa>& isa = o.isa;
  if (!isa) return widest_supported_isa();
  if (!isa_supported(*isa))
    throw UsageError(o.flag(&RooflineOptions::isa) + ": '" + std::string(isa_name(*isa)) +
                     "' is not supported by this CPU (or its OS); allowed: " + isas_allowed());
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

void resolve_gemm(RooflineParams& p, const RooflineOptions& o, const NodeContext& node) {
  p.gemm_n_auto = !o.gemm_n.has_value();
  const std::uint64_t n_auto = node.quick ? kQuickGemmN : kAutoGemmN;
  std::uint64_t n = o.gemm_n.value_or(n_auto);
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
    throw UsageError(o.flag(&RooflineOptions::gemm_n) + " " + std::to_string(n) + ": 3 matrices of " +
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
void resolve_triad(RooflineParams& p, const stream::StreamOptions& options, const NodeContext& node) {
  stream::StreamCommonParams triad;
  triad.types = {StreamType::Double};
  triad.reps = stream::kMinReps;  // its own reps count here
  triad.validation = options.validation;
  const stream::StreamParams s = stream::plan_stream(options, node, triad);
  p.triad_elements = s.elements;
  p.triad_stores = s.runs.front().stores;
  p.triad_layout = s.runs.front().layout;
}

}  // namespace

RooflineParams plan_roofline(const Config& config, const NodeContext& node) {
  return plan_roofline(roofline_schema().read(config, node.quick), stream::stream_schema().read(config, node.quick),
                       node);
}

RooflineParams plan_roofline(const RooflineOptions& o, const stream::StreamOptions& stream_options,
                             const NodeContext& node) {
  RooflineParams p;
  p.threads = std::max(1, node.threads);
  p.ranks_on_node = std::max(1, node.ranks_on_node);
  p.isa_auto = !o.isa.has_value();
  p.isa = supported_isa(o);
  p.min_time_seconds = o.min_time_seconds;
  p.reps = o.reps;
  p.gemm = blas_available();
  resolve_gemm(p, o, node);
  resolve_triad(p, stream_options, node);
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

namespace {
constexpr double kAssumedThreadFlops = 10e9;  // GEMM: a core's order of magnitude (no FLOP probe)
constexpr double kFmaCalibrationShare = 1.5, kFmaSampleShare = 1.1;
}  // namespace

TimeEstimate estimate_roofline(const RooflineParams& p, const MachineSpeed& s) {
  const double fma = 2 * (kFmaCalibrationShare + p.reps * kFmaSampleShare) * p.min_time_seconds;
  const double n = static_cast<double>(p.gemm_n);
  const double gemm = p.gemm ? 2 * (p.reps + 1) * 2 * n * n * n / kAssumedThreadFlops : 0;
  const double triad = (p.reps + 1) * 3.0 * 8 * static_cast<double>(p.triad_elements) / s.memory_Bps;
  const double touch = static_cast<double>(p.memory_bytes()) / s.first_touch_Bps;
  TimeEstimate e;
  e.seconds = fma + gemm + triad + touch;
  char terms[200];
  std::snprintf(terms, sizeof terms, "FMA 2 types x %d reps of >= %g s: %s, GEMM %s, Triad %s, first touch %s", p.reps,
                p.min_time_seconds, duration_text(fma).c_str(), duration_text(gemm).c_str(),
                duration_text(triad).c_str(), duration_text(touch).c_str());
  e.terms = terms;
  return e;
}

}  // namespace bws::roofline
