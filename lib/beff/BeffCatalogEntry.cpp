#include "beff/BeffCatalogEntry.hpp"

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "beff/BeffBenchmark.hpp"
#include "beff/BeffTables.hpp"

namespace bws::beff {
namespace {

// "2.5 us", "1.2 ms": the console summary's way of a time.
std::string latency_text(double seconds) {
  char buf[64];
  if (std::fabs(seconds) >= 1e-3)
    std::snprintf(buf, sizeof buf, "%.3g ms", seconds * 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.3g us", seconds * 1e6);
  return buf;
}

// The summary's b_eff line per path: the natural rings' b_eff, per rank,
// the 8-byte latency and the scaling verdict.
std::vector<std::string> run_wide_lines(const std::vector<Table>& kept) {
  std::vector<std::string> lines;
  for (const Table& t : kept) {
    if (t.path() != kSummaryPath || !t.has_column("ring_kind")) continue;
    for (std::size_t r = 0; r < t.rows(); ++r) {
      if (t.get_string(r, "ring_kind") != "natural") continue;
      const std::string path = t.has_column("path") ? t.get_string(r, "path") : std::string("host");
      char buf[256];
      std::snprintf(buf, sizeof buf,
                    "b_eff%s: %.3g GB/s (%.3g GB/s per rank, %lld ranks), 8 B latency %s; scaling E %.3f (min "
                    "%.2f): %s",
                    path == "host" ? "" : (" " + path + " path").c_str(), t.get_double(r, "b_eff_Bps") / 1e9,
                    t.get_double(r, "b_eff_per_rank_Bps") / 1e9, static_cast<long long>(t.get_int(r, "ranks")),
                    latency_text(t.get_double(r, "latency_8B_seconds")).c_str(), t.get_double(r, "efficiency"),
                    t.get_double(r, "min_efficiency"), t.get_int(r, "scaling_passed") == 1 ? "passed" : "FAILED");
      lines.emplace_back(buf);
    }
  }
  return lines;
}

}  // namespace

CatalogEntry catalog_entry(std::shared_ptr<const DeviceBuffersProvider> device) {
  return {
      .name = "beff",
      .in_default_set = true,
      .make_collective = [device] { return make_beff_benchmark(device); },
      .make_report = make_beff_report,
      .report_tables = {kSizesPath, kSummaryPath},
      .node_metrics = {{.name = "beff.per_rank", .table = kRanksPath, .column = "b_eff_Bps", .unit = "B/s",
                        .per_host = HostAggregate::Mean}},
      .run_wide_lines = run_wide_lines,
  };
}

}  // namespace bws::beff
