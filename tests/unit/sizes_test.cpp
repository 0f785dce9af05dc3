#include <gtest/gtest.h>

#include "core/Errors.hpp"
#include "core/Sizes.hpp"

using bws::parse_size;

TEST(Sizes, PlainNumbersAndSuffixes) {
  EXPECT_EQ(parse_size("4096", "--x"), 4096u);
  EXPECT_EQ(parse_size("64M", "--x"), 64u << 20);
  EXPECT_EQ(parse_size("64m", "--x"), 64u << 20);
  EXPECT_EQ(parse_size("1GiB", "--x"), 1u << 30);
  EXPECT_EQ(parse_size("2KiB", "--x"), 2048u);
  EXPECT_EQ(parse_size("1GB", "--x"), 1000000000u);
  EXPECT_EQ(parse_size("3kb", "--x"), 3000u);
  EXPECT_EQ(parse_size("1e7", "--x"), 10000000u);
  EXPECT_EQ(parse_size("1.5K", "--x"), 1536u);
  EXPECT_EQ(parse_size(" 12B ", "--x"), 12u);
  EXPECT_EQ(parse_size("1T", "--x"), uint64_t{1} << 40);
}

namespace {
std::string error_of(const char* text) {
  try {
    parse_size(text, "--stream.elements");
  } catch (const bws::UsageError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(Sizes, BadInputNamesTheOptionAndTheProblem) {
  EXPECT_NE(error_of("abc").find("--stream.elements: 'abc' is not a size"), std::string::npos);
  EXPECT_NE(error_of("-5").find("is negative"), std::string::npos);
  EXPECT_NE(error_of("0").find("must be positive"), std::string::npos);
  EXPECT_NE(error_of("0M").find("must be positive"), std::string::npos);
  EXPECT_NE(error_of("12Q").find("unknown suffix"), std::string::npos);
  EXPECT_NE(error_of("1.3").find("not a whole number"), std::string::npos);
  EXPECT_NE(error_of("1e30").find("absurdly large"), std::string::npos);
  EXPECT_NE(error_of("").find("is empty"), std::string::npos);
  EXPECT_NE(error_of("M").find("is not a size"), std::string::npos);
  // Every message is one line.
  for (const char* t : {"abc", "-5", "0", "12Q", "1.3", "1e30"}) EXPECT_EQ(error_of(t).find('\n'), std::string::npos);
}

TEST(Sizes, Formatting) {
  EXPECT_EQ(bws::format_bytes(512), "512 B");
  EXPECT_EQ(bws::format_bytes(1536), "1.50 KiB");
  EXPECT_EQ(bws::format_bytes(3.0 * (1 << 30)), "3.00 GiB");
  EXPECT_EQ(bws::format_rate(28.314e9), "28.31 GB/s");
}
