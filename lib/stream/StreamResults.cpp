#include "stream/StreamResults.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/ResultColumns.hpp"
#include "stream/StreamKernelTable.hpp"
#include "stream/StreamTables.hpp"
#include "core/SampleStats.hpp"

namespace bws::stream {
namespace {

// The error of the array an operation writes; a transfer moves all three:
// the largest.
double error_of(StreamOp op, const StreamValidation& v) {
  if (op_spec(op).transfer) {
    double largest = 0;
    for (const ArrayValidation& a : v.arrays) largest = std::max(largest, a.avg_rel_error);
    return largest;
  }
  return v.of(kernel_spec(kernel_of(op)).written).avg_rel_error;
}

}  // namespace

void add_stream_results(Table& results, Table& checks, const RankIdentity& who, const StreamDeviceInfo& device,
                        const StreamTypeMeasurement& m) {
  const std::string type(type_name(m.type));
  std::string subject_prefix = "rank " + std::to_string(who.rank) + " (" + who.host + ") ";
  if (device.backend != kBackendCpu) subject_prefix += device.backend + " " + device.device + " ";
  subject_prefix += type;
  // A device's rows say which rule judged them (HPCC_FPGA used another).
  const std::string rule_text = device.backend == kBackendCpu ? "" : std::string(": ") + kStreamValidationRuleText;

  for (const ArrayValidation& v : m.validation.arrays)
    add_check(checks, {.check = "stream.validation",
                       .subject = (subject_prefix + " array " + array_letter(v.array) + rule_text).substr(0, 160),
                       .kind = "validation",
                       .measured = v.avg_rel_error,
                       .expected = 0,
                       .lower = 0,
                       .upper = v.limit,
                       .unit = "",
                       .passed = v.passed});

  for (std::size_t i = 0; i < m.ops.size(); ++i) {
    const StreamOpSpec& spec = op_spec(m.ops[i]);
    const std::vector<double>& seconds = m.seconds[i];
    const TimeStats t = time_stats(seconds, 1);  // the first repetition is the warm-up
    const std::uint64_t bytes = op_bytes(spec.op, m.elements, element_bytes(m.type));
    const double bandwidth_Bps =
        t.min_seconds > 0 ? static_cast<double>(bytes) / t.min_seconds : std::numeric_limits<double>::infinity();
    const bool plausible = std::isfinite(bandwidth_Bps) && bandwidth_Bps <= device.ceiling_Bps;
    add_check(checks, {.check = "stream.rate_ceiling",
                       .subject = (subject_prefix + " " + std::string(spec.label)).substr(0, 160),
                       .kind = "validation",
                       .measured = bandwidth_Bps,
                       .expected = 0,
                       .lower = 0,
                       .upper = device.ceiling_Bps,
                       .unit = "B/s",
                       .passed = plausible});

    results.add_row({{"rank", who.rank},
                     {"host", who.host},
                     {"backend", device.backend},
                     {"kernel", std::string(spec.label)},
                     {"threads", device.threads},
                     {"device", device.device},
                     {"type", type},
                     {"stores", m.stores},
                     {"variant", m.variant},
                     {"elements", m.elements},
                     {"reps", m.reps},
                     {"avg_rel_error", error_of(spec.op, m.validation)},
                     {"error_limit", m.validation.arrays[0].limit},
                     {"ceiling", device.ceiling_Bps},
                     {"bytes", bytes},
                     {"t_min", t.min_seconds},
                     {"t_avg", t.avg_seconds},
                     {"t_max", t.max_seconds},
                     {"bandwidth", bandwidth_Bps},
                     {"valid", m.validation.passed() && plausible}},
                    seconds);
  }
}

}  // namespace bws::stream
