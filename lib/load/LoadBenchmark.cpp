// Everything of lib/load that is not a kernel, generic over the rows of
// LoadKernels.cpp: the options, the plan, the first touch and the timed
// passes on the Team, validation, the tables, the node summary, the report
// and the catalog entry.
#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include "core/Benchmark.hpp"
#include "core/Errors.hpp"
#include "core/NodeAggregate.hpp"
#include "core/OptionSchema.hpp"
#include "core/Report.hpp"
#include "core/ResultColumns.hpp"
#include "core/SampleStats.hpp"
#include "core/Sizes.hpp"
#include "load/LoadCatalogEntry.hpp"
#include "topology/NumaBuffer.hpp"
#include "topology/Team.hpp"
#include "topology/Topology.hpp"

namespace bws::load {

namespace {

constexpr std::size_t kGranule = 8;  // doubles in a 64-byte cache line: arrays on whole lines

constexpr std::uint64_t kMinElements = 1024;
constexpr std::uint64_t kMaxElements = UINT64_C(1) << 40;  // 8 TiB of doubles
constexpr int kMinReps = 2;  // the first repetition is a warm-up and dropped: one must remain
constexpr int kMaxReps = 1000;
constexpr std::uint64_t kAutoMinElements = UINT64_C(1) << 20;  // 8 MiB
constexpr std::uint64_t kAutoLlcMultiple = 4;                  // an array >= 4x the LLC (STREAM's rule)
constexpr double kAutoMemoryFraction = 0.40;                   // all ranks of a node within 40% of it

enum class KernelId : std::size_t {};  // a row of streaming_kernels()

struct LoadOptions : TypedOptions {
  std::optional<std::uint64_t> elements;  // nullopt: auto
  std::vector<KernelId> kernels;          // as given; the plan puts them in table order
  int reps = 0;
};

// The option's words, its default (the by_default rows, or all) and its help, from the table.
struct KernelWords {
  std::vector<std::string> names;
  std::string default_text, help;
};
KernelWords kernel_words() {
  KernelWords w;
  std::string defaults;
  bool every = true;
  for (const StreamingKernel& k : streaming_kernels()) {
    w.names.emplace_back(k.name);
    w.help.append(w.help.empty() ? "" : ", ").append(k.name).append(" (").append(k.formula).append(")");
    if (k.by_default) defaults.append(defaults.empty() ? "" : ",").append(k.name);
    every = every && k.by_default;
  }
  w.default_text = every ? "all" : defaults;
  w.help = "load: likwid-bench kernels to time: " + w.help + "; a list or all";
  return w;
}

const OptionSchema<LoadOptions>& load_schema() {
  static const KernelWords words = kernel_words();
  static const OptionSchema<LoadOptions> schema({
      bind_option(whole_option("load.elements", "auto", kMinElements, kMaxElements, "elements",
                               "load: doubles in each array a rank streams; 'auto' = 4x the rank's last-level "
                               "cache and >= 2^20, with all ranks of a node within 40% of its memory")
                      .or_auto()
                      .note("(within the node's memory)"),
                  &LoadOptions::elements),
      bind_option(list_option("load.kernels", words.default_text, words.names, words.help).all("all").called("kernel"),
                  &LoadOptions::kernels),
      bind_option(whole_option("load.reps", "10", kMinReps, kMaxReps, "repetitions",
                               "load: timed passes of each kernel over the arrays; the first is a warm-up and "
                               "not counted")
                      .quick("3"),
                  &LoadOptions::reps),
  });
  return schema;
}

struct LoadParams {
  std::vector<const StreamingKernel*> kernels;  // in table order
  int arrays = 1;                               // the most any of them uses
  std::uint64_t elements = 0;                   // doubles in each array
  bool elements_auto = true;
  int reps = 0;  // timed passes of each kernel, the first one dropped (a warm-up)
  std::uint64_t stride() const { return (elements + kGranule - 1) / kGranule * kGranule; }  // arrays on whole lines
  std::uint64_t memory_bytes() const { return 8 * stride() * static_cast<std::uint64_t>(arrays); }
};

// The most doubles per array that all ranks of the node hold within the
// fraction of its memory; no limit when the memory is unknown.
std::uint64_t elements_within(double fraction, const NodeContext& node, int arrays) {
  const std::uint64_t memory = node.topology.info().node_memory_bytes;
  if (memory == 0) return kMaxElements;
  const double ranks = std::max(1, node.ranks_on_node);
  return static_cast<std::uint64_t>(fraction * static_cast<double>(memory) / (ranks * 8.0 * arrays));
}

std::uint64_t resolve_elements(const LoadOptions& o, const NodeContext& node, int arrays) {
  const std::uint64_t fit = std::min(kMaxElements, elements_within(1.0, node, arrays));
  const int ranks = std::max(1, node.ranks_on_node);
  const std::string allowed = "; allowed: " + std::to_string(kMinElements) + ".." + std::to_string(fit) +
                              " elements or auto (" + std::to_string(ranks) + (ranks == 1 ? " rank" : " ranks") +
                              " on the node, within its memory)";
  if (o.elements) {
    if (*o.elements > fit)
      throw UsageError(o.flag(&LoadOptions::elements) + ": '" + std::to_string(*o.elements) + "' is out of range" +
                       allowed);
    return *o.elements;
  }
  const std::uint64_t llc_elements = kAutoLlcMultiple * node.topology.info().llc_bytes / 8;
  const std::uint64_t n =
      std::min(std::max(kAutoMinElements, llc_elements), elements_within(kAutoMemoryFraction, node, arrays));
  if (n < kMinElements)
    throw UsageError(o.flag(&LoadOptions::elements) + " auto: 40% of the node's memory holds fewer than " +
                     std::to_string(kMinElements) + " doubles per array and rank" + allowed);
  return n;
}

LoadParams plan_load(const Config& config, const NodeContext& node) {
  const LoadOptions o = load_schema().read(config, node.quick);
  LoadParams p;
  const std::span<const StreamingKernel> table = streaming_kernels();
  for (std::size_t i = 0; i < table.size(); ++i)  // table order, whatever order they were given in
    if (std::find(o.kernels.begin(), o.kernels.end(), KernelId{i}) != o.kernels.end()) {
      p.kernels.push_back(&table[i]);
      p.arrays = std::max(p.arrays, table[i].arrays);
    }
  p.elements_auto = !o.elements.has_value();
  p.elements = resolve_elements(o, node, p.arrays);
  p.reps = o.reps;
  return p;
}

// "load, store, update; 4194304 doubles (32.00 MiB, auto); 10 reps"
std::string describe_load(const LoadParams& p) {
  std::string kernels;
  for (const StreamingKernel* k : p.kernels) kernels.append(kernels.empty() ? "" : ", ").append(k->name);
  const std::string arrays = p.arrays == 1 ? "" : std::to_string(p.arrays) + " arrays of ";
  return kernels + "; " + arrays + std::to_string(p.elements) + " doubles (" +
         format_bytes(8.0 * static_cast<double>(p.elements)) + (p.elements_auto ? ", auto" : "") + "); " +
         std::to_string(p.reps) + " reps";
}

// Seconds: reps x the bytes every kernel moves / the probed memory bandwidth, plus the first touch.
TimeEstimate estimate_load(const LoadParams& p, const MachineSpeed& s) {
  double moved = 0;
  for (const StreamingKernel* k : p.kernels) moved += static_cast<double>(bytes_read(*k, p.elements) + bytes_written(*k, p.elements));
  const double kernels = p.reps * moved / s.memory_Bps;
  const double touch = static_cast<double>(p.memory_bytes()) / s.first_touch_Bps;
  TimeEstimate e;
  e.seconds = kernels + touch;
  e.terms = std::to_string(p.kernels.size()) + " kernels x " + std::to_string(p.reps) + " reps: " +
            format_bytes(p.reps * moved) + " / " + format_rate(s.memory_Bps) + " + first touch " + duration_text(touch);
  return e;
}

}  // namespace

// ---- Tables: /load/results (samples in /load/times) per rank and kernel; /load/nodes per node and kernel ----
Table make_load_results_table() {
  std::vector<Column> columns = leading_result_columns("kernel");
  columns.push_back(int_column("elements"));            // doubles in each of this rank's arrays
  columns.push_back(int_column("reps"));                // passes, the first one dropped
  columns.push_back(int_column("bytes_read", "B"));     // per pass
  columns.push_back(int_column("bytes_written", "B"));  // per pass, without write-allocate
  columns.push_back(real_column("checksum"));           // the last pass's sum, or the arrays' sum after the passes
  columns.push_back(real_column("expected_checksum"));  // from the initial values (expected_checksum)
  for (Column& c : closing_result_columns()) columns.push_back(std::move(c));
  return Table(kResultsPath, std::move(columns), kTimesPath);
}

void add_load_results(Table& results, Table& checks, const RankIdentity& who, std::uint64_t elements, int reps,
                      const KernelMeasurement& m) {
  const std::string kernel(m.kernel->name);
  const double expected = expected_checksum(*m.kernel, elements, reps);
  const bool correct = m.checksum == expected;  // exact: every value a multiple of 1/8
  add_check(checks, {.check = "load.validation",
                     .subject = "rank " + std::to_string(who.rank) + " (" + who.host + ") " + kernel,
                     .kind = "validation",
                     .measured = m.checksum,
                     .expected = expected,
                     .lower = expected,
                     .upper = expected,
                     .unit = "",
                     .passed = correct});
  const std::uint64_t read = bytes_read(*m.kernel, elements), written = bytes_written(*m.kernel, elements);
  const TimeStats t = time_stats(m.seconds, 1);  // pass 0 is the warm-up
  const double rate = bandwidth_Bps(static_cast<double>(read + written), t.min_seconds);
  results.add_row({{"rank", who.rank}, {"host", who.host}, {"backend", who.backend}, {"kernel", kernel},
                   {"threads", who.threads}, {"elements", elements}, {"reps", reps}, {"bytes_read", read},
                   {"bytes_written", written}, {"checksum", m.checksum}, {"expected_checksum", expected},
                   {"bytes", read + written}, {"t_min", t.min_seconds}, {"t_avg", t.avg_seconds},
                   {"t_max", t.max_seconds}, {"bandwidth", rate}, {"valid", correct && std::isfinite(rate)}},
                  m.seconds);
}

namespace {

// /load/nodes from the /load/results rows of one node's ranks: per kernel
// the slowest rank per pass and the bytes of all (core/NodeAggregate.hpp).
std::vector<Table> summarize_load_node(const std::vector<Table>& rank_tables) {
  struct Kernel {
    std::string host;
    std::int64_t ranks = 0, threads = 0, elements = 0, bytes = 0;
    bool valid = true;
    NodeAggregate passes{1};  // pass 0 is the warm-up
  };
  std::vector<std::string> order;  // as the first rank's rows name them
  std::map<std::string, Kernel> kernels;
  for (const Table& t : rank_tables) {
    if (t.path() != kResultsPath) continue;
    for (std::size_t r = 0; r < t.rows(); ++r) {
      const std::string name = t.get_string(r, "kernel");
      if (!kernels.count(name)) order.push_back(name);
      Kernel& k = kernels[name];
      k.host = t.get_string(r, "host");
      k.ranks += 1;
      k.threads += t.get_int(r, "threads");
      k.elements += t.get_int(r, "elements");
      k.bytes += t.get_int(r, "bytes");
      k.valid = k.valid && t.get_int(r, "valid") != 0;
      k.passes.add_row(t, r, "bytes");
    }
  }
  if (order.empty()) return {};
  Table nodes(kNodesPath, {text_column("host", kHostWidth), int_column("ranks"), int_column("threads"),
                           text_column("kernel", kNameWidth), int_column("elements"), int_column("bytes", "B"),
                           real_column("t_min", "s"), real_column("t_avg", "s"), real_column("t_max", "s"),
                           real_column("bandwidth", "B/s"), int_column("valid")});
  for (const std::string& name : order) {
    const Kernel& k = kernels.at(name);
    const TimeStats t = k.passes.times();
    const double rate = k.passes.rate();
    nodes.add_row({{"host", k.host}, {"ranks", k.ranks}, {"threads", k.threads}, {"kernel", name},
                   {"elements", k.elements}, {"bytes", k.bytes}, {"t_min", t.min_seconds},
                   {"t_avg", t.avg_seconds}, {"t_max", t.max_seconds}, {"bandwidth", rate},
                   {"valid", k.valid && std::isfinite(rate)}});
  }
  return {std::move(nodes)};
}

// The terminal summary (and `bwreport summary`'s): per node the bandwidth of every kernel that ran.
class LoadReport final : public BenchmarkReport {
 public:
  std::vector<std::string> summary_lines(const std::vector<Table>& tables) const override {
    std::vector<std::string> hosts;                                    // in the tables' order
    std::map<std::string, std::map<std::string, std::string>> cells;  // host -> column -> text
    std::set<std::string> ran_kernels;                                // by some node
    for (const Table& t : tables) {
      if (t.path() != kNodesPath) continue;
      for (std::size_t r = 0; r < t.rows(); ++r) {
        const std::string host = t.get_string(r, "host"), kernel = t.get_string(r, "kernel");
        if (!cells.count(host)) hosts.push_back(host);
        auto& c = cells[host];
        c["ranks"] = std::to_string(t.get_int(r, "ranks"));
        c["threads"] = std::to_string(t.get_int(r, "threads"));
        c[kernel] = fixed(t.get_double(r, "bandwidth") / 1e9, 2) + (t.get_int(r, "valid") ? "" : " (invalid)");
        ran_kernels.insert(kernel);
      }
    }
    if (hosts.empty()) return {};
    std::vector<std::string> header = {"host", "ranks", "threads"};
    std::string ran;
    for (const StreamingKernel& k : streaming_kernels())
      if (ran_kernels.count(std::string(k.name))) {
        header.emplace_back(k.name);
        ran.append(ran.empty() ? "" : ", ").append(k.name);
      }
    std::vector<std::vector<std::string>> rows;
    for (const std::string& host : hosts) {
      std::vector<std::string> row = {host};
      for (std::size_t c = 1; c < header.size(); ++c) {
        const auto it = cells[host].find(header[c]);
        row.push_back(it == cells[host].end() ? "-" : it->second);
      }
      rows.push_back(std::move(row));
    }
    std::vector<std::string> lines = {"load (likwid-bench " + ran +
                                      "): node bandwidth in GB/s (1e9 B/s; bytes read + written, without "
                                      "write-allocate; all ranks of the node together)"};
    for (std::string& l : format_text_table(header, rows)) lines.push_back(std::move(l));
    return lines;
  }
};

// prepare() allocates the arrays in one NUMA-local buffer and first-touches
// them on the Team; run() times each kernel's passes on freshly initialised
// arrays and checks the checksum each leaves.
class LoadPlannedRun final : public PlannedRun {
 public:
  LoadPlannedRun(LoadParams params, const NodeContext& node)
      : params_(std::move(params)), topology_(&node.topology), who_{node.rank, node.host, node.threads},
        speed_(node.speed) {}

  std::string describe() const override { return describe_load(params_); }
  TimeEstimate estimate() const override { return estimate_load(params_, speed_); }
  std::uint64_t memory_bytes() const override { return params_.memory_bytes(); }

  void prepare(topo::Team& team) override {
    buffer_ = topo::NumaBuffer(*topology_, memory_bytes());
    for (int a = 0; a < params_.arrays; ++a) arrays_[a] = static_cast<double*>(buffer_.data()) + a * params_.stride();
    initialize_on_team(team, arrays_.data(), params_.arrays, params_.elements);  // each thread's pages near it
  }

  std::vector<Table> run(topo::Team& team, RunContext& context) override {
    if (buffer_.data() == nullptr) throw std::logic_error("load: run() called before prepare()");
    who_.threads = team.size();
    Table results = make_load_results_table(), checks = make_checks_table();
    const double kernels = static_cast<double>(params_.kernels.size());
    for (std::size_t i = 0; i < params_.kernels.size(); ++i) {
      const StreamingKernel& kernel = *params_.kernels[i];
      const std::string stage = "load " + std::string(kernel.name);
      if (i > 0) initialize_on_team(team, arrays_.data(), params_.arrays, params_.elements);  // writers changed them
      const auto progress = [&](int pass) {
        context.progress.report(stage, (static_cast<double>(i) + (pass + 1.0) / params_.reps) / kernels);
      };
      const KernelMeasurement m =
          measure_on_team(team, context, arrays_.data(), params_.elements, kernel, params_.reps, progress);
      add_load_results(results, checks, who_, params_.elements, params_.reps, m);
    }
    return {std::move(results), std::move(checks)};
  }

  void release() override { buffer_ = topo::NumaBuffer(); }

 private:
  LoadParams params_;
  const topo::Topology* topology_;
  RankIdentity who_;
  MachineSpeed speed_;
  topo::NumaBuffer buffer_;
  std::array<double*, kMaxArrays> arrays_{};
};

class LoadBenchmark final : public NodeBenchmark {
 public:
  std::string name() const override { return "load"; }
  std::string description() const override {
    return "likwid-bench's streaming kernels (load: sum += a[i], store, update, ...) on NUMA-local arrays of doubles";
  }
  void add_options(boost::program_options::options_description& desc) const override { load_schema().add_to(desc); }
  std::unique_ptr<PlannedRun> plan(const Config& config, const NodeContext& node) const override {
    return std::make_unique<LoadPlannedRun>(plan_load(config, node), node);
  }
  std::vector<Table> summarize_node(const std::vector<Table>& rank_tables) const override {
    return summarize_load_node(rank_tables);
  }
};

std::unique_ptr<NodeBenchmark> make_load_benchmark() { return std::make_unique<LoadBenchmark>(); }
std::unique_ptr<BenchmarkReport> make_load_report() { return std::make_unique<LoadReport>(); }

}  // namespace

CatalogEntry catalog_entry() {
  std::vector<std::string> names;
  for (const StreamingKernel& k : streaming_kernels()) names.emplace_back(k.name);
  return {
      .name = "load",
      .in_default_set = false,  // an example beside STREAM: run when --tests names it
      .make_benchmark = make_load_benchmark,
      .make_report = make_load_report,
      .report_tables = {kNodesPath},
      // A node whose bandwidth in a kernel lags its peers' is flagged (/flags).
      .node_metrics = {{.name = "load.bandwidth", .table = kNodesPath, .column = "bandwidth", .unit = "B/s",
                        .group_by = {"kernel"}, .group_values = {names}}},
  };
}

}  // namespace bws::load
