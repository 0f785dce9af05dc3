// What --resume and the merged files rest on: the row marks of a step and
// shrinking a file back to them, copying a file into a group, and the
// command line of a resume (the stored configuration, checked).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <functional>

#include "TestSupport.hpp"
#include "core/ResultColumns.hpp"
#include "h5/ResultFile.hpp"
#include "run/CommandLine.hpp"
#include "run/ResumeState.hpp"

using namespace bws;
using namespace bws::run;
namespace fs = std::filesystem;

namespace {

class ResumeTest : public test::TempDirTest {
 protected:
  ResumeTest() : TempDirTest("bws_resume_test") {}
};

Table rows(const std::string& path, int n, int first = 0) {
  Table t(path, {int_column("rank"), text_column("host", 8), real_column("bandwidth", "B/s")}, path + "_times");
  for (int i = 0; i < n; ++i)
    t.add_row({{"rank", first + i}, {"host", "h"}, {"bandwidth", 1.0 * (first + i)}}, {1.0, 2.0});
  return t;
}

CommandLine parse_resume(std::vector<const char*> args, const std::string& stored) {
  args.insert(args.begin(), "bwsurvey");
  return parse_command_line(
      static_cast<int>(args.size()), args.data(), [](const std::string&) { return std::string(); },
      [&](const std::string&) { return stored; });
}

}  // namespace

TEST(ResumeState, RowCountsRoundTrip) {
  const std::map<std::string, std::uint64_t> counts = {{"/a/b", 3}, {"/checks", 0}, {"/x", 123456789012ull}};
  EXPECT_EQ(encode_row_counts(counts), "/a/b=3;/checks=0;/x=123456789012");
  EXPECT_EQ(decode_row_counts(encode_row_counts(counts)), counts);
  EXPECT_TRUE(decode_row_counts("").empty());
}

TEST_F(ResumeTest, AnUnfinishedStepIsDroppedAndFinishedOnesKept) {
  {
    h5::ResultFile f = h5::ResultFile::create(file("s.h5"), false);
    f.set_attribute("/", "n_ranks", std::int64_t{2});
    f.set_attribute("/", "completed_phases", std::string());
    mark_step_start(f, "setup");
    f.append(rows("ranks/table", 2));
    f.set_attribute("/", "setup_complete", std::int64_t{1});
    mark_step_start(f, "stream");
    f.append(rows("stream/results", 4));
    f.set_attribute("/", "completed_phases", std::string("stream"));
    mark_step_start(f, "beff");
    f.append(rows("stream/results", 2, 100));  // rows a later phase may add to an earlier table
    f.append(rows("beff/results", 3));
    f.flush();
  }  // "killed" here: beff never completed
  {
    const ResumeState state = inspect_resume(file("s.h5"), 2, {"ranks/table", "stream/results"});
    EXPECT_EQ(state.completed, std::vector<std::string>{"stream"});
    EXPECT_TRUE(state.setup_complete);
    EXPECT_EQ(state.rank_hosts, (std::vector<std::string>{"h", "h"}));
    ASSERT_TRUE(state.rows_to_keep.has_value());
    EXPECT_EQ(test::usage_error_of([&] { inspect_resume(file("s.h5"), 3, {}); }),
              "--resume: '" + file("s.h5") + "' was measured by 2 ranks; run the resume with as many (this run has 3)");
    h5::ResultFile f = h5::ResultFile::open_existing(file("s.h5"), "--resume");
    prepare_resume(f, state);
  }
  const auto r = h5::ResultReader::open(file("s.h5"));
  EXPECT_EQ(r.read_table("stream/results").rows(), 4u);
  EXPECT_EQ(r.read_table("stream/results").samples(3), (std::vector<double>{1.0, 2.0}));
  EXPECT_FALSE(r.exists("/beff/results"));
  EXPECT_FALSE(r.exists("/beff/results_times"));
  EXPECT_EQ(r.read_table("ranks/table").rows(), 2u);
}

TEST_F(ResumeTest, ACompleteFileIsNotResumed) {
  {
    h5::ResultFile f = h5::ResultFile::create(file("c.h5"), false);
    f.set_attribute("/", "status", std::string("complete"));
  }
  EXPECT_EQ(test::usage_error_of([&] { inspect_resume(file("c.h5"), 1, {}); }),
            "--resume: '" + file("c.h5") + "' is complete; there is nothing to resume");
  EXPECT_EQ(test::usage_error_of([&] { h5::ResultFile::open_existing(file("none.h5"), "--resume"); }),
            "--resume: '" + file("none.h5") + "' does not exist; allowed: a regular file");
}

TEST_F(ResumeTest, AFileIsCopiedWholeIntoAGroup) {
  {
    h5::ResultFile f = h5::ResultFile::create(file("run.h5"), false);
    f.set_attribute("/", "n_nodes", std::int64_t{4});
    f.append(rows("beff/summary", 1));
  }
  {
    h5::ResultFile m = h5::ResultFile::create(file("m.h5"), false);
    m.copy_file_into(file("run.h5"), "/runs/01-n4");
  }
  const auto r = h5::ResultReader::open(file("m.h5"));
  EXPECT_EQ(r.attribute_int("/runs/01-n4", "n_nodes"), 4);
  EXPECT_EQ(r.read_table("runs/01-n4/beff/summary").rows(), 1u);
  EXPECT_EQ(r.table_paths("/runs"), (std::vector<std::string>{"runs/01-n4/beff/summary"}));
}

TEST(ResumeCommandLine, TheStoredConfigurationIsUsedAndChecked) {
  const std::string stored = "tests = stream\nout = old.h5\nquick = true\n[stream]\nelements = 1M\n";
  const CommandLine cl = parse_resume({"--resume", "f.h5"}, stored);
  EXPECT_EQ(cl.config.get("tests"), "stream");
  EXPECT_EQ(cl.config.get("stream.elements"), "1M");
  EXPECT_TRUE(cl.config.flag("quick"));
  EXPECT_EQ(cl.config.get("out"), "f.h5");
  // Options that agree are fine; others are named.
  EXPECT_EQ(parse_resume({"--resume", "f.h5", "--stream.elements", "1M", "--quick"}, stored).config.get("tests"),
            "stream");
  EXPECT_EQ(test::usage_error_of([&] { parse_resume({"--resume", "f.h5", "--stream.elements", "2M"}, stored); }),
            "--resume: --stream.elements is '2M' here but '1M' in 'f.h5'; a resumed survey keeps its configuration "
            "(leave the option out)");
  EXPECT_EQ(test::usage_error_of([&] { parse_resume({"--resume", "f.h5", "--out", "x.h5"}, stored); }),
            "--resume: the results go to 'f.h5' itself; leave out --out");
  EXPECT_EQ(test::usage_error_of([&] { parse_resume({"--resume", "f.h5", "--config", "c.ini"}, stored); }),
            "--resume: the configuration is the one stored in 'f.h5'; leave out --config");
  EXPECT_EQ(test::usage_error_of([&] { parse_resume({"--resume", "f.h5"}, "bogus = 1\n"); }),
            "--resume: 'f.h5' was written with option 'bogus', which this bwsurvey does not have");
}

TEST_F(ResumeTest, ADamagedFileIsOneUsageErrorNamingIt) {
  // Each root attribute --resume reads, of another type or malformed.
  const std::vector<std::function<void(h5::ResultFile&)>> damages = {
      [](h5::ResultFile& f) { f.set_attribute("/", "n_ranks", std::string("two")); },
      [](h5::ResultFile& f) { f.set_attribute("/", "status", std::int64_t{1}); },
      [](h5::ResultFile& f) { f.set_attribute("/", "completed_phases", 2.5); },
      [](h5::ResultFile& f) { f.set_attribute("/", "setup_complete", std::string("yes")); },
      [](h5::ResultFile& f) { f.set_attribute("/", "resumes", std::string("many")); },
      [](h5::ResultFile& f) { f.set_attribute("/", "phase_start_rows", std::string("/a=1;garbage")); },
      [](h5::ResultFile& f) { f.set_attribute("/", "phase_start_rows", std::string("/a=99999999999999999999999")); },
      [](h5::ResultFile& f) { f.set_attribute("/", "phase_start_rows", std::int64_t{3}); },
  };
  for (std::size_t i = 0; i < damages.size(); ++i) {
    const std::string path = file(std::string("d").append(std::to_string(i)) + ".h5");
    {
      h5::ResultFile f = h5::ResultFile::create(path, false);
      f.set_attribute("/", "n_ranks", std::int64_t{1});
      f.set_attribute("/", "completed_phases", std::string());
      f.set_attribute("/", "running_phase", std::string("stream"));
      f.set_attribute("/", "phase_start_rows", std::string("/stream/results=0"));
      f.set_attribute("/", "setup_complete", std::int64_t{1});
      damages[i](f);
    }
    const std::string message = test::usage_error_of([&] { inspect_resume(path, 1, {}); });
    EXPECT_EQ(message.rfind("--resume: '" + path + "'", 0), 0u) << i << ": " << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
  // A table the resume reads back whose column has another type.
  const std::string path = file("table.h5");
  {
    h5::ResultFile f = h5::ResultFile::create(path, false);
    f.set_attribute("/", "n_ranks", std::int64_t{1});
    f.set_attribute("/", "completed_phases", std::string());
    f.set_attribute("/", "setup_complete", std::int64_t{1});
    Table t("ranks/table", {text_column("rank", 8), text_column("host", 8)});
    t.add_row({{"rank", std::string("zero")}, {"host", std::string("h")}});
    f.append(t);
  }
  const std::string message = test::usage_error_of([&] { inspect_resume(path, 1, {}); });
  EXPECT_EQ(message.rfind("--resume: '" + path + "' cannot be resumed", 0), 0u) << message;
}
