#include "run/RunMetadata.hpp"

#include <hwloc.h>

#include <algorithm>
#include <cmath>

#include <stdexcept>

#include "core/Hostlist.hpp"
#include "core/ResultColumns.hpp"

extern char** environ;

namespace bws::run {

NodeRecords make_node_records(const RankPlace& place, const topo::Topology& topology,
                              const NodeDeclaration& declared) {
  // The rank's own view is restricted to its cpuset; the node row describes
  // the whole machine, read back from the unrestricted export.
  const std::string xml = topology.export_xml();
  const topo::Topology whole = topo::Topology::from_xml(xml);
  const topo::TopologyInfo& info = whole.info();
  auto cache_bytes = [&](int level) -> std::int64_t {
    for (const auto& c : info.caches)
      if (c.level == level) return static_cast<std::int64_t>(c.size_bytes);
    return 0;
  };
  const model::TheoreticalBandwidth peak = model::theoretical_bandwidth(declared.memory);
  const std::uint64_t memory_bytes =
      declared.memory_bytes_override ? declared.memory_bytes_override : topology.info().node_memory_bytes;
  Table nodes("nodes/table",
              {text_column("host", kHostWidth), int_column("node_index"), int_column("n_ranks"), int_column("packages"),
               int_column("numa_nodes"), int_column("cores"), int_column("pus"), int_column("memory_bytes", "B"),
               int_column("l1_bytes", "B"), int_column("l2_bytes", "B"), int_column("llc_bytes", "B"),
               text_column("cpu_model", 96), real_column("memory_theoretical_Bps", "B/s"),
               int_column("memory_channels_populated"), int_column("memory_channels_total"),
               int_column("memory_mts_min"), text_column("memory_source", 160)});
  nodes.add_row({{"host", place.host},
                 {"node_index", place.node_index},
                 {"n_ranks", place.ranks_on_node},
                 {"packages", info.packages},
                 {"numa_nodes", info.numa_nodes},
                 {"cores", info.cores},
                 {"pus", info.pus},
                 {"memory_bytes", static_cast<std::int64_t>(memory_bytes)},
                 {"l1_bytes", cache_bytes(1)},
                 {"l2_bytes", cache_bytes(2)},
                 {"llc_bytes", static_cast<std::int64_t>(info.llc_bytes)},
                 {"cpu_model", info.cpu_model},
                 {"memory_theoretical_Bps", peak.known ? peak.node_Bps : std::nan("")},
                 {"memory_channels_populated", peak.known ? peak.populated_channels : 0},
                 {"memory_channels_total", peak.known ? peak.total_channels : 0},
                 {"memory_mts_min", peak.known ? peak.configured_mts_min : 0},
                 {"memory_source", peak.known ? declared.memory.source
                                              : "unknown: " + (declared.memory.readable ? peak.unknown_reason
                                                                                        : declared.memory.unknown_reason)}});
  // Per NUMA node: each socket's channels split over its NUMA nodes.
  Table numa("nodes/memory", {text_column("host", kHostWidth), int_column("numa"), real_column("theoretical_Bps", "B/s")});
  // Only where the machine's NUMA nodes divide evenly over the DIMMs' sockets.
  const int sockets = static_cast<int>(peak.sockets.size());
  if (peak.known && sockets > 0 && info.numa_nodes % sockets == 0) {
    std::vector<int> per_socket(peak.sockets.size(),
                                std::max(1, info.numa_nodes / std::max<int>(1, static_cast<int>(peak.sockets.size()))));
    const std::vector<double> per_numa = model::numa_theoretical_Bps(peak, per_socket);
    for (std::size_t i = 0; i < per_numa.size(); ++i)
      numa.add_row({{"host", place.host}, {"numa", static_cast<std::int64_t>(i)}, {"theoretical_Bps", per_numa[i]}});
  }
  Table findings("nodes/memory_findings", {text_column("host", kHostWidth), text_column("kind", 32),
                                           text_column("subject", 64), text_column("text", 200)});
  for (const model::PopulationFinding& f : model::population_findings(declared.memory))
    findings.add_row({{"host", place.host}, {"kind", f.kind}, {"subject", f.subject}, {"text", f.text}});
  NodeRecords records;
  records.tables = {nodes};
  if (numa.rows() > 0) records.tables.push_back(numa);
  if (findings.rows() > 0) records.tables.push_back(findings);
  records.texts.push_back({"/nodes/" + place.host + "/topology_xml", xml});
  return records;
}

std::vector<Table> make_rank_tables(const RankPlace& place, const topo::Topology& topology, const topo::Team& team) {
  Table ranks("ranks/table", {int_column("rank"), text_column("host", kHostWidth), int_column("node_index"),
                              int_column("local_rank"), text_column("cpuset", 256), int_column("cores"),
                              int_column("threads"), text_column("bind", 16), int_column("verified")});
  ranks.add_row({{"rank", place.rank},
                 {"host", place.host},
                 {"node_index", place.node_index},
                 {"local_rank", place.local_rank},
                 {"cpuset", topology.info().cpuset},
                 {"cores", topology.info().cores},
                 {"threads", team.size()},
                 {"bind", place.bind},
                 {"verified", team.all_verified()}});

  Table threads("ranks/threads",
                {int_column("rank"), text_column("host", kHostWidth), int_column("thread"), int_column("planned_pu"),
                 int_column("observed_cpu"), text_column("bound_cpuset", 256), int_column("numa"),
                 int_column("verified"), text_column("warning", 160)});
  Table checks = make_checks_table();
  int verified = 0;
  for (std::size_t i = 0; i < team.bindings().size(); ++i) {
    const topo::ThreadBinding& b = team.bindings()[i];
    threads.add_row({{"rank", place.rank},
                     {"host", place.host},
                     {"thread", b.thread},
                     {"planned_pu", b.planned_pu},
                     {"observed_cpu", b.observed_cpu},
                     {"bound_cpuset", b.bound_cpuset},
                     {"numa", team.plan()[i].numa_os_index},
                     {"verified", b.verified},
                     {"warning", b.warning}});
    verified += b.verified ? 1 : 0;
  }
  // Recorded, not fatal: a thread that runs elsewhere than planned still
  // measures something, but the user should know.
  add_check(checks, {"pinning.verified", "rank " + std::to_string(place.rank) + " (" + place.host + ")", "warning",
                     static_cast<double>(verified), static_cast<double>(team.size()),
                     static_cast<double>(team.size()), static_cast<double>(team.size()), "threads",
                     verified == team.size()});
  return {ranks, threads, checks};
}

namespace {
// mpirun passes its own wiring to every rank as OMPI_MCA_* variables; they
// say nothing about the measurement and differ from run to run.
bool set_by_the_launcher(const std::string& key) {
  for (const char* prefix : {"OMPI_MCA_orte_", "OMPI_MCA_ess", "OMPI_MCA_pmix", "OMPI_MCA_initial_wdir",
                             "OMPI_MCA_shmem_RUNTIME", "OMPI_MCA_mpi_yield_when_idle"})
    if (key.rfind(prefix, 0) == 0) return true;
  return false;
}
}  // namespace

std::map<std::string, std::string> provenance_environment() {
  std::map<std::string, std::string> env;
  for (char** e = environ; e && *e; ++e) {
    const std::string entry(*e);
    const auto eq = entry.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = entry.substr(0, eq);
    for (const char* prefix : {"SLURM_", "OMPI_MCA_", "OMP_", "HWLOC_", "SBATCH_", "BWSURVEY_"}) {
      if (key.rfind(prefix, 0) == 0 && !set_by_the_launcher(key)) {
        env[key] = entry.substr(eq + 1);
        break;
      }
    }
  }
  return env;
}

std::map<std::string, std::string> slurm_provenance(const std::map<std::string, std::string>& environment) {
  std::map<std::string, std::string> out;
  auto copy = [&](const char* variable, const char* key) {
    if (auto it = environment.find(variable); it != environment.end()) out[key] = it->second;
  };
  copy("SLURM_JOB_ID", "slurm_job_id");
  copy("SLURM_JOB_PARTITION", "slurm_partition");
  copy("SLURM_JOB_NUM_NODES", "slurm_num_nodes");
  copy("SLURM_CLUSTER_NAME", "slurm_cluster");
  if (auto it = environment.find("SLURM_JOB_NODELIST"); it != environment.end()) {
    out["slurm_nodelist"] = it->second;
    try {
      std::string expanded;
      for (const std::string& host : expand_hostlist(it->second)) expanded += (expanded.empty() ? "" : ",") + host;
      out["slurm_nodes"] = expanded;
    } catch (const std::invalid_argument&) {
      // Kept as written when it cannot be expanded, or names more hosts
      // than kMaxHostlistNames (counted before anything is expanded): it is
      // only metadata, the run goes on.
      out["slurm_nodes"] = it->second;
    }
  }
  return out;
}

std::string hwloc_version_text() {
  const unsigned v = hwloc_get_api_version();
  return std::to_string(v >> 16) + "." + std::to_string((v >> 8) & 0xff) + "." + std::to_string(v & 0xff);
}

std::string compiler_text() {
#if defined(__clang__)
  return std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
  return std::string("gcc ") + __VERSION__;
#else
  return "unknown";
#endif
}

}  // namespace bws::run
