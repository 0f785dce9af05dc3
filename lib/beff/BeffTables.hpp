#pragma once
// b_eff's tables (columns in docs/hdf5-schema.md, "b_eff"): every sample,
// the best per ring and size, one summary row per ring, the rings'
// permutations, and the payload checks. Rank 0 builds them.
#include <cstdint>
#include <limits>
#include <string>

#include "beff/BeffMeasurement.hpp"
#include "beff/BeffResults.hpp"
#include "core/Table.hpp"

namespace bws::beff {

inline constexpr const char* kResultsPath = "beff/results";
inline constexpr const char* kSizesPath = "beff/sizes";
inline constexpr const char* kSummaryPath = "beff/summary";
inline constexpr const char* kRingsPath = "beff/rings";
inline constexpr const char* kRanksPath = "beff/ranks";
inline constexpr const char* kPayloadCheck = "beff.payload";

Table make_beff_results_table();
Table make_beff_sizes_table();
Table make_beff_summary_table();
Table make_beff_rings_table();
// One row per rank: its own b_eff on its best ring (own_beff_Bps).
Table make_beff_ranks_table();

// "natural ring", "random ring 2", "reference ring"
std::string ring_label(int ring_index, RingKind kind);

// Which path the messages took (the last column of every b_eff table):
// "host", or "device" (HPCC_FPGA's PCIe path, through `device`).
struct PathLabel {
  std::string path = "host";
  std::string device;  // the device of rank 0, "" on the host path
  bool on_device() const { return path != "host"; }
  // results' backend column: "mpi", or "mpi+ocl" through device buffers
  std::string backend() const { return on_device() ? "mpi+ocl" : "mpi"; }
  // check subjects: "" or "device path: "
  std::string subject_prefix() const { return on_device() ? path + " path: " : ""; }
};

// One row per method and repetition of every size: a sample of the whole
// ring, so rank = -1 (all ranks) and host = rank 0's host.
void add_result_rows(Table& results, const RingMeasurement& measurement, const std::string& host,
                     const PathLabel& path = {});
void add_size_rows(Table& sizes, const RingResult& ring, const PathLabel& path = {});

struct SummaryExtras {
  std::uint64_t seed = 0;
  std::string reference;  // which ranks the reference ring had
  double reference_per_rank_Bps = 0;
  double efficiency = 0;
  double min_efficiency = 0;
  int scaling_passed = -1;  // 1/0 on the checked (natural) ring, -1 on the others
  bool scaling_enforced = false;
  double model_b_eff_Bps = std::numeric_limits<double>::quiet_NaN();  // --beff.model's expected b_eff; NaN when off
  double model_ratio = std::numeric_limits<double>::quiet_NaN();      // b_eff / model_b_eff_Bps
  std::string model_verdict;  // the model's curve against the measured t(L): "result", "warning",
  std::string model_quality;  // "withheld" and the reason; both empty when --beff.model is off
  bool huge_pages = false;  // 2 MiB pages were requested for the message buffers  // the check's failure counts (natural ring, nodes not oversubscribed)
};
void add_summary_row(Table& summary, const RingResult& ring, const SummaryExtras& extras, const PathLabel& path = {});

void add_ring_rows(Table& rings, const Ring& ring, std::uint64_t seed, const PathLabel& path = {});

// A failed "beff.payload" validation row per ring, size and method whose
// messages did not all check out (naming ring, size, method, the first
// failing rank and what was wrong); one passed row per ring otherwise.
void add_payload_checks(Table& checks, const RingMeasurement& measurement, const PathLabel& path = {});

}  // namespace bws::beff
