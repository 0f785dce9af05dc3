#pragma once
// The real bwsurvey binary run in a fresh directory per test, and the check
// every bad input must pass: exit 2, exactly one line on stderr naming the
// problem, nothing on stdout, and no output file created.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "TestPrograms.hpp"
#include "TestSupport.hpp"

namespace fs = std::filesystem;

// A named namespace: gtest wants one fixture class per suite across the
// test files that include this header.
namespace cli_test_support {

using bws::test::RunResult;
using bws::test::slurp;

class CliErrors : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("bws-cli-" + std::to_string(getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // environment: "NAME=value ..." put before the binary, or "".
  RunResult run(const std::string& args, const std::string& environment = "") {
    std::ostringstream cmd;  // (a stream: gcc 12 warns falsely on chained string +)
    cmd << "cd '" << dir_.string() << "' && " << environment << " '" << bws::test::bwsurvey_program() << "' " << args;
    return bws::test::run_shell(cmd.str(), dir_ / "out.txt", dir_ / "err.txt");
  }

  // Exit 2, one line naming `needle`, no survey file.
  void expect_usage_error(const std::string& args, const std::string& needle) {
    const RunResult r = run(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << "\n" << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << args << "\n" << r.err;
    EXPECT_TRUE(r.out.empty()) << args << "\n" << r.out;
    EXPECT_FALSE(fs::exists(dir_ / "survey.h5")) << args;
  }

  fs::path dir_;
};

}  // namespace cli_test_support

using namespace cli_test_support;  // NOLINT: the tests name these unqualified
