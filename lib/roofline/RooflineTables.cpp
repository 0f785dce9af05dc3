#include "roofline/RooflineTables.hpp"

#include "core/ResultColumns.hpp"

namespace bws::roofline {
namespace {

std::vector<Column> ceiling_columns() {
  return {text_column("isa", 16),
          text_column("blas", kImplementationWidth),
          real_column("fma_double_flop_per_s", "FLOP/s"),
          real_column("fma_float_flop_per_s", "FLOP/s"),
          real_column("gemm_double_flop_per_s", "FLOP/s"),  // NaN without a BLAS
          real_column("gemm_float_flop_per_s", "FLOP/s"),
          real_column("triad_Bps", "B/s"),
          real_column("balance_fma_double_flop_per_byte", "FLOP/B"),
          real_column("balance_fma_float_flop_per_byte", "FLOP/B"),
          real_column("balance_gemm_double_flop_per_byte", "FLOP/B"),
          real_column("balance_gemm_float_flop_per_byte", "FLOP/B"),
          int_column("valid")};
}

}  // namespace

Table make_roofline_results_table() {
  std::vector<Column> columns = leading_result_columns("kernel");
  columns.push_back(text_column("type", 8));
  columns.push_back(text_column("implementation", kImplementationWidth));
  columns.push_back(int_column("iterations"));  // FMA: loop iterations per thread and call
  columns.push_back(int_column("matrix_n"));    // GEMM: n of each thread's n x n multiply
  columns.push_back(int_column("elements"));    // Triad: elements per array
  columns.push_back(int_column("reps"));        // timed samples
  columns.push_back(int_column("flops", "FLOP"));  // one call, all threads
  columns.push_back(real_column("flop_rate", "FLOP/s"));
  for (Column& c : closing_result_columns()) columns.push_back(std::move(c));
  return Table(kResultsPath, std::move(columns), kTimesPath);
}

Table make_roofline_ranks_table() {
  std::vector<Column> columns = {int_column("rank"), text_column("host", kHostWidth), int_column("threads")};
  for (Column& c : ceiling_columns()) columns.push_back(std::move(c));
  return Table(kRanksPath, std::move(columns));
}

Table make_roofline_nodes_table() {
  std::vector<Column> columns = {text_column("host", kHostWidth), int_column("ranks"), int_column("threads")};
  for (Column& c : ceiling_columns()) columns.push_back(std::move(c));
  return Table(kNodesPath, std::move(columns));
}

}  // namespace bws::roofline
