// b_eff's terminal summary from the kept beff/sizes and beff/summary tables:
// HPCC_FPGA b_eff's table for the natural ring (MSize, looplength, transfer = the
// best sample's time, B/s = aggregate b(L)) and its "b_eff = ... B/s" line,
// then the per-rank figure, the 8-byte latency, the Hockney fit (through its
// quality gate: a withheld fit prints no number), the random
// rings and the linear-scaling verdict.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "beff/BeffBenchmark.hpp"
#include "beff/BeffTables.hpp"
#include "core/FormatText.hpp"
#include "model/FitQuality.hpp"

namespace bws::beff {
namespace {

// "%.2f us" of seconds, "n/a" for NaN.
std::string micros(double seconds) {
  return std::isfinite(seconds) ? format_text("%.2f us", seconds * 1e6) : std::string("n/a");
}

// The path of a row: files of schema 1.0 have no path column (host only).
std::string path_of(const Table& t, std::size_t r) { return t.has_column("path") ? t.get_string(r, "path") : "host"; }

void append_seed_table(std::vector<std::string>& lines, const Table& sizes, std::int64_t ring, const std::string& path) {
  lines.emplace_back("    MSize      looplength        transfer             B/s");
  for (std::size_t r = 0; r < sizes.rows(); ++r) {
    if (sizes.get_int(r, "ring") != ring || path_of(sizes, r) != path) continue;
    lines.push_back(format_text("%9llu %15llu %15.5e %15.5e",
                                static_cast<unsigned long long>(sizes.get_int(r, "message_bytes")),
                                static_cast<unsigned long long>(sizes.get_int(r, "looplength")),
                                sizes.get_double(r, "t_best_seconds"), sizes.get_double(r, "b_Bps")));
  }
}

// The Hockney fit's verdict of a summary row. Files written before the
// verdict columns: the same gate on what they kept (R^2, alpha's sign, and
// the per-size residuals b/model_b - 1 of /beff/sizes, which measure the
// same misfit from the bandwidth side).
model::FitQuality hockney_quality_of(const Table& summary, std::size_t row, const Table& sizes, const std::string& path) {
  if (summary.has_column("hockney_verdict")) {
    const std::optional<model::FitVerdict> v = model::parse_verdict(summary.get_string(row, "hockney_verdict"));
    if (v) return {*v, summary.get_string(row, "hockney_quality")};
  }
  const double alpha = summary.get_double(row, "hockney_alpha_seconds");
  if (!std::isfinite(alpha)) return model::withheld_fit("it needs 2 sizes or more, and time growing with size");
  std::vector<double> residuals;
  for (std::size_t r = 0; r < sizes.rows(); ++r)
    if (sizes.get_int(r, "ring") == summary.get_int(row, "ring") && path_of(sizes, r) == path)
      residuals.push_back(sizes.has_column("residual") ? sizes.get_double(r, "residual") : std::nan(""));
  return model::verdict_of(summary.get_double(row, "hockney_r2"), model::max_abs_relative_residual(residuals),
                           alpha < 0, residuals.size());
}

// "Hockney alpha = ..., its b_eff = ..." as a result, with "(poor fit: ...)",
// or "Hockney fit withheld: <reason>" without a number.
std::string hockney_text(const Table& s, std::size_t row, const Table& sizes, const std::string& path) {
  const model::FitQuality quality = hockney_quality_of(s, row, sizes, path);
  if (quality.verdict == model::FitVerdict::Withheld) return "Hockney fit " + model::gated_figure("", quality);
  return model::gated_figure(format_text("Hockney alpha = %s, beta = %.3f GB/s (R^2 = %.4f), its b_eff = %.4g GB/s",
                                         micros(s.get_double(row, "hockney_alpha_seconds")).c_str(),
                                         s.get_double(row, "hockney_beta_Bps") / 1e9, s.get_double(row, "hockney_r2"),
                                         s.get_double(row, "hockney_b_eff_Bps") / 1e9),
                             quality);
}

class BeffReport final : public BenchmarkReport {
 public:
  std::vector<std::string> summary_lines(const std::vector<Table>& tables) const override {
    std::vector<std::string> lines;
    const Table* sizes = find_table(tables, kSizesPath);
    const Table* summary = find_table(tables, kSummaryPath);
    if (!sizes || !summary || summary->rows() == 0) return lines;
    // One block per path (host, then the device path), in the order they ran.
    std::vector<std::string> paths;
    for (std::size_t r = 0; r < summary->rows(); ++r)
      if (std::find(paths.begin(), paths.end(), path_of(*summary, r)) == paths.end()) paths.push_back(path_of(*summary, r));
    for (const std::string& path : paths) {
      if (!lines.empty()) lines.emplace_back();
      append_path_block(lines, *sizes, *summary, path);
    }
    return lines;
  }

 private:
  static void append_path_block(std::vector<std::string>& lines, const Table& sizes, const Table& summary,
                                const std::string& path) {
    std::size_t natural = summary.rows();
    std::vector<std::size_t> random;
    for (std::size_t r = 0; r < summary.rows(); ++r) {
      if (path_of(summary, r) != path) continue;
      const std::string& kind = summary.get_string(r, "ring_kind");
      if (kind == "natural" && natural == summary.rows()) natural = r;
      if (kind == "random") random.push_back(r);
    }
    if (natural == summary.rows()) return;
    const Table& s = summary;
    const std::int64_t ranks = s.get_int(natural, "ranks");

    if (path != "host")
      lines.push_back("b_eff, " + path + " path (device -> host -> MPI -> host -> device inside the timed loop)" +
                      (s.has_column("device") ? " through " + s.get_string(natural, "device") : std::string()) + ":");
    lines.push_back("b_eff, natural ring of " + std::to_string(ranks) + (ranks == 1 ? " rank" : " ranks") +
                    " (transfer: best time of looplength exchanges in s; B/s: all ranks, 2L per rank per exchange)");
    append_seed_table(lines, sizes, s.get_int(natural, "ring"), path);
    lines.emplace_back();
    lines.push_back(format_text("b_eff = %.4g GB/s", s.get_double(natural, "b_eff_Bps") / 1e9));
    const std::string hockney = hockney_text(s, natural, sizes, path);
    lines.push_back(format_text("b_eff per rank = %.4g GB/s; latency (8 B, per message) = %s; %s",
                                s.get_double(natural, "b_eff_per_rank_Bps") / 1e9,
                                micros(s.get_double(natural, "latency_8B_seconds")).c_str(), hockney.c_str()));
    if (!random.empty()) {
      double sum = 0, per_rank = 0, lo = INFINITY, hi = -INFINITY;
      for (std::size_t r : random) {
        const double b = s.get_double(r, "b_eff_Bps");
        sum += b;
        per_rank += s.get_double(r, "b_eff_per_rank_Bps");
        lo = std::min(lo, b);
        hi = std::max(hi, b);
      }
      const double n = static_cast<double>(random.size());
      lines.push_back(format_text("random rings (%zu, seed %lld): b_eff = %.4g GB/s mean (%.4g..%.4g), %.4g GB/s per rank",
                                  random.size(), static_cast<long long>(s.get_int(random.front(), "seed")), sum / n / 1e9,
                                  lo / 1e9, hi / 1e9, per_rank / n / 1e9));
    }
    const bool passed = s.get_int(natural, "scaling_passed") == 1;
    const bool enforced = s.get_int(natural, "scaling_enforced") == 1;
    lines.push_back(format_text("linear scaling: reference %s: %.4g GB/s per rank; E(%lld) = %.3f (min %.2f): %s%s",
                                s.get_string(natural, "reference").c_str(),
                                s.get_double(natural, "reference_per_rank_Bps") / 1e9, static_cast<long long>(ranks),
                                s.get_double(natural, "efficiency"), s.get_double(natural, "min_efficiency"),
                                passed ? "passed" : "FAILED",
                                enforced ? "" : " (not enforced: ranks oversubscribe their node; see /checks)"));
    for (std::size_t r = 0; r < s.rows(); ++r) {
      if (s.get_int(r, "valid") != 0 || path_of(s, r) != path) continue;
      const std::string& kind = s.get_string(r, "ring_kind");
      const std::string ring = kind == "random" ? "random ring " + std::to_string(s.get_int(r, "ring")) : kind + " ring";
      lines.push_back("b_eff INVALID: " + (path == "host" ? std::string() : path + " path: ") + ring +
                      ": received messages did not check out (see the beff.payload checks)");
    }
  }
};

}  // namespace

std::unique_ptr<BenchmarkReport> make_beff_report() { return std::make_unique<BeffReport>(); }

}  // namespace bws::beff
