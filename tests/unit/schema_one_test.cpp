// Files of schema 1.x, where the OpenCL device's STREAM had tables of its
// own (/ocl/stream/results, /ocl/stream/nodes), read by this bwsurvey: the
// reader shows their rows in /stream/results and /stream/nodes with backend
// "ocl" (the CPU's rows with backend "cpu"), and bwreport summary and
// export draw them from there. The old file is written here with the old
// columns, as bwsurvey 1.1 wrote them.
#include <gtest/gtest.h>

#include "TestPrograms.hpp"
#include "H5TestSupport.hpp"
#include "TestSupport.hpp"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "core/ResultColumns.hpp"
#include "h5/ResultFile.hpp"

namespace bws::h5 {
namespace {

// /stream/results as schema 1.1 had it (no device, variant, limit, ceiling).
Table old_stream_results() {
  std::vector<Column> c = leading_result_columns("kernel");
  for (Column x : {text_column("type", 8), text_column("stores", 16), int_column("elements"), int_column("ntimes"),
                   real_column("avg_rel_error")})
    c.push_back(x);
  for (Column& x : closing_result_columns()) c.push_back(x);
  Table t("stream/results", c, "stream/times");
  t.add_row({{"rank", 0}, {"host", "n1"}, {"backend", "cpu"}, {"kernel", "Triad"}, {"threads", 4}, {"type", "double"},
             {"stores", "normal"}, {"elements", 1000}, {"ntimes", 3}, {"avg_rel_error", 0.0}, {"bytes", 24000},
             {"t_min", 1e-6}, {"t_avg", 1.5e-6}, {"t_max", 2e-6}, {"bandwidth", 2.4e10}, {"valid", 1}},
            {3e-6, 1e-6, 2e-6});
  return t;
}

// /ocl/stream/results of schema 1.1: the device's six rows of one rank.
Table old_ocl_results() {
  std::vector<Column> c = leading_result_columns("kernel");
  for (Column x : {text_column("device", 128), text_column("type", 8), text_column("variant", 16), int_column("elements"),
                   int_column("ntimes"), int_column("replications"), int_column("vector_count"),
                   int_column("buffer_size"), int_column("unroll"), real_column("avg_rel_error"),
                   real_column("error_limit"), real_column("ceiling", "B/s")})
    c.push_back(x);
  for (Column& x : closing_result_columns()) c.push_back(x);
  Table t("ocl/stream/results", c, "ocl/stream/times");
  int k = 0;
  for (const char* kernel : {"PCI_write", "Copy", "Scale", "Add", "Triad", "PCI_read"}) {
    const double seconds = 1e-4 * ++k;
    t.add_row({{"rank", 0}, {"host", "n1"}, {"backend", "ocl"}, {"kernel", kernel}, {"threads", 8},
               {"device", "Old GPU (Old Platform)"}, {"type", "double"}, {"variant", "combined"},
               {"elements", 4096}, {"ntimes", 2}, {"replications", 1}, {"vector_count", 1}, {"buffer_size", 4096},
               {"unroll", 1}, {"avg_rel_error", 0.0}, {"error_limit", 1e-13}, {"ceiling", 1e14},
               {"bytes", 3 * 4096 * 8}, {"t_min", seconds}, {"t_avg", seconds}, {"t_max", seconds},
               {"bandwidth", 3 * 4096 * 8 / seconds}, {"valid", 1}},
              {seconds, seconds});
  }
  return t;
}

Table old_stream_nodes() {
  Table t("stream/nodes", {text_column("host", kHostWidth), int_column("ranks"), int_column("threads"),
                           text_column("kernel", kNameWidth), text_column("type", 8), text_column("stores", 16),
                           int_column("elements"), int_column("bytes", "B"), real_column("t_min", "s"),
                           real_column("t_avg", "s"), real_column("t_max", "s"), real_column("bandwidth", "B/s"),
                           int_column("valid")});
  t.add_row({{"host", "n1"}, {"ranks", 1}, {"threads", 4}, {"kernel", "Triad"}, {"type", "double"},
             {"stores", "normal"}, {"elements", 1000}, {"bytes", 24000}, {"t_min", 1e-6}, {"t_avg", 1.5e-6},
             {"t_max", 2e-6}, {"bandwidth", 2.4e10}, {"valid", 1}});
  return t;
}

Table old_ocl_nodes() {
  Table t("ocl/stream/nodes", {text_column("host", kHostWidth), int_column("ranks"), int_column("devices"),
                               text_column("device", 128), text_column("kernel", kNameWidth), text_column("type", 8),
                               int_column("elements"), int_column("bytes", "B"), real_column("t_min", "s"),
                               real_column("t_avg", "s"), real_column("t_max", "s"),
                               real_column("bandwidth", "B/s"), int_column("valid")});
  t.add_row({{"host", "n1"}, {"ranks", 1}, {"devices", 1}, {"device", "Old GPU (Old Platform)"}, {"kernel", "Triad"},
             {"type", "double"}, {"elements", 4096}, {"bytes", 98304}, {"t_min", 5e-4}, {"t_avg", 5e-4},
             {"t_max", 5e-4}, {"bandwidth", 98304 / 5e-4}, {"valid", 1}});
  t.add_row({{"host", "n1"}, {"ranks", 1}, {"devices", 1}, {"device", "Old GPU (Old Platform)"},
             {"kernel", "PCI_write"}, {"type", "double"}, {"elements", 4096}, {"bytes", 98304}, {"t_min", 1e-4},
             {"t_avg", 1e-4}, {"t_max", 1e-4}, {"bandwidth", 98304 / 1e-4}, {"valid", 1}});
  return t;
}

class SchemaOne : public test::TempDirTest {
 protected:
  SchemaOne() : TempDirTest("bws_schema1") {}

  std::string write_old_file() {
    const std::string path = file("old.h5");
    ResultFile f = ResultFile::create(path, false);
    f.set_attribute("/", "schema_version", std::string("1.1"));
    h5_test_support::set_survey_root(f, "0.1.0", 1, 1, "stream,ocl");
    for (const Table& t : {old_stream_results(), old_ocl_results(), old_stream_nodes(), old_ocl_nodes()}) f.append(t);
    f.close();
    return path;
  }

  int run(const std::string& args, std::string& out) {
    const std::string out_file = file("out.txt");
    const int status = std::system((std::string("cd '") + dir_.string() + "' && '" + bws::test::bwreport_program() + "' " + args +
                                    " >'" + out_file + "' 2>&1")
                                       .c_str());
    std::ifstream in(out_file);
    std::stringstream text;
    text << in.rdbuf();
    out = text.str();
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
};

TEST_F(SchemaOne, DeviceRowsAreRowsOfTheOneStreamTable) {
  const ResultReader reader = ResultReader::open(write_old_file());
  const std::vector<std::string> paths = reader.table_paths();
  EXPECT_EQ(std::count(paths.begin(), paths.end(), "stream/results"), 1);
  EXPECT_EQ(std::count(paths.begin(), paths.end(), "stream/nodes"), 1);
  EXPECT_EQ(std::count(paths.begin(), paths.end(), "ocl/stream/results"), 0);
  EXPECT_EQ(std::count(paths.begin(), paths.end(), "ocl/stream/nodes"), 0);

  const Table results = reader.read_table("stream/results");
  ASSERT_EQ(results.rows(), 1u + 6u);
  EXPECT_EQ(results.get_string(0, "backend"), "cpu");
  EXPECT_EQ(results.get_string(0, "device"), "cpu");
  EXPECT_EQ(results.get_string(0, "stores"), "normal");
  EXPECT_TRUE(std::isnan(results.get_double(0, "ceiling")));  // 1.x did not record it for the CPU
  EXPECT_EQ(results.samples(0), (std::vector<double>{3e-6, 1e-6, 2e-6}));
  for (std::size_t r = 1; r < 7; ++r) {
    EXPECT_EQ(results.get_string(r, "backend"), "ocl");
    EXPECT_EQ(results.get_string(r, "device"), "Old GPU (Old Platform)");
    EXPECT_EQ(results.get_string(r, "variant"), "combined");
    EXPECT_EQ(results.get_string(r, "stores"), "");
    EXPECT_DOUBLE_EQ(results.get_double(r, "ceiling"), 1e14);
    EXPECT_EQ(results.samples(r).size(), 2u);
  }
  EXPECT_EQ(results.get_string(1, "kernel"), "PCI_write");
  EXPECT_DOUBLE_EQ(results.samples(2)[0], 2e-4);  // Copy's sample kept

  const Table nodes = reader.read_table("stream/nodes");
  ASSERT_EQ(nodes.rows(), 3u);
  EXPECT_EQ(nodes.get_string(0, "backend"), "cpu");
  EXPECT_EQ(nodes.get_int(0, "threads"), 4);
  EXPECT_EQ(nodes.get_string(1, "backend"), "ocl");
  EXPECT_EQ(nodes.get_string(1, "device"), "Old GPU (Old Platform)");
  EXPECT_DOUBLE_EQ(nodes.get_double(1, "bandwidth"), 98304 / 5e-4);
  EXPECT_TRUE(reader.exists("/stream/results"));
}

TEST_F(SchemaOne, BwreportSummaryAndExportDrawTheDeviceRows) {
  const std::string path = write_old_file();
  std::string out;
  ASSERT_EQ(run("summary old.h5", out), 0) << out;
  EXPECT_NE(out.find("STREAM double: node bandwidth"), std::string::npos) << out;
  EXPECT_NE(out.find("STREAM double on ocl: node bandwidth"), std::string::npos) << out;
  EXPECT_NE(out.find("Old GPU (Old Platform)"), std::string::npos) << out;
  // 98304 B / 1e-4 s = 0.98 GB/s, the PCI write column of the device's table
  EXPECT_NE(out.find("n1        1        0       0.98   0.20"), std::string::npos) << out;

  ASSERT_EQ(run("export --csv old.h5 --table stream/results", out), 0) << out;
  std::istringstream csv(out);
  std::string header, line;
  std::getline(csv, header);
  EXPECT_NE(header.find("backend"), std::string::npos) << header;
  int cpu = 0, ocl = 0;
  while (std::getline(csv, line)) {
    cpu += line.find(",cpu,") != std::string::npos;
    ocl += line.find(",ocl,") != std::string::npos;
  }
  EXPECT_EQ(cpu, 1);
  EXPECT_EQ(ocl, 6);
}

}  // namespace
}  // namespace bws::h5
