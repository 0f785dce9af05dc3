#pragma once
// The records that describe where the measurements ran: nodes, ranks,
// threads and their verified CPUs, topologies, provenance. Built on each
// rank from its Topology and Team, moved to rank 0 like any other Table.
#include <map>
#include <string>
#include <vector>

#include "core/Table.hpp"
#include "core/Timestamps.hpp"  // utc_now_iso8601, which the run also stamps
#include "model/MemoryPopulation.hpp"
#include "topology/Team.hpp"
#include "topology/Topology.hpp"

namespace bws::run {

// Metadata that is no table, written as a text dataset of its own (the
// node's hwloc XML at /nodes/<host>/topology_xml).
struct MetadataText {
  std::string path;
  std::string text;
};

struct RankPlace {
  int rank = 0;
  std::string host;
  int node_index = 0;
  int local_rank = 0;
  int ranks_on_node = 1;
  std::string bind;  // the policy's name
};

// What a node declares about itself beyond its topology.
struct NodeDeclaration {
  model::MemoryPopulation memory;      // SMBIOS type 17 (run/MemoryDiscovery), maybe unreadable
  std::uint64_t memory_bytes_override = 0;  // test hook BWSURVEY_FAKE_MEMORY (0: none)
};

// The leader of each node adds the node row (/nodes/table, with the CPU
// model and the theoretical memory bandwidth of its DIMMs where readable),
// /nodes/memory (per NUMA node), /nodes/memory_findings, and its topology XML
// as /nodes/<host>/topology_xml.
struct NodeRecords {
  std::vector<Table> tables;
  std::vector<MetadataText> texts;
};
NodeRecords make_node_records(const RankPlace& place, const topo::Topology& topology,
                              const NodeDeclaration& declared = {});
// Every rank: its /ranks/table row, /ranks/threads rows and a pinning
// warning check when a thread does not run where it was planned.
std::vector<Table> make_rank_tables(const RankPlace& place, const topo::Topology& topology, const topo::Team& team);

// Environment worth keeping with the results: SLURM_*, SBATCH_*, OMPI_MCA_*
// (less mpirun's own wiring), OMP_*, HWLOC_*, and BWSURVEY_* (the test hooks,
// so a file measured with one says so).
std::map<std::string, std::string> provenance_environment();

// What Slurm says about the job, from those variables: slurm_job_id,
// slurm_partition, slurm_nodes (SLURM_JOB_NODELIST expanded, comma
// separated), slurm_nodelist (as Slurm wrote it), slurm_num_nodes,
// slurm_cluster; only the ones Slurm set. Pure.
std::map<std::string, std::string> slurm_provenance(const std::map<std::string, std::string>& environment);

std::string hwloc_version_text();
std::string compiler_text();

}  // namespace bws::run
