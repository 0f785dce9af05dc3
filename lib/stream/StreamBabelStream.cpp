#include "stream/StreamBabelStream.hpp"

#include "core/ResultColumns.hpp"
#include "stream/StreamTables.hpp"

namespace bws::stream {

Table babelstream_table(const std::vector<Table>& stream_results) {
  Table out("stream/babelstream",
            {text_column("function", 16), int_column("num_times"), int_column("n_elements"), int_column("sizeof", "B"),
             real_column("max_MB_per_sec", "MB/s"), real_column("min_runtime", "s"), real_column("max_runtime", "s"),
             real_column("avg_runtime", "s"), text_column("host", kHostWidth), int_column("rank"),
             text_column("type", 8), text_column("backend", 16)});
  for (const Table& t : stream_results) {
    if (t.path() != kResultsPath) continue;
    for (std::size_t r = 0; r < t.rows(); ++r) {
      const std::string kernel = t.get_string(r, "kernel");
      const std::string type = t.get_string(r, "type");
      out.add_row({{"function", kernel == "Scale" ? std::string("Mul") : kernel},
                   {"num_times", t.get_int(r, "ntimes")},
                   {"n_elements", t.get_int(r, "elements")},
                   {"sizeof", type == "float" ? 4 : 8},
                   {"max_MB_per_sec", t.get_double(r, "bandwidth") * 1e-6},
                   {"min_runtime", t.get_double(r, "t_min")},
                   {"max_runtime", t.get_double(r, "t_max")},
                   {"avg_runtime", t.get_double(r, "t_avg")},
                   {"host", t.get_string(r, "host")},
                   {"rank", t.get_int(r, "rank")},
                   {"type", type},
                   {"backend", t.get_string(r, "backend")}});
    }
  }
  return out;
}

}  // namespace bws::stream
