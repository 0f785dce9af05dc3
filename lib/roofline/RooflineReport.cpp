// The roofline's terminal summary from the roofline/nodes tables of all
// nodes: one line per node with its peak, GEMM and Triad ceilings and its
// machine balance, then a line for what is not available or not valid.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "roofline/RooflineBenchmark.hpp"
#include "roofline/RooflineResults.hpp"
#include "roofline/RooflineTables.hpp"

namespace bws::roofline {
namespace {

std::string giga(double value) {
  if (!std::isfinite(value)) return "n/a";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", value / 1e9);
  return buf;
}

std::string balance(double value) {
  if (!std::isfinite(value)) return "n/a";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", value);
  return buf;
}

class RooflineReport final : public BenchmarkReport {
 public:
  std::vector<std::string> summary_lines(const std::vector<Table>& tables) const override {
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> problems;
    std::string isa, blas;
    bool gemm_missing = false;
    for (const Table& t : tables) {
      if (t.path() != kNodesPath) continue;
      for (std::size_t r = 0; r < t.rows(); ++r) {
        const Ceilings c = ceilings_of_row(t, r);
        const std::string host = t.get_string(r, "host");
        isa = c.isa;
        if (blas.empty() || blas == "none") blas = c.blas;
        gemm_missing = gemm_missing || !std::isfinite(c.gemm_double_flop_per_s);
        rows.push_back({host, std::to_string(t.get_int(r, "ranks")), std::to_string(t.get_int(r, "threads")),
                        giga(c.fma_double_flop_per_s), giga(c.fma_float_flop_per_s), giga(c.gemm_double_flop_per_s),
                        giga(c.gemm_float_flop_per_s), giga(c.triad_Bps),
                        balance(t.get_double(r, "balance_fma_double_flop_per_byte")),
                        balance(t.get_double(r, "balance_gemm_double_flop_per_byte")), c.valid ? "yes" : "NO"});
        if (!c.valid)
          problems.push_back("ROOFLINE INVALID: " + host +
                             ": a kernel did not validate or has an impossible rate (see the checks table)");
      }
    }
    if (rows.empty()) return {};
    std::vector<std::string> lines;
    lines.push_back("Roofline: per node, the FMA peak on all pinned threads (" + isa +
                    "), GEMM with one BLAS thread per pinned thread, STREAM Triad (double);");
    lines.push_back("machine balance = FLOP/s / Triad B/s. GFLOP/s and GB/s are 1e9.");
    for (std::string& l : format_text_table({"host", "ranks", "threads", "peak DP GFLOP/s", "peak SP GFLOP/s",
                                             "DGEMM GFLOP/s", "SGEMM GFLOP/s", "Triad GB/s", "balance peak FLOP/B",
                                             "balance DGEMM FLOP/B", "valid"},
                                            rows))
      lines.push_back(std::move(l));
    if (gemm_missing)
      lines.push_back("DGEMM/SGEMM: not available (this build has no BLAS: install libopenblas-dev and rebuild)");
    else
      lines.push_back("BLAS: " + blas);
    for (std::string& p : problems) lines.push_back(std::move(p));
    return lines;
  }
};

}  // namespace

std::unique_ptr<BenchmarkReport> make_roofline_report() { return std::make_unique<RooflineReport>(); }

}  // namespace bws::roofline
