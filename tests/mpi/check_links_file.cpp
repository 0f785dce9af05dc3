// Reads a link-map survey file back: /links/nodes holds one row per member
// (node 0..N-1, world ranks ascending) with finite, positive medians and a
// lowest peer that is another member; /links/hosts the same order; the
// links.payload check passed. Link rows of /flags are pair verdicts only
// (no node verdict on one host). With --topology (a
// topology.conf: leaf s1 under top, naming this host): /links/switches, the
// leaf column and one per-leaf median per node.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>
#include <vector>

#include "h5/ResultFile.hpp"

#include "FileChecks.hpp"

using namespace bws::file_checks;

int main(int argc, char** argv) {
  const bool tree = argc == 4 && std::string(argv[1]) == "--topology";
  if (argc != 3 && !tree) {
    std::cerr << "usage: check_links_file [--topology] FILE MEMBERS\n";
    return 2;
  }
  const int base = tree ? 2 : 1;
  const auto file = bws::h5::ResultReader::open(argv[base]);
  const long n = std::stol(argv[base + 1]);
  check(file.attribute_text("/", "status") == "complete", "status is complete");
  const auto nodes = file.read_table("links/nodes");
  const auto hosts = file.read_table("links/hosts");
  check(static_cast<long>(nodes.rows()) == n, "/links/nodes rows: " + std::to_string(nodes.rows()));
  check(static_cast<long>(hosts.rows()) == n, "/links/hosts rows: " + std::to_string(hosts.rows()));
  for (std::size_t r = 0; r < nodes.rows(); ++r) {
    const std::string row = "node " + std::to_string(r);
    check(nodes.get_int(r, "node") == static_cast<long>(r), row + ": node index");
    check(r == 0 || nodes.get_int(r, "rank") > nodes.get_int(r - 1, "rank"), row + ": ranks ascending");
    for (const char* column : {"out_Bps", "in_Bps", "worst_out_Bps", "worst_in_Bps", "latency_s"}) {
      const double v = nodes.get_double(r, column);
      check(std::isfinite(v) && v > 0, row + ": " + column + " finite and positive: " + std::to_string(v));
    }
    check(nodes.get_double(r, "worst_out_Bps") <= nodes.get_double(r, "out_Bps"), row + ": worst <= median");
    const long peer = nodes.get_int(r, "worst_out_peer");
    check(peer >= 0 && peer < n && peer != static_cast<long>(r), row + ": worst peer is another node");
    check(nodes.get_int(r, "payload_problems") == 0, row + ": no payload problems");
    if (r < hosts.rows()) check(hosts.get_int(r, "rank") == nodes.get_int(r, "rank"), row + ": hosts in the same order");
  }
  const auto checks = file.read_table("checks");
  bool payload_passed = false;
  for (std::size_t r = 0; r < checks.rows(); ++r)
    if (checks.get_string(r, "check") == "links.payload") payload_passed = checks.get_int(r, "passed") == 1;
  check(payload_passed, "a passed links.payload check");
  // The link-map rows of /flags.
  std::vector<std::string> link_flags;
  if (file.exists("/flags")) {
    const auto flags = file.read_table("flags");
    for (std::size_t r = 0; r < flags.rows(); ++r)
      if (flags.get_string(r, "metric").rfind("links.", 0) == 0)
        link_flags.push_back(flags.get_string(r, "metric") + " " + flags.get_string(r, "host"));
  }
  // Pairs may be named: on 2 shared cores a rank taken off its core for a
  // few ms stalls every window of its pair in that round (measured
  // 0-5 %), a real measurement of a real stall. No node is ever named on
  // one host, and no uplink without a tree of several leaves.
  for (const std::string& f : link_flags)
    check(f.rfind("links.pair ", 0) == 0, "only pair verdicts of the link map on one host, not '" + f + "'");
  if (tree) {
    const auto switches = file.read_table("links/switches");
    check(switches.rows() == 2 && switches.get_string(0, "switch") == "s1" && switches.get_string(0, "parent") == "top" &&
              switches.get_int(0, "leaf_index") == 0 && switches.get_string(1, "switch") == "top" &&
              switches.get_string(1, "parent").empty() && switches.get_int(1, "leaf_index") == -1,
          "/links/switches: s1 (parent top, leaf 0), top (no parent, no leaf)");
    for (std::size_t r = 0; r < hosts.rows(); ++r)
      check(hosts.get_string(r, "leaf") == "s1", "host row " + std::to_string(r) + " is on leaf s1");
    const auto medians = file.read_table("links/leaf_medians");
    check(static_cast<long>(medians.rows()) == n, "/links/leaf_medians rows: " + std::to_string(medians.rows()));
    for (std::size_t r = 0; r < medians.rows(); ++r) {
      const auto& samples = medians.samples(r);
      check(samples.size() == 1 && std::isfinite(samples[0]) && samples[0] > 0,
            "node " + std::to_string(r) + ": one finite per-leaf median");
      // All peers are on s1: the per-leaf figure, the upper median of the
      // sends to s1's hosts, is the median out for an odd count of peers,
      // and the larger middle send (at least the median out) for an even one.
      const double out = nodes.get_double(r, "out_Bps");
      if (!samples.empty() && (n - 1) % 2 == 1)
        check(std::fabs(samples[0] - out) <= 1e-3 * out, "node " + std::to_string(r) + ": the per-leaf median is its median out");
      else if (!samples.empty())
        check(samples[0] >= out * (1 - 1e-3), "node " + std::to_string(r) + ": the per-leaf upper median is at least its median out");
    }
  } else {
    check(!file.exists("/links/switches") && !file.exists("/links/leaf_medians"), "no tree tables without a tree");
  }
  if (failures) return 1;
  std::cout << "link map file OK: " << n << " nodes\n";
  return 0;
}
