#pragma once
// Helpers shared by the unit tests.
#include <stdlib.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/Config.hpp"
#include "core/Errors.hpp"
#include "core/RunContext.hpp"

namespace bws::test {

// The message of the UsageError `action` throws, or "(no UsageError)".
inline std::string usage_error_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const UsageError& error) {
    return error.what();
  }
  return "(no UsageError)";
}

// Expects `message` to be one line that contains `part` (an option's name,
// its allowed range).
inline void expect_one_line_with(const std::string& message, const std::string& part) {
  EXPECT_NE(message.find(part), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

// A file's bytes ("" when it cannot be read).
inline std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// What a program run through the shell left: its exit status (128 + the
// signal when a signal ended it) and what it wrote.
struct RunResult {
  int exit_code = -1;
  std::string out, err;
};

// Runs `command` (a shell command line) with stdout and stderr into the
// two files, and reads them back.
inline RunResult run_shell(const std::string& command, const std::filesystem::path& out,
                           const std::filesystem::path& err) {
  const std::string line = command + " >'" + out.string() + "' 2>'" + err.string() + "'";
  const int status = std::system(line.c_str());
  RunResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

// The lines, each ended by a newline, as one text.
inline std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& l : lines) text += l + "\n";
  return text;
}

// A node meeting that only counts how often a benchmark asked for it.
class CountingSync final : public NodeSync {
 public:
  void barrier() override { ++calls; }
  int calls = 0;
};

// A configuration holding exactly these values, each as if given.
inline Config config_with(std::map<std::string, std::string> values) {
  Config config;
  for (auto& [k, v] : values) config.set(k, v);
  return config;
}

// A fixture with a fresh directory of its own under the system's temporary
// directory (named after `prefix`, by default after the test suite),
// removed after the test.
class TempDirTest : public ::testing::Test {
 protected:
  TempDirTest()
      : TempDirTest(std::string("bws_") + ::testing::UnitTest::GetInstance()->current_test_info()->test_suite_name()) {}
  explicit TempDirTest(std::string prefix) : prefix_(std::move(prefix)) {}
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / (prefix_ + ".XXXXXX")).string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string file(const std::string& name) const { return (dir_ / name).string(); }
  std::filesystem::path dir_;

 private:
  std::string prefix_;
};

}  // namespace bws::test
