#include "pmbw/PmbwResults.hpp"

#include <algorithm>
#include <numeric>

#include "core/ResultColumns.hpp"
#include "core/SampleStats.hpp"

namespace bws::pmbw {

Table make_pmbw_results_table() {
  std::vector<Column> columns = leading_result_columns("routine");
  columns.push_back(int_column("area_bytes", "B"));    // the size asked for (pmbw: areasize)
  columns.push_back(int_column("thread_bytes", "B"));  // each thread's area (pmbw: threadsize)
  columns.push_back(int_column("test_bytes", "B"));    // thread_bytes x threads (pmbw: testsize)
  columns.push_back(int_column("repeats"));            // passes over each area per sample
  columns.push_back(int_column("accesses"));           // loads or stores per sample, all threads (pmbw: testaccess)
  columns.push_back(int_column("seed"));               // --pmbw.seed (Perm cycles), as a signed 64-bit image
  columns.push_back(int_column("reps"));               // timed samples kept (files before 3.0: samples)
  columns.push_back(real_column("t_median", "s"));
  columns.push_back(real_column("access_seconds", "s"));         // t_min / accesses (pmbw: rate)
  columns.push_back(real_column("thread_access_seconds", "s"));  // t_min / accesses of one thread
  for (Column& c : closing_result_columns()) columns.push_back(std::move(c));
  return Table(kResultsPath, std::move(columns), kTimesPath);
}

Table make_pmbw_plateaus_table() {
  return Table(kPlateausPath,
               {int_column("rank"), text_column("host", kHostWidth), text_column("scan_routine", kNameWidth),
                int_column("threads"), real_column("scan_l1_Bps", "B/s"), real_column("scan_l2_Bps", "B/s"),
                real_column("scan_ram_Bps", "B/s"), int_column("ram_test_bytes", "B"),
                text_column("perm_routine", kNameWidth), real_column("perm_ram_access_seconds", "s"),
                int_column("perm_area_bytes", "B")});
}

Table make_pmbw_nodes_table() {
  return Table(kNodesPath,
               {text_column("host", kHostWidth), int_column("ranks"), int_column("threads"),
                text_column("scan_routine", kNameWidth), real_column("scan_l1_Bps", "B/s"),
                real_column("scan_l2_Bps", "B/s"), real_column("scan_ram_Bps", "B/s"),
                text_column("perm_routine", kNameWidth), real_column("perm_ram_access_seconds", "s")});
}

void add_pmbw_point(Table& results, const RankIdentity& who, const PmbwPoint& p) {
  const auto [t_min, t_median, t_avg, t_max] = time_stats(p.seconds);  // at least one sample
  const std::size_t n = p.seconds.size();
  const auto accesses = static_cast<double>(p.accesses());
  const double thread_accesses = accesses / p.threads;
  results.add_row({{"rank", who.rank},
                   {"host", who.host},
                   {"backend", std::string(kBackendCpu)},
                   {"routine", std::string(p.routine->name)},
                   {"threads", p.threads},
                   {"area_bytes", static_cast<std::int64_t>(p.layout.area_bytes)},
                   {"thread_bytes", static_cast<std::int64_t>(p.layout.thread_bytes)},
                   {"test_bytes", static_cast<std::int64_t>(p.layout.test_bytes)},
                   {"repeats", static_cast<std::int64_t>(p.repeats)},
                   {"accesses", static_cast<std::int64_t>(p.accesses())},
                   {"seed", static_cast<std::int64_t>(p.seed)},
                   {"reps", static_cast<std::int64_t>(n)},
                   {"t_median", t_median},
                   {"access_seconds", accesses > 0 ? t_min / accesses : 0.0},
                   {"thread_access_seconds", thread_accesses > 0 ? t_min / thread_accesses : 0.0},
                   {"bytes", static_cast<std::int64_t>(p.bytes())},
                   {"t_min", t_min},
                   {"t_avg", t_avg},
                   {"t_max", t_max},
                   {"bandwidth", t_min > 0 ? static_cast<double>(p.bytes()) / t_min : 0.0},
                   {"valid", p.valid}},
                  p.seconds);
}

}  // namespace bws::pmbw
