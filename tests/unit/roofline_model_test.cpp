// The roofline model (lib/model/Roofline): Andreolli et al.'s Iso3DFD numbers and
// the text bwreport roofline prints.
#include <gtest/gtest.h>

#include "TestSupport.hpp"

#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "model/Roofline.hpp"
#include "report/ReportCommand.hpp"
#include "roofline/KernelRoofline.hpp"

namespace bws::roofline {
namespace {

// ---- the paper's numbers (Andreolli et al.'s Iso3DFD roofline) ----

// 51 adds, 27 muls, 4 loads (coeff, prev, next, vel), 1 store (next), float.
const model::KernelCounts kIso3dfd{51, 27, 4, 1, 4};

TEST(RooflineModel, Iso3dfdArithmeticIntensityAndImbalance) {
  EXPECT_DOUBLE_EQ(model::arithmetic_intensity(kIso3dfd), 3.9);  // 78 / (5 x 4)
  EXPECT_DOUBLE_EQ(model::imbalance_factor(51, 27), 78.0 / 102.0);
  EXPECT_DOUBLE_EQ(model::imbalance_factor(27, 51), 78.0 / 102.0);
  EXPECT_DOUBLE_EQ(model::imbalance_factor(10, 10), 1.0);
  EXPECT_DOUBLE_EQ(model::imbalance_factor(10, 0), 0.5);
}

TEST(RooflineModel, SeedMachineBalances) {
  // Xeon E5-2697v2 (2S): 1036.8 GFLOP/s and 119 GB/s theoretical, LINPACK
  // 930 and STREAM Triad 100 measured: 8.7 and 9.3 FLOP/byte.
  EXPECT_NEAR(model::machine_balance(1036.8e9, 119e9), 8.7, 0.05);
  EXPECT_NEAR(model::machine_balance(930e9, 100e9), 9.3, 1e-12);
  // Xeon Phi 7120: 2420.5 and 352 theoretical (Andreolli et al. print 6.87 for
  // 6.876), 2178 and 200 measured: 10.89.
  EXPECT_NEAR(model::machine_balance(2420.5e9, 352e9), 6.87, 0.01);
  EXPECT_NEAR(model::machine_balance(2178e9, 200e9), 10.89, 1e-12);
}

TEST(RooflineModel, SeedAttainableBounds) {
  const double ai = model::arithmetic_intensity(kIso3dfd);
  const double f = model::imbalance_factor(51, 27);
  // From the theoretical bandwidth, without and with the imbalance factor.
  EXPECT_NEAR(model::attainable_flops(ai, 2420.5e9, 352e9), 1372.8e9, 0.05e9);
  EXPECT_NEAR(model::roofline_bound(ai, f, 1036.8e9, 119e9).attainable_imbalanced, 354.9e9, 0.05e9);
  EXPECT_NEAR(model::roofline_bound(ai, f, 2420.5e9, 352e9).attainable_imbalanced, 1049.8e9, 0.05e9);
  // From STREAM (100 and 200 GB/s) against LINPACK: 390 and 780 without
  // the factor, about 298 and 596 with it.
  EXPECT_NEAR(model::attainable_flops(ai, 930e9, 100e9), 390e9, 1e-3);
  EXPECT_NEAR(model::attainable_flops(ai, 2178e9, 200e9), 780e9, 1e-3);
  EXPECT_NEAR(model::roofline_bound(ai, f, 930e9, 100e9).attainable_imbalanced, 298e9, 0.5e9);
  EXPECT_NEAR(model::roofline_bound(ai, f, 2178e9, 200e9).attainable_imbalanced, 596e9, 0.5e9);
  // The kernel is memory bound on both machines, by either pair of ceilings.
  EXPECT_TRUE(model::roofline_bound(ai, f, 1036.8e9, 119e9).memory_bound);
  EXPECT_TRUE(model::roofline_bound(ai, f, 2178e9, 200e9).memory_bound);
  // Above the balance the compute ceiling is the bound.
  const model::RooflineBound compute = model::roofline_bound(20, 1, 930e9, 100e9);
  EXPECT_FALSE(compute.memory_bound);
  EXPECT_DOUBLE_EQ(compute.attainable, 930e9);
}

TEST(RooflineModel, DegenerateInputsGiveNaN) {
  EXPECT_TRUE(std::isnan(model::arithmetic_intensity({1, 1, 0, 0, 8})));
  EXPECT_TRUE(std::isnan(model::imbalance_factor(0, 0)));
  EXPECT_TRUE(std::isnan(model::machine_balance(1e9, 0)));
  EXPECT_TRUE(std::isnan(model::attainable_flops(1, std::numeric_limits<double>::quiet_NaN(), 1e9)));
}

// ---- what bwreport roofline prints ----

using test::joined;

TEST(RooflineText, IssueCommandPrintsAiAndTheImbalancedBound) {
  const KernelDescription k = kernel_from_counts(kIso3dfd);
  const std::string kernel = joined(kernel_lines(k));
  EXPECT_NE(kernel.find("51 adds, 27 muls, 4 loads, 1 store, 4-byte words"), std::string::npos) << kernel;
  EXPECT_NE(kernel.find("= 78 / 20 = 3.9 FLOP/byte"), std::string::npos) << kernel;
  EXPECT_NE(kernel.find("= 78 / 102 = 0.7647"), std::string::npos) << kernel;
  const std::string table = joined(ceiling_lines(k, {{"given", "-", 1036.8e9, 119e9}, {"given", "-", 930e9, 100e9}}));
  EXPECT_NE(table.find("354.9"), std::string::npos) << table;
  EXPECT_NE(table.find("464.1"), std::string::npos) << table;
  EXPECT_NE(table.find("298.2"), std::string::npos) << table;
  EXPECT_NE(table.find("390.0"), std::string::npos) << table;
  EXPECT_NE(table.find("memory"), std::string::npos) << table;
}

TEST(RooflineText, CommandLineOfTheIssue) {
  std::ostringstream out, err;
  const int code = report::run_report_command(report::roofline_command(),
                                              {"--adds", "51", "--muls", "27", "--loads", "4", "--stores", "1",
                                               "--word-bytes", "4", "--peak-flops", "1036.8e9", "--bandwidth", "119e9"},
                                              out, err);
  EXPECT_EQ(code, 0) << err.str();
  EXPECT_NE(out.str().find("3.9 FLOP/byte"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("354.9"), std::string::npos) << out.str();
}

TEST(RooflineText, CommandErrorsAreOneLineNamingTheOption) {
  auto error = [](std::vector<std::string> args) {
    std::ostringstream out, err;
    EXPECT_EQ(report::run_report_command(report::roofline_command(), args, out, err), 2) << out.str();
    EXPECT_EQ(err.str().find('\n'), err.str().size() - 1) << err.str();
    return err.str();
  };
  EXPECT_NE(error({"--adds", "1", "--muls", "1", "--loads", "1", "--peak-flops", "1e9", "--bandwidth", "1e9"})
                .find("--stores"),
            std::string::npos);
  EXPECT_NE(error({"--ai", "2", "--peak-flops", "1e9"}).find("--bandwidth"), std::string::npos);
  EXPECT_NE(error({"--ai", "x", "--peak-flops", "1e9", "--bandwidth", "1e9"}).find("--ai"), std::string::npos);
  EXPECT_NE(error({"--ai", "2"}).find("--peak-flops"), std::string::npos);
  EXPECT_NE(error({"--ai", "2", "--loads", "1", "--peak-flops", "1e9", "--bandwidth", "1e9"}).find("--ai"),
            std::string::npos);
  EXPECT_NE(error({"--ai", "2", "--bogus", "1"}).find("--bogus"), std::string::npos);
  EXPECT_NE(error({"--ai", "2", "/nonexistent/file.h5"}).find("/nonexistent/file.h5"), std::string::npos);
  // Two files: the shared command parser's count, the command named once.
  const std::string two = error({"--ai", "2", "a.h5", "b.h5"});
  EXPECT_NE(two.find("at most 1 file argument, got 2"), std::string::npos) << two;
  EXPECT_EQ(two.find("roofline: bwreport roofline:"), std::string::npos) << two;
}

TEST(RooflineText, GivenAiWithoutCountsAssumesNoImbalance) {
  KernelDescription k;
  k.ai = 0.25;
  EXPECT_DOUBLE_EQ(k.imbalance(), 1.0);
  const std::string table = joined(ceiling_lines(k, {{"given", "-", 100e9, 20e9}}));
  EXPECT_NE(table.find("5.0"), std::string::npos) << table;  // 0.25 x 20 GB/s
}

}  // namespace
}  // namespace bws::roofline
