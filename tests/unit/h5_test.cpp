// The HDF5 result file: round trips through ResultFile and ResultReader, the
// usage errors of --out and of reading, a run killed after a flush, and the
// file as h5py and h5dump see it.
#include <hdf5.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/Errors.hpp"
#include "core/Table.hpp"
#include "h5/ResultFile.hpp"

namespace {

namespace fs = std::filesystem;
using bws::RuntimeFailure;
using bws::Table;
using bws::UsageError;
using bws::h5::ResultFile;
using bws::h5::ResultReader;

// A fresh directory per test, removed afterwards.
class H5Test : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "bws_h5_test.XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ignored;
    fs::permissions(dir_, fs::perms::owner_all, ignored);
    fs::remove_all(dir_, ignored);
  }
  std::string file(const std::string& name) const { return (dir_ / name).string(); }

  fs::path dir_;
};

Table stream_table() {
  return Table("stream/results",
               {bws::int_column("rank"), bws::text_column("host", 16), bws::text_column("kernel", 8),
                bws::int_column("bytes", "B"), bws::real_column("bandwidth", "B/s")},
               "stream/times");
}

void add_stream_row(Table& table, int rank, const std::string& kernel, double bandwidth, std::vector<double> samples) {
  table.add_row({{"rank", rank},
                 {"host", "node-" + std::to_string(rank)},
                 {"kernel", kernel},
                 {"bytes", std::int64_t{1} << 30},
                 {"bandwidth", bandwidth}},
                std::move(samples));
}

// The raw samples dataset as stored (NaN padding included), via the C API.
std::vector<std::vector<double>> stored_samples(const std::string& path, const std::string& dataset) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t data = H5Dopen2(file, dataset.c_str(), H5P_DEFAULT);
  const hid_t space = H5Dget_space(data);
  hsize_t dims[2] = {0, 0};
  H5Sget_simple_extent_dims(space, dims, nullptr);
  std::vector<double> flat(dims[0] * dims[1]);
  if (!flat.empty()) H5Dread(data, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, flat.data());
  H5Sclose(space);
  H5Dclose(data);
  H5Fclose(file);
  std::vector<std::vector<double>> rows(dims[0]);
  for (hsize_t r = 0; r < dims[0]; ++r) rows[r].assign(flat.begin() + r * dims[1], flat.begin() + (r + 1) * dims[1]);
  return rows;
}

// A bare HDF5 file whose root carries `schema_version` (none when empty).
void write_foreign_file(const std::string& path, const std::string& schema_version) {
  const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (!schema_version.empty()) {
    const hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, schema_version.size());  // fixed-length, as other tools write it
    const hid_t space = H5Screate(H5S_SCALAR);
    const hid_t attribute = H5Acreate2(file, "schema_version", type, space, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(attribute, type, schema_version.data());
    H5Aclose(attribute);
    H5Sclose(space);
    H5Tclose(type);
  }
  H5Fclose(file);
}

template <typename F>
std::string usage_error_of(F&& f) {
  try {
    f();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "(no UsageError)";
}

int run_shell(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST_F(H5Test, SchemaVersionIsMajorDotMinor) { EXPECT_EQ(bws::h5::schema_version(), "2.0"); }

TEST_F(H5Test, CreateSetsSchemaVersionAndRunningStatus) {
  ResultFile::create(file("a.h5"), false).close();
  const ResultReader reader = ResultReader::open(file("a.h5"));
  EXPECT_EQ(reader.attribute_text("/", "schema_version"), "2.0");
  EXPECT_EQ(reader.attribute_text("/", "status"), "running");
}

TEST_F(H5Test, TableRoundTripKeepsColumnsUnitsRowsAndSamples) {
  Table table = stream_table();
  add_stream_row(table, 0, "Copy", 1.5e10, {0.3, 0.1, 0.2});
  add_stream_row(table, 1, "Triad", 2.25e10, {0.4});
  add_stream_row(table, 2, "Scale", -0.0, {});
  {
    ResultFile out = ResultFile::create(file("t.h5"), false);
    out.append(table);
  }  // the destructor closes

  const ResultReader reader = ResultReader::open(file("t.h5"));
  const Table back = reader.read_table("stream/results");
  EXPECT_EQ(back.path(), "stream/results");
  EXPECT_EQ(back.samples_path(), "stream/times");
  EXPECT_EQ(back.columns(), table.columns());  // names, types, units and string widths
  ASSERT_EQ(back.rows(), 3u);
  for (std::size_t r = 0; r < 3; ++r) {
    EXPECT_EQ(back.row(r), table.row(r)) << "row " << r;
    EXPECT_EQ(back.samples(r), table.samples(r)) << "row " << r;
  }
  EXPECT_EQ(reader.attribute_text("/stream/results", "samples"), "/stream/times");
  // A leading "/" names the same table.
  EXPECT_EQ(reader.read_table("/stream/results").rows(), 3u);
}

TEST_F(H5Test, SecondAppendExtendsRowsAndWidensSamplesKeepingAlignment) {
  Table first = stream_table();
  add_stream_row(first, 0, "Copy", 1.0, {1.0, 2.0});
  add_stream_row(first, 1, "Copy", 2.0, {3.0});
  add_stream_row(first, 2, "Copy", 3.0, {});
  Table second = stream_table();
  for (int r = 3; r < 8; ++r) {
    std::vector<double> samples;
    for (int s = 0; s <= r % 4 + 1; ++s) samples.push_back(10.0 * r + s);  // 2..5 samples
    add_stream_row(second, r, "Add", r, samples);
  }
  {
    ResultFile out = ResultFile::create(file("t.h5"), false);
    out.append(first);
    out.flush();
    out.append(second);
  }

  const auto raw = stored_samples(file("t.h5"), "/stream/times");
  ASSERT_EQ(raw.size(), 8u);
  ASSERT_EQ(raw[0].size(), 5u);  // widened from 2 to the second batch's 5
  EXPECT_EQ(raw[0][0], 1.0);
  EXPECT_EQ(raw[0][1], 2.0);
  for (int c = 2; c < 5; ++c) EXPECT_TRUE(std::isnan(raw[0][c])) << "widened cell " << c;
  EXPECT_TRUE(std::isnan(raw[1][1]));
  EXPECT_TRUE(std::isnan(raw[2][0]));

  const Table back = ResultReader::open(file("t.h5")).read_table("stream/results");
  ASSERT_EQ(back.rows(), 8u);
  Table all = first;
  all.append(second);
  for (std::size_t r = 0; r < 8; ++r) {
    EXPECT_EQ(back.row(r), all.row(r)) << "row " << r;
    EXPECT_EQ(back.samples(r), all.samples(r)) << "row " << r;
  }
}

TEST_F(H5Test, NarrowerLaterBatchIsPaddedToTheDatasetWidth) {
  Table wide = stream_table();
  add_stream_row(wide, 0, "Copy", 1.0, {1, 2, 3, 4});
  Table narrow = stream_table();
  add_stream_row(narrow, 1, "Copy", 1.0, {5});
  add_stream_row(narrow, 2, "Copy", 1.0, {});
  {
    ResultFile out = ResultFile::create(file("t.h5"), false);
    out.append(wide);
    out.append(narrow);
  }
  const auto raw = stored_samples(file("t.h5"), "/stream/times");
  ASSERT_EQ(raw.size(), 3u);
  ASSERT_EQ(raw[1].size(), 4u);
  EXPECT_EQ(raw[1][0], 5.0);
  EXPECT_TRUE(std::isnan(raw[1][3]));
  const Table back = ResultReader::open(file("t.h5")).read_table("stream/results");
  EXPECT_EQ(back.samples(0), (std::vector<double>{1, 2, 3, 4}));
  EXPECT_EQ(back.samples(1), (std::vector<double>{5}));
  EXPECT_TRUE(back.samples(2).empty());
}

TEST_F(H5Test, EmptyTableStillCreatesItsDatasets) {
  {
    ResultFile out = ResultFile::create(file("t.h5"), false);
    out.append(stream_table());
  }
  const ResultReader reader = ResultReader::open(file("t.h5"));
  EXPECT_TRUE(reader.exists("stream/results"));
  EXPECT_TRUE(reader.exists("/stream/times"));
  const Table back = reader.read_table("stream/results");
  EXPECT_EQ(back.rows(), 0u);
  EXPECT_EQ(back.columns(), stream_table().columns());
}

TEST_F(H5Test, TableWithoutSamplesHasNoSamplesDataset) {
  Table nodes("nodes/table", {bws::text_column("host", 32), bws::int_column("memory_bytes", "B")});
  nodes.add_row({{"host", "n1"}, {"memory_bytes", 1 << 20}});
  {
    ResultFile out = ResultFile::create(file("t.h5"), false);
    out.append(nodes);
  }
  const ResultReader reader = ResultReader::open(file("t.h5"));
  EXPECT_EQ(reader.list("nodes"), std::vector<std::string>{"table"});
  const Table back = reader.read_table("nodes/table");
  EXPECT_FALSE(back.has_samples());
  EXPECT_EQ(back.get_string(0, "host"), "n1");
  EXPECT_EQ(back.columns()[1].unit, "B");
}

// A column of width 5 holds 4 bytes of text and the terminating NUL.
TEST_F(H5Test, LongStringsAreCutToTheColumnWidthOnACharacterBoundary) {
  Table table("t", {bws::text_column("name", 5), bws::text_column("utf8", 5)});
  table.add_row({{"name", "abcdefgh"}, {"utf8", "ab\xc3\xa9z"}});  // "abéz": é is 2 bytes at offsets 2..3
  table.add_row({{"name", "abcd"}, {"utf8", "a\xe2\x82\xac"}});     // "a€": € is 3 bytes at 1..3, fits exactly
  table.add_row({{"name", ""}, {"utf8", "abc\xe2\x82\xac"}});       // "abc€": € would straddle the cut
  {
    ResultFile out = ResultFile::create(file("t.h5"), false);
    out.append(table);
  }
  const Table back = ResultReader::open(file("t.h5")).read_table("t");
  EXPECT_EQ(back.get_string(0, "name"), "abcd");
  EXPECT_EQ(back.get_string(0, "utf8"), "ab\xc3\xa9");
  EXPECT_EQ(back.get_string(1, "name"), "abcd");
  EXPECT_EQ(back.get_string(1, "utf8"), "a\xe2\x82\xac");
  EXPECT_EQ(back.get_string(2, "name"), "");
  EXPECT_EQ(back.get_string(2, "utf8"), "abc");
}

TEST_F(H5Test, AttributesOfEachTypeAreSetReplacedAndRead) {
  {
    ResultFile out = ResultFile::create(file("a.h5"), false);
    out.set_attribute("/", "tool_version", std::string("0.1.0"));
    out.set_attribute("/", "finished_utc", std::string());  // empty until the run ends
    out.set_attribute("/", "n_ranks", std::int64_t{4096});
    out.set_attribute("/", "tolerance", 0.05);
    out.set_attribute("/provenance", "host", std::string("login-1 \xc3\xa9"));  // creates the group
    out.set_attribute("/a/b/c", "depth", std::int64_t{3});                       // and intermediate ones
    out.set_attribute("/", "status", std::string("complete"));                   // replaced, same type
    out.set_attribute("/", "n_ranks", std::string("many"));                      // replaced, other type
    out.set_attribute("/", "tolerance", std::int64_t{-7});
    Table table = stream_table();
    out.append(table);
    out.set_attribute("stream/results", "note", std::string("on a dataset"));
  }
  const ResultReader reader = ResultReader::open(file("a.h5"));
  EXPECT_EQ(reader.attribute_text("/", "tool_version"), "0.1.0");
  EXPECT_EQ(reader.attribute_text("/", "finished_utc"), "");
  EXPECT_EQ(reader.attribute_text("/", "status"), "complete");
  EXPECT_EQ(reader.attribute_text("/", "n_ranks"), "many");
  EXPECT_EQ(reader.attribute_int("/", "tolerance"), -7);
  EXPECT_EQ(reader.attribute_real("/", "tolerance"), -7.0);  // integers read as reals too
  EXPECT_EQ(reader.attribute_text("/provenance", "host"), "login-1 \xc3\xa9");
  EXPECT_EQ(reader.attribute_int("a/b/c", "depth"), 3);
  EXPECT_EQ(reader.attribute_text("/stream/results", "note"), "on a dataset");
  // A reader's file is untrusted input: what it lacks or holds wrongly is a
  // bad input file (exit 2), see tests/unit/bwreport_hostile_test.cpp.
  EXPECT_THROW(reader.attribute_int("/", "status"), UsageError);
  EXPECT_THROW(reader.attribute_text("/", "missing"), UsageError);
  EXPECT_THROW(reader.attribute_text("/nowhere", "x"), UsageError);
}

TEST_F(H5Test, RealAttributeKeepsFullPrecision) {
  {
    ResultFile out = ResultFile::create(file("a.h5"), false);
    out.set_attribute("/", "pi", 3.141592653589793);
  }
  EXPECT_EQ(ResultReader::open(file("a.h5")).attribute_real("/", "pi"), 3.141592653589793);
}

TEST_F(H5Test, FixedLengthStringAttributesAreReadToo) {
  write_foreign_file(file("f.h5"), "1.3");  // a fixed-length schema_version, a later minor
  EXPECT_EQ(ResultReader::open(file("f.h5")).attribute_text("/", "schema_version"), "1.3");
}

TEST_F(H5Test, TextDatasetsRoundTripAndAreReplaced) {
  std::ostringstream xml;
  xml << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE topology SYSTEM \"hwloc2.dtd\">\n<topology>\n";
  for (int i = 0; i < 200; ++i)
    xml << "  <object type=\"PU\" os_index=\"" << i << "\" cpuset=\"0x" << std::hex << (1u << (i % 32)) << std::dec
        << "\" name='pu \"" << i << "\"'/>\n";
  xml << "</topology>\n";
  ASSERT_GT(xml.str().size(), 8u * 1024);
  const std::string ini = "[survey]\ntests = stream,beff\nout = survey.h5\n";
  {
    ResultFile out = ResultFile::create(file("x.h5"), false);
    out.write_text("config", "placeholder");
    out.write_text("config", ini);  // replaced
    out.write_text("/nodes/node-1/topology_xml", xml.str());
    out.write_text("/empty", "");
  }
  const ResultReader reader = ResultReader::open(file("x.h5"));
  EXPECT_EQ(reader.read_text("config"), ini);
  EXPECT_EQ(reader.read_text("/nodes/node-1/topology_xml"), xml.str());
  EXPECT_EQ(reader.read_text("empty"), "");
}

TEST_F(H5Test, ExistsWalksNestedPathsAndListIsSorted) {
  {
    ResultFile out = ResultFile::create(file("x.h5"), false);
    out.write_text("/nodes/zeta/topology_xml", "<z/>");
    out.write_text("/nodes/alpha/topology_xml", "<a/>");
    out.write_text("/nodes/Mid/topology_xml", "<m/>");
    out.write_text("/config", "");
  }
  const ResultReader reader = ResultReader::open(file("x.h5"));
  EXPECT_TRUE(reader.exists("/"));
  EXPECT_TRUE(reader.exists("nodes/alpha/topology_xml"));
  EXPECT_FALSE(reader.exists("/nodes/beta/topology_xml"));  // a missing intermediate group
  EXPECT_FALSE(reader.exists("/config/below_a_dataset"));
  EXPECT_FALSE(reader.exists("/stream/results"));
  EXPECT_EQ(reader.list("/nodes"), (std::vector<std::string>{"Mid", "alpha", "zeta"}));
  EXPECT_EQ(reader.list("/"), (std::vector<std::string>{"config", "nodes"}));
  EXPECT_THROW(reader.list("/config"), UsageError);
  EXPECT_THROW(reader.list("/missing"), UsageError);
}

TEST_F(H5Test, AppendWithAnotherSchemaFailsAndLeavesTheTable) {
  ResultFile out = ResultFile::create(file("t.h5"), false);
  Table table = stream_table();
  add_stream_row(table, 0, "Copy", 1.0, {1.0});
  out.append(table);

  Table renamed("stream/results", {bws::int_column("rank"), bws::text_column("hostname", 16),
                                   bws::text_column("kernel", 8), bws::int_column("bytes", "B"),
                                   bws::real_column("bandwidth", "B/s")},
                "stream/times");
  Table retyped("stream/results", {bws::int_column("rank"), bws::text_column("host", 16), bws::text_column("kernel", 8),
                                   bws::real_column("bytes", "B"), bws::real_column("bandwidth", "B/s")},
                "stream/times");
  Table shorter("stream/results", {bws::int_column("rank")}, "stream/times");
  Table no_samples("stream/results", stream_table().columns());
  for (const Table* other : {&renamed, &retyped, &shorter, &no_samples}) {
    try {
      out.append(*other);
      ADD_FAILURE() << "append of another schema succeeded";
    } catch (const RuntimeFailure& e) {
      EXPECT_NE(std::string(e.what()).find("/stream/results"), std::string::npos) << e.what();
    }
  }
  out.close();
  EXPECT_EQ(ResultReader::open(file("t.h5")).read_table("stream/results").rows(), 1u);
}

TEST_F(H5Test, HdfFailuresNameTheOperationAndTheObject) {
  ResultFile out = ResultFile::create(file("t.h5"), false);
  out.write_text("/config", "x");
  try {
    out.write_text("/config/inside", "y");  // below a dataset
    ADD_FAILURE() << "no exception";
  } catch (const RuntimeFailure& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("/config/inside"), std::string::npos) << message;
    EXPECT_NE(message.find("create"), std::string::npos) << message;
  }
  Table no_columns("bad", {});
  EXPECT_THROW(out.append(no_columns), RuntimeFailure);
}

TEST_F(H5Test, ClosedFileRefusesWritesAndCloseTwiceIsHarmless) {
  ResultFile out = ResultFile::create(file("t.h5"), false);
  out.close();
  out.close();
  EXPECT_THROW(out.flush(), RuntimeFailure);
  EXPECT_THROW(out.set_attribute("/", "status", std::string("complete")), RuntimeFailure);
  ResultFile moved = ResultFile::create(file("u.h5"), false);
  ResultFile target = std::move(moved);
  target.set_attribute("/", "status", std::string("complete"));
  target.close();
  EXPECT_EQ(ResultReader::open(file("u.h5")).attribute_text("/", "status"), "complete");
}

TEST_F(H5Test, ExistingOutputNeedsOverwrite) {
  ResultFile::create(file("s.h5"), false).close();
  const std::string message = usage_error_of([&] { ResultFile::create(file("s.h5"), false); });
  EXPECT_EQ(message, "--out: '" + file("s.h5") + "' exists; use --force to overwrite it (or --out another name)");
}

TEST_F(H5Test, OverwriteReplacesTheOldFile) {
  {
    ResultFile out = ResultFile::create(file("s.h5"), false);
    out.write_text("/config", "old");
  }
  ResultFile::create(file("s.h5"), true).close();
  EXPECT_FALSE(ResultReader::open(file("s.h5")).exists("/config"));
}

TEST_F(H5Test, MissingOrUnusableDirectoryIsAUsageError) {
  const std::string missing = file("no/such");
  EXPECT_EQ(usage_error_of([&] { ResultFile::create(missing + "/s.h5", false); }),
            "--out: directory '" + missing + "' does not exist");
  std::ofstream(file("plain")) << "x";
  EXPECT_NE(usage_error_of([&] { ResultFile::create(file("plain") + "/s.h5", false); }).find("not a directory"),
            std::string::npos);
  fs::create_directory(file("sub"));
  EXPECT_NE(usage_error_of([&] { ResultFile::create(file("sub"), true); }).find("is a directory"), std::string::npos);
}

// Root passes access(W_OK) on a 0555 directory; only a read-only file system
// refuses it (EROFS), so as root the test needs a read-only mount.
std::string read_only_directory(const fs::path& scratch) {
  if (::geteuid() != 0) {
    const fs::path dir = scratch / "read_only";
    fs::create_directory(dir);
    fs::permissions(dir, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                             fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec);
    return dir.string();
  }
  // Containers mount /proc/sys read-only; otherwise any read-only mount.
  if (::access("/proc/sys", W_OK) != 0 && fs::is_directory("/proc/sys")) return "/proc/sys";
  std::ifstream mounts("/proc/self/mounts");
  std::string device, point, type, options, rest;
  while (mounts >> device >> point >> type >> options && std::getline(mounts, rest)) {
    const bool read_only = options == "ro" || options.rfind("ro,", 0) == 0;
    if (read_only && fs::is_directory(point) && ::access(point.c_str(), W_OK) != 0) return point;
  }
  return {};
}

TEST_F(H5Test, NonWritableDirectoryIsAUsageError) {
  const std::string dir = read_only_directory(dir_);
  if (dir.empty()) {
    GTEST_SKIP() << "running as root and no read-only mount to write into";
  }
  EXPECT_EQ(usage_error_of([&] { ResultFile::create(dir + "/s.h5", false); }),
            "--out: directory '" + dir + "' is not writable");
}

TEST_F(H5Test, ReaderRejectsMissingForeignAndNewerFiles) {
  EXPECT_EQ(usage_error_of([&] { ResultReader::open(file("none.h5")); }), "'" + file("none.h5") + "' does not exist");

  std::ofstream(file("text.h5")) << "[survey]\nthis is not HDF5\n";
  EXPECT_EQ(usage_error_of([&] { ResultReader::open(file("text.h5")); }),
            "'" + file("text.h5") + "' is not an HDF5 file");

  write_foreign_file(file("v3.h5"), "3.0");
  const std::string newer = usage_error_of([&] { ResultReader::open(file("v3.h5")); });
  EXPECT_NE(newer.find("3.0"), std::string::npos) << newer;
  EXPECT_NE(newer.find("1.x to 2.x"), std::string::npos) << newer;
  write_foreign_file(file("v0.h5"), "0.9");
  EXPECT_NE(usage_error_of([&] { ResultReader::open(file("v0.h5")); }).find("0.9"), std::string::npos);

  write_foreign_file(file("bare.h5"), "");
  EXPECT_NE(usage_error_of([&] { ResultReader::open(file("bare.h5")); }).find("schema_version"), std::string::npos);

  write_foreign_file(file("v1_9.h5"), "1.9");
  EXPECT_NO_THROW(ResultReader::open(file("v1_9.h5")));  // minor bumps only add
}

// The child writes, flushes and dies without closing; `die` is how. Returns
// the child's wait status.
int write_flush_and_die(const std::string& path, void (*die)()) {
  const pid_t child = ::fork();
  if (child < 0) return -1;
  if (child == 0) {
    try {
      ResultFile out = ResultFile::create(path, false);
      out.write_text("/config", "[survey]\n");
      Table table = stream_table();
      for (int r = 0; r < 100; ++r) add_stream_row(table, r, "Triad", 1e9 * r, {0.5, 0.25, 0.125});
      out.append(table);
      out.set_attribute("/", "n_ranks", std::int64_t{100});
      out.flush();
      die();
    } catch (...) {
    }
    ::_exit(3);  // the writing failed
  }
  int status = 0;
  if (::waitpid(child, &status, 0) != child) return -1;
  return status;
}

void expect_flushed_content(const std::string& path) {
  const ResultReader reader = ResultReader::open(path);
  EXPECT_EQ(reader.attribute_text("/", "status"), "running");
  EXPECT_EQ(reader.attribute_int("/", "n_ranks"), 100);
  EXPECT_EQ(reader.read_text("/config"), "[survey]\n");
  const Table back = reader.read_table("stream/results");
  ASSERT_EQ(back.rows(), 100u);
  EXPECT_EQ(back.get_double(99, "bandwidth"), 99e9);
  EXPECT_EQ(back.samples(99), (std::vector<double>{0.5, 0.25, 0.125}));
}

TEST_F(H5Test, FileIsReadableAfterFlushWhenTheWriterIsKilled) {
  const int status = write_flush_and_die(file("killed.h5"), [] { ::kill(::getpid(), SIGKILL); });
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "wait status " << status;
  expect_flushed_content(file("killed.h5"));
  if (run_shell("command -v h5dump >/dev/null 2>&1") == 0) {
    EXPECT_EQ(run_shell("h5dump -H '" + file("killed.h5") + "' >/dev/null 2>&1"), 0);
  }
}

TEST_F(H5Test, FileIsReadableAfterFlushWhenTheWriterExitsWithoutClosing) {
  const int status = write_flush_and_die(file("exited.h5"), [] { ::_exit(0); });
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "wait status " << status;
  expect_flushed_content(file("exited.h5"));
}

// h5py, the analysis side's reader, must see a numpy structured array.
TEST_F(H5Test, H5pyReadsTablesAsStructuredArraysAndH5dumpParsesTheFile) {
  if (run_shell("/usr/bin/python3 -c 'import h5py' >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "/usr/bin/python3 cannot import h5py";
  }
  Table table = stream_table();
  add_stream_row(table, 0, "Copy", 1.5e10, {0.3, 0.1});
  add_stream_row(table, 1, "Triad", 2.5e10, {0.4, 0.2, 0.1});
  {
    ResultFile out = ResultFile::create(file("py.h5"), false);
    out.append(table);
    out.write_text("/config", "[survey]\n");
  }
  const std::string script = file("check.py");
  std::ofstream(script) << R"(import sys, math, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
assert f.attrs["schema_version"] == "2.0", f.attrs["schema_version"]
assert f.attrs["status"] == "running"
r = f["stream/results"][...]
assert r.dtype.names == ("rank", "host", "kernel", "bytes", "bandwidth"), r.dtype.names
assert r.dtype["rank"] == np.dtype("<i8") and r.dtype["bandwidth"] == np.dtype("<f8"), r.dtype
assert r.dtype["host"] == np.dtype("S16") and r.dtype["kernel"] == np.dtype("S8"), r.dtype
assert list(r["rank"]) == [0, 1]
assert [k.decode() for k in r["kernel"]] == ["Copy", "Triad"]
assert r["host"][1] == b"node-1"
assert list(r["bandwidth"] / 1e9) == [15.0, 25.0]
assert list(f["stream/results"].attrs["column_units"]) == ["", "", "", "B", "B/s"]
assert f["stream/results"].attrs["samples"] == "/stream/times"
t = f["stream/times"][...]
assert t.shape == (2, 3) and t[1, 2] == 0.1 and math.isnan(t[0, 2]), t
assert f["config"].asstr()[()] == "[survey]\n"
)";
  EXPECT_EQ(run_shell("/usr/bin/python3 '" + script + "' '" + file("py.h5") + "'"), 0);
  if (run_shell("command -v h5dump >/dev/null 2>&1") == 0) {
    EXPECT_EQ(run_shell("h5dump -H '" + file("py.h5") + "' >/dev/null"), 0);
  }
}

// Files from other tools (a merge script, say): narrower numbers, a
// variable-length string column and no units still read.
TEST_F(H5Test, ReaderAcceptsCompoundTablesWrittenByH5py) {
  if (run_shell("/usr/bin/python3 -c 'import h5py' >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "/usr/bin/python3 cannot import h5py";
  }
  const std::string script = file("write.py");
  std::ofstream(script) << R"(import sys, h5py, numpy as np
dt = np.dtype([("n", "<i4"), ("x", "<f4"), ("tag", "S5"), ("name", h5py.string_dtype())])
a = np.array([(1, 0.5, b"ab", "alpha"), (-2, 2.0, b"abcde", "b\u00e9ta")], dtype=dt)
with h5py.File(sys.argv[1], "w") as f:
    f.attrs["schema_version"] = "1.0"
    f.create_dataset("merged/results", data=a)
)";
  ASSERT_EQ(run_shell("/usr/bin/python3 '" + script + "' '" + file("merged.h5") + "'"), 0);
  const Table back = ResultReader::open(file("merged.h5")).read_table("merged/results");
  ASSERT_EQ(back.columns().size(), 4u);
  EXPECT_EQ(back.columns()[0].type, bws::ColumnType::Int64);
  EXPECT_EQ(back.columns()[1].type, bws::ColumnType::Float64);
  EXPECT_EQ(back.columns()[2].width, 5u);
  EXPECT_EQ(back.columns()[3].type, bws::ColumnType::String);
  ASSERT_EQ(back.rows(), 2u);
  EXPECT_EQ(back.get_int(1, "n"), -2);
  EXPECT_EQ(back.get_double(0, "x"), 0.5);
  EXPECT_EQ(back.get_string(1, "tag"), "abcde");
  EXPECT_EQ(back.get_string(1, "name"), "b\xc3\xa9ta");
  EXPECT_FALSE(back.has_samples());
}

}  // namespace
