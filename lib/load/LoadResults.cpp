#include "load/LoadResults.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "core/NodeAggregate.hpp"
#include "core/ResultColumns.hpp"
#include "core/SampleStats.hpp"
#include "load/LoadTables.hpp"

namespace bws::load {

void add_load_results(Table& results, Table& checks, const RankIdentity& who, std::uint64_t elements, int reps,
                      const KernelMeasurement& m) {
  const std::string kernel(spec_of(m.kernel).name);
  const double expected = expected_checksum(m.kernel, elements, reps);
  const bool correct = m.checksum == expected;
  add_check(checks, {.check = "load.validation",
                     .subject = "rank " + std::to_string(who.rank) + " (" + who.host + ") " + kernel,
                     .kind = "validation",
                     .measured = m.checksum,
                     .expected = expected,
                     .lower = expected,
                     .upper = expected,
                     .unit = "",
                     .passed = correct});
  const std::uint64_t read = bytes_read(m.kernel, elements), written = bytes_written(m.kernel, elements);
  const TimeStats t = time_stats(m.seconds, 1);  // pass 0 is the warm-up
  const double rate = bandwidth_Bps(static_cast<double>(read + written), t.min_seconds);
  results.add_row({{"rank", who.rank},
                   {"host", who.host},
                   {"backend", "cpu"},  // the pinned Team; no device backend yet
                   {"kernel", kernel},
                   {"threads", who.threads},
                   {"elements", elements},
                   {"reps", reps},
                   {"bytes_read", read},
                   {"bytes_written", written},
                   {"checksum", m.checksum},
                   {"expected_checksum", expected},
                   {"bytes", read + written},
                   {"t_min", t.min_seconds},
                   {"t_avg", t.avg_seconds},
                   {"t_max", t.max_seconds},
                   {"bandwidth", rate},
                   {"valid", correct && std::isfinite(rate)}},
                  m.seconds);
}

std::vector<Table> summarize_load_node(const std::vector<Table>& rank_tables) {
  // Per kernel, in the order the first rank's rows name them.
  struct Kernel {
    std::string host;
    std::int64_t ranks = 0, threads = 0, elements = 0, bytes = 0;
    bool valid = true;
    NodeAggregate passes{1};  // pass 0 is the warm-up
  };
  std::vector<std::string> order;
  std::map<std::string, Kernel> kernels;
  for (const Table& t : rank_tables) {
    if (t.path() != kResultsPath) continue;
    for (std::size_t r = 0; r < t.rows(); ++r) {
      const std::string name = t.get_string(r, "kernel");
      if (!kernels.count(name)) order.push_back(name);
      Kernel& k = kernels[name];
      k.host = t.get_string(r, "host");
      k.ranks += 1;
      k.threads += t.get_int(r, "threads");
      k.elements += t.get_int(r, "elements");
      k.bytes += t.get_int(r, "bytes");
      k.valid = k.valid && t.get_int(r, "valid") != 0;
      k.passes.add_row(t, r, "bytes");
    }
  }
  if (order.empty()) return {};
  Table nodes = make_load_nodes_table();
  for (const std::string& name : order) {
    const Kernel& k = kernels.at(name);
    const TimeStats t = k.passes.times();
    const double rate = k.passes.rate();
    nodes.add_row({{"host", k.host}, {"ranks", k.ranks}, {"threads", k.threads}, {"kernel", name},
                   {"elements", k.elements}, {"bytes", k.bytes}, {"t_min", t.min_seconds},
                   {"t_avg", t.avg_seconds}, {"t_max", t.max_seconds}, {"bandwidth", rate},
                   {"valid", k.valid && std::isfinite(rate)}});
  }
  return {std::move(nodes)};
}

}  // namespace bws::load
