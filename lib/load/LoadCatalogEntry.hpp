#pragma once
// lib/load, the worked example of a benchmark folder (docs/ARCHITECTURE.md):
// likwid-bench's streaming kernels on NUMA-local arrays of doubles, every
// kernel one row of a table (LoadKernels.cpp), as BabelStream keeps its
// kernels and likwid-bench its .ptt files. Everything else (options,
// validation, placement, the tables, the node summary, the report, the
// flags) is generic over the rows (LoadBenchmark.cpp).
//
// Bytes are counted as likwid-bench and STREAM count them: what the loop
// reads and writes, without write-allocate traffic. Array k starts as
// initial_value(k, i) = 1 + k + i%4 / 4 and every scalar keeps every value
// a multiple of 1/8, so sums are exact in double in any order and
// validation compares checksums for equality.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string_view>
#include <vector>

#include "core/CatalogEntry.hpp"
#include "core/RankIdentity.hpp"
#include "core/RunContext.hpp"
#include "core/Table.hpp"

namespace bws::topo {
class Team;
}

namespace bws::load {

inline constexpr int kMaxArrays = 4;

// One streaming kernel: element i of the arrays depends on element i alone.
struct StreamingKernel {
  std::string_view name;     // the --load.kernels word and the tables' kernel text
  std::string_view formula;  // one element's work, for --help
  int arrays = 1;            // the arrays it uses: a, b, ... (at most kMaxArrays)
  int reads = 0;             // doubles read per element
  int writes = 0;            // doubles written per element (write-allocate not counted)
  // The loop over [begin, end) of the arrays x[0..arrays). A kernel that
  // writes nothing returns its sum (validated every pass, and stored, so the
  // loop cannot be dropped); a kernel that writes returns 0 and the arrays'
  // sum is validated after its passes.
  double (*loop)(double* const* x, std::size_t begin, std::size_t end) = nullptr;
  bool by_default = true;  // in --load.kernels' default (else only when named, or 'all')
  bool reduces() const { return writes == 0; }
};

// The table, in the order kernels run and appear in tables.
std::span<const StreamingKernel> streaming_kernels();
std::uint64_t bytes_read(const StreamingKernel& kernel, std::uint64_t n);
std::uint64_t bytes_written(const StreamingKernel& kernel, std::uint64_t n);

double initial_value(int array, std::uint64_t i);
// The checksum a kernel leaves on n elements after `passes` passes from the
// initial values: the sum it returns, or the sum of all its arrays. Worked
// out by running its own loop on one period (4 elements) of the arrays.
double expected_checksum(const StreamingKernel& kernel, std::uint64_t n, int passes);

// Every thread its share of the arrays (first touch: NUMA placement).
void initialize_on_team(topo::Team& team, double* const* x, int arrays, std::size_t n);

// One kernel's passes on one rank, each a timed window on the Team
// (topology/TimedWindow.hpp) after the node's ranks met.
struct KernelMeasurement {
  const StreamingKernel* kernel = nullptr;
  std::vector<double> seconds;  // every pass, the warm-up first
  double checksum = 0;          // the last (or first wrong) pass's sum, or the arrays' sum after the passes
};
KernelMeasurement measure_on_team(topo::Team& team, RunContext& context, double* const* x, std::size_t n,
                                  const StreamingKernel& kernel, int passes, const std::function<void(int)>& after_pass);

inline constexpr const char *kResultsPath = "load/results", *kTimesPath = "load/times", *kNodesPath = "load/nodes";
Table make_load_results_table();
// One /load/results row (pass 0 dropped as a warm-up) and one /checks row.
void add_load_results(Table& results, Table& checks, const RankIdentity& who, std::uint64_t elements, int reps,
                      const KernelMeasurement& m);

CatalogEntry catalog_entry();

}  // namespace bws::load
