#include "catalog/CrossChecks.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "bs/BsResults.hpp"
#include "core/Sizes.hpp"
#include "stream/StreamTables.hpp"

namespace bws::catalog {

const std::vector<CrossCheckPair>& cross_check_pairs() {
  // Real traffic per element, in streams of 8 bytes (counted: what both tools
  // divide by):
  //   BS1 y = x        read x, write y (+ y's line loaded first): 3 real, 2 counted
  //   Copy c = a       normal stores: the same 3 of 2; non-temporal: 2 of 2
  //   BS2 y = a x + b y  read x, y, write y (its line is already there): 3 of 3
  //   Triad a = b + s c  normal stores: 4 of 3; non-temporal: 3 of 3
  // At one memory throughput the reported ratio is (counted/real) over
  // (counted/real): BS1/Copy 1 or 2/3, BS2/Triad 4/3 or 1. The tolerances:
  // two measurements of a 2-core VM, each within about 5 % run to run, and
  // for BS2 the write-allocate share, which some CPUs avoid in part.
  static const std::vector<CrossCheckPair> pairs = {
      {"cross.bs1_copy", "BS1", "Copy", 1.0, 2.0 / 3.0, 0.10},
      {"cross.bs2_triad", "BS2", "Triad", 4.0 / 3.0, 1.0, 0.15},
  };
  return pairs;
}

namespace {

struct BsNode {
  double Wmax_Bps = 0;
  bool withheld = false;
  std::int64_t points = -1;       // the fewest fitted points of its ranks
  double first_fitted_bytes = 0;  // the smallest fitted size of its ranks
};

struct StreamNode {
  double bandwidth_Bps = 0;
  std::string stores;
};

std::map<std::string, BsNode> bs_nodes(const std::vector<Table>& tables, const std::string& test) {
  std::map<std::string, BsNode> nodes;
  for (const Table& t : tables) {
    if (t.path() != bs::kFitsPath) continue;
    for (std::size_t r = 0; r < t.rows(); ++r) {
      if (t.get_string(r, "backend") != bs::kBackendCpu || t.get_string(r, "test") != test || t.get_int(r, "degree") != 0)
        continue;
      BsNode& n = nodes[t.get_string(r, "host")];
      n.withheld = n.withheld || bs::fit_row_quality(t, r).verdict == model::FitVerdict::Withheld;
      if (n.withheld) continue;
      n.Wmax_Bps += t.get_double(r, "Wmax_Bps");  // the ranks of a node ran together: their rates add
      const std::int64_t points = t.get_int(r, "points_used");
      n.points = n.points < 0 ? points : std::min(n.points, points);
      const double first = static_cast<double>(t.get_int(r, "first_fitted_bytes"));
      n.first_fitted_bytes = n.first_fitted_bytes > 0 ? std::min(n.first_fitted_bytes, first) : first;
    }
  }
  return nodes;
}

std::map<std::string, StreamNode> stream_nodes(const std::vector<Table>& tables, const std::string& kernel) {
  std::map<std::string, StreamNode> nodes;
  for (const Table& t : tables) {
    if (t.path() != stream::kNodesPath) continue;
    for (std::size_t r = 0; r < t.rows(); ++r)
      if (t.get_string(r, "backend") == bs::kBackendCpu && t.get_string(r, "kernel") == kernel &&
          t.get_string(r, "type") == "double")
        nodes[t.get_string(r, "host")] = {t.get_double(r, "bandwidth"), t.get_string(r, "stores")};
  }
  return nodes;
}

// Fewer fitted sizes than this and one noisy size moves Wmax by several per cent.
constexpr std::int64_t kFewFittedPoints = 6;

// The likely causes of a disagreement, most likely first.
std::string likely_cause(const BsNode& bs, const StreamNode& stream, double ratio,
                         double expected) {
  std::string causes;
  auto add = [&causes](const std::string& cause) { causes += (causes.empty() ? "" : "; ") + cause; };
  if (ratio > expected) add("cache-assisted points (fit from " + format_bytes(bs.first_fitted_bytes) + " up)");
  if (stream.stores != "normal") add("different stores (STREAM " + stream.stores + ", BS normal)");
  if (bs.points < kFewFittedPoints) add("too few points (" + std::to_string(bs.points) + " fitted)");
  if (causes.empty()) add("noise or a machine that changed between the tests (rerun)");
  return causes;
}

}  // namespace

std::vector<CheckRow> cross_checks(const std::vector<Table>& tables) {
  std::vector<CheckRow> rows;
  for (const CrossCheckPair& pair : cross_check_pairs()) {
    const std::map<std::string, StreamNode> stream = stream_nodes(tables, pair.stream_kernel);
    for (const auto& [host, bs] : bs_nodes(tables, pair.bs_test)) {
      const auto s = stream.find(host);
      if (bs.withheld || s == stream.end() || !(s->second.bandwidth_Bps > 0) || !(bs.Wmax_Bps > 0)) continue;
      const double expected = s->second.stores == "normal" ? pair.expected_normal : pair.expected_nontemporal;
      const double ratio = bs.Wmax_Bps / s->second.bandwidth_Bps;
      const double lower = expected * (1 - pair.tolerance), upper = expected * (1 + pair.tolerance);
      const bool passed = ratio >= lower && ratio <= upper;
      // The figures are the row's measured/expected; the subject names the
      // pair, and on a failure the likely cause (checks subjects are short).
      std::string subject = host + " " + pair.bs_test + "/" + pair.stream_kernel + " (" + s->second.stores + " stores)";
      if (!passed) subject += "; likely: " + likely_cause(bs, s->second, ratio, expected);
      rows.push_back({.check = pair.check,
                      .subject = subject.substr(0, 160),
                      .kind = "warning",
                      .measured = ratio,
                      .expected = expected,
                      .lower = lower,
                      .upper = upper,
                      .unit = "ratio",
                      .passed = passed});
    }
  }
  return rows;
}

}  // namespace bws::catalog
