#include "load/LoadTables.hpp"

#include "core/ResultColumns.hpp"

namespace bws::load {

Table make_load_results_table() {
  std::vector<Column> columns = leading_result_columns("kernel");
  columns.push_back(int_column("elements"));           // doubles in this rank's array
  columns.push_back(int_column("reps"));               // passes, the first one dropped
  columns.push_back(int_column("bytes_read", "B"));    // per pass
  columns.push_back(int_column("bytes_written", "B"));  // per pass, without write-allocate
  columns.push_back(real_column("checksum"));           // load: the last pass's sum; store, update: the array's
  columns.push_back(real_column("expected_checksum"));  // from the initial values (LoadKernels.hpp)
  for (Column& c : closing_result_columns()) columns.push_back(std::move(c));
  return Table(kResultsPath, std::move(columns), kTimesPath);
}

Table make_load_nodes_table() {
  return Table(kNodesPath, {text_column("host", kHostWidth), int_column("ranks"), int_column("threads"),
                            text_column("kernel", kNameWidth), int_column("elements"), int_column("bytes", "B"),
                            real_column("t_min", "s"), real_column("t_avg", "s"), real_column("t_max", "s"),
                            real_column("bandwidth", "B/s"), int_column("valid")});
}

}  // namespace bws::load
