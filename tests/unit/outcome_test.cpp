#include <gtest/gtest.h>

#include "core/ResultColumns.hpp"
#include "report/Outcome.hpp"

using namespace bws;
using namespace bws::report;

TEST(Outcome, ExitCodesFollowTheDesign) {
  Outcome clean;
  Table checks = make_checks_table();
  add_check(checks, {"pinning.verified", "rank 0", "warning", 1, 2, 2, 2, "threads", false});
  add_check(checks, {"stream.validation", "rank 0 array a", "validation", 0, 0, 0, 1e-13, "", true});
  clean.account(checks);
  EXPECT_EQ(clean.exit_code(), 0);
  EXPECT_EQ(clean.warnings(), 1);
  EXPECT_EQ(clean.checks_passed(), 1);

  Outcome model = clean;
  Table failed_model = make_checks_table();
  add_check(failed_model, {"beff.scaling", "8 ranks", "model", 0.5, 1, 0.9, 1.1, "", false});
  model.account(failed_model);
  EXPECT_EQ(model.exit_code(), 3);

  // A failed check is printed with what failed and by how much.
  Table failed_validation = make_checks_table();
  add_check(failed_validation,
            {"stream.validation", "rank 2 (n7) double array c", "validation", 3.5e-5, 0, 0, 1e-13, "", false});
  Outcome named;
  named.account(failed_validation);
  ASSERT_EQ(named.problem_lines().size(), 1u);
  EXPECT_NE(named.problem_lines()[0].find("FAILED: stream.validation: rank 2 (n7) double array c: measured 3.5e-05"),
            std::string::npos)
      << named.problem_lines()[0];
  EXPECT_EQ(named.exit_code(), 1);

  Outcome invalid = model;
  Table results("stream/results", {int_column("valid")});
  results.add_row({{"valid", 0}});
  invalid.account(results);
  EXPECT_EQ(invalid.exit_code(), 1);  // a validation failure outranks a model check
  EXPECT_EQ(invalid.invalid_rows(), 1);
}
