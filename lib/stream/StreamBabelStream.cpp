#include "stream/StreamBabelStream.hpp"

#include <map>
#include <optional>
#include <string>
#include <tuple>

#include "core/ResultColumns.hpp"
#include "stream/StreamTables.hpp"

namespace bws::stream {
namespace {

// BabelStream's name of a STREAM kernel; none for rows BabelStream has no
// function for (PCI transfers).
std::optional<std::string> function_of(const std::string& kernel) {
  if (kernel == "Scale") return "Mul";
  if (kernel == "Copy" || kernel == "Add" || kernel == "Triad") return kernel;
  return std::nullopt;
}

std::int64_t element_bytes(const std::string& type) { return type == "float" ? 4 : 8; }

// BabelStream's eight columns, then ours (`who`: "ranks" or "rank").
Table view_table(const char* path, const char* who) {
  return Table(path, {text_column("function", 16), int_column("num_times"), int_column("n_elements"),
                      int_column("sizeof", "B"), real_column("max_mbytes_per_sec", "MB/s"),
                      real_column("min_runtime", "s"), real_column("max_runtime", "s"),
                      real_column("avg_runtime", "s"), text_column("host", kHostWidth), int_column(who),
                      text_column("type", 8), text_column("backend", 16), text_column("stores", 32)});
}

using Key = std::tuple<std::string, std::string, std::string, std::string>;  // host, backend, type, kernel

}  // namespace

Table babelstream_table(const std::vector<Table>& tables) {
  std::map<Key, std::int64_t> reps;
  for (const Table& t : tables) {
    if (t.path() != kResultsPath) continue;
    for (std::size_t r = 0; r < t.rows(); ++r)
      reps[{t.get_string(r, "host"), t.get_string(r, "backend"), t.get_string(r, "type"),
              t.get_string(r, "kernel")}] = t.get_int(r, "reps");
  }
  Table out = view_table(kBabelStreamPath, "ranks");
  for (const Table& t : tables) {
    if (t.path() != kNodesPath) continue;
    for (std::size_t r = 0; r < t.rows(); ++r) {
      const auto function = function_of(t.get_string(r, "kernel"));
      if (!function) continue;
      const std::string host = t.get_string(r, "host"), backend = t.get_string(r, "backend"),
                        type = t.get_string(r, "type");
      const auto n = reps.find({host, backend, type, t.get_string(r, "kernel")});
      out.add_row({{"function", *function},
                   {"num_times", n == reps.end() ? std::int64_t{0} : n->second},
                   {"n_elements", t.get_int(r, "elements")},
                   {"sizeof", element_bytes(type)},
                   {"max_mbytes_per_sec", t.get_double(r, "bandwidth") * 1e-6},
                   {"min_runtime", t.get_double(r, "t_min")},
                   {"max_runtime", t.get_double(r, "t_max")},
                   {"avg_runtime", t.get_double(r, "t_avg")},
                   {"host", host},
                   {"ranks", t.get_int(r, "ranks")},
                   {"type", type},
                   {"backend", backend},
                   {"stores", t.get_string(r, "stores")}});
    }
  }
  return out;
}

Table babelstream_ranks_table(const std::vector<Table>& tables) {
  Table out = view_table(kBabelStreamRanksPath, "rank");
  for (const Table& t : tables) {
    if (t.path() != kResultsPath) continue;
    for (std::size_t r = 0; r < t.rows(); ++r) {
      const auto function = function_of(t.get_string(r, "kernel"));
      if (!function) continue;
      const std::string type = t.get_string(r, "type");
      out.add_row({{"function", *function},
                   {"num_times", t.get_int(r, "reps")},
                   {"n_elements", t.get_int(r, "elements")},
                   {"sizeof", element_bytes(type)},
                   {"max_mbytes_per_sec", t.get_double(r, "bandwidth") * 1e-6},
                   {"min_runtime", t.get_double(r, "t_min")},
                   {"max_runtime", t.get_double(r, "t_max")},
                   {"avg_runtime", t.get_double(r, "t_avg")},
                   {"host", t.get_string(r, "host")},
                   {"rank", t.get_int(r, "rank")},
                   {"type", type},
                   {"backend", t.get_string(r, "backend")},
                   {"stores", t.get_string(r, "stores")}});
    }
  }
  return out;
}

}  // namespace bws::stream
