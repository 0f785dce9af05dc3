// The pmbw NodeBenchmark: plan() resolves the options (PmbwPlan), prepare()
// allocates one NUMA buffer for the largest layout and first-touches it on
// the Team in equal shares, run() measures thread count by thread count,
// routine by routine, size by size (pmbw's nesting puts the routine
// outermost; counting threads outermost lets one first touch serve all
// routines). The ranks of a node start each routine together.
#include "pmbw/PmbwBenchmark.hpp"

#include <cstring>
#include <stdexcept>

#include "core/ResultColumns.hpp"
#include "pmbw/PmbwEstimate.hpp"
#include "pmbw/PmbwMeasure.hpp"
#include "pmbw/PmbwPlan.hpp"
#include "pmbw/PmbwPlateaus.hpp"
#include "pmbw/PmbwResults.hpp"
#include "pmbw/PmbwStats.hpp"
#include "topology/NumaBuffer.hpp"
#include "topology/Team.hpp"
#include "topology/Topology.hpp"

namespace bws::pmbw {
namespace {

PmbwCacheSizes cache_sizes(const topo::Topology& topology) {
  const topo::TopologyInfo& info = topology.info();
  PmbwCacheSizes c;
  c.l1_bytes = info.l1_bytes;
  c.llc_bytes = info.llc_bytes;
  for (const topo::CacheLevel& level : info.caches)
    if (level.level == 2) c.l2_bytes = level.size_bytes;
  return c;
}

class PmbwPlannedRun final : public PlannedRun {
 public:
  PmbwPlannedRun(PmbwParams params, const NodeContext& node)
      : params_(std::move(params)), topology_(&node.topology), who_{node.rank, node.host}, speed_(node.speed) {}

  std::string describe() const override { return describe_pmbw(params_); }
  TimeEstimate estimate() const override { return estimate_pmbw(params_, speed_); }
  std::map<std::string, std::string> fitted_options() const override { return params_.chosen; }
  std::uint64_t memory_bytes() const override { return params_.memory_bytes(); }

  void prepare(topo::Team& team) override {
    buffer_ = topo::NumaBuffer(*topology_, params_.buffer_bytes);
    auto* p = static_cast<unsigned char*>(buffer_.data());
    const std::size_t bytes = buffer_.bytes();
    team.run([&](topo::ThreadContext& thread) {
      const auto [b, e] = thread.share(bytes / 4096, 1);  // whole pages
      const std::size_t end = thread.index() == thread.count() - 1 ? bytes : e * 4096;
      if (end > b * 4096) std::memset(p + b * 4096, 0, end - b * 4096);
    });
  }

  std::vector<Table> run(topo::Team& team, RunContext& context) override {
    if (buffer_.data() == nullptr) throw std::logic_error("pmbw: run() called before prepare()");
    Table results = make_pmbw_results_table(), plateaus = make_pmbw_plateaus_table(), checks = make_checks_table();
    auto* buffer = static_cast<unsigned char*>(buffer_.data());
    double total = 0, done = 0;
    for (int p : params_.thread_counts)
      total += static_cast<double>(p > 0) * static_cast<double>(params_.routines.size() * params_.sizes.size());
    for (int threads : params_.thread_counts) {
      for (const PmbwRoutine* routine : params_.routines) {
        context.node_sync.barrier();
        PmbwCalibration calibration;
        for (std::uint64_t size : params_.sizes) {
          const PmbwPoint point = pmbw_measure_point(team, *routine, size, threads, buffer, params_.min_time_seconds,
                                                     params_.reps, params_.seed, calibration);
          add_pmbw_point(results, who_, point);
          if (!point.valid)
            add_check(checks, {"pmbw.validation",
                               "rank " + std::to_string(who_.rank) + " (" + who_.host + ") " + routine->name + " " +
                                   std::to_string(threads) + " threads, " + std::to_string(size) + " B: " + point.problem,
                               "validation", 0, 1, 1, 1, "", false});
          done += 1;
          context.progress.report(std::string("pmbw ") + routine->name, done / total);
        }
      }
    }
    const PmbwPlateaus p = find_plateaus(results, who_.rank, cache_sizes(*topology_));
    plateaus.add_row({{"rank", who_.rank},
                      {"host", who_.host},
                      {"scan_routine", p.scan_routine},
                      {"threads", p.threads},
                      {"scan_l1_Bps", p.l1_Bps},
                      {"scan_l2_Bps", p.l2_Bps},
                      {"scan_ram_Bps", p.ram_Bps},
                      {"ram_test_bytes", static_cast<std::int64_t>(p.ram_test_bytes)},
                      {"perm_routine", p.perm_routine},
                      {"perm_ram_access_seconds", p.perm_ram_access_seconds},
                      {"perm_area_bytes", static_cast<std::int64_t>(p.perm_area_bytes)}});
    return {std::move(results), std::move(plateaus), std::move(checks)};
  }

  void release() override { buffer_ = topo::NumaBuffer(); }

 private:
  PmbwParams params_;
  const topo::Topology* topology_;
  RankIdentity who_;
  MachineSpeed speed_;
  topo::NumaBuffer buffer_;
};

class PmbwBenchmark final : public NodeBenchmark {
 public:
  std::string name() const override { return "pmbw"; }
  std::string description() const override {
    return "pmbw (Bingmann): scan and permutation-walk routines in assembly over pmbw's array sizes and thread "
           "counts, with pmbw's names and stats.txt lines";
  }
  void add_options(boost::program_options::options_description& desc) const override { pmbw_schema().add_to(desc); }
  std::unique_ptr<PlannedRun> plan(const Config& config, const NodeContext& node) const override {
    return std::make_unique<PmbwPlannedRun>(plan_pmbw(config, node), node);
  }
  std::vector<Table> summarize_node(const std::vector<Table>& rank_tables) const override {
    return summarize_pmbw_node(rank_tables);
  }
  std::optional<std::string> listing(const Config& config) const override {
    if (!listing_requested(pmbw_listing_schema().read(config, false))) return std::nullopt;
    return routine_listing(detect_cpu_features());
  }
};

}  // namespace

std::unique_ptr<NodeBenchmark> make_pmbw_benchmark() { return std::make_unique<PmbwBenchmark>(); }
std::unique_ptr<TableExporter> make_pmbw_exporter(const Config& config) { return make_pmbw_stats_exporter(config); }

}  // namespace bws::pmbw
