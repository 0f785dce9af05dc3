#include "ocl/OclStreamResults.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "core/ResultColumns.hpp"

namespace bws::ocl {
namespace {

constexpr std::size_t kDeviceWidth = 128;

struct Stats {
  double min = 0, avg = 0, max = 0;
};

// Over all repetitions: the untimed test run before them is the warm-up.
Stats stats_of(const std::vector<double>& s) {
  Stats t;
  if (s.empty()) return t;
  t.min = *std::min_element(s.begin(), s.end());
  t.max = *std::max_element(s.begin(), s.end());
  double sum = 0;
  for (double x : s) sum += x;
  t.avg = sum / static_cast<double>(s.size());
  return t;
}

double rate(std::uint64_t bytes, double seconds) {
  return seconds > 0 ? static_cast<double>(bytes) / seconds : std::numeric_limits<double>::infinity();
}

}  // namespace

Table make_ocl_stream_results_table() {
  std::vector<Column> columns = leading_result_columns("kernel");  // threads: the device's compute units
  columns.push_back(text_column("device", kDeviceWidth));           // name (platform)
  columns.push_back(text_column("type", 8));
  columns.push_back(text_column("variant", 16));    // combined (one kernel) or separate
  columns.push_back(int_column("elements"));        // per array, all replications
  columns.push_back(int_column("ntimes"));          // repetitions, all timed
  columns.push_back(int_column("replications"));
  columns.push_back(int_column("vector_count"));
  columns.push_back(int_column("buffer_size"));     // vectors per block / local buffer
  columns.push_back(int_column("unroll"));
  columns.push_back(real_column("avg_rel_error"));  // of the array the operation writes (all three for PCI rows: the largest)
  columns.push_back(real_column("error_limit"));    // the validation limit (StreamValidationRule)
  columns.push_back(real_column("ceiling", "B/s")); // the rate no run may exceed (OclRateCeiling.hpp)
  for (Column& c : closing_result_columns()) columns.push_back(std::move(c));
  return Table(kStreamResultsPath, std::move(columns), kStreamTimesPath);
}

namespace {
// "A+B" of a node's device names (one name when all its ranks use one model).
template <class Names>
std::string joined_names(const Names& names) {
  std::string text;
  for (const std::string& n : names) text += (text.empty() ? "" : "+") + n;
  return text.substr(0, kDeviceWidth - 1);
}
}  // namespace

Table make_ocl_stream_nodes_table() {
  return Table(kStreamNodesPath, {text_column("host", kHostWidth), int_column("ranks"), int_column("devices"),
                                  text_column("device", kDeviceWidth),  // the devices' names, '+'-joined
                                  text_column("kernel", kNameWidth), text_column("type", 8),
                                  int_column("elements"),  // per array, summed over the node's ranks
                                  int_column("bytes", "B"), real_column("t_min", "s"), real_column("t_avg", "s"),
                                  real_column("t_max", "s"), real_column("bandwidth", "B/s"), int_column("valid")});
}

void add_ocl_stream_results(Table& results, Table& checks, const OclRankIdentity& who, const OclStreamParams& p,
                            const OclStreamMeasurement& m, double ceiling_Bps) {
  const std::string type(stream::type_name(p.type));
  const std::string subject = "rank " + std::to_string(who.rank) + " (" + who.host + ") " + who.device + " " + type;
  for (const stream::ArrayValidation& v : m.validation.arrays)
    add_check(checks, {.check = "ocl.stream.validation",
                       .subject = (subject + " array " + static_cast<char>(std::toupper(stream::array_letter(v.array))) +
                                   ": " + kEpsilonRule)
                                      .substr(0, 160),
                       .kind = "validation",
                       .measured = v.avg_rel_error,
                       .expected = 0,
                       .lower = 0,
                       .upper = v.limit,
                       .unit = "",
                       .passed = v.passed});
  double largest_error = 0;
  for (const stream::ArrayValidation& v : m.validation.arrays) largest_error = std::max(largest_error, v.avg_rel_error);

  for (const OclStreamOpSpec& spec : kOclStreamOpSpecs) {
    const std::vector<double>& seconds = m.seconds[static_cast<std::size_t>(spec.op)];
    const Stats t = stats_of(seconds);
    const std::uint64_t bytes = op_bytes(spec.op, p.elements, p.element_bytes());
    const double bandwidth = rate(bytes, t.min);
    const bool plausible = std::isfinite(bandwidth) && bandwidth <= ceiling_Bps;
    add_check(checks, {.check = "ocl.rate_ceiling",
                       .subject = (subject + " " + spec.label).substr(0, 160),
                       .kind = "validation",
                       .measured = bandwidth,
                       .expected = 0,
                       .lower = 0,
                       .upper = ceiling_Bps,
                       .unit = "B/s",
                       .passed = plausible});
    double error = largest_error;
    if (spec.op == OclStreamOp::Copy || spec.op == OclStreamOp::Add) error = m.validation.of(stream::StreamArray::C).avg_rel_error;
    if (spec.op == OclStreamOp::Scale) error = m.validation.of(stream::StreamArray::B).avg_rel_error;
    if (spec.op == OclStreamOp::Triad) error = m.validation.of(stream::StreamArray::A).avg_rel_error;
    results.add_row({{"rank", who.rank},
                     {"host", who.host},
                     {"backend", kBackendOcl},
                     {"kernel", spec.label},
                     {"threads", who.compute_units},
                     {"device", who.device},
                     {"type", type},
                     {"variant", p.single_kernel ? "combined" : "separate"},
                     {"elements", p.elements},
                     {"ntimes", p.ntimes},
                     {"replications", p.replications},
                     {"vector_count", p.vector_count},
                     {"buffer_size", p.buffer_size},
                     {"unroll", p.unroll},
                     {"avg_rel_error", error},
                     {"error_limit", m.validation.arrays[0].limit},
                     {"ceiling", ceiling_Bps},
                     {"bytes", bytes},
                     {"t_min", t.min},
                     {"t_avg", t.avg},
                     {"t_max", t.max},
                     {"bandwidth", bandwidth},
                     {"valid", m.validation.passed() && plausible}},
                    seconds);
  }
}

std::vector<Table> summarize_ocl_stream_node(const std::vector<Table>& rank_tables) {
  struct NodeRow {
    std::string host, kernel, type;
    std::set<std::int64_t> ranks;
    std::set<std::string> devices;
    std::int64_t elements = 0, bytes = 0;
    bool valid = true;
    std::vector<double> node_seconds;  // per repetition: the slowest rank's
  };
  std::vector<NodeRow> rows;
  for (const Table& t : rank_tables) {
    if (t.path() != kStreamResultsPath) continue;
    for (std::size_t r = 0; r < t.rows(); ++r) {
      const std::string kernel = t.get_string(r, "kernel");
      auto it = std::find_if(rows.begin(), rows.end(), [&](const NodeRow& n) { return n.kernel == kernel; });
      if (it == rows.end()) {
        it = rows.emplace(rows.end());
        it->kernel = kernel;
        it->host = t.get_string(r, "host");
        it->type = t.get_string(r, "type");
      }
      const bool first = it->ranks.empty();
      it->ranks.insert(t.get_int(r, "rank"));
      it->devices.insert(t.get_string(r, "device"));
      it->elements += t.get_int(r, "elements");
      it->bytes += t.get_int(r, "bytes");
      it->valid = it->valid && t.get_int(r, "valid") != 0;
      const std::vector<double>& s = t.samples(r);
      if (first) {
        it->node_seconds = s;
      } else {
        it->node_seconds.resize(std::min(it->node_seconds.size(), s.size()));
        for (std::size_t k = 0; k < it->node_seconds.size(); ++k)
          it->node_seconds[k] = std::max(it->node_seconds[k], s[k]);
      }
    }
  }
  if (rows.empty()) return {};
  Table nodes = make_ocl_stream_nodes_table();
  for (const NodeRow& n : rows) {
    const Stats t = stats_of(n.node_seconds);
    const double bandwidth = rate(static_cast<std::uint64_t>(n.bytes), t.min);
    nodes.add_row({{"host", n.host},
                   {"ranks", n.ranks.size()},
                   {"devices", n.devices.size()},
                   {"device", joined_names(n.devices)},
                   {"kernel", n.kernel},
                   {"type", n.type},
                   {"elements", n.elements},
                   {"bytes", n.bytes},
                   {"t_min", t.min},
                   {"t_avg", t.avg},
                   {"t_max", t.max},
                   {"bandwidth", bandwidth},
                   {"valid", n.valid && std::isfinite(bandwidth)}});
  }
  return {std::move(nodes)};
}

}  // namespace bws::ocl
