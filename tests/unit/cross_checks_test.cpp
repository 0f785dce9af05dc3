// Cross-checks between tests of one run (catalog/CrossChecks.hpp): BS1's
// Wmax against STREAM Copy and BS2's against Triad, per node, with the
// likely cause named when they disagree. Figures are given, the expected
// ratios worked out by hand from the streams each kernel moves.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "bs/BsResults.hpp"
#include "catalog/CrossChecks.hpp"
#include "core/ResultColumns.hpp"
#include "stream/StreamTables.hpp"

namespace bws::catalog {
namespace {

// A row with the given cells and every other column at a neutral default.
void add(Table& t, const std::map<std::string, Value>& given) {
  std::vector<Value> row;
  for (const Column& c : t.columns()) {
    const auto g = given.find(c.name);
    if (g != given.end()) row.push_back(g->second);
    else if (c.type == ColumnType::String) row.emplace_back(std::string());
    else if (c.type == ColumnType::Float64) row.emplace_back(0.0);
    else row.emplace_back(std::int64_t{0});
  }
  t.add_row_values(std::move(row));
}

void add_fit(Table& fits, const std::string& host, int rank, const std::string& test, double Wmax_Bps,
             const std::string& verdict = "result", int points = 8) {
  add(fits, {{"rank", rank}, {"host", host}, {"backend", bs::kBackendCpu}, {"test", test}, {"Wmax_Bps", Wmax_Bps},
             {"points_used", points}, {"first_fitted_bytes", std::int64_t{64} << 20}, {"fitted", 1},
             {"fit_verdict", verdict}});
}

void add_stream(Table& nodes, const std::string& host, const std::string& kernel, double Bps,
                const std::string& stores = "normal") {
  add(nodes, {{"host", host}, {"backend", bs::kBackendCpu}, {"kernel", kernel}, {"type", "double"}, {"stores", stores},
              {"bandwidth", Bps}});
}

const CheckRow* find(const std::vector<CheckRow>& rows, const std::string& check, const std::string& host) {
  for (const CheckRow& r : rows)
    if (r.check == check && r.subject.rfind(host + " ", 0) == 0) return &r;
  return nullptr;
}

TEST(CrossChecks, NodeRanksAddUpAndAgreeingFiguresPass) {
  Table fits = bs::make_bs_fits_table(), nodes = stream::make_stream_nodes_table();
  add_fit(fits, "n1", 0, "BS1", 21e9);  // two ranks of n1: 42 GB/s together
  add_fit(fits, "n1", 1, "BS1", 21e9);
  add_stream(nodes, "n1", "Copy", 42.0e9);
  const std::vector<CheckRow> rows = cross_checks({fits, nodes});
  const CheckRow* r = find(rows, "cross.bs1_copy", "n1");
  ASSERT_NE(r, nullptr);
  EXPECT_TRUE(r->passed) << r->subject;
  EXPECT_DOUBLE_EQ(r->measured, 1.0);
  EXPECT_DOUBLE_EQ(r->expected, 1.0);
  EXPECT_EQ(r->kind, "warning");  // a finding, not a failed run
  EXPECT_EQ(r->subject.find("likely"), std::string::npos);
}

TEST(CrossChecks, TheZen5FitAboveCopyFailsNamingCacheAssistedPoints) {
  Table fits = bs::make_bs_fits_table(), nodes = stream::make_stream_nodes_table();
  add_fit(fits, "vm", 0, "BS1", 67.2e9, "warning");
  add_stream(nodes, "vm", "Copy", 42.0e9);
  const std::vector<CheckRow> rows = cross_checks({fits, nodes});  // r points into it
  const CheckRow* r = find(rows, "cross.bs1_copy", "vm");
  ASSERT_NE(r, nullptr);
  EXPECT_FALSE(r->passed);
  EXPECT_NEAR(r->measured, 1.6, 1e-12);
  EXPECT_NEAR(r->upper, 1.1, 1e-12);
  EXPECT_NE(r->subject.find("cache-assisted points (fit from 64.00 MiB up)"), std::string::npos) << r->subject;
}

TEST(CrossChecks, NonTemporalStreamStoresChangeTheExpectedRatio) {
  // Copy with non-temporal stores moves 2 streams for 2 counted; BS1 (normal
  // stores, write-allocate) 3 for 2: at one memory throughput BS1 = 2/3 Copy.
  Table fits = bs::make_bs_fits_table(), nodes = stream::make_stream_nodes_table();
  add_fit(fits, "n1", 0, "BS1", 20e9);
  add_stream(nodes, "n1", "Copy", 30e9, "nontemporal");
  add_fit(fits, "n1", 0, "BS2", 40e9);  // in place: 3 of 3; Triad normal 4 of 3 -> 4/3
  add_stream(nodes, "n1", "Triad", 30e9);
  const std::vector<CheckRow> rows = cross_checks({fits, nodes});
  const CheckRow* copy = find(rows, "cross.bs1_copy", "n1");
  const CheckRow* triad = find(rows, "cross.bs2_triad", "n1");
  ASSERT_NE(copy, nullptr);
  ASSERT_NE(triad, nullptr);
  EXPECT_NEAR(copy->expected, 2.0 / 3.0, 1e-12);
  EXPECT_TRUE(copy->passed) << copy->subject;
  EXPECT_NEAR(triad->expected, 4.0 / 3.0, 1e-12);
  EXPECT_TRUE(triad->passed) << triad->subject;
}

TEST(CrossChecks, FailuresNameDifferentStoresAndTooFewPoints) {
  Table fits = bs::make_bs_fits_table(), nodes = stream::make_stream_nodes_table();
  add_fit(fits, "n1", 0, "BS1", 10e9, "result", 4);
  add_stream(nodes, "n1", "Copy", 30e9, "nontemporal");
  const std::vector<CheckRow> rows = cross_checks({fits, nodes});  // r points into it
  const CheckRow* r = find(rows, "cross.bs1_copy", "n1");
  ASSERT_NE(r, nullptr);
  EXPECT_FALSE(r->passed);
  EXPECT_NE(r->subject.find("different stores (STREAM nontemporal, BS normal)"), std::string::npos) << r->subject;
  EXPECT_NE(r->subject.find("too few points (4 fitted)"), std::string::npos) << r->subject;
  EXPECT_EQ(r->subject.find("cache-assisted"), std::string::npos) << r->subject;  // BS is below, not above
}

TEST(CrossChecks, NoCheckWithoutBothFiguresOrWithAWithheldFit) {
  Table fits = bs::make_bs_fits_table(), nodes = stream::make_stream_nodes_table();
  add_fit(fits, "n1", 0, "BS1", 67e9, "withheld");  // no figure to compare
  add_stream(nodes, "n1", "Copy", 42e9);
  add_fit(fits, "n2", 0, "BS1", 42e9);  // no STREAM on n2
  add_stream(nodes, "n3", "Copy", 42e9);  // no BS on n3
  EXPECT_TRUE(cross_checks({fits, nodes}).empty());
  EXPECT_TRUE(cross_checks({}).empty());
}

}  // namespace
}  // namespace bws::catalog
