// The journal driver under the result file: a step that fails half-way
// (a write error, or a rollback asked for) leaves the file byte for byte as
// it was at the step's mark, readable, and its status can still be written.
#include <gtest/gtest.h>

#include "TestSupport.hpp"

#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "core/Errors.hpp"
#include "core/ResultColumns.hpp"
#include "h5/JournalDriver.hpp"
#include "h5/ResultFile.hpp"

using namespace bws;
namespace fs = std::filesystem;

namespace {

using JournalTest = test::TempDirTest;

Table rows(const std::string& path, int n, int first = 0) {
  Table t(path, {int_column("rank"), real_column("bandwidth", "B/s")}, path + "_times");
  for (int i = 0; i < n; ++i) t.add_row({{"rank", first + i}, {"bandwidth", 0.5 * (first + i)}}, {1.0, 2.0, 3.0});
  return t;
}

std::string bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_F(JournalTest, ARollbackRestoresTheBytesOfTheMark) {
  {
    h5::ResultFile f = h5::ResultFile::create(file("a.h5"), false);
    f.append(rows("stream/results", 5));
    f.set_attribute("/", "completed_phases", std::string("stream"));
  }
  const std::string before = bytes_of(file("a.h5"));
  {
    h5::ResultFile f = h5::ResultFile::open_existing(file("a.h5"), "--resume");
    // Rows into an existing table, a new table of thousands of rows, a new
    // attribute: metadata rewritten in place and the file grown.
    f.append(rows("stream/results", 7, 5));
    f.append(rows("beff/results", 5000));
    f.set_attribute("/", "completed_phases", std::string("stream,beff"));
    f.flush();
    EXPECT_GT(fs::file_size(file("a.h5")), before.size());
    f.roll_back();
    f.close();
  }
  EXPECT_EQ(bytes_of(file("a.h5")), before);
  const auto r = h5::ResultReader::open(file("a.h5"));
  EXPECT_EQ(r.read_table("stream/results").rows(), 5u);
  EXPECT_EQ(r.read_table("stream/results").samples(4), (std::vector<double>{1.0, 2.0, 3.0}));
  EXPECT_FALSE(r.exists("/beff/results"));
  EXPECT_EQ(r.attribute_text("/", "completed_phases"), "stream");
}

TEST_F(JournalTest, AWriteErrorLeavesTheEarlierStepsAndTheStatusCanBeWritten) {
  {
    h5::ResultFile f = h5::ResultFile::create(file("b.h5"), false);
    f.append(rows("stream/results", 3));
    f.flush();
    f.mark();
    f.fail_writes_for_test(EIO);
    // HDF5 caches small writes: the error comes at the latest with the flush.
    const std::string error = [&] {
      try {
        f.append(rows("beff/results", 20000));
        f.set_attribute("/", "running_phase", std::string("beff"));
        f.flush();
      } catch (const RuntimeFailure& e) {
        return std::string(e.what());
      }
      return std::string();
    }();
    EXPECT_NE(error.find("Input/output error"), std::string::npos) << error;
    f.roll_back();
    const std::uintmax_t restored = fs::file_size(file("b.h5"));
    f.set_attribute("/", "status", std::string("aborted"));
    f.set_attribute("/", "abort_reason", std::string("beff: " + error));
    f.close();
    // The status fits in the reserve the rollback gave back.
    EXPECT_LE(fs::file_size(file("b.h5")), restored + h5::kJournalReserveBytes);
  }
  const auto r = h5::ResultReader::open(file("b.h5"));
  EXPECT_EQ(r.attribute_text("/", "status"), "aborted");
  EXPECT_EQ(r.read_table("stream/results").rows(), 3u);
  EXPECT_FALSE(r.exists("/beff/results"));
  EXPECT_FALSE(r.has_attribute("/", "running_phase"));
}

TEST_F(JournalTest, TheReserveIsGivenBackWhenTheFileIsClosed) {
  std::uintmax_t marked = 0;
  {
    h5::ResultFile f = h5::ResultFile::create(file("c.h5"), false);
    f.append(rows("stream/results", 3));
    f.flush();
    f.mark();
    marked = fs::file_size(file("c.h5"));
  }
  EXPECT_LE(fs::file_size(file("c.h5")) + h5::kJournalReserveBytes, marked);
  EXPECT_EQ(h5::ResultReader::open(file("c.h5")).read_table("stream/results").rows(), 3u);
}

TEST_F(JournalTest, AFileClosedAfterAFailedWriteIsBackAtItsMark) {
  {
    h5::ResultFile f = h5::ResultFile::create(file("d.h5"), false);
    f.append(rows("stream/results", 2));
    f.flush();
    f.mark();
    f.fail_writes_for_test(ENOSPC);
    EXPECT_THROW(
        {
          f.append(rows("stream/results", 3000, 2));
          f.flush();
        },
        RuntimeFailure);
  }  // closed without a rollback
  const auto r = h5::ResultReader::open(file("d.h5"));
  EXPECT_EQ(r.read_table("stream/results").rows(), 2u);
  EXPECT_EQ(r.attribute_text("/", "status"), "running");
}
