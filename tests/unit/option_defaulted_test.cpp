// One defaulted-query (TypedOptions::defaulted): whether an option was left
// at its default is asked through the field, by every one of its names (an
// old name counts as giving it); --quick's value is still the default.
#include <gtest/gtest.h>

#include "TestSupport.hpp"
#include "core/OptionSchema.hpp"

namespace bws {
namespace {

struct ToyOptions : TypedOptions {
  int reps = 0;
  double min_time_seconds = 0;
};

const OptionSchema<ToyOptions>& toy_schema() {
  static const OptionSchema<ToyOptions> schema({
      bind_option(whole_option("toy.reps", "20", 1, 100, "repetitions", "toy: repetitions").quick("5").alias("toy.ntimes"),
                  &ToyOptions::reps),
      bind_option(real_option("toy.min-time", "1", 0, 10, "seconds", "toy: minimum time"), &ToyOptions::min_time_seconds),
  });
  return schema;
}

TEST(OptionDefaulted, ByTheFieldUnderEveryName) {
  const ToyOptions left = toy_schema().read(Config(), false);
  EXPECT_TRUE(left.defaulted(&ToyOptions::reps));
  EXPECT_TRUE(left.defaulted(&ToyOptions::min_time_seconds));
  const ToyOptions quick = toy_schema().read(Config(), true);
  EXPECT_EQ(quick.reps, 5);
  EXPECT_TRUE(quick.defaulted(&ToyOptions::reps));  // --quick's value: still the default, fitting may lower it
  const ToyOptions given = toy_schema().read(test::config_with({{"toy.reps", "20"}}), false);
  EXPECT_FALSE(given.defaulted(&ToyOptions::reps));  // given, even at the default's value
  EXPECT_TRUE(given.defaulted(&ToyOptions::min_time_seconds));
  const ToyOptions old_name = toy_schema().read(test::config_with({{"toy.ntimes", "7"}}), false);
  EXPECT_FALSE(old_name.defaulted(&ToyOptions::reps));
  EXPECT_EQ(old_name.flag(&ToyOptions::reps), "--toy.ntimes");
}

}  // namespace
}  // namespace bws
