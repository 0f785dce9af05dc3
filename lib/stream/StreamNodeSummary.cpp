#include "stream/StreamNodeSummary.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>
#include <string>

#include "stream/StreamTables.hpp"
#include "core/NodeAggregate.hpp"

namespace bws::stream {
namespace {

// One (backend, type, kernel) of the node, gathered over its ranks.
struct NodeRow {
  std::string backend, type, kernel, host;
  std::set<std::string> stores, devices;
  std::set<std::int64_t> ranks;
  std::int64_t threads = 0, elements = 0, bytes = 0;
  bool valid = true;
  NodeAggregate times{1};  // the first repetition is STREAM's warm-up
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
  n.times.add_row(t, r, "bytes");
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
    const TimeStats t = n.times.times();
    // ranks that chose differently show as "normal+nontemporal"
    const std::string stores = joined(n.stores), devices = joined(n.devices).substr(0, kDeviceWidth - 1);
    const double bandwidth_Bps = n.times.rate();
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
