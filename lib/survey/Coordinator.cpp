#include "survey/Coordinator.hpp"

#include <mpi.h>

#include <boost/program_options/options_description.hpp>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <thread>

#include "core/Errors.hpp"
#include "core/FileIdentity.hpp"
#include "core/OptionText.hpp"
#include "core/ResultColumns.hpp"
#include "h5/ResultFile.hpp"
#include "model/Cohorts.hpp"
#include "model/MemoryFlags.hpp"
#include "model/NodeCeiling.hpp"
#include "model/NodeFlags.hpp"
#include "model/References.hpp"
#include "survey/ConsoleProgress.hpp"
#include "survey/FlagReport.hpp"
#include "survey/IniFile.hpp"
#include "survey/GatherToRoot.hpp"
#include "survey/MemoryDiscovery.hpp"
#include "survey/MpiWorld.hpp"
#include "survey/Outcome.hpp"
#include "survey/PhaseRendezvous.hpp"
#include "survey/RankTurns.hpp"
#include "survey/ResumeState.hpp"
#include "survey/RunMetadata.hpp"
#include "survey/SetupFailure.hpp"
#include "survey/SurveySettings.hpp"
#include "survey/TestHooks.hpp"
#include "survey/Watchdog.hpp"
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

// Every rank's host, on rank 0 (to name ranks that do not arrive).
std::vector<std::string> gather_hosts(MPI_Comm comm, const std::string& host) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  constexpr int kWidth = static_cast<int>(kHostWidth);
  std::string mine = host.substr(0, kHostWidth - 1);
  mine.resize(kHostWidth, '\0');
  std::vector<char> all(rank == 0 ? static_cast<std::size_t>(size) * kHostWidth : 0);
  MPI_Gather(mine.data(), kWidth, MPI_CHAR, all.data(), kWidth, MPI_CHAR, 0, comm);
  std::vector<std::string> hosts;
  for (int r = 0; r < (rank == 0 ? size : 0); ++r) hosts.emplace_back(&all[static_cast<std::size_t>(r) * kHostWidth]);
  return hosts;
}

std::string joined(const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& i : items) text += (text.empty() ? "" : ",") + i;
  return text;
}

bool contains(const std::vector<std::string>& items, const std::string& item) {
  return std::find(items.begin(), items.end(), item) != items.end();
}

// First rendezvous tag; each rendezvous takes the next one.
constexpr int kFirstRendezvousTag = 1000;

// How long the other ranks' watchdogs give rank 0 to end the job itself
// (after a step's deadline, or after a signal).
constexpr double kWatchdogGraceSeconds = 10;

// A message on one line (HDF5's details can carry newlines).
std::string one_line(std::string text) {
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  return text;
}

// Test hook (stop): this rank stops itself (SIGSTOP) at a node-local
// benchmark's first progress report, inside its measurement.
class StoppingProgress final : public Progress {
 public:
  explicit StoppingProgress(Progress& inner) : inner_(inner) {}
  void report(std::string_view stage, double fraction) override {
    if (!stopped_) {
      stopped_ = true;
      std::raise(SIGSTOP);
    }
    inner_.report(stage, fraction);
  }

 private:
  Progress& inner_;
  bool stopped_ = false;
};

class Survey {
  // One selected benchmark, planned: node-local or collective.
  struct Phase {
    const RegistryEntry* entry;
    std::string label;  // the entry's name
    std::unique_ptr<NodeBenchmark> node_benchmark;
    std::unique_ptr<PlannedRun> node_run;
    std::unique_ptr<PlannedCollective> collective;
  };

 public:
  Survey(const CommandLine& cl, ConsoleStreams console) : cl_(cl), console_(console) {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    int level = MPI_THREAD_SINGLE;
    MPI_Query_thread(&level);
    mpi_from_any_thread_ = level == MPI_THREAD_MULTIPLE;
  }

  int run() {
    layout_ = discover_node_layout(MPI_COMM_WORLD);
    hooks_ = read_test_hooks();
    announce_test_hooks();
    rank_hosts_ = gather_hosts(MPI_COMM_WORLD, layout_.host);
    watchdog_ = std::make_unique<Watchdog>(
        MPI_COMM_WORLD, layout_.host, rank_hosts_, [this](const std::string& reason) { abort_job(reason, true); },
        kWatchdogGraceSeconds);
    if (int code = plan(); code != kExitOk) return code;
    plan_turns();
    if (int code = open_file(); code != kExitOk) return code;
    if (root()) {
      created_file_ = settings_.resume.empty();
      live_file_ = &*file_;
    }
    if (int code = start_team(); code != kExitOk) return finish(code);
    bool all_ran = true;
    for (std::size_t i = 0; i < phases_.size(); ++i) {
      const std::string& name = phases_[i].label;  // the entry's name
      if (contains(completed_, name)) {
        if (root()) console_.err << "bwsurvey: " << name << ": stored in the resumed file; not run again" << std::endl;
        continue;
      }
      if (!run_phase(i)) {
        all_ran = false;
        break;
      }
      if (hooks_.kill_after_phase == name) kill_everywhere();
    }
    if (all_ran) retest_flagged();
    return finish(kExitOk);
  }

 private:
  bool root() const { return rank_ == 0; }

  // A test hook in effect is said on the console (and stored in the file's
  // root attributes); a hook variable in a build without hooks is ignored,
  // and that is said too.
  void announce_test_hooks() {
    if (!root()) return;
    const std::vector<std::string> set = hook_variables_set();
    if (set.empty()) return;
    if (test_hooks_compiled())
      console_.err << "bwsurvey: TEST HOOK ACTIVE (results are altered on purpose): " << joined(set) << std::endl;
    else
      console_.err << "bwsurvey: ignored (this build has no test hooks): " << joined(set) << std::endl;
  }

  // Ranks of this node whose CPUs overlap take turns in node-local phases
  // (RankTurns.hpp); every rank learns its turn and the node's ceiling.
  void plan_turns() {
    std::vector<int> mine;
    for (const topo::ThreadSlot& slot : slots_)
      if (slot.pu_os_index >= 0) mine.push_back(slot.pu_os_index);
    if (mine.size() != slots_.size() || mine.empty()) {  // unbound threads may run on any allowed PU
      mine.clear();
      for (const topo::Core& core : topology_->info().core_list)
        mine.insert(mine.end(), core.pu_os_indices.begin(), core.pu_os_indices.end());
    }
    int count = static_cast<int>(mine.size());
    std::vector<int> counts(static_cast<std::size_t>(layout_.ranks_on_node));
    MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, layout_.node_comm);
    std::vector<int> offsets(counts.size(), 0);
    for (std::size_t i = 1; i < counts.size(); ++i) offsets[i] = offsets[i - 1] + counts[i - 1];
    std::vector<int> all(static_cast<std::size_t>(offsets.back() + counts.back()));
    MPI_Allgatherv(mine.data(), count, MPI_INT, all.data(), counts.data(), offsets.data(), MPI_INT, layout_.node_comm);
    std::vector<std::vector<int>> cpus(counts.size());
    for (std::size_t r = 0; r < counts.size(); ++r)
      cpus[r].assign(all.begin() + offsets[r], all.begin() + offsets[r] + counts[r]);
    std::vector<int> world(counts.size());
    MPI_Allgather(&rank_, 1, MPI_INT, world.data(), 1, MPI_INT, layout_.node_comm);
    turn_of_local_ = assign_turns(cpus);
    turn_ = turn_of_local_[static_cast<std::size_t>(layout_.local_rank)];
    n_turns_ = *std::max_element(turn_of_local_.begin(), turn_of_local_.end()) + 1;
    widest_turn_ = widest_turn(cpus, turn_of_local_);
    MPI_Comm_split(layout_.node_comm, turn_, layout_.local_rank, &turn_comm_);
    std::vector<int> used;
    for (const auto& c : cpus) used.insert(used.end(), c.begin(), c.end());
    std::sort(used.begin(), used.end());
    ceiling_.cores = static_cast<int>(std::unique(used.begin(), used.end()) - used.begin());
    ceiling_.dram_Bps = topology_->info().memory_bandwidth_Bps;
    ceiling_.llc_bytes = topology_->info().llc_bytes;
    if (layout_.leader() && n_turns_ > 1) {
      std::string text = "bwsurvey: " + layout_.host + ": ";
      for (const std::string& line : describe_overlaps(cpus, world)) text += line + "; ";
      text += "their node-local tests run one after another in " + std::to_string(n_turns_) +
              " turns, never at the same time; node figures come from one turn, never a sum over turns "
              "(bind ranks to disjoint cores, e.g. mpirun --bind-to core, to measure them together)";
      console_.err << text << std::endl;
    }
  }

  // Test hook (kill-after): the whole job dies as if cancelled, right after
  // a phase was stored and flushed.
  [[noreturn]] void kill_everywhere() {
    MPI_Barrier(MPI_COMM_WORLD);
    if (root()) console_.err << "bwsurvey: BWSURVEY_INJECT_FAULT: killing every rank" << std::endl;
    std::raise(SIGKILL);
    std::abort();
  }

  // Test hook (hang): this rank stops until the job is ended.
  void hang_if_asked() const {
    if (hooks_.hang_rank != rank_) return;
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  }

  // An option given for a test that does not run is checked as if it ran:
  // a bad value is refused now (exit 2) rather than accepted silently and
  // kept in /config for the next run. The test is planned and the plan
  // dropped (planning allocates nothing); a failure that is not about the
  // options (no OpenCL device, say) does not matter for a test not run.
  void check_options_of_tests_not_run(const NodeContext& node, const RankLayout& ranks) const {
    for (const RegistryEntry& entry : benchmark_registry()) {
      const bool planned =
          std::any_of(phases_.begin(), phases_.end(), [&](const Phase& p) { return p.entry == &entry; });
      if (planned) continue;
      boost::program_options::options_description desc;
      entry.add_options(desc);
      bool given = false;
      for (const auto& option : desc.options())
        given = given || !option_defaulted(cl_.config, option->long_name().c_str());
      if (!given) continue;
      try {
        if (entry.collective())
          entry.make_collective()->plan(cl_.config, ranks);
        else
          entry.make_benchmark()->plan(cl_.config, node);
      } catch (const UsageError&) {
        throw;
      } catch (const std::exception&) {
      }
    }
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
    // Every exception on any rank is caught and agreed (SetupFailure.hpp): a
    // usage error is exit 2, anything else (hwloc, std::bad_alloc) exit 1.
    const auto failure = failure_of([&] {
      settings_ = parse_survey_settings(cl_.config);
      refuse_output_over_inputs();
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
        // Exporters only check their options here; their files are made
        // when the run starts (start_exporters).
        if (root() && entry->make_exporter) {
          if (auto exporter = entry->make_exporter(cl_.config)) exporters_[entry->name] = std::move(exporter);
        }
      }
      check_options_of_tests_not_run(node, ranks);
      // The DIMM population: a saved dmidecode output is checked here, with
      // the other options (a node whose file is missing is a usage error).
      if (layout_.local_rank == 0 && !settings_.dmidecode_file.empty())
        memory_population_ = read_memory_population_file(settings_.dmidecode_file, layout_.host);
      if (root() && !settings_.reference.empty())
        references_ = model::parse_references(read_config_file(settings_.reference, "--reference"),
                                              "--reference " + quoted_input(settings_.reference), all_node_metrics());
    }, rank_name());
    if (auto agreed = agree_on_failure(MPI_COMM_WORLD, failure)) {
      say_error(agreed->message);
      return agreed->exit_code;
    }
    return kExitOk;
  }

  // --out (with --force) never replaces a file this run reads.
  void refuse_output_over_inputs() const {
    if (!settings_.resume.empty()) return;
    const std::string config = cl_.config.has("config") ? cl_.config.get("config") : "";
    for (const auto& [option, path] : {std::pair<const char*, std::string>{"--config", config},
                                       {"--reference", settings_.reference}})
      if (!path.empty() && same_file(settings_.out, path))
        throw UsageError("--out: '" + settings_.out + "' is the " + option + " file; allowed: a file that is no input");
  }

  std::string rank_name() const { return "rank " + std::to_string(rank_) + " (" + layout_.host + ")"; }

  // Rank 0 makes the result file (or, with --resume, checks the file
  // read-only first and opens it for writing only once every check passed),
  // then the exporters' side files. Every rank gets the outcome.
  int open_file() {
    std::optional<SetupFailure> failure;
    int same_ranks = 0;  // a resume of a file whose metadata describes these very ranks
    if (root()) {
      std::optional<ResumeState> state;
      if (!settings_.resume.empty())
        failure = failure_of([&] { state = inspect_resume(settings_.resume, size_, stored_record_paths()); });
      if (!failure) {
        failure = failure_of([&] {
          try {
            if (!state) {
              file_.emplace(h5::ResultFile::create(settings_.out, settings_.force));
              write_run_attributes();
            } else {
              file_.emplace(h5::ResultFile::open_existing(settings_.resume, "--resume"));
              prepare_resume(*file_, *state);
              completed_ = state->completed;
              same_ranks = state->setup_complete && state->rank_hosts == rank_hosts_ ? 1 : 0;
              record_resume(*state);
              keep_stored_records();
            }
            file_->flush();
            start_exporters();
          } catch (const UsageError&) {
            undo_open();
            throw;
          } catch (const std::exception& e) {
            undo_open();
            throw RuntimeFailure((settings_.resume.empty() ? "--out: cannot write '" + settings_.out + "': "
                                                           : "--resume: cannot complete '" + settings_.resume + "': ") +
                                 one_line(e.what()));
          }
        });
      }
    }
    if (auto agreed = agree_on_failure(MPI_COMM_WORLD, failure)) {
      say_error(agreed->message);
      return agreed->exit_code;
    }
    // Every rank skips the same phases.
    completed_ = split_comma_list(broadcast_text(MPI_COMM_WORLD, joined(completed_)));
    completed_.erase(std::remove(completed_.begin(), completed_.end(), std::string()), completed_.end());
    MPI_Bcast(&same_ranks, 1, MPI_INT, 0, MPI_COMM_WORLD);
    metadata_stored_ = same_ranks == 1;
    return kExitOk;
  }

  // Rank 0, once the result file is open: the exporters' side files are
  // made (a fresh run) or reopened to append (a resume).
  void start_exporters() {
    for (auto& [name, exporter] : exporters_)
      exporter->start(settings_.resume.empty() ? ExportStart::Fresh : ExportStart::Resume);
  }

  // Rank 0, when opening failed half-way: a file this run created goes (it
  // holds no result); a resumed file gets back the bytes it had.
  void undo_open() {
    if (!file_) return;  // nothing was created or opened
    try {
      if (settings_.resume.empty()) {
        file_->close();
        std::filesystem::remove(settings_.out);
      } else {
        file_->roll_back();
        file_->close();
      }
    } catch (const std::exception& e) {
      console_.err << "bwsurvey: error: " << one_line(e.what()) << std::endl;
    }
    file_.reset();
  }

  // The resume's own provenance; earlier runs' attributes stay.
  void record_resume(const ResumeState& state) {
    h5::ResultFile& f = *file_;
    const std::string n = std::to_string(state.resumes + 1);
    f.set_attribute("/", "status", std::string("running"));
    f.set_attribute("/", "finished_utc", std::string());
    f.set_attribute("/", "resumes", static_cast<std::int64_t>(state.resumes + 1));
    f.set_attribute("/provenance", "resume_" + n + "_utc", utc_now_iso8601());
    f.set_attribute("/provenance", "resume_" + n + "_command_line", cl_.text);
    f.set_attribute("/provenance", "resume_" + n + "_completed_before", joined(state.completed));
    for (const auto& [key, value] : slurm_provenance(provenance_environment()))
      f.set_attribute("/provenance", "resume_" + n + "_" + key, value);
  }

  // Every table keep_stored_records() may read (checked before the file is
  // opened for writing).
  std::vector<std::string> stored_record_paths() const {
    std::vector<std::string> paths = {kChecksPath};
    for (const RegistryEntry* entry : settings_.tests)
      for (const std::string& path : kept_paths(*entry)) paths.push_back(path);
    for (const std::string& path : kept_node_paths()) paths.push_back(path);
    return paths;
  }

  // The records of the phases a resumed file holds: what the summary, the
  // flags and the exit code need, as if this run had measured them.
  void keep_stored_records() {
    for (const RegistryEntry* entry : settings_.tests) {
      if (!contains(completed_, entry->name)) continue;
      for (const std::string& path : kept_paths(*entry)) {
        if (!file_->exists("/" + path)) continue;
        auto& kept = report_tables_[entry->name];
        kept.insert_or_assign(path, file_->read_table(path));
      }
    }
    if (file_->exists("/checks")) outcome_.account(file_->read_table(kChecksPath));
    for (const std::string& path : kept_node_paths())
      if (file_->exists("/" + path)) keep_node_table(file_->read_table(path));
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
    f.set_attribute("/", "test_hooks", test_hooks_compiled() ? joined(hook_variables_set()) : std::string());
    f.write_text("/config", cl_.config.to_ini(invocation_only_keys()));
    f.set_attribute("/provenance", "host", layout_.host);
    f.set_attribute("/provenance", "mpi_library", mpi_library_version());
    const auto environment = provenance_environment();
    for (const auto& [key, value] : environment) f.set_attribute("/provenance", key, value);
    for (const auto& [key, value] : slurm_provenance(environment)) f.set_attribute("/provenance", key, value);
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
    if (hooks_.slow_factor > 1 && hooks_.slow_host == layout_.host) team_->set_slowdown(hooks_.slow_factor);
    if (metadata_stored_) {  // a resume on the ranks the file describes
      setup_done_ = true;
      return kExitOk;
    }
    node_descriptions_.clear();           // measured again below
    if (root()) write_file([&] { start_step("setup"); });
    if (!file_survived("setup")) return kExitFailure;
    watchdog_->arm("setup", settings_.phase_timeout_seconds);
    watchdog_->at("describing its node");
    const RankPlace place{rank_, layout_.host, layout_.node_index, layout_.local_rank, layout_.ranks_on_node,
                          topo::to_string(settings_.bind)};
    std::vector<Table> node_tables;
    if (layout_.leader()) {
      NodeDeclaration declared;
      declared.memory = memory_population_ ? *memory_population_ : read_memory_population();
      if (const auto it = hooks_.fake_memory_bytes.find(layout_.host); it != hooks_.fake_memory_bytes.end())
        declared.memory_bytes_override = it->second;
      node_tables = make_node_tables(place, *topology_, declared);
    }
    collect(make_rank_tables(place, *topology_, *team_), node_tables, nullptr);
    watchdog_->disarm();
    if (root())
      write_file([&] {
        file_->set_attribute("/", "setup_complete", std::int64_t{1});
        step_unfinished_ = false;
        commit();
      });
    if (!file_survived("setup")) return kExitFailure;
    setup_done_ = true;
    return kExitOk;
  }

  // Runs one benchmark on every rank and stores its records. Returns false
  // when the run cannot go on.
  bool run_phase(std::size_t index) {
    Phase& phase = phases_[index];
    if (root()) write_file([&] { start_step(phase.entry->name); });
    if (!file_survived(phase.label)) return false;
    watchdog_->arm(phase.label, settings_.phase_timeout_seconds);
    deadline_ = settings_.phase_timeout_seconds > 0 ? MPI_Wtime() + settings_.phase_timeout_seconds : 0;
    const bool ok = phase.entry->collective() ? run_collective(phase) : run_node_local(phase);
    watchdog_->disarm();
    if (ok && root())
      write_file([&] {
        completed_.push_back(phase.label);
        file_->set_attribute("/", "completed_phases", joined(completed_));
        step_unfinished_ = false;
        commit();
      });
    // The side files follow the result file: a phase it could not keep is
    // kept apart in them too (a resume measures it again).
    const bool stored = file_survived(phase.label);
    if (root()) finish_exporter(phase.entry->name, ok && stored);
    return ok && stored;
  }

  // Rank 0: marks where a step's rows begin (ResumeState.hpp), flushes, and
  // makes that the point a failed step goes back to.
  void start_step(const std::string& step) {
    mark_step_start(*file_, step);
    step_unfinished_ = true;
    commit();
    if (hooks_.write_error_step == step) file_->fail_writes_for_test(EIO);
  }

  // Rank 0: what is written so far reaches the disk and becomes the point a
  // failure goes back to (h5/JournalDriver.hpp).
  void commit() {
    file_->flush();
    file_->mark();
  }

  // Rank 0: runs a write of the file; the first failure is kept (and no
  // later write is tried) until file_survived() ends the run.
  template <class Write>
  void write_file(Write&& write) {
    if (file_error_ || !file_) return;
    try {
      write();
    } catch (const std::exception& e) {
      file_error_ = one_line(e.what());
    }
  }

  // Collective. When rank 0 could not write the file (a full disk, an I/O
  // error), the step's writes are undone, the file keeps every step done
  // before and says aborted and why, and the run ends (exit 1).
  bool file_survived(const std::string& step) {
    int failed = root() && file_error_ ? 1 : 0;
    MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!failed) return true;
    if (root()) {
      if (ending_.exchange(true)) park();
      const std::string message = step + ": " + *file_error_;
      console_.err << "bwsurvey: error: " << message << std::endl;
      outcome_.runtime_failure(message);
      end_file(message, false);
      file_.reset();
    }
    return false;
  }

  // Every rank reports to rank 0 by the phase's deadline; rank 0 ends the job
  // when some do not (naming them), else every rank gets the first error.
  std::optional<std::string> meet(const RegistryEntry& entry, const std::optional<std::string>& mine,
                                  const char* step) {
    watchdog_->at(Watchdog::kWaiting);
    const Rendezvous met = meet_at_root(MPI_COMM_WORLD, mine, root() ? deadline_ : 0, rendezvous_tag_++);
    if (!met.missing.empty()) {
      char limit[32];
      std::snprintf(limit, sizeof limit, "%g", settings_.phase_timeout_seconds);
      abort_job(entry.name + ": " + (met.missing.size() == 1 ? "rank " : "ranks ") +
                describe_ranks(met.missing, rank_hosts_) + " did not finish " + step + " within --phase-timeout " +
                limit + " s; the job is aborted");
    }
    return met.error;
  }

  // Rank 0, when ranks are lost (a timeout, from the main thread or the
  // watchdog) or a signal cut the run: the file goes back to its last
  // complete step and says why the run stopped; then the whole job ends.
  // Returns only to a watchdog when the job is already being ended.
  void abort_job(const std::string& message, bool from_watchdog = false) {
    if (ending_.exchange(true)) {
      if (from_watchdog) return;
      park();
    }
    const std::string line = one_line(message);
    console_.err << "bwsurvey: error: " << line << std::endl;
    if (!from_watchdog) {  // the watchdog must not read what the main thread may be changing
      outcome_.runtime_failure(line);
      print_summary();
    }
    end_file(line, from_watchdog);
    if (from_watchdog && !mpi_from_any_thread_) std::_Exit(kExitFailure);  // mpirun/srun end the others
    MPI_Abort(MPI_COMM_WORLD, kExitFailure);
    std::abort();
  }

  // Rank 0, once the job is ending: the file goes back to its last mark
  // (the end of the last complete step, or the start of the one that was
  // cut: h5/JournalDriver.hpp) and says aborted and why; a file this run
  // created whose setup never completed is removed (it holds no result, and
  // its name must not look like one). From the watchdog the file's lock is
  // kept until the process ends, so that the main thread cannot touch it.
  void end_file(const std::string& reason, bool keep_locked) {
    h5::ResultFile* file = live_file_.exchange(nullptr);
    if (!file) return;
    const std::string path = file->path();
    h5::ResultFile::Lock lock = file->try_hold(std::chrono::seconds(10));
    if (!lock.owns_lock()) {
      console_.err << "bwsurvey: error: '" << path << "' is busy and is left as it is (--resume completes it)"
                   << std::endl;
      return;
    }
    if (keep_locked) lock.release();
    try {
      file->roll_back();
      if (created_file_ && !setup_done_) {
        file->close();
        std::filesystem::remove(path);
        console_.err << "bwsurvey: '" << path << "' is removed: its setup never completed, it held no results"
                     << std::endl;
        return;
      }
      file->set_attribute("/", "status", std::string("aborted"));
      file->set_attribute("/", "abort_reason", reason);
      file->set_attribute("/", "finished_utc", utc_now_iso8601());
      file->flush();
      file->close();
      console_.out << "Results: " << std::filesystem::absolute(path).string() << std::endl;
    } catch (const std::exception& e) {
      try {
        file->roll_back();
        file->close();
      } catch (...) {  // what the disk holds is the last mark, or the failure is said below
      }
      console_.err << "bwsurvey: error: '" << path
                   << "' keeps every step completed before (status=running; --resume completes it), "
                      "but its status could not be written: "
                   << one_line(e.what()) << std::endl;
    }
  }

  // This thread waits for the job's end, which another thread brings.
  [[noreturn]] static void park() {
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  }

  bool run_node_local(Phase& phase) {
    const RegistryEntry& entry = *phase.entry;
    PlannedRun& planned = *phase.node_run;
    if (root()) console_.err << "bwsurvey: " << phase.label << ": " << planned.describe() << std::endl;

    std::optional<std::string> error;
    watchdog_->at("preparing");
    try {
      if (hooks_.fail_prepare_rank == rank_) throw RuntimeFailure("fault injected by BWSURVEY_INJECT_FAULT");
      hang_if_asked();
      planned.prepare(*team_);
    } catch (const std::exception& e) {
      error = entry.name + ": rank " + std::to_string(rank_) + " (" + layout_.host + "): " + e.what();
    }
    if (auto agreed = meet(entry, error, "preparing")) {
      planned.release();
      if (root()) outcome_.runtime_failure(*agreed);
      return false;
    }

    ConsoleProgress console_progress(console_.err, entry.name);
    NullProgress silent;
    MpiNodeSync node_sync(turn_comm_);  // the ranks measured together: this rank's turn
    StoppingProgress stopping(root() ? static_cast<Progress&>(console_progress) : silent);
    RunContext context{progress_for(phase, console_progress, silent, stopping), node_sync};
    std::vector<Table> tables;
    std::optional<std::string> run_error;
    watchdog_->at("measuring");
    run_in_turns([&] {
      try {
        tables = planned.run(*team_, context);
      } catch (const std::exception& e) {
        run_error = entry.name + ": rank " + std::to_string(rank_) + " (" + layout_.host + "): " + e.what();
      }
    });
    planned.release();
    if (root()) console_progress.done();
    // Before any collective: a rank that never returns is named, not waited for.
    run_error = meet(entry, run_error, "measuring");

    watchdog_->at(root() ? "storing the results" : Watchdog::kWaiting);
    const std::vector<Table> node_tables = summarize_node(*phase.node_benchmark, tables);
    collect(tables, node_tables, entry);
    if (run_error) {
      if (root()) outcome_.runtime_failure(*run_error);
      return false;
    }
    return true;
  }

  // This rank's progress sink in a phase: the console on rank 0; the
  // stopping one where the stop test hook names this rank and phase.
  Progress& progress_for(const Phase& phase, Progress& console, Progress& silent, Progress& stopping) const {
    if (hooks_.stop_rank == rank_ && hooks_.stop_phase == phase.label) return stopping;
    return root() ? console : silent;
  }

  // Calls `measure` on this rank in its turn; the node's other turns wait.
  template <class Measure>
  void run_in_turns(Measure&& measure) {
    for (int t = 0; t < n_turns_; ++t) {
      if (t == turn_) measure();
      if (n_turns_ > 1) MPI_Barrier(layout_.node_comm);
    }
  }

  // Collective on the node: its leader combines the records of the ranks that
  // ran together (the widest turn) into node-level tables, and marks any
  // figure above the node's physical ceiling invalid.
  std::vector<Table> summarize_node(const NodeBenchmark& benchmark, const std::vector<Table>& tables) {
    std::vector<Table> node_tables;
    std::vector<Table> node_rank_tables;
    gather_to_root(layout_.node_comm, pack_tables(tables), kGatherBytesInFlight,
                   [&](int local, std::vector<std::byte>& bytes) {
                     if (turn_of_local_[static_cast<std::size_t>(local)] != widest_turn_) return;
                     for (Table& t : unpack_tables(bytes.data(), bytes.size())) node_rank_tables.push_back(std::move(t));
                   });
    if (!layout_.leader()) return node_tables;
    node_tables = benchmark.summarize_node(node_rank_tables);
    Table ceiling_checks = model::enforce_node_ceiling(node_tables, layout_.host, ceiling_);
    if (ceiling_checks.rows() > 0) node_tables.push_back(std::move(ceiling_checks));
    return node_tables;
  }

  // All ranks run it together; rank 0 gets every table.
  bool run_collective(Phase& phase) {
    const RegistryEntry& entry = *phase.entry;
    if (root()) console_.err << "bwsurvey: " << phase.label << ": " << phase.collective->describe() << std::endl;
    ConsoleProgress console_progress(console_.err, entry.name);
    NullProgress silent;
    std::vector<Table> tables;
    std::optional<std::string> error;
    watchdog_->at("measuring");
    // Test hook (stop): a collective benchmark reports progress on rank 0
    // only; the others stop as they enter it, the rest wait inside it.
    if (hooks_.stop_rank == rank_ && hooks_.stop_phase == phase.label) std::raise(SIGSTOP);
    try {
      tables = phase.collective->run(MPI_COMM_WORLD, root() ? static_cast<Progress&>(console_progress) : silent);
    } catch (const std::exception& e) {
      error = entry.name + ": rank " + std::to_string(rank_) + " (" + layout_.host + "): " + e.what();
    }
    watchdog_->at(root() ? "storing the results" : Watchdog::kWaiting);
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
    if (!entry) {
      if (contains(kept_node_paths(), t.path())) keep_node_table(t);
      return;
    }
    if (const auto ex = exporters_.find(entry->name); ex != exporters_.end()) ex->second->consume(t);
    if (!contains(kept_paths(*entry), t.path())) return;
    auto& kept = report_tables_[entry->name];
    auto [it, fresh] = kept.try_emplace(t.path(), t);
    if (!fresh) it->second.append(t);
  }
  void keep_and_store(const Table& t, const RegistryEntry& entry) { keep_and_store(t, &entry); }

  // What rank 0 keeps of the node descriptions: cohorts and memory flags need them.
  static const std::vector<std::string>& kept_node_paths() {
    static const std::vector<std::string> paths = {"nodes/table", "nodes/memory_findings"};
    return paths;
  }
  void keep_node_table(const Table& t) {
    auto [it, fresh] = node_descriptions_.try_emplace(t.path(), t);
    if (!fresh) it->second.append(t);
  }

  // The tables rank 0 keeps of a benchmark: its report's and its metrics'.
  static std::vector<std::string> kept_paths(const RegistryEntry& entry) {
    std::vector<std::string> paths = entry.report_tables;
    for (const std::string& p : model::metric_tables(entry.node_metrics))
      if (!contains(paths, p)) paths.push_back(p);
    return paths;
  }

  // Rank 0. After a write error nothing more is written (file_survived()
  // then undoes the step).
  void store(const Table& t) {
    if (t.path() == kTopologyXmlTable) {
      write_file([&] {
        for (std::size_t r = 0; r < t.rows(); ++r)
          file_->write_text("/nodes/" + t.get_string(r, "host") + "/topology_xml", t.get_string(r, "xml"));
      });
      return;
    }
    write_file([&] {
      file_->append(t);
      outcome_.account(t);
    });
  }

  // An exporter's output is complete when its phase ends: a phase stored
  // whole is added to its file, one cut short is kept apart (SideFile.hpp),
  // so the file matches completed_phases and a resume repeats nothing.
  void finish_exporter(const std::string& name, bool complete) {
    const auto ex = exporters_.find(name);
    if (ex == exporters_.end()) return;
    try {
      ex->second->finish(complete);
    } catch (const std::exception& e) {
      outcome_.runtime_failure(name + ": " + e.what());
    }
    exporters_.erase(ex);
  }

  // Rank 0: every table kept for the reports and the node metrics.
  std::vector<Table> kept_tables() const {
    std::vector<Table> tables;
    for (const auto& [name, kept] : report_tables_)
      for (const auto& [path, table] : kept) tables.push_back(table);
    return tables;
  }

  // Rank 0: the hardware cohorts of the nodes (none before /nodes is known).
  model::NodeCohorts cohorts() const {
    const auto nodes = node_descriptions_.find("nodes/table");
    return nodes == node_descriptions_.end() ? model::NodeCohorts{} : model::node_cohorts(nodes->second);
  }

  // Rank 0: the flags of every kept table, within hardware cohorts, before
  // any retest; plus the memory-configuration flags.
  Table compute_flags() {
    const model::NodeCohorts cohorts = this->cohorts();
    Table flags = model::node_flags(all_node_metrics(), kept_tables(), settings_.flags, cohorts);
    const auto nodes = node_descriptions_.find("nodes/table");
    if (nodes != node_descriptions_.end()) {
      const auto findings = node_descriptions_.find("nodes/memory_findings");
      flags.append(model::memory_flags(nodes->second,
                                       findings == node_descriptions_.end() ? Table() : findings->second, cohorts));
    }
    return flags;
  }

  // The registry entry whose node metric a flag row names ("stream.triad[double]" -> stream).
  static const RegistryEntry* entry_of_metric(const std::string& metric) {
    const std::string name = metric.substr(0, metric.find('['));
    for (const RegistryEntry& e : benchmark_registry())
      for (const model::NodeMetric& m : e.node_metrics)
        if (m.name == name) return &e;
    return nullptr;
  }

  // --retest N: the flagged nodes run the flagged tests again N times while
  // the other nodes wait (a collective test runs on every rank); rank 0
  // keeps the metric values of every round for apply_retests.
  void retest_flagged() {
    if (settings_.retest_rounds <= 0) return;
    std::string plan;  // "host,host|phase,phase"
    if (root()) {
      try {
        const Table flags = compute_flags();
        std::vector<std::string> hosts, labels;
        for (std::size_t r = 0; r < flags.rows(); ++r) {
          const RegistryEntry* entry = entry_of_metric(flags.get_string(r, "metric"));
          if (!entry) continue;  // memory configuration: nothing to measure again
          if (!contains(hosts, flags.get_string(r, "host"))) hosts.push_back(flags.get_string(r, "host"));
          if (!contains(labels, entry->name)) labels.push_back(entry->name);
        }
        if (!hosts.empty()) plan = joined(hosts) + "|" + joined(labels);
      } catch (const std::exception& e) {
        console_.err << "bwsurvey: retest: cannot judge the nodes: " << e.what() << std::endl;
      }
    }
    plan = broadcast_text(MPI_COMM_WORLD, plan);
    if (plan.empty()) return;
    const auto bar = plan.find('|');
    const std::vector<std::string> hosts = split_comma_list(plan.substr(0, bar));
    const std::vector<std::string> labels = split_comma_list(plan.substr(bar + 1));
    const bool mine = contains(hosts, layout_.host);
    if (hooks_.slow_first_pass_only && team_) team_->set_slowdown(1.0);  // test hook: a transient slowdown
    for (int round = 1; round <= settings_.retest_rounds; ++round) {
      for (Phase& phase : phases_) {
        if (!contains(labels, phase.label)) continue;
        if (root())
          console_.err << "bwsurvey: retest " << round << " of " << settings_.retest_rounds << ": " << phase.label
                       << (phase.entry->collective() ? " on every rank" : " on " + joined(hosts) + " (the other nodes wait)")
                       << std::endl;
        watchdog_->arm("retest of " + phase.label, settings_.phase_timeout_seconds);
        const std::vector<Table> tables = phase.entry->collective() ? retest_collective(phase) : retest_node_local(phase, mine);
        watchdog_->disarm();
        if (root()) {
          std::vector<model::NodeMetricValue> values = model::node_metric_values(phase.entry->node_metrics, tables);
          for (model::NodeMetricValue& v : values)
            if (contains(hosts, v.host)) retest_values_.push_back(std::move(v));
        }
      }
    }
  }

  // One node-local retest round on the flagged nodes; rank 0 gets their records.
  std::vector<Table> retest_node_local(Phase& phase, bool mine) {
    std::optional<std::string> error;
    std::vector<Table> tables;
    if (mine) {
      NullProgress silent;
      MpiNodeSync node_sync(turn_comm_);
      RunContext context{silent, node_sync};
      try {
        phase.node_run->prepare(*team_);
      } catch (const std::exception& e) {
        error = e.what();
      }
      // Every rank of a node is on the same host: all of them take part, or
      // none; a rank that could not prepare keeps its node's ranks from
      // measuring (they would wait for it at their node barriers).
      int failed = error ? 1 : 0;
      MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, layout_.node_comm);
      run_in_turns([&] {
        if (failed) return;
        try {
          tables = phase.node_run->run(*team_, context);
        } catch (const std::exception& e) {
          error = e.what();
        }
      });
      phase.node_run->release();
    }
    const std::vector<Table> node_tables = summarize_node(*phase.node_benchmark, tables);
    // Rank 0 keeps only what the metrics read (never the per-sample results).
    const std::vector<std::string> wanted = model::metric_tables(phase.entry->node_metrics);
    std::vector<Table> received;
    gather_to_root(MPI_COMM_WORLD, pack_bundle(tables, node_tables), kGatherBytesInFlight,
                   [&](int, std::vector<std::byte>& bytes) {
                     auto [ranks, nodes] = unpack_bundle(bytes);
                     for (auto* list : {&ranks, &nodes})
                       for (Table& t : *list)
                         if (contains(wanted, t.path())) received.push_back(std::move(t));
                   });
    if (auto agreed = agree_on_error(MPI_COMM_WORLD, error ? std::optional<std::string>("rank " + std::to_string(rank_) +
                                                                                       " (" + layout_.host + "): " + *error)
                                                           : std::nullopt))
      if (root()) console_.err << "bwsurvey: retest of " << phase.label << " failed: " << *agreed << std::endl;
    return received;
  }

  // One collective retest round (every rank takes part); rank 0 gets the tables.
  std::vector<Table> retest_collective(Phase& phase) {
    NullProgress silent;
    std::vector<Table> tables;
    std::optional<std::string> error;
    try {
      tables = phase.collective->run(MPI_COMM_WORLD, silent);
    } catch (const std::exception& e) {
      error = "rank " + std::to_string(rank_) + " (" + layout_.host + "): " + e.what();
    }
    if (auto agreed = agree_on_error(MPI_COMM_WORLD, error)) {
      if (root()) console_.err << "bwsurvey: retest of " << phase.label << " failed: " << *agreed << std::endl;
      return {};
    }
    return tables;
  }

  int finish(int code) {
    team_.reset();
    int exit_code = code;
    if (root()) {
      // From here on this thread ends the run; a watchdog that got there
      // first (a signal) ends the job itself.
      if (ending_.exchange(true) && file_) park();
      check_nodes();
      exit_code = code != kExitOk ? code : outcome_.exit_code();
      if (exit_code == kExitOk && settings_.fail_on_flags && !model::flagged_hosts(flags_, true).empty())
        exit_code = kExitCheckFailed;
      if (file_) {
        const bool aborted = !outcome_.runtime_errors().empty();
        write_file([&] {
          if (aborted && !file_->has_attribute("/", "abort_reason"))
            file_->set_attribute("/", "abort_reason", one_line(outcome_.runtime_errors().front()));
          file_->set_attribute("/", "status", std::string(aborted ? "aborted" : "complete"));
          file_->set_attribute("/", "finished_utc", utc_now_iso8601());
          file_->flush();
          file_->close();
        });
        if (file_error_) {  // back to the last complete step, marked aborted
          const std::string message = "checks: " + *file_error_;
          console_.err << "bwsurvey: error: " << message << std::endl;
          outcome_.runtime_failure(message);
          end_file(message, false);
          exit_code = kExitFailure;
        }
      }
      print_summary();
      std::error_code error;
      if (std::filesystem::exists(settings_.out, error))
        console_.out << "Results: " << std::filesystem::absolute(settings_.out).string() << std::endl;
    }
    MPI_Bcast(&exit_code, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return exit_code;
  }

  // Rank 0: the node flags (within cohorts, with the retests' verdicts) and
  // the reference checks over every kept table (stored as their own step, so
  // a resume can redo them). A write error is kept for finish().
  void check_nodes() {
    flags_ = model::make_flags_table();
    if (!file_ || file_error_) return;
    const std::vector<Table> tables = kept_tables();
    const std::vector<model::NodeMetric> metrics = all_node_metrics();
    Table checks = make_checks_table();
    try {
      flags_ = compute_flags();
      model::apply_retests(flags_, retest_values_);
      for (const CheckRow& row : model::check_references(references_, metrics, tables)) add_check(checks, row);
    } catch (const std::exception& e) {
      outcome_.runtime_failure(std::string("node checks: ") + e.what());
      return;
    }
    write_file([&] {
      if (!step_unfinished_) start_step("checks");
      file_->remove("/flags");
      file_->append(flags_);
      file_->set_attribute("/flags", "k", settings_.flags.k);
      file_->set_attribute("/flags", "fraction", settings_.flags.fraction);
      file_->set_attribute("/flags", "min_nodes", static_cast<std::int64_t>(model::kMinNodesForStatistics));
      file_->set_attribute("/flags", "min_nodes_spread_rule", static_cast<std::int64_t>(model::kMinCohortForSpreadRule));
      file_->set_attribute("/flags", "retest_rounds", static_cast<std::int64_t>(settings_.retest_rounds));
    });
    if (checks.rows() > 0) store(checks);
    write_file([&] {
      file_->flush();
      nodes_checked_ = true;
    });
  }

  void print_summary() {
    std::ostream& out = console_.out;
    out << "\nbwsurvey " << BWS_VERSION << ": " << layout_.n_nodes << (layout_.n_nodes == 1 ? " node, " : " nodes, ")
        << size_ << (size_ == 1 ? " rank" : " ranks") << "\n";
    std::vector<const RegistryEntry*> reported;  // every entry that ran, once, in order
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
    if (nodes_checked_) {
      out << "\n";
      if (const auto nodes = node_descriptions_.find("nodes/table"); nodes != node_descriptions_.end())
        for (const std::string& line : peak_fraction_lines(nodes->second, kept_tables())) out << line << "\n";
      for (const std::string& line : flag_summary_lines(flags_, layout_.n_nodes, cohorts())) out << line << "\n";
    }
    out << "\nChecks: " << outcome_.checks_passed() << " passed, " << outcome_.checks_failed() << " failed, "
        << outcome_.warnings() << " warnings";
    if (outcome_.invalid_rows() > 0) out << "; " << outcome_.invalid_rows() << " result rows did not validate";
    out << "\n";
    for (const std::string& line : outcome_.problem_lines()) out << "  " << line << "\n";
    for (const std::string& line : outcome_.runtime_errors()) out << "  ERROR: " << line << "\n";
    if (nodes_checked_)
      for (const std::string& line : drain_hint_lines(flags_, std::filesystem::absolute(settings_.out).string()))
        out << line << "\n";
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
  std::vector<std::string> completed_;  // phases stored whole (all ranks: skipped on a resume)
  TestHooks hooks_;
  std::map<std::string, Table> node_descriptions_;       // rank 0: nodes/table, nodes/memory_findings
  std::vector<model::NodeMetricValue> retest_values_;    // rank 0: every retest round's values
  MPI_Comm turn_comm_ = MPI_COMM_NULL;  // this node's ranks of this rank's turn
  std::vector<int> turn_of_local_ = {0};
  int turn_ = 0, n_turns_ = 1, widest_turn_ = 0;
  model::NodeCeiling ceiling_;
  std::optional<model::MemoryPopulation> memory_population_;  // node leaders: from --memory.dmidecode
  std::vector<std::string> rank_hosts_;  // by rank, on rank 0
  std::vector<model::Reference> references_;  // rank 0
  Table flags_ = model::make_flags_table();
  bool metadata_stored_ = false;  // a resume on the ranks the file describes: /nodes, /ranks not written again
  bool step_unfinished_ = false;
  bool nodes_checked_ = false;    // rank 0: flags_ holds this run's flags  // rank 0: a step was marked and not completed
  double deadline_ = 0;           // rank 0: MPI_Wtime() by which the phase must end, 0 = none
  int rendezvous_tag_ = kFirstRendezvousTag;
  std::optional<std::string> file_error_;  // rank 0: the first write of the file that failed
  std::atomic<h5::ResultFile*> live_file_{nullptr};  // rank 0: the open file, for end_file() (any thread)
  std::atomic<bool> ending_{false};
  bool mpi_from_any_thread_ = false;  // MPI_THREAD_MULTIPLE: the watchdog may call MPI_Abort  // rank 0: one thread ends the run, the others wait for it
  bool created_file_ = false;        // rank 0: this run created the file (not --resume)
  bool setup_done_ = false;          // the file holds this run's setup
  std::unique_ptr<Watchdog> watchdog_;  // last: stopped before anything it may touch is destroyed
};

}  // namespace

int run_survey(const CommandLine& command_line, ConsoleStreams console) {
  Survey survey(command_line, console);
  return survey.run();
}

}  // namespace bws::survey
