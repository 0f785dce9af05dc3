// VersionOption: `bwsurvey --version` and `bwreport --version` run as
// built. The expected version, commit, build type and options are the
// values CMake passes to this file (tests/CMakeLists.txt); the instruction
// sets come from this file's own compiler macros (it is built with the same
// -march as the kernels) and from /proc/cpuinfo, not from the code under test.
#include <map>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "TestPrograms.hpp"
#include "TestSupport.hpp"

namespace bws::test {
namespace {

// "key: value" lines; the first line ("PROGRAM VERSION") under "".
std::map<std::string, std::string> fields_of(const std::string& text) {
  std::map<std::string, std::string> fields;
  std::istringstream in(text);
  std::string line;
  bool first = true;
  while (std::getline(in, line)) {
    if (first) {
      fields[""] = line;
      first = false;
      continue;
    }
    const auto colon = line.find(": ");
    if (colon != std::string::npos) fields[line.substr(0, colon)] = line.substr(colon + 2);
  }
  return fields;
}

// The CPU's flags as the kernel reports them (it clears AVX and AVX-512
// when the OS does not save their registers).
std::set<std::string> cpu_flags() {
  std::istringstream in(slurp("/proc/cpuinfo"));
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("flags", 0) == 0) {
      std::istringstream words(line.substr(line.find(':') + 1));
      std::set<std::string> flags;
      for (std::string w; words >> w;) flags.insert(w);
      return flags;
    }
  return {};
}

// The roofline's auto choice, derived here: the widest of avx512f, avx+fma, avx, sse2.
std::string expected_fma_isa() {
#if defined(__x86_64__) || defined(__i386__)
  const auto f = cpu_flags();
  if (f.count("avx512f")) return "avx512f";
  if (f.count("avx") && f.count("fma")) return "avx-fma";
  if (f.count("avx")) return "avx";
  if (f.count("sse2")) return "sse2";
#endif
  return "scalar";
}

// The vector width this build's -march gives the non-temporal STREAM kernels.
std::string expected_stream_isa() {
#if defined(__AVX512F__)
  return "avx512";
#elif defined(__AVX__)
  return "avx";
#elif defined(__SSE2__)
  return "sse2";
#else
  return "none";
#endif
}

class VersionOption : public TempDirTest {
 protected:
  // Run outside any launcher's rank variables (ctest itself may run under srun).
  RunResult run(const std::string& command) {
    return run_shell("env -u OMPI_COMM_WORLD_RANK -u PMIX_RANK -u PMI_RANK -u SLURM_PROCID " + command,
                     file("out.txt"), file("err.txt"));
  }

  void expect_build_fields(const std::string& program, const RunResult& r) {
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    const auto f = fields_of(r.out);
    EXPECT_EQ(f.at(""), program + " " + BWS_EXPECT_VERSION);
    EXPECT_EQ(f.count("commit") ? f.at("commit") : "(none)", BWS_EXPECT_COMMIT);
    EXPECT_EQ(f.count("build type") ? f.at("build type") : "(none)", BWS_EXPECT_BUILD_TYPE);
    EXPECT_EQ(f.count("build options") ? f.at("build options") : "(none)",
              std::string("BWS_NATIVE=") + BWS_EXPECT_NATIVE + " BWS_TEST_HOOKS=" + BWS_EXPECT_TEST_HOOKS +
                  " BWS_SANITIZE=" + BWS_EXPECT_SANITIZE);
    EXPECT_EQ(f.count("OpenCL") ? f.at("OpenCL") : "(none)", BWS_EXPECT_OPENCL);
  }
};

TEST_F(VersionOption, BwsurveyPrintsVersionCommitBuildTypeAndOptions) {
  expect_build_fields("bwsurvey", run(std::string("'") + bws::test::bwsurvey_program() + "' --version"));
}

TEST_F(VersionOption, BwreportPrintsTheSameFields) {
  expect_build_fields("bwreport", run(std::string("'") + bws::test::bwreport_program() + "' --version"));
}

TEST_F(VersionOption, KernelInstructionSetsCompiledInAndChosenOnThisCpu) {
  const auto f = fields_of(run(std::string("'") + bws::test::bwsurvey_program() + "' --version").out);
  const std::string stream_isa = expected_stream_isa();
  std::string stream_line = stream_isa + " (this CPU: ";
  if (stream_isa == "none") {
    stream_line += "no vector kernels)";
  } else {
    const std::string flag = stream_isa == "avx512" ? "avx512f" : stream_isa;
    stream_line += cpu_flags().count(flag) ? "supported)" : "NOT supported (rebuild on this node))";
  }
  EXPECT_EQ(f.count("STREAM non-temporal kernels") ? f.at("STREAM non-temporal kernels") : "(none)", stream_line);
#if defined(__x86_64__) || defined(__i386__)
  EXPECT_EQ(f.count("roofline FMA kernels compiled in") ? f.at("roofline FMA kernels compiled in") : "(none)",
            "avx512f avx-fma avx sse2 scalar");
#else
  EXPECT_EQ(f.count("roofline FMA kernels compiled in") ? f.at("roofline FMA kernels compiled in") : "(none)",
            "scalar");
#endif
  EXPECT_EQ(f.count("roofline FMA kernel on this CPU") ? f.at("roofline FMA kernel on this CPU") : "(none)",
            expected_fma_isa());
}

// No MPI: an MPI library that cannot start (a transport that does not
// exist is required) stops a survey, but not --version or a lone --help.
TEST_F(VersionOption, BwsurveyAnswersBeforeMpiStarts) {
  const std::string broken_mpi = "OMPI_MCA_pml=bws_no_such_transport ";
  const std::string exe = std::string("'") + bws::test::bwsurvey_program() + "'";
  const RunResult survey = run(broken_mpi + exe + " --quick --tests stream --out '" + file("s.h5") + "'");
  ASSERT_NE(survey.exit_code, 0) << "MPI started with a missing transport; this test proves nothing here";
  const RunResult version = run(broken_mpi + exe + " --version");
  EXPECT_EQ(version.exit_code, 0) << version.err;
  EXPECT_EQ(fields_of(version.out).at(""), std::string("bwsurvey ") + BWS_EXPECT_VERSION);
  const RunResult help = run(broken_mpi + exe + " --help");
  EXPECT_EQ(help.exit_code, 0) << help.err;
  EXPECT_NE(help.out.find("--version"), std::string::npos) << "--help lists --version";
}

// Under a launcher only the first rank prints (read from the launcher's
// environment, since MPI is not started).
TEST_F(VersionOption, OnlyTheFirstRankPrints) {
  const std::string exe = std::string("'") + bws::test::bwsurvey_program() + "'";
  const RunResult second = run("OMPI_COMM_WORLD_RANK=1 " + exe + " --version");
  EXPECT_EQ(second.exit_code, 0);
  EXPECT_EQ(second.out, "");
  const RunResult first = run("SLURM_PROCID=0 " + exe + " --version");
  EXPECT_EQ(fields_of(first.out).at(""), std::string("bwsurvey ") + BWS_EXPECT_VERSION);
}

}  // namespace
}  // namespace bws::test
