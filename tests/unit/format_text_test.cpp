// core/FormatText: printf-style text of any length.
#include <gtest/gtest.h>

#include <string>

#include "core/FormatText.hpp"

namespace bws {
namespace {

TEST(FormatText, FormatsAsPrintfDoes) {
  EXPECT_EQ(format_text("%.1f %%", 12.34), "12.3 %");
  EXPECT_EQ(format_text("R^2 %.4g", 0.98994), "R^2 0.9899");
  EXPECT_EQ(format_text("%s-%d", "rank", 7), "rank-7");
  EXPECT_EQ(format_text("%s", ""), "");
}

TEST(FormatText, LongTextIsWholeNotCutAtABuffer) {
  // The fixed buffers it replaces held 32 to 512 characters.
  const std::string host(3000, 'n');
  const std::string text = format_text("%s: %.2f us", host.c_str(), 1.5);
  EXPECT_EQ(text.size(), host.size() + 9);
  EXPECT_EQ(text.substr(host.size()), ": 1.50 us");
}

}  // namespace
}  // namespace bws
