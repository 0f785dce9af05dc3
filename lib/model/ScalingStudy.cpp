#include "model/ScalingStudy.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace bws::model {

ScalingStudy analyse_scaling_study(std::vector<StudyRun> runs, double min_efficiency) {
  if (runs.empty()) throw std::invalid_argument("a scaling study needs at least one run with b_eff");
  std::stable_sort(runs.begin(), runs.end(), [](const StudyRun& a, const StudyRun& b) { return a.ranks < b.ranks; });
  const StudyRun* reference = &runs.front();
  for (const StudyRun& r : runs)
    if (r.ranks >= 2) {
      reference = &r;
      break;
    }
  ScalingStudy study;
  study.min_efficiency = min_efficiency;
  study.reference_run = reference->name;
  study.reference_per_rank_Bps = reference->ranks > 0 ? reference->beff_Bps / reference->ranks : 0;

  std::vector<ScalingPoint> points;
  for (const StudyRun& r : runs) points.push_back({static_cast<double>(r.ranks), r.beff_Bps});
  study.fit = fit_line_through_origin(points);
  study.fit_efficiency = study.fit.valid && study.reference_per_rank_Bps > 0
                             ? study.fit.slope_Bps_per_rank / study.reference_per_rank_Bps
                             : std::numeric_limits<double>::quiet_NaN();

  for (const StudyRun& r : runs) {
    StudyPoint p;
    p.run = r;
    p.ideal_Bps = r.ranks * study.reference_per_rank_Bps;
    p.fit_Bps = study.fit.valid ? study.fit.slope_Bps_per_rank * r.ranks : std::numeric_limits<double>::quiet_NaN();
    p.efficiency = scaling_efficiency(r.beff_Bps, static_cast<std::uint64_t>(std::max(r.ranks, 0)),
                                      study.reference_per_rank_Bps);
    CheckRow row = linear_scaling_check_row(
        r.name + ": " + std::to_string(r.nodes) + (r.nodes == 1 ? " node, " : " nodes, ") + std::to_string(r.ranks) +
            (r.ranks == 1 ? " rank" : " ranks") + " vs " + study.reference_run,
        p.efficiency, min_efficiency);
    row.check = "scaling.efficiency";
    p.passed = row.passed;
    study.points.push_back(p);
    study.checks.push_back(row);
  }
  CheckRow line = linear_scaling_check_row("least-squares line through the origin over " +
                                               std::to_string(runs.size()) + " runs vs " + study.reference_run,
                                           study.fit_efficiency, min_efficiency);
  line.check = "scaling.linear_fit";
  study.checks.push_back(line);
  return study;
}

}  // namespace bws::model
