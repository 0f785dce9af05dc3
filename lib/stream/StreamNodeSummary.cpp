#include "stream/StreamNodeSummary.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <string>

#include "stream/StreamTables.hpp"
#include "core/SampleStats.hpp"

namespace bws::stream {
namespace {

// One (backend, type, kernel) of the node, gathered over its ranks.
struct NodeRow {
  std::string backend, type, kernel, host;
  std::set<std::string> stores, devices;
  std::set<std::int64_t> ranks;
  std::int64_t threads = 0, elements = 0, bytes = 0;
  bool valid = true;
  std::vector<double> node_seconds;  // per repetition: the slowest rank's time
  bool have_samples = true;
  TimeStats slowest_rank_stats{0, 0, 0, 0};  // used only when a rank table came without samples
};

void add_rank_row(NodeRow& n, const Table& t, std::size_t r) {
  n.host = t.get_string(r, "host");
  n.stores.insert(t.get_string(r, "stores"));
  n.devices.insert(t.get_string(r, "device"));
  n.ranks.insert(t.get_int(r, "rank"));
  n.threads += t.get_int(r, "threads");
  n.elements += t.get_int(r, "elements");
  n.bytes += t.get_int(r, "bytes");
  n.valid = n.valid && t.get_int(r, "valid") != 0;

  const std::vector<double>& s = t.samples(r);
  n.slowest_rank_stats.min_seconds = std::max(n.slowest_rank_stats.min_seconds, t.get_double(r, "t_min"));
  n.slowest_rank_stats.avg_seconds = std::max(n.slowest_rank_stats.avg_seconds, t.get_double(r, "t_avg"));
  n.slowest_rank_stats.max_seconds = std::max(n.slowest_rank_stats.max_seconds, t.get_double(r, "t_max"));
  if (s.size() < 2) {
    n.have_samples = false;
    return;
  }
  if (n.ranks.size() == 1) {
    n.node_seconds = s;
  } else {
    // Ranks ran the same repetitions; a shorter vector would be a broken
    // table: keep the repetitions every rank has.
    n.node_seconds.resize(std::min(n.node_seconds.size(), s.size()));
    for (std::size_t k = 0; k < n.node_seconds.size(); ++k) n.node_seconds[k] = std::max(n.node_seconds[k], s[k]);
  }
}

std::string joined(const std::set<std::string>& names) {
  std::string text;
  for (const std::string& s : names) text += (text.empty() ? "" : "+") + s;
  return text;
}

}  // namespace

std::vector<Table> summarize_stream_node(const std::vector<Table>& rank_tables) {
  std::vector<NodeRow> rows;  // in the order of the first rank's rows
  for (const Table& t : rank_tables) {
    if (t.path() != kResultsPath) continue;
    for (std::size_t r = 0; r < t.rows(); ++r) {
      const std::string backend = t.get_string(r, "backend");
      const std::string type = t.get_string(r, "type"), kernel = t.get_string(r, "kernel");
      auto it = std::find_if(rows.begin(), rows.end(), [&](const NodeRow& n) {
        return n.backend == backend && n.type == type && n.kernel == kernel;
      });
      if (it == rows.end()) {
        it = rows.emplace(rows.end());
        it->backend = backend;
        it->type = type;
        it->kernel = kernel;
      }
      add_rank_row(*it, t, r);
    }
  }
  if (rows.empty()) return {};

  Table nodes = make_stream_nodes_table();
  for (const NodeRow& n : rows) {
    const TimeStats t = n.have_samples ? time_stats(n.node_seconds, 1) : n.slowest_rank_stats;
    // ranks that chose differently show as "normal+nontemporal"
    const std::string stores = joined(n.stores), devices = joined(n.devices).substr(0, kDeviceWidth - 1);
    const double bandwidth_Bps =
        t.min_seconds > 0 ? static_cast<double>(n.bytes) / t.min_seconds : std::numeric_limits<double>::infinity();
    nodes.add_row({{"host", n.host},
                   {"backend", n.backend},
                   {"ranks", n.ranks.size()},
                   {"threads", n.threads},
                   {"devices", n.devices.size()},
                   {"device", devices},
                   {"kernel", n.kernel},
                   {"type", n.type},
                   {"stores", stores},
                   {"elements", n.elements},
                   {"bytes", n.bytes},
                   {"t_min", t.min_seconds},
                   {"t_avg", t.avg_seconds},
                   {"t_max", t.max_seconds},
                   {"bandwidth", bandwidth_Bps},
                   {"valid", n.valid && std::isfinite(bandwidth_Bps)}});
  }
  return {std::move(nodes)};
}

}  // namespace bws::stream
