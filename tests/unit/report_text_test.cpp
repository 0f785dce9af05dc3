// lib/report and the export views: flat CSV and JSON of a Table, and
// STREAM's rows in BabelStream's --csv columns.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "core/ResultColumns.hpp"
#include "report/TableText.hpp"
#include "stream/StreamBabelStream.hpp"
#include "stream/StreamTables.hpp"

using namespace bws;

TEST(TableText, CsvQuotesTextAndKeepsRealsExact) {
  Table t("x/y", {text_column("name", 16), int_column("n"), real_column("v", "s")});
  t.add_row({{"name", "a,b"}, {"n", 3}, {"v", 0.1}});
  t.add_row({{"name", "say \"hi\""}, {"n", -1}, {"v", NAN}});
  std::ostringstream out;
  report::write_csv(out, t);
  EXPECT_EQ(out.str(), "name,n,v\n\"a,b\",3,0.1\n\"say \"\"hi\"\"\",-1,nan\n");
}

TEST(TableText, JsonHasColumnsWithUnitsAndNullForNan) {
  Table t("x/y", {text_column("name", 16), real_column("v", "s")});
  t.add_row({{"name", "q\""}, {"v", INFINITY}});
  std::ostringstream out;
  report::write_json(out, t);
  EXPECT_EQ(out.str(),
            "{\"table\": \"x/y\",\n \"columns\": [{\"name\": \"name\", \"unit\": \"\"}, {\"name\": \"v\", \"unit\": "
            "\"s\"}],\n \"rows\": [\n  {\"name\": \"q\\\"\", \"v\": null}\n ]}\n");
}

TEST(BabelStreamView, ColumnsAndNamesAsBabelStreamPrintsThem) {
  Table results = stream::make_stream_results_table();
  results.add_row({{"rank", 1}, {"host", "n1"}, {"backend", "cpu"}, {"kernel", "Scale"}, {"threads", 2},
                   {"device", "cpu"}, {"type", "float"}, {"stores", "normal"}, {"variant", ""}, {"elements", 1000},
                   {"ntimes", 20}, {"avg_rel_error", 0.0}, {"error_limit", 1e-6}, {"ceiling", 2e12}, {"bytes", 8000}, {"t_min", 1e-6}, {"t_avg", 2e-6}, {"t_max", 3e-6},
                   {"bandwidth", 8e9}, {"valid", 1}});
  const Table b = stream::babelstream_table({results});
  std::ostringstream out;
  report::write_csv(out, b);
  EXPECT_EQ(out.str(),
            "function,num_times,n_elements,sizeof,max_MB_per_sec,min_runtime,max_runtime,avg_runtime,host,rank,type,"
            "backend\n"
            "Mul,20,1000,4,8000,1e-06,3e-06,2e-06,n1,1,float,cpu\n");
}
