#pragma once
// Turns one type's measurement on one rank into rows: four result rows
// (with all samples), a validation check per array, and a rate-ceiling
// check per row. A failed check marks rows valid=0: an array that does not
// validate invalidates every row of its type; an impossible rate its row.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/Table.hpp"
#include "stream/StreamTypes.hpp"
#include "stream/StreamValidation.hpp"

namespace bws::stream {

// Above threads x 1 TB/s no DRAM or cache delivers: such a rate means the
// timing or the kernel is broken, and it is an error, not a result.
inline constexpr double kRateCeilingPerThreadBps = 1e12;

struct RankIdentity {
  int rank = 0;
  std::string host;
  int threads = 1;
};

struct StreamTypeMeasurement {
  StreamType type = StreamType::Double;
  StoreKind stores = StoreKind::Normal;
  std::uint64_t elements = 0;
  int ntimes = 0;
  std::array<std::vector<double>, 4> seconds;  // per kernel in table order: all ntimes samples
  StreamValidation validation;
};

// Appends to `results` (make_stream_results_table) and `checks` (make_checks_table).
void add_stream_results(Table& results, Table& checks, const RankIdentity& who, const StreamTypeMeasurement& m);

}  // namespace bws::stream
