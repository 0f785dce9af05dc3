#pragma once
// Turns one type's measurement on one rank into rows: four result rows
// (with all samples), a validation check per array, and a rate-ceiling
// check per row. A failed check marks rows valid=0: an array that does not
// validate invalidates every row of its type; an impossible rate its row.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/RankIdentity.hpp"
#include "core/Table.hpp"
#include "stream/StreamDevice.hpp"
#include "stream/StreamTypes.hpp"
#include "stream/StreamValidation.hpp"

namespace bws::stream {

// Above threads x 1 TB/s no DRAM or cache delivers: such a rate means the
// timing or the kernel is broken, and it is an error, not a result.
inline constexpr double kRateCeilingPerThreadBps = 1e12;

struct StreamTypeMeasurement {
  StreamType type = StreamType::Double;
  std::string stores;   // StreamDeviceArrays::stores()
  std::string variant;  // StreamDeviceArrays::variant()
  std::uint64_t elements = 0;
  int reps = 0;  // repetitions, the first dropped
  std::vector<StreamOp> ops;                 // in the order they ran
  std::vector<std::vector<double>> seconds;  // per entry of ops: all reps samples
  StreamValidation validation;
};

// Appends to `results` (make_stream_results_table) and `checks`
// (make_checks_table): a row per operation, named by the device's backend.
void add_stream_results(Table& results, Table& checks, const RankIdentity& who, const StreamDeviceInfo& device,
                        const StreamTypeMeasurement& m);

}  // namespace bws::stream
