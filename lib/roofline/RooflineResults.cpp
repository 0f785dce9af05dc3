#include "roofline/RooflineResults.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/ResultColumns.hpp"
#include "core/SampleStats.hpp"
#include "model/Roofline.hpp"
#include "roofline/RooflinePeakChecks.hpp"
#include "roofline/RooflineTables.hpp"

namespace bws::roofline {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string subject_of(const RooflineRank& who, const RooflineMeasurement& m) {
  return "rank " + std::to_string(who.rank) + " (" + who.host + ") " + std::string(kernel_name(m.kernel)) + " " +
         std::string(stream::type_name(m.type));
}

}  // namespace

void add_ceilings_row(Table& table, std::initializer_list<std::pair<std::string_view, Value>> leading,
                      const Ceilings& c) {
  std::vector<Value> cells(table.columns().size());
  for (const auto& [name, value] : leading) cells[table.column_index(name)] = value;
  auto set = [&](std::string_view name, Value v) { cells[table.column_index(name)] = std::move(v); };
  set("isa", c.isa);
  set("blas", c.blas);
  set("fma_double_flop_per_s", c.fma_double_flop_per_s);
  set("fma_float_flop_per_s", c.fma_float_flop_per_s);
  set("gemm_double_flop_per_s", c.gemm_double_flop_per_s);
  set("gemm_float_flop_per_s", c.gemm_float_flop_per_s);
  set("triad_Bps", c.triad_Bps);
  set("balance_fma_double_flop_per_byte", model::machine_balance(c.fma_double_flop_per_s, c.triad_Bps));
  set("balance_fma_float_flop_per_byte", model::machine_balance(c.fma_float_flop_per_s, c.triad_Bps));
  set("balance_gemm_double_flop_per_byte", model::machine_balance(c.gemm_double_flop_per_s, c.triad_Bps));
  set("balance_gemm_float_flop_per_byte", model::machine_balance(c.gemm_float_flop_per_s, c.triad_Bps));
  set("valid", std::int64_t{c.valid ? 1 : 0});
  table.add_row_values(std::move(cells));
}

Ceilings ceilings_of_row(const Table& t, std::size_t r) {
  Ceilings c;
  c.isa = t.get_string(r, "isa");
  c.blas = t.get_string(r, "blas");
  c.fma_double_flop_per_s = t.get_double(r, "fma_double_flop_per_s");
  c.fma_float_flop_per_s = t.get_double(r, "fma_float_flop_per_s");
  c.gemm_double_flop_per_s = t.get_double(r, "gemm_double_flop_per_s");
  c.gemm_float_flop_per_s = t.get_double(r, "gemm_float_flop_per_s");
  c.triad_Bps = t.get_double(r, "triad_Bps");
  c.valid = t.get_int(r, "valid") != 0;
  return c;
}

void add_roofline_results(Table& results, Table& checks, Table& ranks, const RooflineRank& who,
                          const std::vector<RooflineMeasurement>& measurements, const std::string& blas) {
  Ceilings ceilings;
  ceilings.blas = blas;
  for (const RooflineMeasurement& m : measurements) {
    const TimeStats t = time_stats(m.seconds);  // NaN without samples
    const double t_min = t.min_seconds, t_max = t.max_seconds, t_avg = t.avg_seconds;
    const bool compute = m.kernel != RooflineKernel::Triad;
    const double flop_rate = compute ? static_cast<double>(m.flops) / t_min : kNaN;
    const double bandwidth = compute ? kNaN : static_cast<double>(m.bytes) / t_min;
    const double rate = compute ? flop_rate : bandwidth;
    const double ceiling = kRateCeilingPerThread * who.threads;
    const std::string subject = subject_of(who, m);

    const bool validated = m.validated();
    const bool plausible = std::isfinite(rate) && rate > 0 && rate <= ceiling;
    add_check(checks, {"roofline.validation", subject, "validation", m.wrong, 0, 0, m.wrong_allowed, m.wrong_unit,
                       validated});
    add_check(checks, {"roofline.rate_ceiling", subject, "validation", rate, 0, 0, ceiling,
                       compute ? "FLOP/s" : "B/s", plausible});
    const bool valid = validated && plausible;
    results.add_row({{"rank", who.rank},
                     {"host", who.host},
                     {"backend", kBackendCpu},
                     {"kernel", std::string(kernel_name(m.kernel))},
                     {"threads", who.threads},
                     {"type", std::string(stream::type_name(m.type))},
                     {"implementation", m.implementation},
                     {"iterations", m.iterations},
                     {"matrix_n", m.matrix_n},
                     {"elements", m.elements},
                     {"reps", m.seconds.size()},
                     {"flops", m.flops},
                     {"flop_rate", flop_rate},
                     {"bytes", m.bytes},
                     {"t_min", t_min},
                     {"t_avg", t_avg},
                     {"t_max", t_max},
                     {"bandwidth", bandwidth},
                     {"valid", valid}},
                    m.seconds);

    ceilings.valid = ceilings.valid && valid;
    const bool is_double = m.type == StreamType::Double;
    switch (m.kernel) {
      case RooflineKernel::Fma:
        ceilings.isa = m.implementation;
        (is_double ? ceilings.fma_double_flop_per_s : ceilings.fma_float_flop_per_s) = flop_rate;
        break;
      case RooflineKernel::Gemm:
        (is_double ? ceilings.gemm_double_flop_per_s : ceilings.gemm_float_flop_per_s) = flop_rate;
        break;
      case RooflineKernel::Triad:
        ceilings.triad_Bps = bandwidth;
        break;
    }
  }
  add_ceilings_row(ranks, {{"rank", who.rank}, {"host", who.host}, {"threads", who.threads}}, ceilings);
  add_peak_checks(checks, "rank " + std::to_string(who.rank) + " (" + who.host + ")", ceilings);
}

}  // namespace bws::roofline
