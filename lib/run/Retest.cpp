#include "run/Retest.hpp"

#include <mpi.h>

#include <ostream>

#include "core/BatchedGather.hpp"
#include "core/OptionText.hpp"
#include "run/RecordBundle.hpp"
#include "run/RunText.hpp"
#include "run/MpiCommunicator.hpp"

namespace bws::run {

const CatalogEntry* entry_retesting(const std::string& metric) {
  const std::string name = metric.substr(0, metric.find('['));
  for (const CatalogEntry& e : catalog::benchmark_registry())
    for (const model::NodeMetric& m : e.retested_by())
      if (m.name == name) return &e;
  return nullptr;
}

std::string Retest::retest_plan(const KeptTables& kept) const {
  try {
    const Table flags = kept.flags(plan_.settings.flags);
    std::vector<std::string> hosts, labels;
    for (std::size_t r = 0; r < flags.rows(); ++r) {
      const CatalogEntry* entry = entry_retesting(flags.get_string(r, "metric"));
      if (!entry) continue;  // memory configuration, a link: nothing measures it by host
      if (!contains(hosts, flags.get_string(r, "host"))) hosts.push_back(flags.get_string(r, "host"));
      if (!contains(labels, entry->name)) labels.push_back(entry->name);
    }
    if (!hosts.empty()) return joined(hosts) + "|" + joined(labels);
  } catch (const std::exception& e) {
    err_ << "bwsurvey: retest: cannot judge the nodes: " << e.what() << std::endl;
  }
  return "";
}

std::vector<model::NodeMetricValue> Retest::run(const KeptTables& kept, const FaultHooks& hooks) {
  std::vector<model::NodeMetricValue> values;
  const int rounds = plan_.settings.retest_rounds;
  if (rounds <= 0) return values;
  const std::string plan = broadcast_text(MPI_COMM_WORLD, world_.root() ? retest_plan(kept) : std::string());
  if (plan.empty()) return values;
  const auto bar = plan.find('|');
  const std::vector<std::string> hosts = split_comma_list(plan.substr(0, bar));
  const std::vector<std::string> labels = split_comma_list(plan.substr(bar + 1));
  const bool mine = contains(hosts, world_.layout.host);
  hooks.before_retest(&team_);
  for (int round = 1; round <= rounds; ++round) {
    for (Phase& phase : plan_.phases) {
      if (!contains(labels, phase.label)) continue;
      const bool collective = phase.entry->collective();
      if (world_.root())
        err_ << "bwsurvey: retest " << round << " of " << rounds << ": " << phase.label
             << (collective ? " again on every rank (no new probe or plan); only the figures of " +
                                  joined(hosts) + " are compared"
                            : " on " + joined(hosts) + " (the other nodes wait)")
             << std::endl;
      watchdog_.arm("retest of " + phase.label, plan_.settings.phase_timeout_seconds);
      const std::vector<Table> tables = collective ? collective_round(phase) : node_local_round(phase, mine);
      watchdog_.disarm();
      if (!world_.root()) continue;
      for (model::NodeMetricValue& v : model::node_metric_values(phase.entry->retested_by(), tables))
        if (contains(hosts, v.host)) values.push_back(std::move(v));
    }
  }
  return values;
}

void Retest::say_failed(const Phase& phase, const std::string& error) const {
  if (world_.root()) err_ << "bwsurvey: retest of " << phase.label << " failed: " << error << std::endl;
}

// One node-local round on the flagged nodes; rank 0 gets their records.
std::vector<Table> Retest::node_local_round(Phase& phase, bool mine) {
  std::optional<std::string> error;
  std::vector<Table> tables;
  if (mine) {
    NullProgress silent;
    MpiNodeSync node_sync(turns_.turn_comm());
    RunContext context{silent, node_sync};
    try {
      phase.node_run->prepare(team_);
    } catch (const std::exception& e) {
      error = e.what();
    }
    // Every rank of a node is on the same host: all of them take part, or
    // none; a rank that could not prepare keeps its node's ranks from
    // measuring (they would wait for it at their node barriers).
    int failed = error ? 1 : 0;
    MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, world_.layout.node_comm);
    turns_.run_in_turns([&] {
      if (failed) return;
      try {
        tables = phase.node_run->run(team_, context);
      } catch (const std::exception& e) {
        error = e.what();
      }
    });
    phase.node_run->release();
  }
  // The nodes not retested wait asleep: on nodes that share cores (pretend
  // nodes, an oversubscribed test) a rank spinning in the gather would
  // slow the node being measured and confirm its flag.
  MpiCommunicator world(MPI_COMM_WORLD);
  wait_quietly_at_barrier(world);
  RecordBundle records{tables, turns_.summarize(*phase.node_benchmark, tables), {}};
  // Rank 0 keeps only what the metrics read (never the per-sample results).
  const std::vector<std::string> wanted = model::metric_tables(phase.entry->retested_by());
  std::vector<Table> received;
  const std::vector<std::byte> payload = pack_bundle(records);
  gather_in_batches(world, payload, kGatherBytesInFlight, [&](int, std::span<const std::byte> bytes) {
    RecordBundle bundle = unpack_bundle(bytes);
    for (auto* list : {&bundle.rank_tables, &bundle.node_tables})
      for (Table& t : *list)
        if (contains(wanted, t.path())) received.push_back(std::move(t));
  });
  if (auto agreed = agree_on_error(MPI_COMM_WORLD, error ? std::optional<std::string>(world_.rank_name() + ": " + *error)
                                                         : std::nullopt))
    say_failed(phase, *agreed);
  return received;
}

// One collective round (every rank takes part); rank 0 gets the tables.
std::vector<Table> Retest::collective_round(Phase& phase) {
  NullProgress silent;
  std::vector<Table> tables;
  std::optional<std::string> error;
  try {
    MpiCommunicator world(MPI_COMM_WORLD);
    DiscardingMatrixSink matrices;  // a retest compares per-node figures, not the maps
    tables = phase.collective->retest(world, silent, matrices);
  } catch (const std::exception& e) {
    error = world_.rank_name() + ": " + e.what();
  }
  if (auto agreed = agree_on_error(MPI_COMM_WORLD, error)) {
    say_failed(phase, *agreed);
    return {};
  }
  return tables;
}

}  // namespace bws::run
