#include "stream/StreamTables.hpp"

#include "core/ResultColumns.hpp"

namespace bws::stream {

Table make_stream_results_table() {
  std::vector<Column> columns = leading_result_columns("kernel");  // threads: a device's compute units
  columns.push_back(text_column("device", kDeviceWidth));           // "cpu", or a device's "name (platform)"
  columns.push_back(text_column("type", 8));
  columns.push_back(text_column("stores", 16));     // the CPU's normal|nontemporal; "" on a device
  columns.push_back(text_column("variant", 48));    // a device's kernel shape; "" on the CPU
  columns.push_back(int_column("elements"));        // per array, this rank
  columns.push_back(int_column("reps"));            // repetitions, the first one dropped (files before: ntimes)
  columns.push_back(real_column("avg_rel_error"));  // of the array this kernel writes (PCI rows: the largest)
  columns.push_back(real_column("error_limit"));    // the validation limit (StreamValidationRule)
  columns.push_back(real_column("ceiling", "B/s")); // the rate no run may exceed
  for (Column& c : closing_result_columns()) columns.push_back(std::move(c));
  return Table(kResultsPath, std::move(columns), kTimesPath);
}

Table make_stream_nodes_table() {
  return Table(kNodesPath, {text_column("host", kHostWidth), text_column("backend", 16), int_column("ranks"),
                            int_column("threads"), int_column("devices"),
                            text_column("device", kDeviceWidth),  // the devices' names, '+'-joined
                            text_column("kernel", kNameWidth), text_column("type", 8), text_column("stores", 16),
                            int_column("elements"),  // per array, summed over the node's ranks
                            int_column("bytes", "B"), real_column("t_min", "s"), real_column("t_avg", "s"),
                            real_column("t_max", "s"), real_column("bandwidth", "B/s"), int_column("valid")});
}

}  // namespace bws::stream
