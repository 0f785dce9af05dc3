// bwreport history baseline: the reference file from an archive with known
// values parses with bwsurvey's reader, its targets are the hand-computed
// medians of the recent window, and it judges nodes as designed.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "HistoryArchiveTestSupport.hpp"
#include "TestSupport.hpp"
#include "catalog/Registry.hpp"
#include "core/ResultColumns.hpp"
#include "history/HistoryCommands.hpp"
#include "model/References.hpp"

using namespace bws;
using bws::test::ArchiveBuilder;

namespace {

const std::string kTriad = "stream.triad[double]";
const std::string kLatency = "pmbw.perm_ram_latency";

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

const model::Reference* find(const std::vector<model::Reference>& refs, const std::string& pattern,
                             const std::string& metric) {
  for (const model::Reference& r : refs)
    if (r.host_pattern == pattern && r.metric == metric) return &r;
  return nullptr;
}

Table triads(const std::vector<std::pair<std::string, double>>& values) {
  Table t("stream/nodes", {text_column("host", 32), text_column("kernel", 16), text_column("backend", 16),
                           text_column("type", 8), real_column("bandwidth", "B/s")});
  for (const auto& [h, v] : values)
    t.add_row({{"host", h}, {"kernel", "Triad"}, {"backend", "cpu"}, {"type", "double"}, {"bandwidth", v}});
  return t;
}

class HistoryBaseline : public test::TempDirTest {
 protected:
  // Cohort "A" (a01..a04) and "B" (b01..b03); 5 surveys, the 2 oldest far
  // off so that a window of 3 shows in the medians.
  std::string archive() {
    const std::string path = file("a.db");
    ArchiveBuilder b(path);
    b.begin();
    for (int p = 0; p < 5; ++p) {
      const std::int64_t id = 5 - p;  // ids against time order
      b.survey(id, 7 * p);
      const bool old = p < 2;
      for (int h = 1; h <= 4; ++h) {
        // In the window: host h at 100 + h GB/s, + 0, 0.5, 1 in the 3 surveys.
        const double gbps = old ? 50.0 : 100.0 + h + 0.5 * (p - 2);
        b.value(id, "a0" + std::to_string(h), kTriad, gbps * 1e9, "A");
        b.value(id, "a0" + std::to_string(h), kLatency, old ? 300e-9 : 100e-9, "A", "s", false);
      }
      for (int h = 1; h <= 3; ++h) b.value(id, "b0" + std::to_string(h), kTriad, old ? 10e9 : 40e9, "B");
    }
    b.survey(9, 40, "partial: killed");  // newest, but not complete: never used
    b.value(9, "a01", kTriad, 1e9, "A");
    b.commit();
    return path;
  }
};

}  // namespace

TEST_F(HistoryBaseline, TargetsAreTheWindowsMediansAndTheFileParses) {
  const std::string path = archive();
  const std::string ref = file("ref.ini");
  const test::CommandResult r =
      test::run_command(history::history_baseline_command(), {path, "--out", ref, "--window", "3"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string text = read_text(ref);
  EXPECT_NE(text.find("# archive: " + path), std::string::npos) << text;
  EXPECT_NE(text.find("# window: the 3 most recent"), std::string::npos) << text;
  EXPECT_NE(text.find("# surveys used: 3 (ids 1,2,3)"), std::string::npos) << text;

  const auto metrics = catalog::all_node_metrics();
  const auto refs = model::parse_references(text, "ref.ini", metrics);
  ASSERT_EQ(refs.size(), 3u) << text;
  // A: values 101..105 (12 of them): median 103 GB/s, MAD 1 GB/s, so the
  // bound is 4 x 1.4826 x 1 / 103 = 0.0576; times lower-is-better.
  const model::Reference* a = find(refs, "a0*", kTriad);
  ASSERT_NE(a, nullptr) << text;
  EXPECT_NEAR(a->target, 103e9, 1e4);
  EXPECT_DOUBLE_EQ(a->lower_fraction, -0.0576);
  EXPECT_TRUE(a->upper_open);
  const model::Reference* latency = find(refs, "a0*", kLatency);
  ASSERT_NE(latency, nullptr);
  EXPECT_NEAR(latency->target, 100e-9, 1e-15);
  EXPECT_TRUE(latency->lower_open);
  EXPECT_DOUBLE_EQ(latency->upper_fraction, 0.05);  // no spread: the floor
  // B: 40 GB/s everywhere: the floor.
  const model::Reference* b = find(refs, "b0*", kTriad);
  ASSERT_NE(b, nullptr) << text;
  EXPECT_NEAR(b->target, 40e9, 1e3);
  EXPECT_DOUBLE_EQ(b->lower_fraction, -0.05);

  // The file judges a survey: a02 below 103 x (1 - 0.0576) = 97.07 GB/s
  // fails, a01 and b01 inside pass.
  const auto rows = model::check_references(refs, metrics, {triads({{"a01", 100e9}, {"a02", 96e9}, {"b01", 39e9}})});
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_TRUE(rows[0].passed);
  EXPECT_FALSE(rows[1].passed);
  EXPECT_DOUBLE_EQ(rows[1].expected, 103e9);
  EXPECT_TRUE(rows[2].passed);
}

// A node its own surveys flagged (a04, 4x slow in every survey of the
// window) is no part of the healthy reference: counted in, its values would
// pull the median down and widen the spread until it passed its own bound.
TEST_F(HistoryBaseline, ValuesTheSurveyFlaggedAreLeftOut) {
  const std::string path = file("flagged.db");
  {
    ArchiveBuilder b(path);
    b.begin();
    for (std::int64_t id = 1; id <= 3; ++id) {
      b.survey(id, static_cast<int>(id));
      for (int h = 1; h <= 3; ++h) b.value(id, "a0" + std::to_string(h), kTriad, (100.0 + h) * 1e9, "A");
      b.value(id, "a04", kTriad, 25e9, "A", "B/s", true, true, /*flagged=*/true);
    }
    b.commit();
  }
  const std::string ref = file("ref.ini");
  const test::CommandResult r = test::run_command(history::history_baseline_command(), {path, "--out", ref});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string text = read_text(ref);
  EXPECT_NE(text.find("flagged"), std::string::npos) << text;  // the file says what it left out
  const auto metrics = catalog::all_node_metrics();
  const auto refs = model::parse_references(text, "ref.ini", metrics);
  ASSERT_EQ(refs.size(), 1u) << text;
  // The 9 healthy values 101, 102, 103 (x3): median 102 GB/s, MAD 1 GB/s,
  // bound 4 x 1.4826 x 1 / 102 = 0.0581. With a04's three 25s counted the
  // median would be 101.5.
  EXPECT_NEAR(refs[0].target, 102e9, 1e4);
  EXPECT_DOUBLE_EQ(refs[0].lower_fraction, -0.0581);
  const auto rows = model::check_references(refs, metrics, {triads({{"a01", 101e9}, {"a04", 25e9}})});
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_TRUE(rows[0].passed);
  EXPECT_FALSE(rows[1].passed);
}

TEST_F(HistoryBaseline, OneCohortIsStarAndAPrefixSharedWithAnotherIsPerHost) {
  const std::string path = file("b.db");
  {
    ArchiveBuilder b(path);
    b.begin();
    for (int p = 0; p < 3; ++p) {
      b.survey(p + 1, p);
      b.value(p + 1, "n1", kTriad, 50e9, "small");
      b.value(p + 1, "n2", kTriad, 52e9, "small");
      b.value(p + 1, "n10", kTriad, 80e9, "big");  // "n1*" would match it
    }
    b.commit();
  }
  const std::string ref = file("ref.ini");
  ASSERT_EQ(test::run_command(history::history_baseline_command(), {path, "--out", ref}).code, 0);
  const auto refs = model::parse_references(read_text(ref), "ref.ini", catalog::all_node_metrics());
  ASSERT_EQ(refs.size(), 3u) << read_text(ref);
  ASSERT_NE(find(refs, "n10*", kTriad), nullptr) << read_text(ref);
  ASSERT_NE(find(refs, "n1", kTriad), nullptr);
  EXPECT_NEAR(find(refs, "n1", kTriad)->target, 51e9, 1e3);  // median of 50, 52
  EXPECT_NEAR(find(refs, "n2", kTriad)->target, 51e9, 1e3);

  // A single cohort: '*'.
  const std::string one = file("one.db");
  {
    ArchiveBuilder b(one);
    b.survey(1, 0);
    b.value(1, "x1", kTriad, 30e9);
    b.value(1, "y1", kTriad, 30e9);
  }
  ASSERT_EQ(test::run_command(history::history_baseline_command(), {one, "--out", ref}).code, 0);
  const auto star = model::parse_references(read_text(ref), "ref.ini", catalog::all_node_metrics());
  ASSERT_EQ(star.size(), 1u);
  EXPECT_EQ(star[0].host_pattern, "*");
}

TEST_F(HistoryBaseline, BadOptionsAndTheArchiveAsOutputChangeNothing) {
  const std::string path = archive();
  const std::string before = read_text(path);
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{path, "--out", path}, {path, "--out", file("r.ini"), "--window", "0"},
        {path, "--out", file("r.ini"), "--k", "-1"}, {path}, {file("none.db"), "--out", file("r.ini")}}) {
    const test::CommandResult r = test::run_command(history::history_baseline_command(), args);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  // Nothing to learn from: no file.
  const std::string empty = file("empty.db");
  { ArchiveBuilder b(empty); b.survey(1, 0, "partial: killed"); b.value(1, "a01", kTriad, 1e9); }
  const test::CommandResult r = test::run_command(history::history_baseline_command(), {empty, "--out", file("r.ini")});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("nothing to learn"), std::string::npos) << r.err;
  EXPECT_EQ(read_text(path), before);
  EXPECT_FALSE(std::filesystem::exists(file("r.ini")));
  EXPECT_FALSE(std::filesystem::exists(file("none.db")));
}
