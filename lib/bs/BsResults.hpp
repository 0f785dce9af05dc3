#pragma once
// The tables of BS1-BS7 and how one series (a rank's sweep of one test, and
// degree for BS6/BS7) becomes rows: a /bs/results row per size (samples in
// /bs/times), its fit in /bs/fits, a bs.validation check per size, and a
// bs.fit warning when no fit could be made.
#include <cstdint>
#include <string>
#include <vector>

#include "bs/BsFit.hpp"
#include "bs/BsTypes.hpp"
#include "core/RankIdentity.hpp"
#include "core/Table.hpp"

namespace bws::bs {

inline constexpr const char* kResultsPath = "bs/results";
inline constexpr const char* kTimesPath = "bs/times";
inline constexpr const char* kFitsPath = "bs/fits";
inline constexpr const char* kBackendCpu = "cpu";

Table make_bs_results_table();
Table make_bs_fits_table();

struct BsValidation {
  bool passed = false;
  double error = 0;   // the largest error found, relative (arrays, scalars) or absolute (counts)
  double limit = 0;   // allowed
  std::string what;   // empty when passed; else what failed ("y[17] = 3 expected 2")
};

struct BsPoint {
  int point = 0;                  // index in the sweep
  std::uint64_t entries = 0;      // n (BS1-BS5) or Nt (BS6/BS7)
  std::uint64_t global_nodes = 0; // Ng (BS6/BS7), 0 otherwise
  std::uint64_t blocks = 0;       // gather row blocks (BS6/BS7), 0 otherwise
  int elements_per_side = 0;      // K (BS6/BS7), 0 otherwise
  std::uint64_t bytes = 0;
  std::vector<double> seconds;    // the timed runs (the warm-up is not kept)
  BsValidation validation;
};

struct BsSeries {
  BsTest test = BsTest::Copy;
  int degree = 0;  // 0 for BS1-BS5
  std::vector<BsPoint> points;
};


// Which points a series' fit may use: from min_bytes up. from_plateau (the
// default, --bs.fit-min-bytes auto): min_bytes is the floor (the LLC) and
// only the plateau above it is fitted; else the user's min_bytes (0: every
// point), fitted only when the largest sizes form a plateau.
struct BsFitRange {
  std::uint64_t min_bytes = 0;
  bool from_plateau = false;
  BsFitRange() = default;
  // Implicit: a size alone is an explicit --bs.fit-min-bytes.
  BsFitRange(std::uint64_t min, bool plateau = false) : min_bytes(min), from_plateau(plateau) {}
};

// The fit of a series on the points its range selects, timed by their t_min.
// The quality verdict of one /bs/fits row (model/FitQuality.hpp): its
// fit_verdict and fit_quality; a file written before the gate is judged by
// the same gate from what it kept. The one reading the summary, the report
// and the cross-checks use.
model::FitQuality fit_row_quality(const Table& fits, std::size_t row);

// T0_measured_seconds >= 0: T0 held at it (BsFit.hpp); < 0: the free fit's.
BsFit fit_series(const BsSeries& series, BsFitRange range, double T0_measured_seconds = -1);

// The paper's fit of a series (BsFit.hpp): every size, timed by t_avg.
BsPaperFit paper_fit_series(const BsSeries& series);

void add_bs_series(Table& results, Table& fits, Table& checks, const RankIdentity& who, const BsSeries& series,
                   BsFitRange range, double T0_measured_seconds = -1);

}  // namespace bws::bs
