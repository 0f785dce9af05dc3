// Every bad input, given to the real bwsurvey binary:
// exit 2, exactly one line on stderr naming the problem, nothing on stdout,
// and no output file created.
#include "CliTestSupport.hpp"

#include "h5/ResultFile.hpp"
#include "run/TestHooks.hpp"

// One bad value each: the option named with what is allowed, in one line.
TEST_F(CliErrors, BadValuesNameTheOptionInOneLine) {
  // A directory component that is a regular file: no one can create a file
  // under it, root included (made here: no system path is ever an output).
  std::ofstream(dir_ / "plain-file") << "not a directory\n";
  const struct {
    const char* args;
    const char* message_part;
  } bad[] = {
      {"--tests stream,bogus", "--tests: unknown test 'bogus'"},
      {"--stream.elements abc", "--stream.elements: 'abc' is not a size"},
      {"--stream.elements=-5", "--stream.elements: '-5' is negative"},
      {"--stream.elements 0", "--stream.elements: '0' must be positive"},
      {"--stream.elements 1e30", "absurdly large"},
      {"--stream.elements 64T", "--stream.elements"},  // does not fit in memory
      {"--threads 4096", "--threads"},                // above the allowed cores
      {"--bind scatter", "--bind"},
      {"--no-such-option 3", "unknown option '--no-such-option'"},
      {"--out nonexistent-dir/s.h5", "--out"},
      {"--out plain-file/s.h5", "--out"},  // not creatable, even for root
      {"--retest 11", "--retest: '11' is out of range; allowed: 0..10 rounds"},
      {"--retest 1.5", "--retest: '1.5' is not a whole number; allowed: 0..10 rounds"},
      {"--phase-timeout -1", "--phase-timeout: '-1' is out of range; allowed: 0..31536000 seconds"},
      {"--time-budget x", "--time-budget: 'x' is not a number; allowed: 0..31536000 seconds"},
      {"--bind Scatter", "--bind: unknown policy 'Scatter'; allowed: compact, spread, none"},
      {"--flags.fraction 0", "--flags.fraction: '0' is out of range; allowed: > 0 and <= 1"},
      {"--flags.k -1", "--flags.k: '-1' is out of range; allowed: > 0 and <= 100"},
  };
  for (const auto& b : bad) expect_usage_error(b.args, b.message_part);
}

// An option of a test that --tests leaves out is still checked: a bad value
// is refused, not kept silently in /config.
TEST_F(CliErrors, OptionsOfTestsNotRunAreCheckedToo) {
  expect_usage_error("--tests stream --quick --bs.points 1e400", "--bs.points");
  expect_usage_error("--tests stream --quick --pmbw.max-size 1e400", "--pmbw.max-size");
  expect_usage_error("--tests stream --quick --roofline.reps x", "--roofline.reps");
  expect_usage_error("--tests stream --quick --beff.sizes 8,x", "--beff.sizes");
}

TEST_F(CliErrors, ConfigFileMissingUnreadableOrBad) {
  expect_usage_error("--config missing.ini", "--config: 'missing.ini' does not exist");
  fs::create_directories(dir_ / "adir.ini");
  expect_usage_error("--config adir.ini", "--config: 'adir.ini' is a directory");
  if (geteuid() != 0) {  // root reads any file whatever its mode
    std::ofstream(dir_ / "locked.ini") << "threads = 1\n";
    fs::permissions(dir_ / "locked.ini", fs::perms::none);
    expect_usage_error("--config locked.ini", "--config: 'locked.ini' cannot be read");
  }
  std::ofstream(dir_ / "bad.ini") << "threads = 1\n# fine\nthis line is wrong\n";
  expect_usage_error("--config bad.ini", "'bad.ini' line 3");
  std::ofstream(dir_ / "unknown.ini") << "[stream]\nreps = 3\nbogus = 1\n";
  expect_usage_error("--config unknown.ini", "'unknown.ini' line 3: unknown option 'stream.bogus'");
}

TEST_F(CliErrors, OutputFileExistsWithoutForce) {
  std::ofstream(dir_ / "taken.h5") << "precious";
  const RunResult r = run("--out taken.h5");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--force"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(dir_ / "taken.h5"), "precious");
}

TEST_F(CliErrors, HelpListsEveryOptionWithItsDefault) {
  const RunResult r = run("--help");
  EXPECT_EQ(r.exit_code, 0);
  for (const char* option : {"--tests", "--out", "--config", "--quick", "--threads", "--bind", "--force",
                             "--print-config", "--stream.elements", "--stream.type", "--stream.reps",
                             "--stream.stores"})
    EXPECT_NE(r.out.find(option), std::string::npos) << option;
  EXPECT_NE(r.out.find("(=survey.h5)"), std::string::npos);
}

// pmbw's bad input: one line naming what is available.
TEST_F(CliErrors, PmbwBadInput) {
  expect_usage_error("--tests pmbw --pmbw.routines ScanRead64Bogus",
                     "--pmbw.routines: unknown routine 'ScanRead64Bogus'; available on this CPU:");
  expect_usage_error("--tests pmbw --pmbw.min-size 8M --pmbw.max-size 1M", "--pmbw.min-size 8.00 MiB is above");
  expect_usage_error("--tests pmbw --pmbw.max-size 64T", "--pmbw.max-size");
  expect_usage_error("--tests pmbw --pmbw.threads 1..4096", "--pmbw.threads: 4096 threads is out of range");
  expect_usage_error("--tests pmbw --pmbw.stats no-such-dir/stats.txt", "--pmbw.stats: cannot write");
  std::ofstream(dir_ / "stats.txt") << "precious";
  expect_usage_error("--tests pmbw --pmbw.stats stats.txt", "--pmbw.stats: 'stats.txt' exists");
  EXPECT_EQ(slurp(dir_ / "stats.txt"), "precious");
  expect_usage_error("--tests pmbw --pmbw.stats stats-%x.txt",
                     "--pmbw.stats: '%x' in 'stats-%x.txt' is not a field; allowed: %h (host), %r (rank)");
}

TEST_F(CliErrors, PmbwRoutineListing) {
  const RunResult r = run("--pmbw.routines list");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("pmbw routines of this build"), std::string::npos) << r.out;
#if defined(__x86_64__)
  EXPECT_NE(r.out.find("ScanRead64PtrUnrollLoop"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("PermRead64UnrollLoop"), std::string::npos) << r.out;
#endif
  EXPECT_FALSE(fs::exists(dir_ / "survey.h5"));
}

// The OpenCL backend: every device option in --help; without
// OpenCL --tests ocl and --beff.path device are one clear usage error; with
// it, a bad device or a length off the blocks is refused before anything
// is created.
TEST_F(CliErrors, OpenClOptionsAndTheirErrors) {
  const RunResult help = run("--help");
  for (const char* option : {"--ocl.platform", "--ocl.device", "--ocl.list", "--ocl.buffer-size", "--ocl.vector-count",
                             "--ocl.unroll", "--ocl.replications", "--ocl.single-kernel", "--beff.path"})
    EXPECT_NE(help.out.find(option), std::string::npos) << option;
  expect_usage_error("--beff.path pcie", "--beff.path: unknown path 'pcie'; allowed: host, device");
#if BWS_HAVE_OPENCL
  expect_usage_error("--tests ocl --ocl.device 99", "--ocl.device: 99 is out of range");
  expect_usage_error("--tests ocl --ocl.elements 100000", "nearest valid lengths: 98304 and 102400");
  expect_usage_error("--tests beff --beff.path device --ocl.platform nosuchplatform",
                     "--ocl.platform: no platform matches 'nosuchplatform'");
  const RunResult list = run("--ocl.list");
  EXPECT_EQ(list.exit_code, 0) << list.err;
  EXPECT_NE(list.out.find("platform 0: "), std::string::npos) << list.out;
#else
  expect_usage_error("--tests ocl", "--tests ocl: this build of bwsurvey has no OpenCL");
  expect_usage_error("--tests beff --beff.path device", "--beff.path: 'device' needs OpenCL");
  expect_usage_error("--ocl.list", "--ocl.list: this build of bwsurvey has no OpenCL");
#endif
}

// A test hook never changes a result silently. In a test
// build it is announced and stored in the file; in a build for users it is
// ignored, and that is announced.
TEST_F(CliErrors, ATestHookIsAnnouncedAndRecordedOrIgnored) {
  const std::string quick = "--tests stream --quick --threads 1 --stream.elements 1M --stream.reps 2";
  ASSERT_EQ(run(quick + " --out s.h5").exit_code, 0);
  const RunResult hooked = run(quick + " --out h.h5", "BWSURVEY_SLOW_HOST=elsewhere:2");
  ASSERT_EQ(hooked.exit_code, 0) << hooked.err;
  const std::string stored = bws::h5::ResultReader::open((dir_ / "h.h5").string()).attribute_text("/", "test_hooks");
  const std::string plain = bws::h5::ResultReader::open((dir_ / "s.h5").string()).attribute_text("/", "test_hooks");
  EXPECT_EQ(plain, "");
  if (bws::run::test_hooks_compiled()) {
    EXPECT_NE(hooked.err.find("TEST HOOK ACTIVE (results are altered on purpose): BWSURVEY_SLOW_HOST=elsewhere:2"),
              std::string::npos)
        << hooked.err;
    EXPECT_EQ(stored, "BWSURVEY_SLOW_HOST=elsewhere:2");
  } else {
    EXPECT_NE(hooked.err.find("ignored (this build has no test hooks): BWSURVEY_SLOW_HOST=elsewhere:2"),
              std::string::npos)
        << hooked.err;
    EXPECT_EQ(stored, "");
  }
}
