#pragma once
// /stream/results as BabelStream's `--csv` prints it, for tools that read
// BabelStream output: the columns function, num_times, n_elements, sizeof,
// max_MB_per_sec, min_runtime, max_runtime, avg_runtime (MB = 1e6 bytes,
// runtimes in seconds over the repetitions after the first), then host,
// rank and type, which BabelStream does not have (one run is one device).
// STREAM's Scale is BabelStream's Mul (b = scalar * c); the other names agree.
#include <vector>

#include "core/Table.hpp"

namespace bws::stream {

Table babelstream_table(const std::vector<Table>& stream_results);

}  // namespace bws::stream
