#pragma once
// pmbw's tables: /pmbw/results, one row per rank, routine, thread count and
// size (samples in /pmbw/times), with pmbw's quantities under their own
// names (areasize, threadsize, testsize, repeats, testvol = bytes); the
// per-rank plateaus /pmbw/plateaus; the per-node /pmbw/nodes.
#include <cstdint>
#include <string>

#include "core/RankIdentity.hpp"
#include "core/Table.hpp"
#include "pmbw/PmbwMeasure.hpp"

namespace bws::pmbw {

inline constexpr const char* kResultsPath = "pmbw/results";
inline constexpr const char* kTimesPath = "pmbw/times";
inline constexpr const char* kPlateausPath = "pmbw/plateaus";
inline constexpr const char* kNodesPath = "pmbw/nodes";
inline constexpr const char* kBackendCpu = "cpu";

Table make_pmbw_results_table();
Table make_pmbw_plateaus_table();
Table make_pmbw_nodes_table();

// bandwidth = bytes / t_min (pmbw: testvol / time); access_seconds =
// t_min / accesses of all threads (pmbw's "rate"); thread_access_seconds =
// t_min / accesses of one thread (the latency a thread sees in a Perm walk).
void add_pmbw_point(Table& results, const RankIdentity& who, const PmbwPoint& point);

}  // namespace bws::pmbw
