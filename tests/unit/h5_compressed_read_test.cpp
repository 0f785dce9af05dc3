// Compressed and hostile result files: tables as h5py and `h5repack -f
// GZIP=9` (with or without SHUF) leave them read back whatever their
// compression ratio; a table that declares more than a read may bring
// into memory is refused before anything is allocated, one that holds more
// once a piece has shown it; a path that is not a regular file is refused
// before HDF5 opens it.
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "TestPrograms.hpp"
#include "H5TestSupport.hpp"
#include "core/ResultColumns.hpp"
#include "h5/ReadChecks.hpp"
#include "h5/TableDataset.hpp"

namespace {

// A node-table-like row: one host name per row, the rest the same on
// every row (as in a survey of identical nodes).
struct NodeRow {
  std::int64_t rank;
  char host[64];
  char cpu_model[96];
  char cohort[160];
  char os[1024];
  std::int64_t cores;
  double bandwidth;
};

const char* const kCpuModel = "AMD EPYC 7763 64-Core Processor";
const char* const kCohort = "AMD EPYC 7763 64-Core Processor / 128 cores / 512 GiB";
const char* const kOs = "Linux 6.1.0-18-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01) x86_64";

std::string host_of(std::int64_t i) {
  std::string host = "c";
  host += std::to_string(i / 1000);
  host += "n";
  host += std::to_string(i % 1000);
  return host;
}

struct Layout {
  hsize_t chunk_rows = 1024;
  bool shuffle = false;
  int deflate = 9;  // -1: none
};

hid_t fixed_string(std::size_t width) {
  const hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, width);
  H5Tset_strpad(type, H5T_STR_NULLPAD);  // as numpy "S<width>" is stored
  return type;
}

hid_t node_row_type() {
  const hid_t type = H5Tcreate(H5T_COMPOUND, sizeof(NodeRow));
  const hid_t host = fixed_string(64), model = fixed_string(96), cohort = fixed_string(160), os = fixed_string(1024);
  H5Tinsert(type, "rank", HOFFSET(NodeRow, rank), H5T_NATIVE_INT64);
  H5Tinsert(type, "host", HOFFSET(NodeRow, host), host);
  H5Tinsert(type, "cpu_model", HOFFSET(NodeRow, cpu_model), model);
  H5Tinsert(type, "cohort", HOFFSET(NodeRow, cohort), cohort);
  H5Tinsert(type, "os", HOFFSET(NodeRow, os), os);
  H5Tinsert(type, "cores", HOFFSET(NodeRow, cores), H5T_NATIVE_INT64);
  H5Tinsert(type, "bandwidth", HOFFSET(NodeRow, bandwidth), H5T_NATIVE_DOUBLE);
  H5Tclose(host);
  H5Tclose(model);
  H5Tclose(cohort);
  H5Tclose(os);
  return type;
}

hid_t filtered_dcpl(const Layout& layout) {
  const hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(dcpl, 1, &layout.chunk_rows);
  if (layout.shuffle) H5Pset_shuffle(dcpl);
  if (layout.deflate >= 0) H5Pset_deflate(dcpl, static_cast<unsigned>(layout.deflate));
  return dcpl;
}

// A survey-versioned file holding `rows` node rows at /nodes_compressed,
// stored as `layout` says; returns the bytes the file stores for them.
std::uint64_t write_node_rows(const std::string& path, hsize_t rows, const Layout& layout) {
  write_foreign_file(path, "2.0");
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  const hid_t type = node_row_type();
  const hsize_t unlimited = H5S_UNLIMITED;
  const hid_t space = H5Screate_simple(1, &rows, &unlimited);
  const hid_t dcpl = filtered_dcpl(layout);
  const hid_t dataset = H5Dcreate2(file, "/nodes_compressed", type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  std::vector<NodeRow> data(rows);
  for (hsize_t i = 0; i < rows; ++i) {
    NodeRow& row = data[i];
    std::memset(&row, 0, sizeof row);
    row.rank = static_cast<std::int64_t>(i);
    std::strncpy(row.host, host_of(row.rank).c_str(), sizeof row.host);
    std::strncpy(row.cpu_model, kCpuModel, sizeof row.cpu_model);
    std::strncpy(row.cohort, kCohort, sizeof row.cohort);
    std::strncpy(row.os, kOs, sizeof row.os);
    row.cores = 128;
    row.bandwidth = 2.0e11;
  }
  EXPECT_GE(H5Dwrite(dataset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()), 0);
  H5Fflush(file, H5F_SCOPE_LOCAL);
  const std::uint64_t stored = H5Dget_storage_size(dataset);
  H5Dclose(dataset);
  H5Pclose(dcpl);
  H5Sclose(space);
  H5Tclose(type);
  H5Fclose(file);
  return stored;
}

// A file whose /bomb declares `rows` node rows, deflated, no chunk written
// (every row reads as fill values: zeros).
void write_declared_rows(const std::string& path, hsize_t rows) {
  write_foreign_file(path, "2.0");
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  const hid_t type = node_row_type();
  const hsize_t unlimited = H5S_UNLIMITED;
  const hid_t space = H5Screate_simple(1, &rows, &unlimited);
  const hid_t dcpl = filtered_dcpl(Layout{});
  const hid_t dataset = H5Dcreate2(file, "/bomb", type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  H5Dclose(dataset);
  H5Pclose(dcpl);
  H5Sclose(space);
  H5Tclose(type);
  H5Fclose(file);
}

void expect_node_rows(const Table& table, std::int64_t rows) {
  ASSERT_EQ(table.rows(), static_cast<std::size_t>(rows));
  for (std::int64_t i = 0; i < rows; ++i) {
    const auto r = static_cast<std::size_t>(i);
    ASSERT_EQ(table.get_int(r, "rank"), i);
    ASSERT_EQ(table.get_string(r, "host"), host_of(i));
    ASSERT_EQ(table.get_string(r, "cpu_model"), kCpuModel);
    ASSERT_EQ(table.get_string(r, "cohort"), kCohort);
    ASSERT_EQ(table.get_string(r, "os"), kOs);
    ASSERT_EQ(table.get_int(r, "cores"), 128);
    ASSERT_EQ(table.get_double(r, "bandwidth"), 2.0e11);
  }
}

class H5CompressedRead : public H5Test {};

TEST_F(H5CompressedRead, TablesThatCompressOverAHundredFoldReadBackEqual) {
  const hsize_t rows = 4000;
  // GZIP=9 as h5repack leaves it, SHUF + GZIP=9, a chunk larger than a
  // read piece (whole chunks are read), and small chunks as h5py makes.
  const std::vector<Layout> layouts = {{1024, false, 9}, {1024, true, 9}, {2 * rows, true, 9}, {100, false, 6}};
  for (std::size_t i = 0; i < layouts.size(); ++i) {
    SCOPED_TRACE("layout " + std::to_string(i));
    const std::string path = file("packed" + std::to_string(i) + ".h5");
    const std::uint64_t stored = write_node_rows(path, rows, layouts[i]);
    if (layouts[i].chunk_rows >= 1024) {
      ASSERT_GT(rows * sizeof(NodeRow), 100 * stored) << "not compressed enough";
    }
    const ResultReader reader = ResultReader::open(path);
    expect_node_rows(reader.read_table("nodes_compressed"), static_cast<std::int64_t>(rows));
  }
}

TEST_F(H5CompressedRead, ADeclaredTrillionRowsIsRefusedBeforeReading) {
  const std::string path = file("bomb.h5");
  write_declared_rows(path, hsize_t{1000000000000});
  const std::string error = usage_error_of([&] { ResultReader::open(path).read_table("bomb"); });
  EXPECT_NE(error.find("'" + path + "': table '/bomb': declares 1000000000000 rows"), std::string::npos) << error;
  EXPECT_NE(error.find("more than one read may bring into memory"), std::string::npos) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos);
}

TEST_F(H5CompressedRead, AReadStopsAtItsLimitAndAFileAtItsTotal) {
  const std::string path = file("packed.h5");
  write_node_rows(path, 5000, Layout{});
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  // Under a budget too small for 5000 rows: refused before reading.
  bws::h5::ReadBudget small(std::uint64_t{1} << 30, 64 * 1024);
  EXPECT_NE(usage_error_of([&] { bws::h5::read_table(file, "nodes_compressed", &small); }).find("declares 5000 rows"),
            std::string::npos);
  // Each read fits, two do not fit the file's total.
  bws::h5::ReadBudget total(std::uint64_t{8} << 20, std::uint64_t{7} << 20);
  expect_node_rows(bws::h5::read_table(file, "nodes_compressed", &total), 5000);
  const std::string second = usage_error_of([&] { bws::h5::read_table(file, "nodes_compressed", &total); });
  EXPECT_NE(second.find("left of the usable memory"), std::string::npos) << second;
  H5Fclose(file);
}

TEST_F(H5CompressedRead, LongVariableLengthTextIsCountedAsItIsRead) {
  const std::string path = file("vlen.h5");
  write_foreign_file(path, "2.0");
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  const hid_t text = H5Tcopy(H5T_C_S1);
  H5Tset_size(text, H5T_VARIABLE);
  struct Row {
    std::int64_t rank;
    const char* note;
  };
  const hid_t type = H5Tcreate(H5T_COMPOUND, sizeof(Row));
  H5Tinsert(type, "rank", HOFFSET(Row, rank), H5T_NATIVE_INT64);
  H5Tinsert(type, "note", HOFFSET(Row, note), text);
  const hsize_t rows = 64;
  const hid_t space = H5Screate_simple(1, &rows, nullptr);
  const hid_t dataset = H5Dcreate2(file, "/notes", type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  const std::string note(64 * 1024, 'x');
  std::vector<Row> data(rows);
  for (hsize_t i = 0; i < rows; ++i) data[i] = {static_cast<std::int64_t>(i), note.c_str()};
  H5Dwrite(dataset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data());
  H5Dclose(dataset);
  H5Sclose(space);
  H5Tclose(type);
  H5Tclose(text);
  // 64 rows declare little; their 4 MiB of text is over a 1 MiB read.
  bws::h5::ReadBudget budget(std::uint64_t{1} << 30, std::uint64_t{1} << 20);
  const std::string error = usage_error_of([&] { bws::h5::read_table(file, "notes", &budget); });
  EXPECT_NE(error.find("table '/notes': holds more than one read may bring into memory"), std::string::npos) << error;
  bws::h5::ReadBudget enough(std::uint64_t{1} << 30, std::uint64_t{16} << 20);
  EXPECT_EQ(bws::h5::read_table(file, "notes", &enough).get_string(63, "note"), note);
  H5Fclose(file);
}

// `path` opened by ResultReader in a child that SIGALRM ends after 20 s:
// the UsageError's text, or "(blocked)" / "(no UsageError)".
std::string open_error_in_child(const std::string& path) {
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) return "(no pipe)";
  const pid_t child = ::fork();
  if (child == 0) {
    ::close(pipe_fds[0]);
    ::alarm(20);
    const std::string error = usage_error_of([&] { (void)ResultReader::open(path); });
    (void)!::write(pipe_fds[1], error.data(), error.size());
    ::_exit(0);
  }
  ::close(pipe_fds[1]);
  std::string error;
  char buffer[512];
  for (ssize_t n; (n = ::read(pipe_fds[0], buffer, sizeof buffer)) > 0;) error.append(buffer, static_cast<std::size_t>(n));
  ::close(pipe_fds[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  return WIFSIGNALED(status) ? "(blocked)" : error;
}

TEST_F(H5CompressedRead, PathsThatAreNotRegularFilesAreRefusedBeforeHdf5OpensThem) {
  const std::string fifo = file("survey.fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(open_error_in_child(fifo), "result file: '" + fifo + "' is a FIFO; allowed: a regular file");
  EXPECT_EQ(open_error_in_child(dir_.string()), "result file: '" + dir_.string() + "' is a directory; allowed: a regular file");
  const std::string device = file("zero");  // what /dev/zero is, made here
  if (::mknod(device.c_str(), S_IFCHR | 0600, makedev(1, 5)) == 0) {  // root only
    EXPECT_EQ(open_error_in_child(device), "result file: '" + device + "' is a character device; allowed: a regular file");
  }
}

// Rewrites every table of the file as h5py writes a compressed dataset
// (chunks of 1024 rows, gzip 9, attributes kept); false without h5py.
bool compress_tables(const std::string& path) {
  const std::string script =
      "import sys, h5py\n"
      "with h5py.File(sys.argv[1], 'a') as f:\n"
      "    names = []\n"
      "    f.visititems(lambda n, o: names.append(n) if getattr(o, 'dtype', None) is not None and o.dtype.names else None)\n"
      "    for name in names:\n"
      "        d = f[name]; data = d[...]; attrs = dict(d.attrs); del f[name]\n"
      "        n = f.create_dataset(name, data=data, chunks=(1024,), maxshape=(None,),\n"
      "                             compression='gzip', compression_opts=9)\n"
      "        for k, v in attrs.items(): n.attrs[k] = v\n";
  std::ofstream(path + ".py") << script;
  return run_shell("/usr/bin/python3 '" + path + ".py' '" + path + "' 2>/dev/null") == 0;
}

// Beyond the bound the readers had: more than 16x what the file stores,
// and more than its 4 MiB allowance.
void expect_beyond_the_old_bound(const std::string& path, const char* dataset_path) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t dataset = H5Dopen2(file, dataset_path, H5P_DEFAULT);
  const hid_t type = H5Dget_type(dataset);
  const hid_t space = H5Dget_space(dataset);
  const std::uint64_t declared = H5Sget_simple_extent_npoints(space) * H5Tget_size(type);
  EXPECT_GT(declared, 16 * H5Dget_storage_size(dataset)) << dataset_path;
  EXPECT_GT(declared, std::uint64_t{4} << 20) << dataset_path;
  H5Sclose(space);
  H5Tclose(type);
  H5Dclose(dataset);
  H5Fclose(file);
}

TEST_F(H5CompressedRead, ASurveyWhoseTablesH5pyCompressedIsSummarisedAndPlotted) {
  const std::string path = file("survey.h5");
  const std::int64_t kNodes = 4000;
  {
    ResultFile f = ResultFile::create(path, false);
    set_survey_root(f, "test", kNodes, kNodes, "stream");
    Table nodes("nodes/table", {bws::text_column("host", bws::kHostWidth), bws::text_column("cpu_model", 96),
                                bws::text_column("os", 1024), bws::int_column("cores"),
                                bws::int_column("memory_bytes", "B")});
    for (std::int64_t i = 0; i < kNodes; ++i)
      nodes.add_row({{"host", host_of(i)}, {"cpu_model", kCpuModel}, {"os", kOs}, {"cores", 128},
                     {"memory_bytes", std::int64_t{1} << 39}});
    f.append(nodes);
    Table checks = bws::make_checks_table();
    for (std::int64_t i = 0; i < 4 * kNodes; ++i)
      bws::add_check(checks, {"stream.validation", host_of(i / 4), "validation", 1.0, 1.0, 0.9, 1.1, "B/s", true});
    f.append(checks);
    f.close();
  }
  if (!compress_tables(path)) GTEST_SKIP() << "/usr/bin/python3 cannot import h5py";
  expect_beyond_the_old_bound(path, "/nodes/table");  // bwreport's reader
  expect_beyond_the_old_bound(path, "/checks");       // the Python report's

  const auto run = [&](const std::string& args) {
    return bws::test::run_shell(std::string("'") + bws::test::bwreport_program() + "' " + args, dir_ / "out.txt", dir_ / "err.txt");
  };
  const bws::test::RunResult summary = run("summary '" + path + "'");
  EXPECT_EQ(summary.exit_code, 0) << summary.err;
  EXPECT_NE(summary.out.find("4000 nodes"), std::string::npos) << summary.out;
  if (run_shell("/usr/bin/python3 -c 'import matplotlib' 2>/dev/null") != 0) return;
  const bws::test::RunResult plot = run("plot '" + path + "' -o '" + file("report") + "'");
  EXPECT_EQ(plot.exit_code, 0) << plot.err;
  EXPECT_TRUE(fs::exists(file("report/index.html")));
}

}  // namespace
