#pragma once
// The resolved plan of one rank, from pmbw's typed options (PmbwOptions.hpp): the routines this CPU runs, the sizes of pmbw's table in
// range, the thread counts, the calibration target and repetitions, and the
// memory it needs. Every bad value is a UsageError of one line naming the
// option and what is allowed (for routines: what this CPU has).
#include "core/ProgramOptionsFwd.hpp"
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/Benchmark.hpp"
#include "core/Config.hpp"
#include "pmbw/PmbwOptions.hpp"
#include "pmbw/PmbwRoutines.hpp"

namespace bws::pmbw {

inline constexpr std::uint64_t kAutoMaxSizeBytes = 1ull << 30;   // pmbw's default limit is 4 GiB; 1 GiB per rank
inline constexpr std::uint64_t kQuickLlcMultiple = 4;            // --quick: up to 4x the LLC (a RAM point)
inline constexpr double kAutoMemoryFraction = 0.40;              // auto: all ranks of a node within 40% of memory
inline constexpr double kMaxMemoryFraction = 0.80;               // explicit sizes: within 80%

struct PmbwParams {
  std::vector<const PmbwRoutine*> routines;  // in the table's order
  std::vector<std::uint64_t> sizes;          // area bytes, ascending
  std::vector<int> thread_counts;            // ascending, each <= threads
  int threads = 1;                           // the rank's Team
  int ranks_on_node = 1;
  std::uint64_t min_size = 0, max_size = 0;
  bool max_size_auto = true;
  double min_time_seconds = 1.0;
  int reps = 3;  // timed samples kept per point
  std::uint64_t seed = 1;
  std::string stats_path;                    // --pmbw.stats, empty: none
  std::uint64_t buffer_bytes = 0;            // the largest layout of any routine, size and thread count
  std::uint64_t llc_bytes = 0;               // the rank's last-level cache (0: unknown): what is "in memory"
  std::string fitted;                        // what --time-budget changed, "" when nothing
  std::map<std::string, std::string> chosen;  // option -> the value --time-budget chose (the stored /config)
  std::uint64_t memory_bytes() const { return buffer_bytes; }
};

// Resolves the options against this rank's node; throws UsageError.
PmbwParams plan_pmbw(const PmbwOptions& options, const NodeContext& node);
// The same from the Config: pmbw_schema().read, then the plan.
PmbwParams plan_pmbw(const Config& config, const NodeContext& node);
std::string describe_pmbw(const PmbwParams& params);
// The largest layout of any routine, size and thread count of the plan.
std::uint64_t pmbw_buffer_bytes(const PmbwParams& params);
// "--pmbw.routines list": the routines of this build and whether this CPU
// runs them, one per line.
std::string routine_listing(const PmbwCpuFeatures& cpu);
bool listing_requested(const PmbwOptions& options);

// "all" (every routine `cpu` runs), pmbw names, or ~TEXT (names holding
// TEXT), comma-separated, from options.routines; in the table's order.
// Throws UsageError naming the option as typed and listing what this CPU has.
std::vector<const PmbwRoutine*> parse_routines(const PmbwOptions& options, const PmbwCpuFeatures& cpu);

// Parses options.threads, "1..4", "1-4", "1,2,4" or "auto" (1..max), into
// ascending counts; options.quadratic: 1, 2, 4, ... and max. Throws
// UsageError naming the option as typed.
std::vector<int> parse_thread_counts(const PmbwOptions& options, int max_threads);

}  // namespace bws::pmbw
