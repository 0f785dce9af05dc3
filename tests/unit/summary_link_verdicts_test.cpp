// The link map's verdicts in the terminal summary: a link or uplink is no
// node, so its verdicts come under their own heading, and a verdict is
// printed whole (wrapped at the summary's width), not cut at
// "...; not rete...". Expected texts written out by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "report/SummaryVerdicts.hpp"

using namespace bws;
using namespace bws::report;

namespace {

Table flags_table() {
  return Table("flags", {text_column("host", 128), text_column("metric", 64), real_column("value"),
                         real_column("median"), real_column("percent_of_median"), text_column("unit", 16),
                         text_column("reason", 400), real_column("retest_median"), text_column("status", 32)});
}

void add_flag(Table& t, const std::string& host, const std::string& metric, double percent, const std::string& reason) {
  t.add_row({{"host", host},
             {"metric", metric},
             {"value", 45e6 * percent / 100},
             {"median", 45e6},
             {"percent_of_median", percent},
             {"unit", std::string("B/s")},
             {"reason", reason},
             {"retest_median", std::nan("")},
             {"status", std::string("not retested")}});
}

// The uplink verdict as the pretend cluster printed it: 151 characters of reason.
const std::string kUplinkReason =
    "uplink of leaf s1 (s1->top): s1->other leaves at 10 % of the median block (4.5 MB/s against 45 MB/s), "
    "every block out of s1 low (2 of 2 blocks)";

std::string joined(const std::vector<std::string>& lines, std::size_t from) {
  std::string text;
  for (std::size_t i = from; i < lines.size(); ++i) {
    std::string line = lines[i];
    if (i > from) {  // a continuation: its indent stands for the space it broke at
      EXPECT_EQ(line.rfind("    ", 0), 0u) << line;
      line.erase(0, 3);  // erase, not " " + substr: GCC 12's -Wrestrict false positive (bug 105329)
    }
    text += line;
  }
  return text;
}

TEST(SummaryLinkVerdicts, UplinkVerdictIsPrintedWholeUnderItsOwnHeading) {
  Table flags = flags_table();
  add_flag(flags, "s1->top", "links.uplink", 10, kUplinkReason);
  const std::vector<std::string> lines = flag_verdict_lines(flags, 4, "s.h5");
  ASSERT_GE(lines.size(), 3u);
  EXPECT_EQ(lines[0], "Flagged nodes: none of 4");
  EXPECT_EQ(lines[1], "Flagged links and uplinks (1):");
  for (const std::string& l : lines) EXPECT_LE(l.size(), kSummaryColumns) << l;
  EXPECT_EQ(joined(lines, 2), "  links.uplink: " + kUplinkReason + "; not retested");
}

TEST(SummaryLinkVerdicts, NodesAndLinksApart) {
  Table flags = flags_table();
  add_flag(flags, "n2->n3", "links.pair", 8, "link n2->n3: send at 8 % of n2's median, receive at 9 % of n3's");
  add_flag(flags, "n4", "links.node_out", 30, "n4: out 30 %, in 95 % of cohort median");
  const std::vector<std::string> lines = flag_verdict_lines(flags, 4, "s.h5");
  EXPECT_EQ(lines, (std::vector<std::string>{
                       "Flagged nodes (1 of 4): n4",
                       "  links.node_out: n4: out 30 %, in 95 % of cohort median; not retested",
                       "Flagged links and uplinks (1):",
                       "  links.pair: link n2->n3: send at 8 % of n2's median, receive at 9 % of n3's; not retested",
                   }));
}

TEST(SummaryLinkVerdicts, WrapBreaksAtSpacesAndCutsOnlyAWordLongerThanALine) {
  const std::string words = std::string(100, 'a') + " " + std::string(30, 'b');
  EXPECT_EQ(wrap_line(words), (std::vector<std::string>{std::string(100, 'a'), "    " + std::string(30, 'b')}));
  EXPECT_EQ(wrap_line("short"), (std::vector<std::string>{"short"}));
  const std::vector<std::string> long_word = wrap_line(std::string(130, 'c'));
  ASSERT_EQ(long_word.size(), 2u);
  EXPECT_EQ(long_word[0], std::string(kSummaryColumns, 'c'));
  EXPECT_EQ(long_word[1], "    " + std::string(130 - kSummaryColumns, 'c'));
}

}  // namespace
