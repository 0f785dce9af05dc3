#include "survey/Coordinator.hpp"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <stdexcept>

#include "core/Errors.hpp"
#include "core/ResultColumns.hpp"
#include "h5/ResultFile.hpp"
#include "survey/ConsoleProgress.hpp"
#include "survey/GatherToRoot.hpp"
#include "survey/MpiWorld.hpp"
#include "survey/Outcome.hpp"
#include "survey/RunMetadata.hpp"
#include "survey/SurveySettings.hpp"
#include "topology/PinningPlan.hpp"
#include "topology/Team.hpp"
#include "topology/Topology.hpp"

#ifndef BWS_VERSION
#define BWS_VERSION "unknown"
#endif
#ifndef BWS_GIT_COMMIT
#define BWS_GIT_COMMIT "unknown"
#endif

namespace bws::survey {
namespace {

// Bytes rank 0 receives at a time when gathering a phase.
constexpr std::uint64_t kGatherBytesInFlight = std::uint64_t{64} << 20;

class MpiNodeSync final : public NodeSync {
 public:
  explicit MpiNodeSync(MPI_Comm comm) : comm_(comm) {}
  void barrier() override { MPI_Barrier(comm_); }

 private:
  MPI_Comm comm_;
};

// A rank's records for one phase: its own tables and, on a node's leader,
// the node-level tables.
std::vector<std::byte> pack_bundle(const std::vector<Table>& rank_tables, const std::vector<Table>& node_tables) {
  const auto a = pack_tables(rank_tables);
  const auto b = pack_tables(node_tables);
  const std::uint64_t na = a.size();
  std::vector<std::byte> out(sizeof na + a.size() + b.size());
  std::memcpy(out.data(), &na, sizeof na);
  std::copy(a.begin(), a.end(), out.begin() + sizeof na);
  std::copy(b.begin(), b.end(), out.begin() + static_cast<std::ptrdiff_t>(sizeof na + a.size()));
  return out;
}

std::pair<std::vector<Table>, std::vector<Table>> unpack_bundle(const std::vector<std::byte>& bytes) {
  std::uint64_t na = 0;
  if (bytes.size() < sizeof na) throw RuntimeFailure("a rank sent a truncated record bundle");
  std::memcpy(&na, bytes.data(), sizeof na);
  if (na > bytes.size() - sizeof na) throw RuntimeFailure("a rank sent a truncated record bundle");
  const std::byte* p = bytes.data() + sizeof na;
  return {unpack_tables(p, na), unpack_tables(p + na, bytes.size() - sizeof na - na)};
}

std::string error_line(const std::exception& e) { return e.what(); }

class Survey {
  // One selected benchmark (or a companion phase), planned: node-local or collective.
  struct Phase {
    const RegistryEntry* entry;
    std::string label;  // the entry's name, or the companion's "beff (beff.path=device)"
    std::unique_ptr<NodeBenchmark> node_benchmark;
    std::unique_ptr<PlannedRun> node_run;
    std::unique_ptr<PlannedCollective> collective;
  };

 public:
  Survey(const CommandLine& cl, ConsoleStreams console) : cl_(cl), console_(console) {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
  }

  int run() {
    layout_ = discover_node_layout(MPI_COMM_WORLD);
    if (int code = plan(); code != kExitOk) return code;
    if (int code = open_file(); code != kExitOk) return code;
    if (int code = start_team(); code != kExitOk) return finish(code);
    for (std::size_t i = 0; i < phases_.size(); ++i) {
      if (!run_phase(i)) break;
    }
    return finish(kExitOk);
  }

 private:
  bool root() const { return rank_ == 0; }

  // Test hook: BWSURVEY_INJECT_FAULT=prepare:<rank> makes that rank fail
  // cleanly in prepare(), so tests can see an aborted run keep its records.
  bool fault_injected_here(const std::string& where) const {
    const char* fault = std::getenv("BWSURVEY_INJECT_FAULT");
    return fault && std::string(fault) == where + ":" + std::to_string(rank_);
  }

  void say_error(const std::string& message) {
    if (root()) console_.err << "bwsurvey: error: " << message << std::endl;
  }

  // Every option is checked on every rank, against that rank's topology,
  // before anything is allocated or created; the first error wins.
  int plan() {
    // Where every rank is, for collective benchmarks (collective call: made
    // before anything can fail differently on different ranks).
    std::vector<int> node_of_rank(static_cast<std::size_t>(size_));
    MPI_Allgather(&layout_.node_index, 1, MPI_INT, node_of_rank.data(), 1, MPI_INT, MPI_COMM_WORLD);
    std::optional<std::string> error;
    try {
      settings_ = parse_survey_settings(cl_.config);
      topology_.emplace(topo::Topology::discover());
      const int threads = settings_.threads == 0 ? topology_->info().cores : settings_.threads;
      slots_ = topo::make_pinning_plan(*topology_, threads, settings_.bind);
      const NodeContext node{*topology_, layout_.host, rank_, layout_.ranks_on_node, layout_.local_rank,
                             static_cast<int>(slots_.size()), settings_.quick};
      const RankLayout ranks{rank_,           size_,          layout_.host,           node_of_rank, layout_.n_nodes,
                             topology_->info().node_memory_bytes, layout_.ranks_on_node, settings_.quick};
      auto plan_phase = [&](const RegistryEntry* entry, const std::string& label, const Config& config) {
        Phase phase{entry, label, nullptr, nullptr, nullptr};
        if (entry->collective()) {
          phase.collective = entry->make_collective()->plan(config, ranks);
        } else {
          phase.node_benchmark = entry->make_benchmark();
          phase.node_run = phase.node_benchmark->plan(config, node);
        }
        phases_.push_back(std::move(phase));
      };
      for (const RegistryEntry* entry : settings_.tests) {
        plan_phase(entry, entry->name, cl_.config);
        if (root() && entry->make_exporter) {
          if (auto exporter = entry->make_exporter(cl_.config)) exporters_[entry->name] = std::move(exporter);
        }
        for (const CompanionPhase& companion : entry->companions) {
          if (companion.wanted && !companion.wanted(cl_.config)) continue;
          const RegistryEntry* other = find_benchmark(companion.name);
          if (!other) throw std::logic_error("registry: companion '" + companion.name + "' is no benchmark");
          Config config = cl_.config;
          bool already = std::find(settings_.tests.begin(), settings_.tests.end(), other) != settings_.tests.end();
          for (const auto& [key, value] : companion.settings) {
            already = already && config.has(key) && config.get(key) == value;
            config.set(key, value);
          }
          if (!already) plan_phase(other, companion.label(), config);
        }
      }
    } catch (const UsageError& e) {
      error = error_line(e);
    }
    if (auto agreed = agree_on_error(MPI_COMM_WORLD, error)) {
      say_error(*agreed);
      return kExitUsage;
    }
    return kExitOk;
  }

  int open_file() {
    std::optional<std::string> error;
    if (root()) {
      try {
        file_.emplace(h5::ResultFile::create(settings_.out, settings_.force));
        write_run_attributes();
        file_->flush();
      } catch (const UsageError& e) {
        error = error_line(e);
      } catch (const std::exception& e) {
        error = "--out: cannot write '" + settings_.out + "': " + e.what();
      }
    }
    if (auto agreed = agree_on_error(MPI_COMM_WORLD, error)) {
      say_error(*agreed);
      return kExitUsage;
    }
    return kExitOk;
  }

  void write_run_attributes() {
    h5::ResultFile& f = *file_;
    f.set_attribute("/", "tool_version", std::string(BWS_VERSION));
    f.set_attribute("/", "git_commit", std::string(BWS_GIT_COMMIT));
    f.set_attribute("/", "created_utc", utc_now_iso8601());
    f.set_attribute("/", "finished_utc", std::string());
    f.set_attribute("/", "status", std::string("running"));
    f.set_attribute("/", "command_line", cl_.text);
    f.set_attribute("/", "n_ranks", static_cast<std::int64_t>(size_));
    f.set_attribute("/", "n_nodes", static_cast<std::int64_t>(layout_.n_nodes));
    f.set_attribute("/", "mpi_library", mpi_library_version());
    f.set_attribute("/", "hwloc_version", hwloc_version_text());
    f.set_attribute("/", "compiler", compiler_text());
    std::string tests;
    for (const auto* t : settings_.tests) tests += (tests.empty() ? "" : ",") + t->name;
    f.set_attribute("/", "tests", tests);
    f.set_attribute("/", "completed_phases", std::string());
    f.write_text("/config", cl_.config.to_ini(invocation_only_keys()));
    f.set_attribute("/provenance", "host", layout_.host);
    f.set_attribute("/provenance", "mpi_library", mpi_library_version());
    for (const auto& [key, value] : provenance_environment()) f.set_attribute("/provenance", key, value);
  }

  int start_team() {
    std::optional<std::string> error;
    try {
      team_ = std::make_unique<topo::Team>(*topology_, slots_);
    } catch (const std::exception& e) {
      error = "rank " + std::to_string(rank_) + " (" + layout_.host + "): cannot start its threads: " + e.what();
    }
    if (auto agreed = agree_on_error(MPI_COMM_WORLD, error)) {
      if (root()) outcome_.runtime_failure(*agreed);
      return kExitFailure;
    }
    const RankPlace place{rank_, layout_.host, layout_.node_index, layout_.local_rank, layout_.ranks_on_node,
                          topo::to_string(settings_.bind)};
    std::vector<Table> node_tables;
    if (layout_.leader()) node_tables = make_node_tables(place, *topology_);
    collect(make_rank_tables(place, *topology_, *team_), node_tables, nullptr);
    if (root()) file_->flush();
    return kExitOk;
  }

  // Runs one benchmark on every rank and stores its records. Returns false
  // when the run cannot go on.
  bool run_phase(std::size_t index) {
    Phase& phase = phases_[index];
    const bool ok = phase.entry->collective() ? run_collective(phase) : run_node_local(phase);
    if (root()) finish_exporter(phase.entry->name);
    if (ok && root()) {
      completed_ += (completed_.empty() ? "" : ",") + phase.label;
      file_->set_attribute("/", "completed_phases", completed_);
      file_->flush();
    }
    return ok;
  }

  bool run_node_local(Phase& phase) {
    const RegistryEntry& entry = *phase.entry;
    PlannedRun& planned = *phase.node_run;
    if (root()) console_.err << "bwsurvey: " << phase.label << ": " << planned.describe() << std::endl;

    std::optional<std::string> error;
    try {
      if (fault_injected_here("prepare")) throw RuntimeFailure("fault injected by BWSURVEY_INJECT_FAULT");
      planned.prepare(*team_);
    } catch (const std::exception& e) {
      error = entry.name + ": rank " + std::to_string(rank_) + " (" + layout_.host + "): " + e.what();
    }
    if (auto agreed = agree_on_error(MPI_COMM_WORLD, error)) {
      planned.release();
      if (root()) outcome_.runtime_failure(*agreed);
      return false;
    }

    ConsoleProgress console_progress(console_.err, entry.name);
    NullProgress silent;
    MpiNodeSync node_sync(layout_.node_comm);
    RunContext context{root() ? static_cast<Progress&>(console_progress) : silent, node_sync};
    std::vector<Table> tables;
    std::optional<std::string> run_error;
    try {
      tables = planned.run(*team_, context);
    } catch (const std::exception& e) {
      run_error = entry.name + ": rank " + std::to_string(rank_) + " (" + layout_.host + "): " + e.what();
    }
    planned.release();
    if (root()) console_progress.done();

    // The node's leader combines its ranks' records into node-level ones.
    std::vector<Table> node_tables;
    std::vector<Table> node_rank_tables;
    gather_to_root(layout_.node_comm, pack_tables(tables), kGatherBytesInFlight,
                   [&](int, std::vector<std::byte>& bytes) {
                     for (Table& t : unpack_tables(bytes.data(), bytes.size())) node_rank_tables.push_back(std::move(t));
                   });
    if (layout_.leader()) node_tables = phase.node_benchmark->summarize_node(node_rank_tables);
    node_rank_tables.clear();

    collect(tables, node_tables, entry);
    if (auto agreed = agree_on_error(MPI_COMM_WORLD, run_error)) {
      if (root()) outcome_.runtime_failure(*agreed);
      return false;
    }
    return true;
  }

  // All ranks run it together; rank 0 gets every table.
  bool run_collective(Phase& phase) {
    const RegistryEntry& entry = *phase.entry;
    if (root()) console_.err << "bwsurvey: " << phase.label << ": " << phase.collective->describe() << std::endl;
    ConsoleProgress console_progress(console_.err, entry.name);
    NullProgress silent;
    std::vector<Table> tables;
    std::optional<std::string> error;
    try {
      tables = phase.collective->run(MPI_COMM_WORLD, root() ? static_cast<Progress&>(console_progress) : silent);
    } catch (const std::exception& e) {
      error = entry.name + ": rank " + std::to_string(rank_) + " (" + layout_.host + "): " + e.what();
    }
    if (root()) {
      console_progress.done();
      for (const Table& t : tables) keep_and_store(t, entry);
    }
    if (auto agreed = agree_on_error(MPI_COMM_WORLD, error)) {
      if (root()) outcome_.runtime_failure(*agreed);
      return false;
    }
    return true;
  }

  // Moves every rank's tables (and leaders' node tables) to rank 0, which
  // appends them to the file as they arrive.
  void collect(const std::vector<Table>& rank_tables, const std::vector<Table>& node_tables,
               const RegistryEntry* entry) {
    gather_to_root(MPI_COMM_WORLD, pack_bundle(rank_tables, node_tables), kGatherBytesInFlight,
                   [&](int, std::vector<std::byte>& bytes) {
                     auto [ranks, nodes] = unpack_bundle(bytes);
                     for (Table& t : ranks) keep_and_store(t, entry);
                     for (Table& t : nodes) keep_and_store(t, entry);
                   });
  }
  void collect(const std::vector<Table>& rank_tables, const std::vector<Table>& node_tables,
               const RegistryEntry& entry) {
    collect(rank_tables, node_tables, &entry);
  }

  // Stores a table; the ones the benchmark's report reads are also kept
  // (small: per node or per run, never per sample).
  void keep_and_store(const Table& t, const RegistryEntry* entry) {
    store(t);
    if (!entry) return;
    if (const auto ex = exporters_.find(entry->name); ex != exporters_.end()) ex->second->consume(t);
    const auto& wanted = entry->report_tables;
    if (std::find(wanted.begin(), wanted.end(), t.path()) == wanted.end()) return;
    auto& kept = report_tables_[entry->name];
    auto [it, fresh] = kept.try_emplace(t.path(), t);
    if (!fresh) it->second.append(t);
  }
  void keep_and_store(const Table& t, const RegistryEntry& entry) { keep_and_store(t, &entry); }

  void store(const Table& t) {
    if (t.path() == kTopologyXmlTable) {
      for (std::size_t r = 0; r < t.rows(); ++r)
        file_->write_text("/nodes/" + t.get_string(r, "host") + "/topology_xml", t.get_string(r, "xml"));
      return;
    }
    file_->append(t);
    outcome_.account(t);
  }

  // An exporter's output is complete when its phase ends (or fails): what
  // was measured is written either way.
  void finish_exporter(const std::string& name) {
    const auto ex = exporters_.find(name);
    if (ex == exporters_.end()) return;
    try {
      ex->second->finish();
    } catch (const std::exception& e) {
      outcome_.runtime_failure(name + ": " + e.what());
    }
    exporters_.erase(ex);
  }

  int finish(int code) {
    team_.reset();
    int exit_code = code;
    if (root()) {
      exit_code = code != kExitOk ? code : outcome_.exit_code();
      print_summary();
      if (file_) {
        const bool aborted = !outcome_.runtime_errors().empty();
        file_->set_attribute("/", "status", std::string(aborted ? "aborted" : "complete"));
        file_->set_attribute("/", "finished_utc", utc_now_iso8601());
        file_->close();
      }
      console_.out << "Results: " << std::filesystem::absolute(settings_.out).string() << std::endl;
    }
    MPI_Bcast(&exit_code, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return exit_code;
  }

  void print_summary() {
    std::ostream& out = console_.out;
    out << "\nbwsurvey " << BWS_VERSION << ": " << layout_.n_nodes << (layout_.n_nodes == 1 ? " node, " : " nodes, ")
        << size_ << (size_ == 1 ? " rank" : " ranks") << "\n";
    std::vector<const RegistryEntry*> reported;  // every entry that ran (companions too), once, in order
    for (const Phase& phase : phases_)
      if (std::find(reported.begin(), reported.end(), phase.entry) == reported.end()) reported.push_back(phase.entry);
    for (const RegistryEntry* entry : reported) {
      const auto it = report_tables_.find(entry->name);
      if (it == report_tables_.end()) continue;
      std::vector<Table> tables;
      for (const auto& [path, table] : it->second) tables.push_back(table);
      out << "\n";
      for (const std::string& line : entry->make_report()->summary_lines(tables)) out << line << "\n";
    }
    out << "\nChecks: " << outcome_.checks_passed() << " passed, " << outcome_.checks_failed() << " failed, "
        << outcome_.warnings() << " warnings";
    if (outcome_.invalid_rows() > 0) out << "; " << outcome_.invalid_rows() << " result rows did not validate";
    out << "\n";
    for (const std::string& line : outcome_.problem_lines()) out << "  " << line << "\n";
    for (const std::string& line : outcome_.runtime_errors()) out << "  ERROR: " << line << "\n";
    out.flush();
  }

  const CommandLine& cl_;
  ConsoleStreams console_;
  int rank_ = 0, size_ = 1;
  NodeLayout layout_;
  SurveySettings settings_;
  std::optional<topo::Topology> topology_;
  std::vector<topo::ThreadSlot> slots_;
  std::vector<Phase> phases_;
  std::unique_ptr<topo::Team> team_;
  std::optional<h5::ResultFile> file_;
  Outcome outcome_;
  std::map<std::string, std::map<std::string, Table>> report_tables_;  // per benchmark, per path
  std::map<std::string, std::unique_ptr<TableExporter>> exporters_;    // per benchmark, rank 0
  std::string completed_;
};

}  // namespace

int run_survey(const CommandLine& command_line, ConsoleStreams console) {
  Survey survey(command_line, console);
  return survey.run();
}

}  // namespace bws::survey
