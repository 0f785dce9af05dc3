// lib/model/References: the reference file (ReFrame's target, lower, upper,
// unit per host pattern) and its verdicts.
#include <gtest/gtest.h>

#include <cmath>

#include "TestSupport.hpp"
#include "core/ResultColumns.hpp"
#include "model/References.hpp"

using namespace bws;
using namespace bws::model;

namespace {

const std::vector<NodeMetric> kMetrics = {
    {"stream.triad", "stream/nodes", "bandwidth", "B/s", {{"kernel", "Triad"}}, {"type"}},
    {"pmbw.perm_ram", "pmbw/nodes", "perm_ram_access_seconds", "s", {}, {}, HostAggregate::Mean, false}};

Table triads(const std::vector<std::pair<std::string, double>>& values) {
  Table t("stream/nodes", {text_column("host", 32), text_column("kernel", 16), text_column("type", 8),
                           real_column("bandwidth", "B/s")});
  for (const auto& [h, v] : values) t.add_row({{"host", h}, {"kernel", "Triad"}, {"type", "double"}, {"bandwidth", v}});
  return t;
}

std::string parse_error(const std::string& text) {
  return test::usage_error_of([&] { parse_references(text, "--reference 'r.ini'", kMetrics); });
}

}  // namespace

TEST(References, ParsedWithUnitsAndOpenBounds) {
  const auto refs = parse_references(
      "# all nodes\nstream.triad = 30, -0.1, none, GB/s\n[gpu*]\nstream.triad[double] = 40e9, -0.05, 0.05, B/s\n"
      "pmbw.perm_ram = 120, none, 0.2, ns\n",
      "--reference 'r.ini'", kMetrics);
  ASSERT_EQ(refs.size(), 3u);
  EXPECT_EQ(refs[0].host_pattern, "*");
  EXPECT_DOUBLE_EQ(refs[0].target, 30e9);
  EXPECT_DOUBLE_EQ(refs[0].lower_fraction, -0.1);
  EXPECT_TRUE(refs[0].upper_open);
  EXPECT_EQ(refs[1].host_pattern, "gpu*");
  EXPECT_DOUBLE_EQ(refs[2].target, 120e-9);
  EXPECT_TRUE(refs[2].lower_open);
}

TEST(References, MistakesNameTheLine) {
  EXPECT_EQ(parse_error("\n\nbogus = 1, 0, 0, B/s\n"),
            "--reference 'r.ini' line 3: unknown metric 'bogus'; metrics: stream.triad, pmbw.perm_ram");
  EXPECT_EQ(parse_error("stream.triad = 30, -0.1, 0.1, ns\n"),
            "--reference 'r.ini' line 1: unit 'ns' does not fit stream.triad, measured in B/s");
  EXPECT_EQ(parse_error("stream.triad = 30, 0.1, 0.1, GB/s\n"),
            "--reference 'r.ini' line 1: lower is a fraction of the target <= 0 (e.g. -0.1), or none");
  EXPECT_EQ(parse_error("stream.triad = 30, -0.1, GB/s\n"),
            "--reference 'r.ini' line 1: expected 'metric = target, lower, upper, unit' (4 values)");
  EXPECT_EQ(parse_error("stream.triad = 0, -0.1, 0.1, GB/s\n"), "--reference 'r.ini' line 1: the target must be > 0");
  EXPECT_EQ(parse_error("[n1\n"), "--reference 'r.ini' line 1: a section is [host pattern]");
}

TEST(References, TheFirstMatchingSectionJudgesEachNode) {
  const auto refs = parse_references("[n1]\nstream.triad = 20, -0.1, 0.1, GB/s\n[*]\nstream.triad = 30, -0.1, none, GB/s\n",
                                     "r", kMetrics);
  const auto rows = check_references(refs, kMetrics, {triads({{"n1", 21e9}, {"n2", 31e9}, {"n3", 26e9}})});
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].check, "reference.stream.triad");
  EXPECT_EQ(rows[0].subject, "n1 stream.triad[double]");
  EXPECT_EQ(rows[0].kind, "model");
  EXPECT_DOUBLE_EQ(rows[0].expected, 20e9);
  EXPECT_DOUBLE_EQ(rows[0].lower, 18e9);
  EXPECT_DOUBLE_EQ(rows[0].upper, 22e9);
  EXPECT_TRUE(rows[0].passed);
  EXPECT_TRUE(rows[1].passed);                  // 31 >= 27, no upper bound
  EXPECT_EQ(rows[1].upper, INFINITY);
  EXPECT_FALSE(rows[2].passed);                 // 26 < 27
  EXPECT_DOUBLE_EQ(rows[2].measured, 26e9);
}
