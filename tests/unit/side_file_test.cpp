// Side files (--pmbw.stats) are only checked at
// planning time, made when the run starts, appended on a resume, and hold
// whole phases only; no output is ever one of the inputs (same_file).
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "TestSupport.hpp"
#include "core/Errors.hpp"
#include "core/FileIdentity.hpp"
#include "core/SideFile.hpp"

using namespace bws;
namespace fs = std::filesystem;

namespace {

class SideFileTest : public test::TempDirTest {
 protected:
  SideFileTest() : TempDirTest("bws_side_file_test") {}
  static std::string text_of(const std::string& path) {
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }
  static void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }
  Config config(const std::string& out, bool force, const std::string& resume = "") const {
    return Config({{"out", out}, {"force", force ? "true" : "false"}, {"resume", resume}}, {});
  }
};

}  // namespace

TEST_F(SideFileTest, TheChecksCreateNothing) {
  const std::string stats = file("stats.txt");
  check_side_file("--pmbw.stats", stats, config(file("s.h5"), false));
  EXPECT_FALSE(fs::exists(stats));
  write(stats, "old\n");
  EXPECT_EQ(test::usage_error_of([&] { check_side_file("--pmbw.stats", stats, config(file("s.h5"), false)); }),
            "--pmbw.stats: '" + stats + "' exists; allowed: a new path, or --force to replace it");
  check_side_file("--pmbw.stats", stats, config(file("s.h5"), true));           // --force: replaced at the start
  check_side_file("--pmbw.stats", stats, config(file("s.h5"), false, "s.h5"));  // a resume appends
  EXPECT_EQ(text_of(stats), "old\n");
  EXPECT_NE(test::usage_error_of([&] { check_side_file("--pmbw.stats", file("no/such/x"), config("s.h5", false)); })
                .find("--pmbw.stats: cannot write"),
            std::string::npos);
  EXPECT_NE(test::usage_error_of([&] { check_side_file("--pmbw.stats", dir_.string(), config("s.h5", false)); })
                .find("is a directory"),
            std::string::npos);
  // The result file itself, under any name.
  write(file("s.h5"), "result");
  fs::create_symlink(file("s.h5"), file("link.txt"));
  EXPECT_EQ(test::usage_error_of([&] { check_side_file("--pmbw.stats", file("link.txt"), config(file("s.h5"), true)); }),
            "--pmbw.stats: '" + file("link.txt") + "' is the survey's result file; allowed: another file");
  EXPECT_EQ(text_of(file("s.h5")), "result");
}

TEST_F(SideFileTest, AFreshRunReplacesAResumeAppendsWholePhasesOnly) {
  const std::string stats = file("stats.txt");
  write(stats, "from an earlier survey\n");
  {
    SideFile side("--pmbw.stats", stats);
    side.start(ExportStart::Fresh);  // --force
    EXPECT_EQ(text_of(stats), "");
    side.write_line("A1");
    side.write_line("A2");
    EXPECT_EQ(text_of(stats), "");  // staged until the phase is complete
    side.finish(true);
    EXPECT_EQ(text_of(stats), "A1\nA2\n");
    EXPECT_FALSE(fs::exists(side.staging_path()));
  }
  {  // a resumed run: the phase is cut short, its lines stay apart
    SideFile side("--pmbw.stats", stats);
    side.start(ExportStart::Resume);
    side.write_line("B1");
    side.finish(false);
    EXPECT_EQ(text_of(stats), "A1\nA2\n");
    EXPECT_EQ(text_of(side.staging_path()), "B1\n");
  }
  {  // the next resume measures the phase again: no B1 twice
    SideFile side("--pmbw.stats", stats);
    side.start(ExportStart::Resume);
    EXPECT_FALSE(fs::exists(side.staging_path()));
    side.write_line("B1");
    side.write_line("B2");
    side.finish(true);
    side.finish(true);  // nothing staged: nothing happens
    EXPECT_EQ(text_of(stats), "A1\nA2\nB1\nB2\n");
  }
}

TEST_F(SideFileTest, SameFileSeesLinksAndSpellings) {
  write(file("a.h5"), "a");
  write(file("b.h5"), "b");
  fs::create_symlink(file("a.h5"), file("soft.h5"));
  fs::create_hard_link(file("a.h5"), file("hard.h5"));
  EXPECT_TRUE(same_file(file("a.h5"), file("a.h5")));
  EXPECT_TRUE(same_file(file("a.h5"), (dir_ / "." / "a.h5").string()));
  EXPECT_TRUE(same_file(file("soft.h5"), file("a.h5")));
  EXPECT_TRUE(same_file(file("hard.h5"), file("a.h5")));
  EXPECT_FALSE(same_file(file("a.h5"), file("b.h5")));
  EXPECT_FALSE(same_file(file("new.h5"), file("a.h5")));
  EXPECT_TRUE(same_file(file("new.h5"), (dir_ / "x" / ".." / "new.h5").string()));
}

// A side file or its staging file that is not a regular text file (a FIFO,
// a device, a link, a binary file) is refused at planning and at start,
// --force or not, and left as it is.
TEST_F(SideFileTest, OnlyRegularTextFilesOfOursAreReplacedOrAppendedTo) {
  ASSERT_EQ(::mkfifo(file("fifo.txt").c_str(), 0600), 0);
  fs::create_symlink(file("elsewhere.txt"), file("link.txt"));
  write(file("binary.txt"), std::string("\x89HDF\0\0", 7));
  for (const char* name : {"fifo.txt", "link.txt", "binary.txt"})
    for (const bool force : {false, true}) {
      EXPECT_NE(test::usage_error_of([&] { check_side_file("--pmbw.stats", file(name), config(file("s.h5"), force)); })
                    .find("--pmbw.stats: '" + file(name) + "'"),
                std::string::npos)
          << name;
      EXPECT_THROW(SideFile("--pmbw.stats", file(name)).start(ExportStart::Fresh), UsageError) << name;
    }
  EXPECT_THROW(SideFile("--pmbw.stats", file("link.txt")).start(ExportStart::Resume), UsageError);
  EXPECT_TRUE(fs::is_fifo(file("fifo.txt")));
  EXPECT_TRUE(fs::is_symlink(file("link.txt")));
  EXPECT_FALSE(fs::exists(file("elsewhere.txt")));
  EXPECT_EQ(text_of(file("binary.txt")).size(), 7u);
  // The staging file: never removed when it is not ours.
  ASSERT_EQ(::mkfifo(file("stats.txt.part").c_str(), 0600), 0);
  EXPECT_NE(test::usage_error_of([&] { check_side_file("--pmbw.stats", file("stats.txt"), config(file("s.h5"), true)); })
                .find("is a FIFO"),
            std::string::npos);
  EXPECT_THROW(SideFile("--pmbw.stats", file("stats.txt")).start(ExportStart::Resume), UsageError);
  EXPECT_TRUE(fs::is_fifo(file("stats.txt.part")));
}
