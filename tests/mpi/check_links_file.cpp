// Reads a link-map survey file back: /links/nodes holds one row per member
// (node 0..N-1, world ranks ascending) with finite, positive medians and a
// lowest peer that is another member; /links/hosts the same order; the
// links.payload check passed. With --slow FROM TO (the slow-pair test hook):
// node FROM's lowest send is to TO and below half its median, and TO's
// lowest receive is from FROM.
#include <cmath>
#include <iostream>
#include <string>

#include "h5/ResultFile.hpp"

#include "FileChecks.hpp"

using namespace bws::file_checks;

int main(int argc, char** argv) {
  const bool slow = argc == 6 && std::string(argv[1]) == "--slow";
  if (argc != 3 && !slow) {
    std::cerr << "usage: check_links_file FILE MEMBERS | check_links_file --slow FILE MEMBERS FROM TO\n";
    return 2;
  }
  const int base = slow ? 2 : 1;
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
  if (slow) {
    const std::size_t from = std::stoul(argv[4]);
    const long to = std::stol(argv[5]);
    if (from < nodes.rows()) {
      check(nodes.get_int(from, "worst_out_peer") == to, "the slowed node's lowest send goes to the slowed peer");
      check(to >= 0 && to < n && nodes.get_int(static_cast<std::size_t>(to), "worst_in_peer") == static_cast<long>(from),
            "the slowed peer's lowest receive comes from the slowed node");
      check(nodes.get_double(from, "worst_out_Bps") < 0.5 * nodes.get_double(from, "out_Bps"),
            "the slowed pair is below half the node's median: " + std::to_string(nodes.get_double(from, "worst_out_Bps")) +
                " vs " + std::to_string(nodes.get_double(from, "out_Bps")));
    }
  }
  if (failures) return 1;
  std::cout << "link map file OK: " << n << " nodes\n";
  return 0;
}
