#include "links/LinksFlags.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "links/LinksTables.hpp"
#include "model/LatencyVerdicts.hpp"
#include "model/NodeFlags.hpp"

namespace bws::links {
namespace {

// A node index column value as an index below n, or -1.
int index_below(std::int64_t v, std::size_t n) { return v >= 0 && static_cast<std::size_t>(v) < n ? static_cast<int>(v) : -1; }

void read_low_peers(const Table& low, std::vector<model::LinkRowSummary>& rows) {
  for (std::size_t r = 0; r < low.rows(); ++r) {
    const int node = index_below(low.get_int(r, "node"), rows.size());
    if (node < 0) continue;
    const model::LowPeer peer{index_below(low.get_int(r, "peer"), rows.size()), low.get_double(r, "Bps")};
    auto& list = low.get_string(r, "direction") == "out" ? rows[static_cast<std::size_t>(node)].low_out
                                                         : rows[static_cast<std::size_t>(node)].low_in;
    if (peer.peer >= 0) list.push_back(peer);
  }
}

// The tree, the hosts' leaves and the per-leaf medians; false when the
// tables hold no tree.
bool read_tree(const std::vector<Table>& kept, const Table& hosts, model::LinkMapSummary& map,
               model::SwitchTopology& topology) {
  const Table* switches = find_table(kept, kSwitchesPath);
  const Table* medians = find_table(kept, kLeafMediansPath);
  if (!switches || !medians || switches->rows() == 0 || !hosts.has_column("leaf")) return false;
  std::vector<std::pair<std::string, std::string>> parts;
  std::map<std::string, std::int64_t> sample_column;
  for (std::size_t r = 0; r < switches->rows(); ++r) {
    parts.emplace_back(switches->get_string(r, "switch"), switches->get_string(r, "parent"));
    sample_column[parts.back().first] = switches->get_int(r, "leaf_index");
  }
  std::map<std::string, std::string> leaf_of_host;
  std::vector<std::string> names;
  for (std::size_t r = 0; r < hosts.rows(); ++r) {
    names.push_back(hosts.get_string(r, "host"));
    leaf_of_host[names.back()] = hosts.get_string(r, "leaf");
  }
  topology = model::SwitchTopology::from_parts(parts, leaf_of_host, std::string("table /") + kSwitchesPath);
  map.topology = &topology;
  map.leaves = model::host_leaves(topology, names);
  const std::size_t S = map.leaves.leaves.size();
  map.leaf_medians.assign(names.size(), std::vector<double>(S, std::nan("")));
  for (std::size_t r = 0; r < medians->rows(); ++r) {
    const int node = index_below(medians->get_int(r, "node"), names.size());
    if (node < 0) continue;
    const std::vector<double>& samples = medians->samples(r);
    for (std::size_t b = 0; b < S; ++b) {
      const std::int64_t column = sample_column[map.leaves.leaves[b]];
      if (column >= 0 && static_cast<std::size_t>(column) < samples.size())
        map.leaf_medians[static_cast<std::size_t>(node)][b] = samples[static_cast<std::size_t>(column)];
    }
  }
  return true;
}

}  // namespace

std::vector<std::string> member_labels(const Table& hosts) {
  std::map<std::string, int> seen;
  for (std::size_t r = 0; r < hosts.rows(); ++r) ++seen[hosts.get_string(r, "host")];
  std::vector<std::string> labels;
  for (std::size_t r = 0; r < hosts.rows(); ++r) {
    const std::string& h = hosts.get_string(r, "host");
    labels.push_back(seen[h] > 1 ? h + ":r" + std::to_string(hosts.get_int(r, "rank")) : h);
  }
  return labels;
}

model::LinkMapSummary link_map_from_tables(const std::vector<Table>& kept, model::SwitchTopology& topology) {
  model::LinkMapSummary map;
  const Table* nodes = find_table(kept, kNodesPath);
  const Table* hosts = find_table(kept, kHostsPath);
  if (!nodes || !hosts || nodes->rows() != hosts->rows()) return map;
  map.hosts = member_labels(*hosts);
  for (std::size_t r = 0; r < hosts->rows(); ++r)
    if (map.hosts[r] != hosts->get_string(r, "host")) map.judge_nodes = false;  // a shared host: labelled by rank
  map.rows.resize(map.hosts.size());
  for (std::size_t r = 0; r < nodes->rows(); ++r) {
    const int node = index_below(nodes->get_int(r, "node"), map.rows.size());
    if (node < 0) continue;
    model::LinkRowSummary& row = map.rows[static_cast<std::size_t>(node)];
    row.out_Bps = nodes->get_double(r, "out_Bps");
    row.in_Bps = nodes->get_double(r, "in_Bps");
    if (nodes->has_column("latency_s")) row.latency_s = nodes->get_double(r, "latency_s");
    row.low_out_count = static_cast<std::size_t>(std::max<std::int64_t>(0, nodes->get_int(r, "low_out_peers")));
    row.low_in_count = static_cast<std::size_t>(std::max<std::int64_t>(0, nodes->get_int(r, "low_in_peers")));
  }
  if (const Table* low = find_table(kept, kLowPeersPath)) read_low_peers(*low, map.rows);
  read_tree(kept, *hosts, map, topology);
  return map;
}

namespace {

// One verdict as its /flags row wants it: `cohort` is the host's for a
// node verdict, "links" (the whole map) for a link or an uplink.
struct VerdictRow {
  std::string subject, metric, cohort;
  std::int64_t cohort_nodes = 0;
  double measured = 0, expected = 0, percent = 0, threshold = 0;
  std::string unit, rule, text;
};

void add_flag_row(Table& flags, const VerdictRow& v) {
  flags.add_row({{"host", v.subject},
                 {"cohort", v.cohort},
                 {"cohort_nodes", v.cohort_nodes},
                 {"metric", v.metric},
                 {"value", v.measured},
                 {"median", v.expected},
                 {"mad", std::nan("")},
                 {"robust_z", std::nan("")},
                 {"percent_of_median", v.percent},
                 {"threshold", v.threshold},
                 {"unit", v.unit},
                 {"rule", v.rule},
                 {"reason", v.text.substr(0, 200)},
                 {"retest_values", std::string()},
                 {"retest_median", std::nan("")},
                 {"status", std::string(model::kFlagNotRetested)}});
}

}  // namespace

Table links_flags(const std::vector<Table>& kept, const FlagInputs& inputs) {
  Table flags = model::make_flags_table();
  model::SwitchTopology topology;
  const model::LinkMapSummary map = link_map_from_tables(kept, topology);
  if (map.hosts.empty()) return flags;
  // Cohorts by label: a host's hardware class names all its members.
  const Table* hosts = find_table(kept, kHostsPath);
  model::NodeCohorts cohorts;
  std::map<std::string, std::int64_t> cohort_size;
  for (std::size_t r = 0; r < map.hosts.size(); ++r) {
    std::string label = "unknown hardware";
    if (inputs.cohort_of_host)
      if (const auto it = inputs.cohort_of_host->find(hosts->get_string(r, "host")); it != inputs.cohort_of_host->end())
        label = it->second;
    cohorts[map.hosts[r]] = label;
    ++cohort_size[label];
  }
  const auto row = [&](bool node, const std::string& subject, const std::string& metric, std::string unit) {
    VerdictRow r;
    r.subject = subject, r.metric = metric, r.unit = std::move(unit);
    r.cohort = node ? cohorts[subject] : "links";
    r.cohort_nodes = node ? cohort_size[r.cohort] : static_cast<std::int64_t>(map.hosts.size());
    return r;
  };
  const model::FlagRule rule{inputs.k, inputs.fraction};
  const std::vector<model::LinkVerdict> verdicts = model::diagnose_links(map, cohorts, rule);
  for (const model::LinkVerdict& v : verdicts) {
    VerdictRow r = row(v.metric == model::kLinksNodeOut || v.metric == model::kLinksNodeIn, v.subject, v.metric, "B/s");
    r.measured = v.measured_Bps, r.expected = v.expected_Bps, r.percent = 100 * v.fraction;
    r.threshold = v.limit_Bps > 0 ? v.limit_Bps : inputs.fraction * v.expected_Bps;
    r.rule = v.fraction < inputs.fraction ? "fraction" : "spread", r.text = v.text;
    add_flag_row(flags, r);
  }
  // Latencies: a time, worse above; the threshold is the latency it passed.
  for (const model::LatencyVerdict& v : model::diagnose_latency(map, cohorts, model::LatencyRule{}, verdicts)) {
    VerdictRow r = row(v.metric == model::kLinksNodeLatency, v.subject, v.metric, "s");
    r.measured = v.measured_s, r.expected = v.expected_s, r.percent = 100 * v.measured_s / v.expected_s;
    r.threshold = v.limit_s, r.rule = "latency", r.text = v.text;
    add_flag_row(flags, r);
  }
  return flags;
}

}  // namespace bws::links
