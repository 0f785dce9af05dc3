// Reads back what the Slurm integration tests produced (tests/slurm/*.sh):
//   check_slurm_file survey FILE RANKS HOSTS JOBID   a complete survey: per-node rows keyed by
//                                                   HOSTS (comma list), b_eff over RANKS ranks,
//                                                   the job's provenance
//   check_slurm_file killed FILE PHASES              cut off after PHASES: status running, the
//                                                   phases stored, readable
//   check_slurm_file resumed FILE RANKS HOSTS        completed by --resume: complete, each
//                                                   node's rows once
//   check_slurm_file flagged FILE HOST               HOST and only HOST flagged for STREAM Triad
//   check_slurm_file merged FILE NODES               a merged study: one run per node count in
//                                                   NODES (comma list) and a scaling verdict
#include <algorithm>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "h5/ResultFile.hpp"

#include "../mpi/FileChecks.hpp"

using namespace bws::file_checks;

namespace {

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) out.push_back(item);
  return out;
}

std::set<std::string> hosts_of(const bws::Table& t) {
  std::set<std::string> hosts;
  for (std::size_t r = 0; r < t.rows(); ++r) hosts.insert(t.get_string(r, "host"));
  return hosts;
}

// /stream/nodes: one row per host and kernel (double only), each host once.
void check_node_rows(const bws::h5::ResultReader& f, const std::vector<std::string>& hosts) {
  const std::set<std::string> wanted(hosts.begin(), hosts.end());
  check(hosts_of(f.read_table("nodes/table")) == wanted, "/nodes/table hosts are " + std::to_string(hosts.size()) + " given ones");
  check(f.read_table("nodes/table").rows() == hosts.size(), "/nodes/table: one row per node");
  const auto nodes = f.read_table("stream/nodes");
  check(hosts_of(nodes) == wanted, "/stream/nodes keyed by the given hosts");
  std::map<std::string, int> triads;
  for (std::size_t r = 0; r < nodes.rows(); ++r)
    if (nodes.get_string(r, "kernel") == "Triad") ++triads[nodes.get_string(r, "host")];
  for (const std::string& h : hosts) check(triads[h] == 1, "one Triad row of " + h + " in /stream/nodes");
}

void check_beff(const bws::h5::ResultReader& f, int ranks) {
  const auto summary = f.read_table("beff/summary");
  bool natural = false;
  for (std::size_t r = 0; r < summary.rows(); ++r)
    if (summary.get_string(r, "ring_kind") == "natural") {
      natural = true;
      check(summary.get_int(r, "ranks") == ranks, "natural ring over " + std::to_string(ranks) + " ranks");
      check(summary.get_double(r, "b_eff_Bps") > 0, "b_eff > 0");
    }
  check(natural, "/beff/summary has the natural ring");
  check(static_cast<int>(f.read_table("beff/ranks").rows()) == ranks, "/beff/ranks: one row per rank");
}

int survey(const std::string& path, int ranks, const std::vector<std::string>& hosts, const std::string& job) {
  const auto f = bws::h5::ResultReader::open(path);
  check(f.attribute_text("/", "status") == "complete", "status complete");
  check(f.attribute_int("/", "n_ranks") == ranks, "n_ranks");
  check(f.attribute_int("/", "n_nodes") == static_cast<std::int64_t>(hosts.size()), "n_nodes");
  check_node_rows(f, hosts);
  check_beff(f, ranks);
  check(f.attribute_text("/provenance", "slurm_job_id") == job, "/provenance slurm_job_id = " + job);
  check(f.attribute_text("/provenance", "SLURM_JOB_ID") == job, "/provenance SLURM_JOB_ID");
  std::string joined;
  for (const auto& h : hosts) joined += (joined.empty() ? "" : ",") + h;
  check(f.attribute_text("/provenance", "slurm_nodes") == joined, "/provenance slurm_nodes = " + joined);
  check(f.attribute_text("/provenance", "slurm_partition") == "debug", "/provenance slurm_partition");
  check(f.exists("/flags"), "/flags written");
  return failures;
}

int killed(const std::string& path, const std::string& phases) {
  const auto f = bws::h5::ResultReader::open(path);
  check(f.attribute_text("/", "status") == "running", "status still running (killed)");
  check(f.attribute_text("/", "completed_phases") == phases, "completed_phases = " + phases);
  check(f.read_table("stream/nodes").rows() > 0, "the finished phase is readable");
  check(!f.exists("/beff/summary"), "the phase after it is missing");
  return failures;
}

int resumed(const std::string& path, int ranks, const std::vector<std::string>& hosts) {
  const auto f = bws::h5::ResultReader::open(path);
  check(f.attribute_text("/", "status") == "complete", "status complete after --resume");
  check(f.attribute_int("/", "resumes") == 1, "resumes = 1");
  check(f.attribute_text("/", "completed_phases") == "stream,beff", "completed_phases = stream,beff");
  check(static_cast<int>(f.read_table("ranks/table").rows()) == ranks, "/ranks/table once per rank");
  check(f.read_table("stream/nodes").rows() == 4 * hosts.size(), "/stream/nodes: 4 kernels per node, once");
  check_node_rows(f, hosts);
  check_beff(f, ranks);
  if (f.has_attribute("/provenance", "slurm_job_id"))
    check(!f.attribute_text("/provenance", "resume_1_slurm_job_id").empty(), "the resuming job in /provenance");
  check(!f.attribute_text("/provenance", "resume_1_utc").empty(), "the resume's time in /provenance");
  return failures;
}

int flagged(const std::string& path, const std::string& host) {
  const auto f = bws::h5::ResultReader::open(path);
  const auto flags = f.read_table("flags");
  bool found = false;
  for (std::size_t r = 0; r < flags.rows(); ++r) {
    const std::string metric = flags.get_string(r, "metric");
    if (metric.rfind("stream.triad", 0) != 0) continue;
    check(flags.get_string(r, "host") == host, "only " + host + " flagged for STREAM Triad, not " + flags.get_string(r, "host"));
    found |= flags.get_string(r, "host") == host;
    check(flags.get_double(r, "value") < 0.9 * flags.get_double(r, "median"), "flagged value below 0.9 x median");
    check(flags.get_double(r, "robust_z") < -4, "robust z below -4");
  }
  check(found, host + " flagged for STREAM Triad");
  return failures;
}

int merged(const std::string& path, const std::vector<std::string>& nodes) {
  const auto f = bws::h5::ResultReader::open(path);
  check(f.attribute_text("/", "file_kind") == "scaling-study", "file_kind scaling-study");
  const auto runs = f.list("/runs");
  check(runs.size() == nodes.size(), "one run per node count");
  for (std::size_t i = 0; i < runs.size() && i < nodes.size(); ++i)
    check(f.attribute_int("/runs/" + runs[i], "n_nodes") == std::stoi(nodes[i]),
          "run " + runs[i] + " has " + nodes[i] + " nodes");
  check(f.read_table("scaling/points").rows() == nodes.size(), "/scaling/points: one row per run");
  check(f.read_table("scaling/fit").rows() == 1, "/scaling/fit: the line's verdict");
  const auto checks = f.read_table("checks");
  int scaling = 0;
  for (std::size_t r = 0; r < checks.rows(); ++r) scaling += checks.get_string(r, "check").rfind("scaling.", 0) == 0;
  check(scaling == static_cast<int>(nodes.size()) + 1, "a scaling verdict per run and for the line");
  return failures;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> a(argv + 1, argv + argc);
  int result = 2;
  try {
    if (a.size() == 5 && a[0] == "survey") result = survey(a[1], std::stoi(a[2]), split(a[3]), a[4]);
    else if (a.size() == 3 && a[0] == "killed") result = killed(a[1], a[2]);
    else if (a.size() == 4 && a[0] == "resumed") result = resumed(a[1], std::stoi(a[2]), split(a[3]));
    else if (a.size() == 3 && a[0] == "flagged") result = flagged(a[1], a[2]);
    else if (a.size() == 3 && a[0] == "merged") result = merged(a[1], split(a[2]));
    else std::cerr << "usage: see the head of tests/slurm/check_slurm_file.cpp\n";
  } catch (const std::exception& e) {
    std::cerr << "FAILED: " << e.what() << "\n";
    return 1;
  }
  if (result == 0) std::cout << "check_slurm_file " << a[0] << " " << a[1] << ": OK\n";
  return result == 0 ? 0 : 1;
}
