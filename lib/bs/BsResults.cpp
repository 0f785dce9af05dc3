#include "bs/BsResults.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "bs/BsPlateau.hpp"
#include "core/ResultColumns.hpp"
#include "core/SampleStats.hpp"
#include "core/Sizes.hpp"

namespace bws::bs {

Table make_bs_results_table() {
  std::vector<Column> columns = leading_result_columns("test");
  columns.push_back(int_column("degree"));        // N of BS6/BS7, 0 for BS1-BS5
  columns.push_back(int_column("entries"));       // n (BS1-BS5) or Nt local nodes (BS6/BS7)
  columns.push_back(int_column("global_nodes"));  // Ng (BS6/BS7)
  columns.push_back(int_column("blocks"));        // gather row blocks (BS6/BS7)
  columns.push_back(int_column("elements_per_side"));  // K (BS6/BS7)
  columns.push_back(int_column("point"));         // index in the sweep
  columns.push_back(int_column("reps"));          // timed runs (after one warm-up)
  columns.push_back(real_column("t_median", "s"));
  columns.push_back(int_column("fitted"));        // this point is one the fit used (>= --bs.fit-min-bytes)
  columns.push_back(real_column("fit_rel_residual"));  // (t_min - T(B)) / T(B); 0 when not fitted
  for (Column& c : closing_result_columns()) columns.push_back(std::move(c));
  return Table(kResultsPath, std::move(columns), kTimesPath);
}

Table make_bs_fits_table() {
  return Table(kFitsPath,
               {int_column("rank"), text_column("host", kHostWidth), text_column("backend", 16),
                text_column("test", kNameWidth), int_column("degree"), int_column("threads"),
                int_column("points_used"), int_column("first_fitted_bytes", "B"), real_column("T0_seconds", "s"),
                real_column("Wmax_Bps", "B/s"), real_column("r2"), real_column("B08_bytes", "B"),
                real_column("B05_bytes", "B"), int_column("T0_negative"), int_column("T0_measured"),
                real_column("T0_fit_seconds", "s"), real_column("max_rel_residual"),
                int_column("fitted"), int_column("valid"),
                // The paper's own fit (BsFit.hpp: every size, t_avg, plain least squares, free intercept).
                int_column("paper_points"), real_column("T0_paper_seconds", "s"),
                real_column("Wmax_paper_Bps", "B/s"), real_column("B08_paper_bytes", "B"),
                int_column("paper_fitted"),
                // Where the bandwidth stopped changing with size (BsPlateau.hpp); no plateau, no fit.
                int_column("plateau_found"), int_column("plateau_points"),
                int_column("plateau_interference"), int_column("plateau_first_bytes", "B"),
                real_column("plateau_Bps", "B/s"), real_column("plateau_tolerance"),
                // The fit through the quality gate (model/FitQuality.hpp): result, warning, withheld.
                text_column("fit_verdict", model::kFitVerdictWidth), text_column("fit_quality", model::kFitReasonWidth)});
}

namespace {

// The candidates of the plateau (the points from the floor up), by size.
std::vector<PlateauPoint> plateau_candidates(const BsSeries& series, std::uint64_t floor_bytes) {
  std::vector<PlateauPoint> points;
  for (const BsPoint& p : series.points) {
    if (p.bytes < floor_bytes || p.seconds.empty()) continue;
    const TimeStats t = time_stats(p.seconds);
    points.push_back({static_cast<double>(p.bytes), t.min_seconds,
                      t.min_seconds > 0 ? (t.median_seconds - t.min_seconds) / t.min_seconds : 0.0});
  }
  std::stable_sort(points.begin(), points.end(),
                   [](const PlateauPoint& a, const PlateauPoint& b) { return a.bytes < b.bytes; });
  return points;
}

// The smallest fitted size: the plateau's first (auto) or the user's minimum.
std::uint64_t first_fitted_bytes(const BsFitRange& range, const Plateau& plateau) {
  return range.from_plateau ? static_cast<std::uint64_t>(plateau.first_bytes) : range.min_bytes;
}

}  // namespace

BsFit fit_series(const BsSeries& series, BsFitRange range, double T0_measured_seconds) {
  // Auto: the plateau is looked for above the floor (the caches). An explicit
  // minimum is the user's; the sweep's end must still be flat, at any size.
  const std::vector<PlateauPoint> candidates = plateau_candidates(series, range.from_plateau ? range.min_bytes : 0);
  const Plateau plateau = find_plateau(candidates, T0_measured_seconds);
  BsFit fit;
  if (plateau.found) {
    const std::uint64_t from = first_fitted_bytes(range, plateau);
    std::vector<BsFitPoint> points;
    const auto slowed = [&](const BsPoint& p) {
      return std::find(plateau.interference_bytes.begin(), plateau.interference_bytes.end(),
                       static_cast<double>(p.bytes)) != plateau.interference_bytes.end();
    };
    for (const BsPoint& p : series.points)
      if (p.bytes >= from && !p.seconds.empty() && !slowed(p))
        points.push_back({static_cast<double>(p.bytes), time_stats(p.seconds).min_seconds});
    fit = fit_streaming(points, T0_measured_seconds);
  } else {
    fit.invalid_reason = plateau.reason;
  }
  fit.plateau_found = plateau.found;
  fit.plateau_points = plateau.points;
  fit.interference_bytes = plateau.interference_bytes;
  fit.plateau_first_bytes = plateau.first_bytes;
  fit.plateau_bandwidth_Bps = plateau.bandwidth_Bps;
  fit.plateau_tolerance = plateau.tolerance;
  return fit;
}

BsPaperFit paper_fit_series(const BsSeries& series) {
  std::vector<BsFitPoint> points;
  for (const BsPoint& p : series.points) points.push_back({static_cast<double>(p.bytes), time_stats(p.seconds).avg_seconds});
  return fit_paper(points);
}

namespace {

// One /bs/fits row: the fit of the series (its own model) beside the
// paper's fit of all its points (Chalmers & Warburton's); NaN where a fit
// has no value.
void add_fit_row(Table& fits, const RankIdentity& who, const std::string& name, const BsSeries& series,
                 const BsFit& fit, bool all_valid) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const BsPaperFit paper = paper_fit_series(series);
  const model::FitQuality quality = bs_fit_quality(fit);
  fits.add_row({{"rank", who.rank},
                {"host", who.host},
                {"backend", who.backend},
                {"test", name},
                {"degree", series.degree},
                {"threads", who.threads},
                {"points_used", fit.points_used},
                {"first_fitted_bytes", static_cast<std::int64_t>(fit.first_fitted_bytes)},
                {"T0_seconds", fit.valid ? fit.T0_seconds : nan},
                {"Wmax_Bps", fit.valid ? fit.Wmax_Bps : nan},
                {"r2", fit.valid ? fit.r_squared : nan},
                {"B08_bytes", fit.valid ? fit.B08_bytes() : nan},
                {"B05_bytes", fit.valid ? fit.B05_bytes() : nan},
                {"T0_negative", fit.T0_negative},
                {"T0_measured", fit.T0_measured},
                {"T0_fit_seconds", fit.valid ? fit.T0_unconstrained_seconds : nan},
                {"max_rel_residual", fit.valid ? fit.max_abs_relative_residual : nan},
                {"fitted", fit.valid},
                {"valid", all_valid},
                {"paper_points", paper.points_used},
                {"T0_paper_seconds", paper.valid ? paper.T0_seconds : nan},
                {"Wmax_paper_Bps", paper.valid ? paper.Wmax_Bps : nan},
                {"B08_paper_bytes", paper.valid ? paper.B08_bytes() : nan},
                {"paper_fitted", paper.valid},
                {"plateau_found", fit.plateau_found},
                {"plateau_points", fit.plateau_points},
                {"plateau_interference", static_cast<std::int64_t>(fit.interference_bytes.size())},
                {"plateau_first_bytes", static_cast<std::int64_t>(fit.plateau_first_bytes)},
                {"plateau_Bps", fit.plateau_found ? fit.plateau_bandwidth_Bps : nan},
                {"plateau_tolerance", fit.plateau_tolerance},
                {"fit_verdict", model::verdict_name(quality.verdict)},
                {"fit_quality", quality.reason}});
}

}  // namespace

void add_bs_series(Table& results, Table& fits, Table& checks, const RankIdentity& who, const BsSeries& series,
                   BsFitRange range, double T0_measured_seconds) {
  const BsTestSpec& spec = bs_spec(series.test);
  const std::string name = spec.label;
  std::string subject = "rank " + std::to_string(who.rank) + " (" + who.host + ") " + name;
  if (who.backend != kBackendCpu) subject += " on " + who.backend;
  if (series.degree > 0) subject += " N=" + std::to_string(series.degree);

  const BsFit fit = fit_series(series, range, T0_measured_seconds);
  bool all_valid = true;
  std::size_t fitted_index = 0;
  for (const BsPoint& p : series.points) {
    const TimeStats t = time_stats(p.seconds);
    const bool fitted = !p.seconds.empty() && fit.fitted_size(static_cast<double>(p.bytes));
    double residual = 0;
    if (fitted && fit.valid && fitted_index < fit.relative_residuals.size()) residual = fit.relative_residuals[fitted_index];
    if (fitted) ++fitted_index;
    all_valid = all_valid && p.validation.passed;
    const double bandwidth =
        t.min_seconds > 0 ? static_cast<double>(p.bytes) / t.min_seconds : std::numeric_limits<double>::infinity();
    std::string point_subject = subject + " " + std::to_string(p.entries) + " entries (" + std::to_string(p.bytes) + " B)";
    if (!p.validation.passed) point_subject += ": " + p.validation.what;
    add_check(checks, {.check = "bs.validation",
                       .subject = point_subject.substr(0, 160),
                       .kind = "validation",
                       .measured = p.validation.error,
                       .expected = 0,
                       .lower = 0,
                       .upper = p.validation.limit,
                       .unit = "",
                       .passed = p.validation.passed});
    results.add_row({{"rank", who.rank},
                     {"host", who.host},
                     {"backend", who.backend},
                     {"test", name},
                     {"threads", who.threads},
                     {"degree", series.degree},
                     {"entries", p.entries},
                     {"global_nodes", p.global_nodes},
                     {"blocks", p.blocks},
                     {"elements_per_side", p.elements_per_side},
                     {"point", p.point},
                     {"reps", static_cast<std::int64_t>(p.seconds.size())},
                     {"t_median", t.median_seconds},
                     {"fitted", fitted},
                     {"fit_rel_residual", residual},
                     {"bytes", p.bytes},
                     {"t_min", t.min_seconds},
                     {"t_avg", t.avg_seconds},
                     {"t_max", t.max_seconds},
                     {"bandwidth", bandwidth},
                     {"valid", p.validation.passed}},
                    p.seconds);
  }
  add_fit_row(fits, who, name, series, fit, all_valid);
  if (!fit.interference_bytes.empty()) {
    // Recorded, not failed: the fit left them out and still has its points.
    std::string sizes;
    for (double b : fit.interference_bytes) sizes += (sizes.empty() ? "" : ", ") + format_bytes(b);
    add_check(checks, {.check = "bs.fit",
                       .subject = (subject + ": slowed alone on the plateau, not fitted: " + sizes).substr(0, 160),
                       .kind = "warning",
                       .measured = static_cast<double>(fit.interference_bytes.size()),
                       .expected = 0,
                       .lower = 0,
                       .upper = static_cast<double>(fit.plateau_points) / kPlateauMinPoints,
                       .unit = "points",
                       .passed = true});
  }
  if (!fit.valid)
    add_check(checks, {.check = "bs.fit",
                       .subject = (subject + ": no fit: " + fit.invalid_reason).substr(0, 160),
                       .kind = "warning",
                       // Without a plateau: its flat sizes against those needed.
                       .measured = static_cast<double>(fit.plateau_found ? fit.points_used : fit.plateau_points),
                       .expected = 0,
                       .lower = fit.plateau_found ? 3.0 : static_cast<double>(kPlateauMinPoints),
                       .upper = fit.plateau_found ? 0.0 : static_cast<double>(series.points.size()),
                       .unit = "points",
                       .passed = false});
}

// A row's verdict. Files written before the gate: the same gate on what
// they kept (fitted, R^2, the largest residual, T0's sign and whether it
// was measured).
model::FitQuality fit_row_quality(const Table& t, std::size_t r) {
  if (t.has_column("fit_verdict"))
    if (const auto v = model::parse_verdict(t.get_string(r, "fit_verdict"))) return {*v, t.get_string(r, "fit_quality")};
  if (t.get_int(r, "fitted") == 0) return model::withheld_fit("no fit (see the checks table)");
  return model::verdict_of(t.get_double(r, "r2"), t.get_double(r, "max_rel_residual"),
                           t.get_int(r, "T0_negative") != 0 && t.get_int(r, "T0_measured") == 0,
                           static_cast<std::size_t>(t.get_int(r, "points_used")));
}

}  // namespace bws::bs
