// The HDF5 result file: round trips through ResultFile and ResultReader,
// attributes and text datasets, and the usage errors of --out.
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "H5TestSupport.hpp"

namespace {

TEST_F(H5Test, SchemaVersionIsMajorDotMinor) { EXPECT_EQ(bws::h5::schema_version(), "3.0"); }

TEST_F(H5Test, CreateSetsSchemaVersionAndRunningStatus) {
  ResultFile::create(file("a.h5"), false).close();
  const ResultReader reader = ResultReader::open(file("a.h5"));
  EXPECT_EQ(reader.attribute_text("/", "schema_version"), "3.0");
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
  EXPECT_EQ(message, "--out: '" + file("s.h5") + "' exists; allowed: a new path, or --force to replace it");
}

// --force replaces only a file bwsurvey recognises as its own (HDF5, or
// empty); a device, a FIFO, a link or a directory is refused whatever
// --force says, and left as it is.
TEST_F(H5Test, OverwriteReplacesOnlyRegularFilesOfOurs) {
  std::ofstream(file("notes.txt")) << "a user's notes\n";
  EXPECT_NE(usage_error_of([&] { ResultFile::create(file("notes.txt"), true); }).find("is not an HDF5 file"),
            std::string::npos);
  EXPECT_EQ(bws::test::slurp(file("notes.txt")), "a user's notes\n");
  std::ofstream(file("empty.h5")).close();
  ResultFile::create(file("empty.h5"), true).close();
  EXPECT_EQ(ResultReader::open(file("empty.h5")).attribute_text("/", "status"), "running");
  ASSERT_EQ(::mkfifo(file("fifo.h5").c_str(), 0600), 0);
  EXPECT_NE(usage_error_of([&] { ResultFile::create(file("fifo.h5"), true); }).find("is a FIFO"), std::string::npos);
  EXPECT_TRUE(fs::is_fifo(file("fifo.h5")));
  fs::create_symlink(file("empty.h5"), file("link.h5"));
  EXPECT_NE(usage_error_of([&] { ResultFile::create(file("link.h5"), true); }).find("is a symbolic link"),
            std::string::npos);
  EXPECT_TRUE(fs::is_symlink(file("link.h5")));
  if (::mknod(file("full").c_str(), S_IFCHR | 0666, ::makedev(1, 7)) == 0) {  // root only: /dev/full's numbers
    EXPECT_NE(usage_error_of([&] { ResultFile::create(file("full"), true); }).find("is a character device"),
              std::string::npos);
    EXPECT_TRUE(fs::is_character_file(file("full")));
  }
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
  EXPECT_NE(usage_error_of([&] { ResultFile::create(missing + "/s.h5", false); })
                .find("--out: the directory of '" + missing + "/s.h5' does not exist"),
            std::string::npos);
  std::ofstream(file("plain")) << "x";
  EXPECT_NE(usage_error_of([&] { ResultFile::create(file("plain") + "/s.h5", false); }).find("--out: the directory of"),
            std::string::npos);
  fs::create_directory(file("sub"));
  EXPECT_NE(usage_error_of([&] { ResultFile::create(file("sub"), true); }).find("is a directory"), std::string::npos);
}


}  // namespace
