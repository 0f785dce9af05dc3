// Whatever a setup step throws is caught and classified,
// so it can be agreed by every rank (the MPI side: tests/mpi/setup_errors.sh).
#include <gtest/gtest.h>

#include <new>
#include <stdexcept>

#include "core/Errors.hpp"
#include "run/SetupFailure.hpp"

using namespace bws;
using namespace bws::run;

TEST(SetupFailure, EveryExceptionIsCaughtAndClassified) {
  EXPECT_FALSE(failure_of([] {}).has_value());
  const auto usage = failure_of([] { throw UsageError("--x: bad\nvalue"); }, "rank 1 (n1)");
  ASSERT_TRUE(usage);
  EXPECT_EQ(usage->exit_code, 2);
  EXPECT_EQ(usage->message, "--x: bad value");  // one line, no rank: every rank would say the same
  const auto runtime = failure_of([] { throw RuntimeFailure("HDF5: cannot read"); }, "rank 1 (n1)");
  ASSERT_TRUE(runtime);
  EXPECT_EQ(runtime->exit_code, 1);
  EXPECT_EQ(runtime->message, "rank 1 (n1): HDF5: cannot read");
  const auto memory = failure_of([] { throw std::bad_alloc(); });
  ASSERT_TRUE(memory);
  EXPECT_EQ(memory->exit_code, 1);
  EXPECT_EQ(memory->message, "out of memory");
  EXPECT_EQ(failure_of([] { throw std::bad_variant_access(); })->exit_code, 1);
  EXPECT_EQ(failure_of([] { throw 42; })->message, "an unknown error");
}
