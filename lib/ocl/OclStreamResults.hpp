#pragma once
// Device STREAM's operations as data, its tables and how one rank's
// measurement becomes rows. Seed 000 / HPCC_FPGA run, per repetition,
// PCI write (the three arrays to the device), Copy, Scale, Add, Triad and
// PCI read (the three arrays back); the rate of each is
//     bytes = multiplier x elements x sizeof(type),  rate = bytes / min time
// with the multipliers PCI write 3, Copy 2, Scale 2, Add 3, Triad 3, PCI
// read 3 (every array element read once and written once, no write-allocate).
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/Table.hpp"
#include "ocl/OclStreamPlan.hpp"
#include "stream/StreamValidation.hpp"

namespace bws::ocl {

enum class OclStreamOp { PciWrite, Copy, Scale, Add, Triad, PciRead };
inline constexpr std::size_t kOclStreamOps = 6;

struct OclStreamOpSpec {
  OclStreamOp op;
  const char* label;   // the kernel column, HPCC_FPGA's names
  const char* what;
  int byte_multiplier;
};

inline constexpr std::array<OclStreamOpSpec, kOclStreamOps> kOclStreamOpSpecs = {{
    // PCI write: A, B, C host -> device                  = 3 arrays
    {OclStreamOp::PciWrite, "PCI_write", "A, B, C host -> device", 3},
    // Copy  C = A: reads A (1) + writes C (1)             = 2
    {OclStreamOp::Copy, "Copy", "C = A", 1 + 1},
    // Scale B = s*C: reads C (1) + writes B (1)           = 2
    {OclStreamOp::Scale, "Scale", "B = s*C", 1 + 1},
    // Add   C = A+B: reads A (1) + reads B (1) + writes C (1) = 3
    {OclStreamOp::Add, "Add", "C = A + B", 2 + 1},
    // Triad A = B+s*C: reads B (1) + reads C (1) + writes A (1) = 3
    {OclStreamOp::Triad, "Triad", "A = B + s*C", 2 + 1},
    // PCI read: A, B, C device -> host                   = 3 arrays
    {OclStreamOp::PciRead, "PCI_read", "A, B, C device -> host", 3},
}};

inline const OclStreamOpSpec& op_spec(OclStreamOp op) { return kOclStreamOpSpecs[static_cast<std::size_t>(op)]; }

inline std::uint64_t op_bytes(OclStreamOp op, std::uint64_t elements, std::size_t element_bytes) {
  return static_cast<std::uint64_t>(op_spec(op).byte_multiplier) * elements * element_bytes;
}

// Validation as seed 000 / HPCC_FPGA (STREAM's checkSTREAMresults): the
// host replays the untimed test run (A doubled) and the repetitions on
// scalars and judges the arrays by the CPU backend's rule
// (stream::judge_stream_run: STREAM 5.10's limit per type, or
// --stream.validate-epsilon), not HPCC_FPGA's machine epsilon.
inline constexpr const char* kEpsilonRule = stream::kStreamValidationRuleText;

// One rank's device STREAM: every repetition's time per operation, the
// validation, and the smallest and largest value of each array at the end
// (all equal to the expected value when the run is right).
struct OclStreamMeasurement {
  std::array<std::vector<double>, kOclStreamOps> seconds;  // per op, ntimes samples
  stream::StreamValidation validation;
  std::array<double, 3> array_min{}, array_max{};  // A, B, C after the last PCI read
};

inline constexpr const char* kStreamResultsPath = "ocl/stream/results";
inline constexpr const char* kStreamTimesPath = "ocl/stream/times";
inline constexpr const char* kStreamNodesPath = "ocl/stream/nodes";
inline constexpr const char* kBackendOcl = "ocl";

Table make_ocl_stream_results_table();
Table make_ocl_stream_nodes_table();

struct OclRankIdentity {
  int rank = 0;
  std::string host;
  int compute_units = 1;  // the threads column
  std::string device;     // device label
};

// Appends 6 rows (every sample kept), a validation check per array and a
// rate-ceiling check per row; rows are invalid when the arrays do not
// validate or the row's rate is above ceiling_Bps.
void add_ocl_stream_results(Table& results, Table& checks, const OclRankIdentity& who, const OclStreamParams& params,
                            const OclStreamMeasurement& m, double ceiling_Bps);

// The node's aggregate per operation (rows of one node's ranks, in rank
// order): the ranks start every operation together (a node barrier), so a
// repetition's node time is the slowest rank's; bandwidth = summed bytes /
// best such time.
std::vector<Table> summarize_ocl_stream_node(const std::vector<Table>& rank_tables);

}  // namespace bws::ocl
