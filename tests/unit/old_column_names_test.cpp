// Files written before repetitions had one name (schema 2.x, STREAM's
// column `ntimes`, pmbw's `samples`) read with today's name: the reader
// shows `reps`, with the same values and samples, and bwreport export
// writes `reps`. The old files are written here with the old column, as
// bwsurvey 2.0 wrote them.
#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>
#include <string>

#include "H5TestSupport.hpp"
#include "TestPrograms.hpp"
#include "TestSupport.hpp"
#include "core/ResultColumns.hpp"
#include "h5/ColumnRenames.hpp"
#include "h5/ResultFile.hpp"

namespace bws::h5 {
namespace {

Table old_stream_results() {
  std::vector<Column> c = leading_result_columns("kernel");
  for (Column x : {text_column("device", 128), text_column("type", 8), text_column("stores", 16),
                   text_column("variant", 48), int_column("elements"), int_column("ntimes"),
                   real_column("avg_rel_error"), real_column("error_limit"), real_column("ceiling", "B/s")})
    c.push_back(x);
  for (Column& x : closing_result_columns()) c.push_back(x);
  Table t("stream/results", c, "stream/times");
  t.add_row({{"rank", 0}, {"host", "n1"}, {"backend", "cpu"}, {"kernel", "Triad"}, {"threads", 2}, {"device", "cpu"},
             {"type", "double"}, {"stores", "normal"}, {"variant", ""}, {"elements", 1000}, {"ntimes", 3},
             {"avg_rel_error", 0.0}, {"error_limit", 1e-13}, {"ceiling", 1e12}, {"bytes", 24000}, {"t_min", 1e-6},
             {"t_avg", 1.5e-6}, {"t_max", 2e-6}, {"bandwidth", 2.4e10}, {"valid", 1}},
            {3e-6, 2e-6, 1e-6});
  return t;
}

// pmbw's /pmbw/results as bwsurvey 2.0 wrote it (hdf5-schema.md of 2.0).
Table old_pmbw_results() {
  std::vector<Column> c = leading_result_columns("routine");
  for (Column x : {int_column("area_bytes", "B"), int_column("thread_bytes", "B"), int_column("test_bytes", "B"),
                   int_column("repeats"), int_column("accesses"), int_column("seed"), int_column("samples"),
                   real_column("t_median", "s"), real_column("access_seconds", "s"),
                   real_column("thread_access_seconds", "s")})
    c.push_back(x);
  for (Column& x : closing_result_columns()) c.push_back(x);
  Table t("pmbw/results", c, "pmbw/times");
  t.add_row({{"rank", 0}, {"host", "n1"}, {"backend", "cpu"}, {"routine", "ScanRead64PtrUnrollLoop"}, {"threads", 1},
             {"area_bytes", 4096}, {"thread_bytes", 4096}, {"test_bytes", 4096}, {"repeats", 10},
             {"accesses", 5120}, {"seed", 1}, {"samples", 2}, {"t_median", 1.5e-3}, {"access_seconds", 1e-3 / 5120},
             {"thread_access_seconds", 1e-3 / 5120}, {"bytes", 40960}, {"t_min", 1e-3}, {"t_avg", 1.5e-3},
             {"t_max", 2e-3}, {"bandwidth", 40960 / 1e-3}, {"valid", 1}},
            {2e-3, 1e-3});
  return t;
}

class OldColumnNames : public test::TempDirTest {
 protected:
  OldColumnNames() : TempDirTest("bws_old_columns") {}
};

TEST_F(OldColumnNames, StreamNtimesIsReadAsReps) {
  const std::string path = file("old.h5");
  {
    ResultFile f = ResultFile::create(path, false);
    f.set_attribute("/", "schema_version", std::string("2.0"));
    h5_test_support::set_survey_root(f, "0.1.0", 1, 1, "stream");
    f.append(old_stream_results());
    f.close();
  }
  const Table t = ResultReader::open(path).read_table("stream/results");
  EXPECT_FALSE(t.has_column("ntimes"));
  ASSERT_TRUE(t.has_column("reps"));
  ASSERT_EQ(t.rows(), 1u);
  EXPECT_EQ(t.get_int(0, "reps"), 3);
  EXPECT_EQ(t.get_string(0, "kernel"), "Triad");
  EXPECT_EQ(t.samples(0), (std::vector<double>{3e-6, 2e-6, 1e-6}));
  // The column keeps its place: the old file's order.
  EXPECT_EQ(t.column_index("reps"), old_stream_results().column_index("ntimes"));

  const std::string command = "cd '" + dir_.string() + "' && '" + test::bwreport_program() +
                              "' export --csv old.h5 --table stream/results >out.csv 2>err.txt";
  ASSERT_EQ(std::system(command.c_str()), 0) << test::slurp(file("err.txt"));
  std::istringstream csv(test::slurp(file("out.csv")));
  std::string header;
  std::getline(csv, header);
  EXPECT_NE(header.find(",reps,"), std::string::npos) << header;
  EXPECT_EQ(header.find("ntimes"), std::string::npos) << header;
}

TEST_F(OldColumnNames, PmbwSamplesIsReadAsReps) {
  const std::string path = file("old-pmbw.h5");
  {
    ResultFile f = ResultFile::create(path, false);
    f.set_attribute("/", "schema_version", std::string("2.0"));
    h5_test_support::set_survey_root(f, "0.1.0", 1, 1, "pmbw");
    f.append(old_pmbw_results());
    f.close();
  }
  const Table t = ResultReader::open(path).read_table("pmbw/results");
  EXPECT_FALSE(t.has_column("samples"));
  ASSERT_TRUE(t.has_column("reps"));
  ASSERT_EQ(t.rows(), 1u);
  EXPECT_EQ(t.get_int(0, "reps"), 2);
  EXPECT_EQ(t.get_int(0, "repeats"), 10);  // pmbw's passes within one sample: its own name, not repetitions
  EXPECT_EQ(t.samples(0), (std::vector<double>{2e-3, 1e-3}));
  EXPECT_EQ(t.column_index("reps"), old_pmbw_results().column_index("samples"));
}

TEST(ColumnRenames, ATableOfTodayIsUnchanged) {
  Table t("stream/results", {int_column("reps")});
  t.add_row({{"reps", 5}});
  const Table same = with_current_column_names(t);
  EXPECT_EQ(same.columns(), t.columns());
  Table other("bs/results", {int_column("ntimes")});  // another table's column of that name is not STREAM's
  EXPECT_TRUE(with_current_column_names(other).has_column("ntimes"));
  Table samples("stream/results", {int_column("samples")});  // only pmbw's `samples` were its repetitions
  EXPECT_TRUE(with_current_column_names(samples).has_column("samples"));
}

}  // namespace
}  // namespace bws::h5
