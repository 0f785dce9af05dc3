#include "stream/StreamResults.hpp"

#include <cmath>
#include <limits>

#include "core/ResultColumns.hpp"
#include "stream/StreamKernelTable.hpp"
#include "stream/StreamTables.hpp"
#include "stream/StreamTimeStats.hpp"

namespace bws::stream {

void add_stream_results(Table& results, Table& checks, const RankIdentity& who, const StreamTypeMeasurement& m) {
  const std::string type(type_name(m.type));
  const std::string subject_prefix = "rank " + std::to_string(who.rank) + " (" + who.host + ") " + type;

  for (const ArrayValidation& v : m.validation.arrays)
    add_check(checks, {.check = "stream.validation",
                       .subject = subject_prefix + " array " + array_letter(v.array),
                       .kind = "validation",
                       .measured = v.avg_rel_error,
                       .expected = 0,
                       .lower = 0,
                       .upper = v.limit,
                       .unit = "",
                       .passed = v.passed});

  const double ceiling_Bps = kRateCeilingPerThreadBps * who.threads;
  for (const StreamKernelSpec& spec : kStreamKernels) {
    const std::vector<double>& seconds = m.seconds[static_cast<std::size_t>(spec.kernel)];
    const TimeStats t = time_stats_after_warmup(seconds);
    const std::uint64_t bytes = kernel_bytes(spec.kernel, m.elements, element_bytes(m.type));
    const double bandwidth_Bps =
        t.min_seconds > 0 ? static_cast<double>(bytes) / t.min_seconds : std::numeric_limits<double>::infinity();
    const bool plausible = std::isfinite(bandwidth_Bps) && bandwidth_Bps <= ceiling_Bps;
    add_check(checks, {.check = "stream.rate_ceiling",
                       .subject = subject_prefix + " " + std::string(spec.label),
                       .kind = "validation",
                       .measured = bandwidth_Bps,
                       .expected = 0,
                       .lower = 0,
                       .upper = ceiling_Bps,
                       .unit = "B/s",
                       .passed = plausible});

    results.add_row({{"rank", who.rank},
                     {"host", who.host},
                     {"backend", kBackendCpu},
                     {"kernel", spec.label},
                     {"threads", who.threads},
                     {"type", type},
                     {"stores", store_name(m.stores)},
                     {"elements", m.elements},
                     {"ntimes", m.ntimes},
                     {"avg_rel_error", m.validation.of(spec.written).avg_rel_error},
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
