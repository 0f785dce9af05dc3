// One writer per survey file (core/FileLock.hpp): a lock another process
// sees, its holder named in the refusal, a lock file left by a process that
// ended does not block, and a lock file that is not a regular file is
// refused and left alone. Other processes are made with fork().
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "TestSupport.hpp"
#include "core/Errors.hpp"
#include "core/FileLock.hpp"

using namespace bws;
namespace fs = std::filesystem;

namespace {

class FileLockTest : public test::TempDirTest {
 protected:
  FileLockTest() : TempDirTest("bws_file_lock_test") {}
};

// A child process that takes the lock of `target`, says so through a pipe,
// and holds it until the parent closes the other pipe (then exits without
// releasing: as a killed run would). Returns the child's pid.
struct Holder {
  pid_t pid = -1;
  int release_fd = -1;  // closing it ends the child
};

Holder hold_in_child(const std::string& target) {
  int ready[2], release[2];
  EXPECT_EQ(::pipe(ready), 0);
  EXPECT_EQ(::pipe(release), 0);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(ready[0]);
    ::close(release[1]);
    char ok = 'n';
    try {
      static FileLock lock = FileLock::acquire("--out", target);
      ok = 'y';
    } catch (...) {
    }
    (void)!::write(ready[1], &ok, 1);
    char byte;
    (void)!::read(release[0], &byte, 1);  // until the parent closes its end
    ::_exit(0);                           // no release: the lock file stays
  }
  ::close(ready[1]);
  ::close(release[0]);
  char ok = 'n';
  EXPECT_EQ(::read(ready[0], &ok, 1), 1);
  EXPECT_EQ(ok, 'y');
  ::close(ready[0]);
  return {pid, release[1]};
}

void end_child(const Holder& h) {
  ::close(h.release_fd);
  int status = 0;
  ::waitpid(h.pid, &status, 0);
}

}  // namespace

TEST_F(FileLockTest, TheLockFileNamesItsHolderAndGoesAtTheEnd) {
  const std::string target = file("s.h5");
  {
    FileLock lock = FileLock::acquire("--out", target);
    ASSERT_TRUE(lock.held());
    EXPECT_EQ(lock.path(), fs::weakly_canonical(target).string() + ".lock");
    const std::string text = test::slurp(lock.path());
    EXPECT_EQ(text.rfind("pid " + std::to_string(::getpid()) + " on host ", 0), 0u) << text;
    EXPECT_NE(text.find(" since 20"), std::string::npos) << text;
  }
  EXPECT_FALSE(fs::exists(target + ".lock"));
  EXPECT_FALSE(fs::exists(target));  // the lock makes nothing else
}

TEST_F(FileLockTest, ASecondProcessIsRefusedNamingTheHolderThenTakesAStaleLock) {
  const std::string target = file("s.h5");
  const Holder holder = hold_in_child(target);
  const std::string message = test::usage_error_of([&] { FileLock::acquire("--resume", target); });
  EXPECT_EQ(message.rfind("--resume: '" + target + "' is being written by another run (pid " +
                              std::to_string(holder.pid) + " on host ",
                          0),
            0u)
      << message;
  EXPECT_NE(message.find("allowed: "), std::string::npos) << message;
  // Through a linked directory and another spelling: the same lock.
  fs::create_directory_symlink(dir_, file("alias"));
  EXPECT_NE(test::usage_error_of([&] { FileLock::acquire("--out", file("alias") + "/./s.h5"); }).find("being written"),
            std::string::npos);
  end_child(holder);
  // The child ended without releasing: its lock file stays, its lock does not.
  ASSERT_TRUE(fs::exists(target + ".lock"));
  FileLock lock = FileLock::acquire("--resume", target);
  EXPECT_TRUE(lock.held());
  EXPECT_EQ(test::slurp(lock.path()).rfind("pid " + std::to_string(::getpid()) + " ", 0), 0u);
  lock.release();
  EXPECT_FALSE(fs::exists(target + ".lock"));
}

TEST_F(FileLockTest, ALockFileThatIsNoRegularFileIsRefusedAndKept) {
  ASSERT_EQ(::mkfifo(file("f.h5.lock").c_str(), 0600), 0);
  EXPECT_NE(test::usage_error_of([&] { FileLock::acquire("--out", file("f.h5")); }).find("is a FIFO"), std::string::npos);
  EXPECT_TRUE(fs::is_fifo(file("f.h5.lock")));
  fs::create_symlink(file("elsewhere"), file("l.h5.lock"));
  EXPECT_NE(test::usage_error_of([&] { FileLock::acquire("--out", file("l.h5")); }).find("is a symbolic link"),
            std::string::npos);
  EXPECT_FALSE(fs::exists(file("elsewhere")));
  EXPECT_TRUE(fs::is_symlink(file("l.h5.lock")));
}

TEST_F(FileLockTest, AMovedLockIsReleasedOnce) {
  FileLock first = FileLock::acquire("--out", file("s.h5"));
  FileLock second = std::move(first);
  EXPECT_FALSE(first.held());  // NOLINT(bugprone-use-after-move): moved-from holds nothing
  EXPECT_TRUE(second.held());
  first.release();  // nothing
  EXPECT_TRUE(fs::exists(file("s.h5.lock")));
  second.release();
  second.release();
  EXPECT_FALSE(fs::exists(file("s.h5.lock")));
}
