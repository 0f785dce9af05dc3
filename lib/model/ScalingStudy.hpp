#pragma once
// A scaling study across runs (bwreport scaling): the natural-ring b_eff of
// runs at 1, 2, 4, ... nodes against n * a per-rank reference, and the
// least-squares line through the origin b_eff(n) = slope * n.
//   reference per rank = b_eff / ranks of the run with the fewest ranks,
//       among runs of >= 2 ranks when there are any (one rank exchanges
//       with itself, in memory, which says nothing about the network);
//   E(n) = b_eff(n) / (n * reference per rank)     per run;
//   E_fit = slope / reference per rank             the line's efficiency.
// Each E is a "model" check against the minimum efficiency. Pure.
#include <string>
#include <vector>

#include "core/ResultColumns.hpp"
#include "model/ScalingEfficiency.hpp"

namespace bws::model {

struct StudyRun {
  std::string name;  // the run's group in the merged file
  int nodes = 0;
  int ranks = 0;           // n of b_eff
  double beff_Bps = 0;     // the natural ring's b_eff, all ranks together
};

struct StudyPoint {
  StudyRun run;
  double ideal_Bps = 0;    // ranks * reference per rank
  double fit_Bps = 0;      // slope * ranks
  double efficiency = 0;   // E(n)
  bool passed = false;
};

struct ScalingStudy {
  std::string reference_run;
  double reference_per_rank_Bps = 0;
  OriginLineFit fit;
  double fit_efficiency = 0;
  double min_efficiency = 0;
  std::vector<StudyPoint> points;  // by ranks, then name
  std::vector<CheckRow> checks;    // one per run, then the line's
};

// Throws std::invalid_argument for no runs.
ScalingStudy analyse_scaling_study(std::vector<StudyRun> runs, double min_efficiency);

}  // namespace bws::model
