// The b_eff CollectiveBenchmark: plan() resolves the options (BeffPlan);
// run() allocates the four buffers once, measures the natural ring, the
// random rings (built on rank 0 from the seed and broadcast) and the 2-rank
// reference ring while the other ranks wait, and on rank 0 turns the
// measurements into tables (BeffResults, BeffTables). Each rank's own b_eff
// is its best ring; a retest adds rings that change every node's
// neighbours (BeffNeighbourRings).
#include "beff/BeffBenchmark.hpp"

#include "beff/BeffChannelCheck.hpp"

#include <algorithm>
#include <climits>
#include <limits>
#include <cmath>
#include <cstdio>
#include <new>
#include <optional>
#include <span>

#include "beff/BeffEstimate.hpp"
#include "beff/BeffNeighbourRings.hpp"
#include "beff/BeffOptions.hpp"
#include "beff/BeffPlan.hpp"
#include "beff/BeffResults.hpp"
#include "beff/BeffRingRun.hpp"
#include "beff/BeffRings.hpp"
#include "beff/BeffTables.hpp"
#include "core/BudgetFit.hpp"
#include "core/Errors.hpp"
#include "core/ProbedCollective.hpp"
#include "core/SteadyClock.hpp"
#include "core/OptionText.hpp"
#include "core/ResultColumns.hpp"
#include "core/Sizes.hpp"

namespace bws::beff {
namespace {

// "0.005": a --beff.min-time value as the INI stores it; with " s" in text.
std::string seconds_value(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", seconds);
  return text;
}
std::string seconds_text(double seconds) { return seconds_value(seconds) + " s"; }

// Rank 0 builds the ring; every rank gets its order.
std::vector<int> broadcast_order(Communicator& world, const std::vector<int>& order_on_root) {
  std::vector<int> order = order_on_root;
  order.resize(static_cast<std::size_t>(world.size()));
  world.broadcast_from_root(order);
  return order;
}

std::string describe_reference(int ranks, const ReferencePair& pair) {
  if (ranks <= 2) return "the natural ring itself (" + std::to_string(ranks) + (ranks == 1 ? " rank)" : " ranks)");
  return "ranks " + std::to_string(pair.first) + " and " + std::to_string(pair.second) +
         (pair.across_nodes ? " (two nodes)" : " (one node)");
}

// --time-budget: fewer repetitions (down to 3), fewer random rings (down
// to 1), a shorter min-time (halved, down to 1 ms), each only when left at
// its default; else a UsageError with the estimate.
void fit_beff_to_budget(BeffParams& p, const Config& config, const RankLayout& layout) {
  const BeffOptions o = beff_schema().read(config, layout.quick);
  const std::vector<BudgetKnob<BeffParams>> knobs = {
      count_knob("reps", o.defaulted(&BeffOptions::reps), &BeffParams::reps, 3),
      count_knob("random rings", o.defaulted(&BeffOptions::random_rings), &BeffParams::random_rings, 1),
      {"min-time", o.defaulted(&BeffOptions::min_time_seconds),
       [](BeffParams& q) {
         if (q.min_time_seconds <= 1e-3) return false;
         q.min_time_seconds = std::max(1e-3, q.min_time_seconds / 2);
         return true;
       },
       [](const BeffParams& q) { return seconds_text(q.min_time_seconds); }}};
  const auto fitted = bws::fit_to_budget<BeffParams>(
      p, layout.time_budget_seconds, [&](const BeffParams& q) { return estimate_beff(q, layout.speed); }, knobs);
  if (!fitted.fits)
    throw UsageError(over_budget_message("beff", fitted.asked, layout.time_budget_seconds,
                                         "fewer " + o.flag(&BeffOptions::reps) + " or " +
                                             o.flag(&BeffOptions::random_rings) + ", or a shorter " +
                                             o.flag(&BeffOptions::min_time_seconds)));
  const BeffParams asked = p;
  p = fitted.plan;
  p.fitted = fitted.changes;
  if (p.reps != asked.reps) p.chosen[beff_schema().name_of(&BeffOptions::reps)] = std::to_string(p.reps);
  if (p.random_rings != asked.random_rings)
    p.chosen[beff_schema().name_of(&BeffOptions::random_rings)] = std::to_string(p.random_rings);
  if (p.min_time_seconds != asked.min_time_seconds)
    p.chosen[beff_schema().name_of(&BeffOptions::min_time_seconds)] = seconds_value(p.min_time_seconds);
}

class BeffPlannedCollective final : public ProbedCollective {
 public:
  // `params` as the options asked; the plan is fitted to --time-budget here
  // and again from the probe's figures.
  BeffPlannedCollective(BeffParams params, const Config& config, std::shared_ptr<const DeviceBuffersProvider> device)
      : asked_(params), p_(std::move(params)), config_(config), provider_(std::move(device)) {
    fit_beff_to_budget(p_, config_, p_.layout);
    nodes_ = p_.layout.node_of_rank;
    if (nodes_.size() != static_cast<std::size_t>(p_.layout.size)) nodes_.assign(static_cast<std::size_t>(p_.layout.size), 0);
    if (p_.layout.size >= 2) pair_ = choose_reference_pair(nodes_);
  }

  std::string describe() const override {
    return describe_beff(p_) + "; reference: " + describe_reference(p_.layout.size, pair_);
  }
  std::map<std::string, std::string> fitted_options() const override { return p_.chosen; }
  TimeEstimate estimate() const override {
    TimeEstimate e = estimate_beff(p_, p_.layout.speed);
    if (!p_.fitted.empty()) e.terms += "; fitted to --time-budget: " + p_.fitted;
    return e;
  }

  // The natural ring's exchange at the largest size, timed twice after a
  // first contact of 8 bytes; every rank gets the slowest rank's best. The
  // estimate then counts the network, and the plan is fitted again.
  void probe(Communicator& world) override {
    if (world.size() < 2 || p_.sizes_bytes.empty()) return;
    const std::uint64_t bytes = p_.max_message_bytes();
    std::optional<RingBuffers> buffers;
    try {
      buffers.emplace(allocate_everywhere(world));
    } catch (const RuntimeFailure&) {
      return;  // on every rank alike; run() fails the phase with the same words, the survey goes on
    }
    const RingPlace place = place_in_ring(natural_ring(world.size()).order, world.rank());
    const ExchangePeers peers{&world, world.rank(), place.left, place.right};
    PayloadTally tally;
    std::uint32_t iteration = 0;
    run_exchanges(ExchangeMethod::Sendrecv, peers, *buffers, kLatencyMessageBytes, 1, iteration, tally);
    // The lean timed path of the run (stamped before the clock, checked
    // after it), so the probe times the exchange and not the payload work.
    double best_seconds = std::numeric_limits<double>::infinity();
    for (int k = 0; k < 2; ++k) {
      prepare_timed_run(peers, *buffers, bytes, iteration);
      world.barrier();
      const double started = steady_seconds();
      run_timed_exchanges(ExchangeMethod::Sendrecv, peers, *buffers, bytes, 1);
      best_seconds = std::min(best_seconds, steady_seconds() - started);
      check_timed_run(peers, *buffers, bytes, iteration, tally);
    }
    world.all_reduce(std::span<double>(&best_seconds, 1), Reduction::Max);
    if (!(best_seconds > 0) || !std::isfinite(best_seconds)) return;
    BeffParams refit = asked_;
    refit.probed_send_Bps = 2.0 * static_cast<double>(bytes) / best_seconds;  // L to each neighbour
    fit_beff_to_budget(refit, config_, refit.layout);
    p_ = std::move(refit);
  }

  std::vector<Table> run(Communicator& world, Progress& progress, MatrixSink& /*matrices: none*/) override {
    const int rank = world.rank(), ranks = world.size();
    const RingBuffers buffers = allocate_everywhere(world);
    const std::unique_ptr<DeviceBuffers> device = open_device_everywhere(world);
    const std::string oversubscribed = oversubscription(world);

    // The rings: natural, then random (none for 1 rank: it has one order only).
    const Ring natural = natural_ring(ranks);
    const int random_count = ranks > 1 ? p_.random_rings : 0;
    std::vector<Ring> random_on_root;
    if (rank == 0) random_on_root = random_rings(ranks, random_count, p_.seed);
    const bool measure_reference = ranks >= 3;
    const double steps =
        static_cast<double>((1 + random_count + (measure_reference ? 1 : 0)) * p_.sizes_bytes.size());
    double done = 0;

    std::uint32_t iteration = 0;
    std::vector<RingMeasurement> measured;
    // A rank's own figure: its best ring, so a rank slow only beside a slow
    // node on the natural ring is fast on a random one.
    double own_best_Bps = std::nan("");
    for (int k = 0; k <= random_count; ++k) {
      Ring ring = natural;
      if (k > 0) {
        const auto& built = rank == 0 ? random_on_root[static_cast<std::size_t>(k - 1)].order : std::vector<int>{};
        ring = Ring{k, RingKind::Random, broadcast_order(world, built)};
      }
      RingRunSettings settings = settings_for(rank, device.get());
      settings.faults.make_received_stale = ring.kind == RingKind::Natural && rank == p_.corrupt_rank;
      const std::string stage = "beff " + ring_label(ring.index, ring.kind);
      auto sizes = measure_ring(world, ring.order, settings, buffers, iteration,
                                [&](std::size_t) { progress.report(stage, ++done / steps); });
      own_best_Bps = std::fmax(own_best_Bps, own_beff_Bps(sizes));
      if (rank == 0) measured.push_back({std::move(ring), std::move(sizes)});
    }
    Table ranks_table = gather_own_beff(world, own_best_Bps);

    if (measure_reference) {
      const bool member = rank == pair_.first || rank == pair_.second;
      if (const std::unique_ptr<Communicator> pair = world.split_members(member)) {
        const RingRunSettings settings = settings_for(rank, device.get());
        auto sizes = measure_ring(*pair, natural_ring(2).order, settings, buffers, iteration,
                                  [&](std::size_t) { progress.report("beff reference ring", ++done / steps); });
        if (rank == 0)
          measured.push_back({Ring{random_count + 1, RingKind::Reference, {pair_.first, pair_.second}}, std::move(sizes)});
      }
      wait_quietly_at_barrier(world);
    }
    if (rank != 0) return {};
    std::vector<Table> out = tables(measured, oversubscribed, device ? device->device_name() : std::string());
    out.push_back(std::move(ranks_table));
    return out;
  }

  // Only /beff/ranks: each rank's best over the natural ring and the rings on
  // which no node has a neighbour it had there (none for 3 nodes or fewer),
  // so no two nodes are neighbours on all of them: only a slow node itself
  // is slow on its best ring. With the natural ring among them, a rank's
  // retest figure is never below its survey figure by the choice of rings
  // (the others may cross more switches), so it meets the survey's limit
  // as it is.
  std::vector<Table> retest(Communicator& world, Progress& progress, MatrixSink& /*matrices: none*/) override {
    const int rank = world.rank();
    const RingBuffers buffers = allocate_everywhere(world);
    const std::unique_ptr<DeviceBuffers> device = open_device_everywhere(world);
    std::vector<Ring> rings = neighbour_changing_rings(nodes_);
    rings.insert(rings.begin(), natural_ring(world.size()));
    const double steps = static_cast<double>(rings.size() * p_.sizes_bytes.size());
    double done = 0, own_best_Bps = std::nan("");
    std::uint32_t iteration = 0;
    for (const Ring& ring : rings) {
      auto sizes = measure_ring(world, ring.order, settings_for(rank, device.get()), buffers, iteration,
                                [&](std::size_t) { progress.report("beff retest ring", ++done / steps); });
      own_best_Bps = std::fmax(own_best_Bps, own_beff_Bps(sizes));
    }
    Table ranks_table = gather_own_beff(world, own_best_Bps);
    if (rank != 0) return {};
    return {std::move(ranks_table)};
  }

 private:
  // The four buffers on every rank, or a RuntimeFailure on every rank.
  RingBuffers allocate_everywhere(Communicator& world) const {
    std::optional<RingBuffers> buffers;
    int ok = 1;
    try {
      buffers.emplace(p_.max_message_bytes(), p_.huge_pages);
    } catch (const std::bad_alloc&) {
      ok = 0;
    }
    world.all_reduce(std::span<int>(&ok, 1), Reduction::Min);
    if (!ok)
      throw RuntimeFailure("cannot allocate 4 message buffers of " +
                           format_bytes(static_cast<double>(p_.max_message_bytes())) + " on some rank");
    return std::move(*buffers);
  }

  // Every rank's own b_eff and host, on rank 0 as /beff/ranks (one double
  // and one host name per rank). Collective.
  Table gather_own_beff(Communicator& world, double own_Bps) const {
    const int rank = world.rank(), ranks = world.size();
    std::string host = p_.layout.host.substr(0, kHostWidth - 1);
    host.resize(kHostWidth, '\0');
    std::vector<double> figures(rank == 0 ? static_cast<std::size_t>(ranks) : 0);
    std::vector<char> hosts(rank == 0 ? static_cast<std::size_t>(ranks) * kHostWidth : 0);
    world.gather_to_root(std::as_bytes(std::span<const double>(&own_Bps, 1)),
                         std::as_writable_bytes(std::span(figures)));
    world.gather_to_root(std::as_bytes(std::span<const char>(host)), std::as_writable_bytes(std::span(hosts)));
    Table table = make_beff_ranks_table();
    for (int r = 0; r < (rank == 0 ? ranks : 0); ++r)
      table.add_row({{"rank", r},
                     {"host", std::string(&hosts[static_cast<std::size_t>(r) * kHostWidth])},
                     {"ranks", ranks},
                     {"b_eff_Bps", figures[static_cast<std::size_t>(r)]}});
    return table;
  }

  // The PCIe path's four device buffers on every rank (nullptr on the host
  // path), or a RuntimeFailure on every rank naming the first failing one.
  std::unique_ptr<DeviceBuffers> open_device_everywhere(Communicator& world) const {
    if (p_.path != BeffPath::Device) return nullptr;
    std::unique_ptr<DeviceBuffers> device;
    std::string error;
    try {
      device = provider_->open(config_, device_request(p_));
    } catch (const std::exception& e) {
      error = e.what();
    }
    const int rank = world.rank();
    int failing = error.empty() ? INT_MAX : rank;
    world.all_reduce(std::span<int>(&failing, 1), Reduction::Min);
    if (failing == INT_MAX) return device;
    const std::string path = "--" + beff_schema().name_of(&BeffOptions::path) + " device: ";
    if (rank == failing) throw RuntimeFailure(path + error);
    throw RuntimeFailure(path + "rank " + std::to_string(failing) + " could not open its device buffers");
  }

  // "4 ranks on 2 processors" when some node runs more ranks than it has
  // processors (rank 0's node named when it is one), "" otherwise. Collective.
  std::string oversubscription(Communicator& world) const {
    const int ranks = p_.layout.ranks_on_node, processors = p_.node_processors;
    const int mine = processors > 0 && ranks > processors ? 1 : 0;
    int any = mine;
    world.all_reduce(std::span<int>(&any, 1), Reduction::Max);
    if (!any) return "";
    if (!mine) return "a node runs more ranks than it has processors";
    return std::to_string(ranks) + " ranks on " + std::to_string(processors) + " processors of a node";
  }

  RingRunSettings settings_for(int rank, DeviceBuffers* device) const {
    RingRunSettings s;
    s.device = device;
    s.sizes_bytes = p_.sizes_bytes;
    s.methods = p_.methods;
    s.reps = p_.reps;
    s.min_time_seconds = p_.min_time_seconds;
    s.world_rank = rank;
    return s;
  }

  std::vector<Table> tables(const std::vector<RingMeasurement>& measured, const std::string& oversubscribed,
                            const std::string& device_name) const {
    const PathLabel path{path_name(p_.path), device_name};
    Table results = make_beff_results_table(), sizes = make_beff_sizes_table(), summary = make_beff_summary_table(),
          rings = make_beff_rings_table(), checks = make_checks_table();
    std::vector<RingResult> computed;
    const RingResult* reference = nullptr;
    for (const RingMeasurement& m : measured) {
      computed.push_back(ring_result(m));
      add_result_rows(results, m, p_.layout.host, path);
      add_ring_rows(rings, m.ring, p_.seed, path);
      add_payload_checks(checks, m, path);
    }
    for (const RingResult& r : computed)
      if (r.kind == RingKind::Reference) reference = &r;
    const RingResult& natural = computed.front();
    ScalingResult scaling =
        scaling_result(natural, reference, p_.min_efficiency, describe_reference(natural.ranks, pair_), oversubscribed);
    scaling.check.subject = (path.subject_prefix() + scaling.check.subject).substr(0, 160);
    for (const RingResult& r : computed) {
      add_size_rows(sizes, r, path);
      SummaryExtras extras;
      extras.seed = p_.seed;
      extras.huge_pages = p_.huge_pages;
      extras.reference = describe_reference(natural.ranks, pair_);
      extras.reference_per_rank_Bps = scaling.reference_per_rank_Bps;
      extras.efficiency = r.kind == RingKind::Natural ? scaling.efficiency
                                                      : ring_efficiency(r, scaling.reference_per_rank_Bps);
      extras.min_efficiency = p_.min_efficiency;
      extras.scaling_passed = r.kind == RingKind::Natural ? (scaling.check.passed ? 1 : 0) : -1;
      extras.scaling_enforced = r.kind == RingKind::Natural && scaling.enforced;
      if (p_.channel_model) {
        ChannelModelCheck channel = channel_model_check(r, *p_.channel_model, p_.channel_model_label);
        extras.model_b_eff_Bps = channel.expected_b_eff_Bps;
        extras.model_ratio = channel.ratio;
        extras.model_verdict = model::verdict_name(channel.quality.verdict);
        extras.model_quality = channel.quality.reason;
        channel.check.subject = (path.subject_prefix() + channel.check.subject).substr(0, 160);
        if (r.kind == RingKind::Natural) add_check(checks, channel.check);  // the survey's b_eff
      }
      add_summary_row(summary, r, extras, path);
    }
    add_check(checks, scaling.check);
    return {std::move(results), std::move(sizes), std::move(summary), std::move(rings), std::move(checks)};
  }

  BeffParams asked_;  // before --time-budget: the probe fits it again
  BeffParams p_;
  Config config_;  // the device options, for opening the device buffers
  std::shared_ptr<const DeviceBuffersProvider> provider_;
  std::vector<int> nodes_;  // node index of each rank (all 0 when the layout has none)
  ReferencePair pair_;
};

class BeffBenchmark final : public CollectiveBenchmark {
 public:
  explicit BeffBenchmark(std::shared_ptr<const DeviceBuffersProvider> device) : device_(std::move(device)) {}
  std::string name() const override { return "beff"; }
  std::string description() const override {
    return "b_eff ring: every rank exchanges 21 message sizes with both ring neighbours (natural and random "
           "rings); effective bandwidth, Hockney fit, linear scaling vs a 2-rank ring";
  }
  void add_options(boost::program_options::options_description& desc) const override { beff_schema().add_to(desc); }
  std::unique_ptr<PlannedCollective> plan(const Config& config, const RankLayout& layout) const override {
    return std::make_unique<BeffPlannedCollective>(plan_beff(config, layout, device_.get()), config, device_);
  }

  std::shared_ptr<const DeviceBuffersProvider> device_;
};

}  // namespace

std::unique_ptr<CollectiveBenchmark> make_beff_benchmark(std::shared_ptr<const DeviceBuffersProvider> device) {
  return std::make_unique<BeffBenchmark>(std::move(device));
}

}  // namespace bws::beff
