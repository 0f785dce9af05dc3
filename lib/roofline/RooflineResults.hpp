#pragma once
// Turns one rank's measurements into rows: a results row per kernel and
// type (with its samples), a validation and a rate-ceiling check per row,
// and the rank's ceilings row (peak, GEMM, Triad, machine balance). A failed
// check marks its row valid=0.
#include <limits>
#include <string>
#include <vector>

#include "core/Table.hpp"
#include "roofline/RooflineMeasurement.hpp"

namespace bws::roofline {

// Above threads x 1e12 FLOP/s or B/s no core delivers (a core does ~1e11
// FLOP/s): such a rate means the timing or the kernel is broken.
inline constexpr double kRateCeilingPerThread = 1e12;

struct RooflineRank {
  int rank = 0;
  std::string host;
  int threads = 1;
};

// A rank's or a node's ceilings; NaN where not measured (no BLAS).
struct Ceilings {
  std::string isa, blas;
  double fma_double_flop_per_s = std::numeric_limits<double>::quiet_NaN();
  double fma_float_flop_per_s = std::numeric_limits<double>::quiet_NaN();
  double gemm_double_flop_per_s = std::numeric_limits<double>::quiet_NaN();
  double gemm_float_flop_per_s = std::numeric_limits<double>::quiet_NaN();
  double triad_Bps = std::numeric_limits<double>::quiet_NaN();
  bool valid = true;
};

// Appends to `results` (make_roofline_results_table), `checks`
// (make_checks_table) and `ranks` (make_roofline_ranks_table).
void add_roofline_results(Table& results, Table& checks, Table& ranks, const RooflineRank& who,
                          const std::vector<RooflineMeasurement>& measurements, const std::string& blas);

// The ceiling cells (isa .. valid) of a ranks or nodes row; the balances
// are computed here from the rates (model::machine_balance).
void add_ceilings_row(Table& table, std::initializer_list<std::pair<std::string_view, Value>> leading,
                      const Ceilings& ceilings);

// Reads the ceilings back from a ranks or nodes row.
Ceilings ceilings_of_row(const Table& table, std::size_t row);

}  // namespace bws::roofline
