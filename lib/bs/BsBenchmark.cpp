// The BS NodeBenchmark, one driver for every backend: plan() asks each
// backend of --bs.backend for its plan on this rank's device (BsPlan's
// sweep against its cache and memory); run() sweeps every test through the
// device interface (BsDevice.hpp), validates every size and fits each
// series. The ranks of a node start every BS1-BS5 size together (node
// barrier per size, a fixed count on every rank); BS6/BS7 meet once per
// degree, since the deduplicated K lists need not be equally long.
#include "bs/BsBenchmark.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "bs/BsDevice.hpp"
#include "bs/BsOptions.hpp"
#include "core/Errors.hpp"
#include "core/OptionText.hpp"
#include "topology/Topology.hpp"
#include "core/BackendList.hpp"
#include "core/BudgetFit.hpp"
#include "bs/BsEstimate.hpp"
#include "core/ResultColumns.hpp"
#include "topology/Team.hpp"

namespace bws::bs {
namespace {

// "1,4,7": --bs.degrees as the INI stores it.
std::string degrees_text(const std::vector<int>& degrees) {
  std::string text;
  for (int d : degrees) {  // appends: gcc 12 warns falsely (-Wrestrict) on "," + a temporary
    if (!text.empty()) text += ',';
    text += std::to_string(d);
  }
  return text;
}

// The auto sweep's reach in LLCs, halved down to --quick's.
BudgetKnob<BsOptions> reach_knob(bool free) {
  return {"reach", free,
          [](BsOptions& o) {
            const std::uint64_t reach = o.auto_llc_multiple > 0 ? o.auto_llc_multiple : kAutoLlcMultiple;
            if (reach <= kQuickLlcMultiple) return false;
            o.auto_llc_multiple = std::max(kQuickLlcMultiple, reach / 2);
            return true;
          },
          [](const BsOptions& o) {
            return std::to_string(o.auto_llc_multiple > 0 ? o.auto_llc_multiple : kAutoLlcMultiple) + "x LLC";
          }};
}

class BsSweep {
 public:
  BsSweep(BsDeviceRun& device, const RankIdentity& who, RunContext& context, Table& checks)
      : d_(device), p_(device.params()), who_(who), context_(context), checks_(checks) {
    for (BsTest t : p_.tests)
      if (!is_mesh_test(t)) total_ += p_.points;
    for (const BsDegreeSweep& s : p_.mesh_sweeps)
      total_ += static_cast<double>(s.points.size()) * (p_.runs(BsTest::Gather) + p_.runs(BsTest::Scatter));
  }

  void run(topo::Team& team, Table& results, Table& fits, double ceiling_Bps) {
    for (BsTest t : p_.tests) {
      if (is_mesh_test(t)) continue;
      const double T0_seconds = d_.empty_call_seconds(team, context_, t);
      const auto& points = p_.vector_points[static_cast<std::size_t>(t) - 1];
      BsSeries series{t, 0, {}};
      for (std::size_t i = 0; i < points.size(); ++i) {
        BsPoint point = d_.vector_point(team, context_, t, points[i].entries, p_.reps);
        point.point = static_cast<int>(i);
        checked(point, ceiling_Bps, subject(t, 0));
        series.points.push_back(std::move(point));
        progress(t);
      }
      add_bs_series(results, fits, checks_, who_, series, fit_range(), T0_seconds);
    }
    for (const BsDegreeSweep& sweep : p_.mesh_sweeps) {
      context_.node_sync.barrier();
      BsSeries gather{BsTest::Gather, sweep.degree, {}}, scatter{BsTest::Scatter, sweep.degree, {}};
      for (std::size_t i = 0; i < sweep.points.size(); ++i) {
        const int k = sweep.points[i].elements_per_side;
        const HexMesh mesh = make_hex_mesh(k, sweep.degree, p_.mask_boundary);
        const GatherCsr csr = make_gather_csr(mesh);
        d_.place_mesh(team, mesh, csr);
        for (BsTest t : {BsTest::Gather, BsTest::Scatter}) {
          if (!p_.runs(t)) continue;
          BsPoint point = d_.mesh_point(team, context_, t, p_.reps);
          point.point = static_cast<int>(i);
          point.elements_per_side = k;
          checked(point, ceiling_Bps, subject(t, sweep.degree) + " K=" + std::to_string(k));
          (t == BsTest::Gather ? gather : scatter).points.push_back(std::move(point));
          progress(t);
        }
      }
      for (BsSeries* s : {&gather, &scatter})
        if (p_.runs(s->test))
          add_bs_series(results, fits, checks_, who_, *s, fit_range(), d_.empty_call_seconds(team, context_, s->test));
    }
  }

 private:
  BsFitRange fit_range() const { return {p_.fit_min_bytes, p_.fit_min_bytes_auto}; }
  void checked(BsPoint& point, double ceiling_Bps, const std::string& what) {
    if (ceiling_Bps > 0) apply_bs_rate_ceiling(point, ceiling_Bps, checks_, what);
  }
  std::string subject(BsTest t, int degree) const {
    std::string s = "rank " + std::to_string(who_.rank) + " (" + who_.host + ") " + bs_spec(t).label + " on " + who_.backend;
    if (degree > 0) s += " N=" + std::to_string(degree);
    return s;
  }
  void progress(BsTest t) {
    done_ += 1;
    const std::string on = who_.backend == kBackendCpu ? "" : " on " + who_.backend;
    context_.progress.report(std::string("bs ") + bs_spec(t).label + on, total_ > 0 ? done_ / total_ : 1.0);
  }

  BsDeviceRun& d_;
  const BsParams& p_;
  const RankIdentity& who_;
  RunContext& context_;
  Table& checks_;
  double total_ = 0, done_ = 0;
};

class BsPlannedRun final : public PlannedDeviceRuns<BsDeviceRun> {
 public:
  BsPlannedRun(std::vector<std::unique_ptr<BsDeviceRun>> devices, const NodeContext& node, std::string fitted,
               std::map<std::string, std::string> chosen)
      : PlannedDeviceRuns(std::move(devices)),
        rank_(node.rank),
        host_(node.host),
        llc_bytes_(node.topology.info().llc_bytes),
        speed_(node.speed),
        fitted_(std::move(fitted)),
        chosen_(std::move(chosen)) {}

  std::string describe() const override {
    return PlannedDeviceRuns::describe() + (fitted_.empty() ? "" : " (fitted to --time-budget: " + fitted_ + ")");
  }
  std::map<std::string, std::string> fitted_options() const override { return chosen_; }

  TimeEstimate estimate() const override {
    TimeEstimate sum{0, ""};
    for (const auto& d : runs_) {
      const TimeEstimate e = estimate_bs(d->params(), llc_bytes_, speed_);
      sum.seconds += e.seconds;
      sum.terms += (sum.terms.empty() ? "" : "; ") + e.terms;
    }
    if (!fitted_.empty()) sum.terms += "; fitted to --time-budget: " + fitted_;
    return sum;
  }

  std::vector<Table> run(topo::Team& team, RunContext& context) override {
    Table results = make_bs_results_table(), fits = make_bs_fits_table(), checks = make_checks_table();
    std::vector<Table> device_tables;
    for (auto& d : runs_) {
      const BsDeviceInfo info = d->info(team);
      const RankIdentity who{rank_, host_, info.threads, info.backend};
      BsSweep(*d, who, context, checks).run(team, results, fits, info.ceiling_Bps);
      for (Table& t : d->device_tables("bs")) device_tables.push_back(std::move(t));
    }
    std::vector<Table> out;
    out.push_back(std::move(results));
    out.push_back(std::move(fits));
    for (Table& t : device_tables) out.push_back(std::move(t));
    out.push_back(std::move(checks));
    return out;
  }

 private:
  int rank_;
  std::string host_;
  std::uint64_t llc_bytes_;
  MachineSpeed speed_;
  std::string fitted_;
  std::map<std::string, std::string> chosen_;  // option -> the value fitting chose
};

class BsBenchmark final : public NodeBenchmark {
 public:
  explicit BsBenchmark(BsBackends backends) : backends_(std::move(backends)) {}
  std::string name() const override { return "bs"; }
  std::string description() const override {
    return "BS1-BS7 streaming tests (Chalmers & Warburton): copy, axpy, norm, dot, fused CG update, gather, "
           "scatter; size sweeps fitted with T(B) = T0 + B/Wmax, on the CPU or a device (--" +
           bs_schema().name_of(&BsOptions::backends) + ")";
  }
  void add_options(boost::program_options::options_description& desc) const override {
    add_bs_options(desc);
    for (const auto& [name, backend] : backends_) backend->add_options(desc);
  }
  std::unique_ptr<PlannedRun> plan(const Config& config, const NodeContext& node) const override {
    std::vector<std::string> known;
    for (const auto& [name, backend] : backends_) known.push_back(name);
    // The list is read here, where the backends built in are known; each
    // backend then plans its own target from the same options.
    const BsOptions asked = bs_schema().read(config, node.quick);
    auto make = [&](const BsOptions& options, std::string fitted, std::map<std::string, std::string> chosen) {
      std::vector<std::unique_ptr<BsDeviceRun>> devices;
      for (const std::string& name : parse_backend_list(options.backends, options.flag(&BsOptions::backends), known))
        devices.push_back(backends_.at(name)->plan(config, options, node));
      return std::make_unique<BsPlannedRun>(std::move(devices), node, std::move(fitted), std::move(chosen));
    };
    // --time-budget: fewer repetitions (two thirds, down to 3), then fewer
    // points (4 less, down to --quick's), then --quick's degrees, then a
    // sweep to 8x the LLC instead of 16x (where the plateau may not be
    // reached: the fit then says so), each only when left at its default.
    const std::vector<BudgetKnob<BsOptions>> knobs = {
        whole_knob("reps", asked.defaulted(&BsOptions::reps), &BsOptions::reps, 3, [](int r) { return r * 2 / 3; }),
        whole_knob("points", asked.defaulted(&BsOptions::points), &BsOptions::points, kQuickPoints,
                   [](int p) { return p - 4; }),
        {"degrees", asked.defaulted(&BsOptions::degrees),
         [](BsOptions& o) {
           const std::vector<int> quick_degrees = {1, 4, 7};
           if (o.degrees.size() <= quick_degrees.size()) return false;
           o.degrees = quick_degrees;
           return true;
         },
         [](const BsOptions& o) { return degrees_text(o.degrees); }},
        reach_knob(asked.defaulted(&BsOptions::max_bytes) && !node.quick)};
    const auto fitted = fit_to_budget<BsOptions>(
        asked, node.time_budget_seconds, [&](const BsOptions& o) { return make(o, "", {})->estimate(); }, knobs);
    if (!fitted.fits)
      throw UsageError(over_budget_message("bs", fitted.asked, node.time_budget_seconds,
                                           "fewer " + asked.flag(&BsOptions::reps) + ", " +
                                               asked.flag(&BsOptions::points) + " or " + asked.flag(&BsOptions::degrees) +
                                               ", or a smaller " + asked.flag(&BsOptions::max_bytes)));
    std::map<std::string, std::string> chosen;
    if (fitted.plan.reps != asked.reps) chosen[bs_schema().name_of(&BsOptions::reps)] = std::to_string(fitted.plan.reps);
    if (fitted.plan.points != asked.points)
      chosen[bs_schema().name_of(&BsOptions::points)] = std::to_string(fitted.plan.points);
    if (fitted.plan.degrees != asked.degrees)
      chosen[bs_schema().name_of(&BsOptions::degrees)] = degrees_text(fitted.plan.degrees);
    auto planned = make(fitted.plan, fitted.changes, std::move(chosen));
    return planned;
  }

 private:
  BsBackends backends_;
};

}  // namespace

std::unique_ptr<NodeBenchmark> make_bs_benchmark(BsBackends backends) {
  return std::make_unique<BsBenchmark>(std::move(backends));
}

std::unique_ptr<NodeBenchmark> make_bs_benchmark() {
  return make_bs_benchmark(BsBackends{{kBackendCpu, cpu_bs_backend()}});
}

bool apply_bs_rate_ceiling(BsPoint& p, double ceiling_Bps, Table& checks, const std::string& what) {
  double best = 0;
  for (double s : p.seconds) best = best == 0 ? s : std::min(best, s);
  const double rate = best > 0 ? static_cast<double>(p.bytes) / best : INFINITY;
  if (rate <= ceiling_Bps) return true;
  p.validation.passed = false;
  char text[160];
  std::snprintf(text, sizeof text, "rate %.3g B/s above the device's ceiling %.3g B/s", rate, ceiling_Bps);
  p.validation.what = text + (p.validation.what.empty() ? std::string() : "; " + p.validation.what);
  const std::string subject = what + " (" + std::to_string(p.bytes) + " B): above the device's ceiling";
  add_ceiling_check(checks, "bs.rate_ceiling", subject, "validation", rate, ceiling_Bps, ceiling_Bps, "B/s");
  return false;
}

}  // namespace bws::bs
