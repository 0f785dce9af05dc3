// lib/report and the export views: flat CSV and JSON of a Table (units in
// the header names, JSON as records), and STREAM's rows in BabelStream's
// --csv columns (per node and per rank).
#include <gtest/gtest.h>

#include <cmath>
#include <initializer_list>
#include <tuple>
#include <sstream>

#include "core/ResultColumns.hpp"
#include "report/TableText.hpp"
#include "stream/StreamBabelStream.hpp"
#include "stream/StreamTables.hpp"

using namespace bws;

TEST(TableText, CsvQuotesTextAndKeepsRealsExact) {
  Table t("x/y", {text_column("name", 16), int_column("n"), real_column("v")});
  t.add_row({{"name", "a,b"}, {"n", 3}, {"v", 0.1}});
  t.add_row({{"name", "say \"hi\""}, {"n", -1}, {"v", NAN}});
  std::ostringstream out;
  report::write_csv(out, t);
  EXPECT_EQ(out.str(), "name,n,v\n\"a,b\",3,0.1\n\"say \"\"hi\"\"\",-1,nan\n");
}

TEST(TableText, HeaderNamesCarryTheUnit) {
  auto name = [](const char* column, const char* unit) { return report::header_name(real_column(column, unit)); };
  // STREAM's and every result table's closing columns
  EXPECT_EQ(name("bandwidth", "B/s"), "bandwidth_Bps");
  EXPECT_EQ(name("t_min", "s"), "t_min_s");
  EXPECT_EQ(name("bytes", "B"), "bytes");
  EXPECT_EQ(name("ceiling", "B/s"), "ceiling_Bps");
  EXPECT_EQ(name("sizeof", "B"), "sizeof_bytes");
  EXPECT_EQ(name("flops", "FLOP"), "flops");
  EXPECT_EQ(name("flop_rate", "FLOP/s"), "flop_rate_flop_per_s");
  EXPECT_EQ(name("max_MB_per_sec", "MB/s"), "max_MB_per_sec");
  EXPECT_EQ(name("rate", "MB/s"), "rate_MBps");
  EXPECT_EQ(name("ai", "FLOP/B"), "ai_flop_per_byte");
  EXPECT_EQ(name("speed", "m/s"), "speed_m_per_s");  // a unit without a rule of its own
  // names that already hold their unit are kept (no double suffix)
  EXPECT_EQ(name("b_eff_Bps", "B/s"), "b_eff_Bps");
  EXPECT_EQ(name("slope_Bps_per_rank", "B/s"), "slope_Bps_per_rank");
  EXPECT_EQ(name("latency_s", "s"), "latency_s");
  EXPECT_EQ(name("T0_seconds", "s"), "T0_seconds");
  EXPECT_EQ(name("area_bytes", "B"), "area_bytes");
  EXPECT_EQ(name("fma_double_flop_per_s", "FLOP/s"), "fma_double_flop_per_s");
  EXPECT_EQ(name("balance_fma_double_flop_per_byte", "FLOP/B"), "balance_fma_double_flop_per_byte");
  // a word that only looks like a unit inside another word does not count
  EXPECT_EQ(name("tries", "s"), "tries_s");
  EXPECT_EQ(name("host", ""), "host");
}

TEST(TableText, CsvHeaderOfStreamResults) {
  std::ostringstream out;
  report::write_csv(out, stream::make_stream_results_table());
  EXPECT_EQ(out.str(),
            "rank,host,backend,kernel,threads,device,type,stores,variant,elements,reps,avg_rel_error,error_limit,"
            "ceiling_Bps,bytes,t_min_s,t_avg_s,t_max_s,bandwidth_Bps,valid\n");
  std::ostringstream declared;
  report::write_csv(declared, stream::make_stream_results_table(), report::HeaderNames::AsDeclared);
  EXPECT_NE(declared.str().find(",t_min,t_avg,t_max,bandwidth,valid\n"), std::string::npos);
}

TEST(TableText, JsonIsAnArrayOfRecordsWithNullForNan) {
  Table t("x/y", {text_column("name", 16), real_column("v", "s"), int_column("n")});
  t.add_row({{"name", "q\""}, {"v", INFINITY}, {"n", 7}});
  t.add_row({{"name", "b"}, {"v", 0.5}, {"n", -1}});
  std::ostringstream out;
  report::write_json(out, t);
  EXPECT_EQ(out.str(), "[\n {\"name\": \"q\\\"\", \"v_s\": null, \"n\": 7},\n {\"name\": \"b\", \"v_s\": 0.5, \"n\": -1}\n]\n");
  std::ostringstream empty;
  report::write_json(empty, Table("x/z", {int_column("n")}));
  EXPECT_EQ(empty.str(), "[]\n");
}

namespace {

Table stream_results_with(std::initializer_list<std::tuple<int, const char*, const char*, const char*, double>> rows) {
  Table results = stream::make_stream_results_table();
  for (const auto& [rank, host, kernel, type, t_min] : rows)
    results.add_row({{"rank", rank}, {"host", host}, {"backend", "cpu"}, {"kernel", kernel}, {"threads", 2},
                     {"device", "cpu"}, {"type", type}, {"stores", "normal"}, {"variant", ""}, {"elements", 1000},
                     {"reps", 20}, {"avg_rel_error", 0.0}, {"error_limit", 1e-6}, {"ceiling", 2e12},
                     {"bytes", 8000}, {"t_min", t_min}, {"t_avg", 2 * t_min}, {"t_max", 3 * t_min},
                     {"bandwidth", 8000 / t_min}, {"valid", 1}});
  return results;
}

}  // namespace

TEST(BabelStreamView, RanksHaveBabelStreamsHeaderAndNames) {
  const Table results = stream_results_with({{1, "n1", "Scale", "float", 1e-6}, {0, "n1", "PCI_write", "float", 1e-3}});
  const Table b = stream::babelstream_ranks_table({results});
  EXPECT_EQ(b.path(), "stream/babelstream-ranks");
  std::ostringstream out;
  report::write_csv(out, b, report::HeaderNames::AsDeclared);
  // BabelStream 5.0 src/main.cpp prints this header with --csv; MB/s is 1e6 B/s,
  // 8000 B in 1 us = 8000 MB/s; the PCI row is no BabelStream function.
  EXPECT_EQ(out.str(),
            "function,num_times,n_elements,sizeof,max_mbytes_per_sec,min_runtime,max_runtime,avg_runtime,host,rank,"
            "type,backend,stores\n"
            "Mul,20,1000,4,8000,1e-06,3e-06,2e-06,n1,1,float,cpu,normal\n");
}

TEST(BabelStreamView, OneRowPerNodeAggregateAndFunction) {
  // Two ranks on n1 (their node row: elements summed, slowest rank's times),
  // one on n2; the node rows as the STREAM phase writes them (stream/nodes).
  const Table results = stream_results_with({{0, "n1", "Copy", "double", 1e-3},
                                             {1, "n1", "Copy", "double", 2e-3},
                                             {0, "n1", "Triad", "double", 1e-3},
                                             {2, "n2", "Copy", "double", 4e-3}});
  Table nodes = stream::make_stream_nodes_table();
  auto node = [&](const char* host, std::int64_t ranks, const char* kernel, std::int64_t elements, double t_min,
                  double bytes) {
    nodes.add_row({{"host", host}, {"backend", "cpu"}, {"ranks", ranks}, {"threads", 4}, {"devices", 1},
                   {"device", "cpu"}, {"kernel", kernel}, {"type", "double"}, {"stores", "nontemporal"},
                   {"elements", elements}, {"bytes", static_cast<std::int64_t>(bytes)}, {"t_min", t_min},
                   {"t_avg", t_min}, {"t_max", 2 * t_min}, {"bandwidth", bytes / t_min}, {"valid", 1}});
  };
  node("n1", 2, "Copy", 2000, 2e-3, 32000);
  node("n1", 2, "Triad", 2000, 1e-3, 48000);
  node("n2", 1, "Copy", 1000, 4e-3, 16000);
  const Table b = stream::babelstream_table({nodes, results});
  EXPECT_EQ(b.path(), "stream/babelstream");
  std::ostringstream out;
  report::write_csv(out, b, report::HeaderNames::AsDeclared);
  EXPECT_EQ(out.str(),
            "function,num_times,n_elements,sizeof,max_mbytes_per_sec,min_runtime,max_runtime,avg_runtime,host,ranks,"
            "type,backend,stores\n"
            "Copy,20,2000,8,16,0.002,0.004,0.002,n1,2,double,cpu,nontemporal\n"
            "Triad,20,2000,8,48,0.001,0.002,0.001,n1,2,double,cpu,nontemporal\n"
            "Copy,20,1000,8,4,0.004,0.008,0.004,n2,1,double,cpu,nontemporal\n");
}
