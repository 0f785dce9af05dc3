// lib/core/FileGuard: what is refused, what is kept, what is left behind,
// on files, FIFOs, sockets and devices made in the test's own directory.
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "TestSupport.hpp"
#include "core/Errors.hpp"
#include "core/FileGuard.hpp"

namespace fs = std::filesystem;
using bws::test::expect_one_line_with;
using bws::test::slurp;
using bws::test::usage_error_of;

namespace {

class FileGuardTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("bws-file-guard-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  void write(const std::string& name, const std::string& bytes) const {
    std::ofstream(dir_ / name, std::ios::binary) << bytes;
  }
  // Everything in the directory, names sorted: nothing may be left behind.
  std::vector<std::string> listing() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir_)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }
  fs::path dir_;
};

const std::string kHdf5Signature("\x89HDF\r\n\x1a\n", 8);

TEST_F(FileGuardTest, InputsThatAreNotRegularFilesAreRefusedWithoutBlocking) {
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  ASSERT_EQ(::mknod(path("null").c_str(), S_IFCHR | 0600, ::makedev(1, 3)), 0);
  fs::create_directory(dir_ / "sub");
  fs::create_symlink(dir_ / "fifo", dir_ / "link-to-fifo");
  const auto start = std::chrono::steady_clock::now();
  expect_one_line_with(usage_error_of([&] { bws::read_input_file("--links.topology", path("fifo")); }), "a FIFO");
  expect_one_line_with(usage_error_of([&] { bws::read_input_file("--config", path("null")); }), "a character device");
  expect_one_line_with(usage_error_of([&] { bws::read_input_file("--config", path("sub")); }), "a directory");
  expect_one_line_with(usage_error_of([&] { bws::read_input_file("--config", path("link-to-fifo")); }), "a FIFO");
  expect_one_line_with(usage_error_of([&] { bws::read_input_file("--config", path("none")); }), "does not exist");
  expect_one_line_with(usage_error_of([&] { bws::require_regular_input("FILE", path("fifo")); }), "FILE: ");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));  // nothing waited for a writer
  EXPECT_TRUE(fs::exists(dir_ / "null"));
}

TEST_F(FileGuardTest, InputsAreReadWithinTheirBound) {
  write("small", "abc\n");
  EXPECT_EQ(bws::read_input_file("--config", path("small"), 4), "abc\n");
  write("binary", std::string("a = 1\n\0\xff", 8));
  expect_one_line_with(usage_error_of([&] { bws::read_input_file("--config", path("binary")); }),
                       "NUL byte at offset 6");
  expect_one_line_with(usage_error_of([&] { bws::read_input_file("--config", path("small"), 3); }), "larger than 3 bytes");
  // A sparse file declares 1 GiB and holds nothing: refused by its size, never read.
  { std::ofstream(dir_ / "sparse"); }
  fs::resize_file(dir_ / "sparse", std::uintmax_t{1} << 30);
  expect_one_line_with(usage_error_of([&] { bws::read_input_file("--config", path("sparse")); }), "larger than 64 MiB");
}

TEST_F(FileGuardTest, OutputsThatAreNotRegularFilesAreRefusedEvenWithForce) {
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  ASSERT_EQ(::mknod(path("full").c_str(), S_IFCHR | 0600, ::makedev(1, 7)), 0);
  fs::create_directory(dir_ / "sub");
  write("survey.h5", kHdf5Signature + "rest");
  fs::create_symlink(dir_ / "survey.h5", dir_ / "link.h5");
  const int sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  const std::string socket_path = path("sock");
  ASSERT_LT(socket_path.size(), sizeof address.sun_path);
  std::copy(socket_path.begin(), socket_path.end(), address.sun_path);
  ASSERT_EQ(::bind(sock, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  const bws::OutputRules rules{"--out", true, {}, bws::OwnFile::Hdf5};
  for (const auto& [name, noun] : std::vector<std::pair<std::string, std::string>>{
           {"fifo", "a FIFO"}, {"full", "a character device"}, {"sub", "a directory"},
           {"link.h5", "a symbolic link"}, {"sock", "a socket"}}) {
    // Captured by name: Clang 14 cannot capture a structured binding.
    const std::string message = usage_error_of([&, &file_name = name] { bws::AtomicFile file(path(file_name), rules); });
    expect_one_line_with(message, "--out: ");
    expect_one_line_with(message, noun);
  }
  ::close(sock);
  EXPECT_EQ(listing(), (std::vector<std::string>{"fifo", "full", "link.h5", "sock", "sub", "survey.h5"}));
  EXPECT_EQ(fs::status(dir_ / "full").type(), fs::file_type::character);
}

TEST_F(FileGuardTest, AnOutputIsNeverAnInputThroughAnyLink) {
  write("in.h5", kHdf5Signature);
  fs::create_symlink(dir_ / "in.h5", dir_ / "alias.h5");
  fs::create_hard_link(dir_ / "in.h5", dir_ / "hard.h5");
  const bws::OutputRules rules{"--out", true, {path("alias.h5")}, bws::OwnFile::Hdf5};
  expect_one_line_with(usage_error_of([&] { bws::check_output_file(path("hard.h5"), rules); }), "is the input");
  expect_one_line_with(usage_error_of([&] { bws::check_output_file(path("in.h5"), rules); }), "is the input");
  expect_one_line_with(usage_error_of([&] { bws::check_output_file(dir_.string() + "/./in.h5", rules); }),
                       "is the input");
  EXPECT_EQ(slurp(dir_ / "in.h5"), kHdf5Signature);
}

TEST_F(FileGuardTest, ForceReplacesOnlyFilesOfOurOwn) {
  write("notes.txt", "my notes\n");
  write("old.h5", std::string(512, 'x') + kHdf5Signature);  // behind a user block
  write("empty", "");
  const bws::OutputRules hdf5{"--out", true, {}, bws::OwnFile::Hdf5};
  expect_one_line_with(usage_error_of([&] { bws::check_output_file(path("notes.txt"), hdf5); }), "is not an HDF5 file");
  EXPECT_EQ(usage_error_of([&] { bws::check_output_file(path("old.h5"), hdf5); }), "(no UsageError)");
  EXPECT_EQ(usage_error_of([&] { bws::check_output_file(path("empty"), hdf5); }), "(no UsageError)");
  write("binary.csv", std::string("a\0b", 3));
  const bws::OutputRules text{"--csv", true, {}, bws::OwnFile::Text};
  expect_one_line_with(usage_error_of([&] { bws::check_output_file(path("binary.csv"), text); }), "not a text file");
  write("old.png", std::string("\x89PNG\r\n\x1a\n", 8) + "IHDR");
  const bws::OutputRules png{"--plot", true, {}, bws::OwnFile::Png};
  EXPECT_EQ(usage_error_of([&] { bws::check_output_file(path("old.png"), png); }), "(no UsageError)");
  expect_one_line_with(usage_error_of([&] { bws::check_output_file(path("notes.txt"), png); }), "is not a PNG image");
  const bws::OutputRules no_force{"--csv", false, {}, bws::OwnFile::Text};
  expect_one_line_with(usage_error_of([&] { bws::check_output_file(path("notes.txt"), no_force); }), "--force");
  EXPECT_EQ(slurp(dir_ / "notes.txt"), "my notes\n");
}

TEST_F(FileGuardTest, AnAtomicFileAppearsWholeOrNotAtAll) {
  write("out.ini", "old\n");
  {
    bws::AtomicFile file(path("out.ini"), {"--out", true, {}, bws::OwnFile::Text});
    file.stream() << "new\n";
    EXPECT_EQ(slurp(dir_ / "out.ini"), "old\n");  // not yet
    EXPECT_EQ(listing().size(), 2u);              // the scratch file beside it
  }  // not committed: the scratch file goes, the old file stays
  EXPECT_EQ(listing(), std::vector<std::string>{"out.ini"});
  EXPECT_EQ(slurp(dir_ / "out.ini"), "old\n");
  bws::AtomicFile file(path("out.ini"), {"--out", true, {}, bws::OwnFile::Text});
  file.stream() << "new\n";
  file.commit();
  EXPECT_EQ(slurp(dir_ / "out.ini"), "new\n");
  EXPECT_EQ(listing(), std::vector<std::string>{"out.ini"});
}

TEST_F(FileGuardTest, ALinkPlantedAfterTheCheckIsReplacedNotWrittenThrough) {
  write("survey.h5", "survey");
  bws::AtomicFile file(path("index.html"), {"-o", false, {path("survey.h5")}, bws::OwnFile::Text});
  file.stream() << "<html>";
  fs::create_symlink(dir_ / "survey.h5", dir_ / "index.html");  // a race: the link appears while we write
  EXPECT_THROW(file.commit(), bws::UsageError);                 // checked again at the last moment
  EXPECT_EQ(slurp(dir_ / "survey.h5"), "survey");
}

TEST_F(FileGuardTest, AFailedDirectoryLeavesNothingBehind) {
  const std::string out = path("export");
  {
    bws::AtomicDirectory export_dir(out, {"--csv", false, {}, bws::OwnFile::Text});
    export_dir.add("a.csv") << "x\n";
    export_dir.add("b.csv") << "y\n";
    // a failure before commit(): nothing stays, not even the directory made
  }
  EXPECT_FALSE(fs::exists(out));
  {
    bws::AtomicDirectory export_dir(out, {"--csv", false, {}, bws::OwnFile::Text});
    export_dir.add("a.csv") << "x\n";
    export_dir.commit();
  }
  EXPECT_EQ(slurp(fs::path(out) / "a.csv"), "x\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(out), fs::directory_iterator()), 1);
  // The same name again without force: refused at add(), the file kept.
  bws::AtomicDirectory again(out, {"--csv", false, {}, bws::OwnFile::Text});
  expect_one_line_with(usage_error_of([&] { again.add("a.csv"); }), "exists");
}

}  // namespace
