// BS1-BS7's terminal summary from /bs/fits (all ranks' rows of one backend): one table with
// a line per node, test and degree. The ranks of a node ran every size
// together, so the node's Wmax is the sum of its ranks'; T0 and B0.8 are the
// largest of its ranks' (the slowest rank sets the fork/join cost), R^2 the
// smallest; its fit verdict the worst of its ranks' (model/FitQuality.hpp):
// a withheld fit prints no figure, a poor one its figure and why. Then a
// line per fit that was withheld, poor, or did not validate.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "bs/BsBenchmark.hpp"
#include "bs/BsResults.hpp"
#include "core/Report.hpp"
#include "model/FitQuality.hpp"

namespace bws::bs {
namespace {

struct NodeFit {
  int ranks = 0, threads = 0;
  double Wmax = 0, T0 = 0, B08 = 0, r2 = 1;
  bool all_fitted = true, all_valid = true;
  // The paper's fit (free intercept, may be negative): the largest over the ranks.
  double T0_paper = -INFINITY, B08_paper = -INFINITY;
  bool all_paper_fitted = true;
  model::FitVerdict verdict = model::FitVerdict::Result;  // the worst of the ranks'
};


}  // namespace

std::vector<std::string> bs_fit_summary_lines(const std::vector<Table>& tables, const std::string& backend) {
  const bool cpu = backend == kBackendCpu;
  // (host, test, degree) in order of first appearance per host.
  std::map<std::tuple<std::string, std::string, std::int64_t>, NodeFit> fits;
  std::vector<std::string> problems;
  for (const Table& t : tables) {
    if (t.path() != kFitsPath) continue;
    for (std::size_t r = 0; r < t.rows(); ++r) {
      if (t.get_string(r, "backend") != backend) continue;
      NodeFit& f = fits[{t.get_string(r, "host"), t.get_string(r, "test"), t.get_int(r, "degree")}];
      const model::FitQuality quality = fit_row_quality(t, r);
      const bool fitted = quality.verdict != model::FitVerdict::Withheld, valid = t.get_int(r, "valid") != 0;
      f.verdict = std::max(f.verdict, quality.verdict);
      f.ranks += 1;
      f.threads += static_cast<int>(t.get_int(r, "threads"));
      f.all_fitted = f.all_fitted && fitted;
      f.all_valid = f.all_valid && valid;
      if (fitted) {
        f.Wmax += t.get_double(r, "Wmax_Bps");
        f.T0 = std::max(f.T0, t.get_double(r, "T0_seconds"));
        f.B08 = std::max(f.B08, t.get_double(r, "B08_bytes"));
        f.r2 = std::min(f.r2, t.get_double(r, "r2"));
      }
      // Files written before the paper's fit have no such columns: shown as "-".
      const bool paper = t.has_column("paper_fitted") && t.get_int(r, "paper_fitted") != 0;
      f.all_paper_fitted = f.all_paper_fitted && paper;
      if (paper) {
        f.T0_paper = std::max(f.T0_paper, t.get_double(r, "T0_paper_seconds"));
        f.B08_paper = std::max(f.B08_paper, t.get_double(r, "B08_paper_bytes"));
      }
      std::string what = "rank " + std::to_string(t.get_int(r, "rank")) + " (" + t.get_string(r, "host") + ") " +
                         t.get_string(r, "test");
      if (!cpu) what += " on " + backend;
      if (t.get_int(r, "degree") > 0) what += " N=" + std::to_string(t.get_int(r, "degree"));
      if (!valid) problems.push_back("BS INVALID: " + what + " did not validate (see the checks table)");
      if (!fitted) problems.push_back("BS FIT WITHHELD: " + what + ": " + quality.reason);
      if (quality.verdict == model::FitVerdict::Warning) problems.push_back("BS POOR FIT: " + what + ": " + quality.reason);
    }
  }
  if (fits.empty()) return {};
  std::vector<std::string> lines;
  if (cpu) {
    lines.push_back("BS1-BS7: T(B) = T0 + B/Wmax per rank: T0 measured (an empty call between the same barriers),");
    lines.push_back("Wmax fitted with it on the sizes from --bs.fit-min-bytes (default: the plateau above the LLC) up. Per node: Wmax summed");
  } else {
    lines.push_back("BS1-BS7 on the " + backend + " device: T(B) = T0 + B/Wmax per rank: T0 measured (an empty call of");
    lines.push_back("the test's shape: BS3-BS5 two launches and a read), Wmax fitted with it from --bs.fit-min-bytes (default: the device's global memory cache)");
    lines.push_back("up; threads = the device's compute units. Per node: Wmax summed");
  }
  lines.push_back("over its ranks; T0 and B0.8 = 4*T0*Wmax their largest; R^2 the smallest. The paper's T0 and");
  lines.push_back("B0.8: Chalmers & Warburton's own fit (every size, mean times, plain least squares, free intercept: may be < 0).");
  lines.push_back("fit: the fit's quality (R^2, residuals): result; warning (a poor fit, its Wmax indicative); withheld (no figure).");
  std::vector<std::vector<std::string>> rows;
  for (const auto& [key, f] : fits) {
    const auto& [host, test, degree] = key;
    rows.push_back({host, std::to_string(f.ranks), std::to_string(f.threads), test,
                    degree > 0 ? std::to_string(degree) : "-",
                    f.all_fitted ? fixed(f.Wmax / 1e9, 2) : "-",
                    f.all_fitted ? fixed(f.T0 * 1e6, 3) : "-",
                    f.all_fitted ? fixed(f.B08 / 1e3, 2) : "-", f.all_fitted ? fixed(f.r2, 4) : "-",
                    f.all_paper_fitted ? fixed(f.T0_paper * 1e6, 3) : "-",
                    f.all_paper_fitted ? fixed(f.B08_paper / 1e3, 2) : "-", model::verdict_name(f.verdict),
                    f.all_valid ? "yes" : "NO"});
  }
  for (std::string& l : format_text_table({"host", "ranks", "threads", "test", "N", "Wmax GB/s", "T0 us", "B0.8 KB",
                                           "R^2", "paper T0 us", "paper B0.8 KB", "fit", "valid"},
                                          rows))
    lines.push_back(std::move(l));
  if (!problems.empty()) lines.emplace_back();
  for (std::string& p : problems) lines.push_back(std::move(p));
  return lines;
}

namespace {

class BsReport final : public BenchmarkReport {
 public:
  std::vector<std::string> summary_lines(const std::vector<Table>& tables) const override {
    std::vector<std::string> backends;  // cpu first, then the others in the order their rows come
    for (const Table& t : tables)
      if (t.path() == kFitsPath)
        for (std::size_t r = 0; r < t.rows(); ++r)
          if (std::find(backends.begin(), backends.end(), t.get_string(r, "backend")) == backends.end())
            backends.push_back(t.get_string(r, "backend"));
    std::stable_partition(backends.begin(), backends.end(), [](const std::string& b) { return b == kBackendCpu; });
    std::vector<std::string> lines;
    for (const std::string& backend : backends) {
      if (!lines.empty()) lines.emplace_back();
      for (std::string& l : bs_fit_summary_lines(tables, backend)) lines.push_back(std::move(l));
    }
    return lines;
  }
};

}  // namespace

std::unique_ptr<BenchmarkReport> make_bs_report() { return std::make_unique<BsReport>(); }

}  // namespace bws::bs
