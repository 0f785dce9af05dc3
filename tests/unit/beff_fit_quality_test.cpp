// b_eff's Hockney fit through the quality gate: the verdict and reason in
// /beff/summary (written and read back), and the summary line, which never
// prints the figures of a fit that does not describe its data. Files
// written before the verdict columns are gated from what they kept.
#include <gtest/gtest.h>

#include "BeffTestSupport.hpp"
#include "TestSupport.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "beff/BeffBenchmark.hpp"
#include "beff/BeffResults.hpp"
#include "beff/BeffRings.hpp"
#include "beff/BeffTables.hpp"
#include "h5/ResultFile.hpp"

namespace bws::beff {
namespace {

// Per-exchange times (L, t) of a ring of 2 ranks, looplength 1000.
RingResult ring_of(const std::vector<std::pair<std::uint64_t, double>>& times) {
  RingMeasurement m;
  m.ring = natural_ring(2);
  for (const auto& [L, t] : times) m.sizes.push_back(size_of(L, 1000, {samples(ExchangeMethod::Sendrecv, {1000 * t})}));
  return ring_result(m);
}

// Times that barely grow with L and scatter by +-40 %: R^2 far below 0.9.
RingResult scattered_ring() {
  return ring_of({{1, 1.0e-6}, {16, 1.4e-6}, {256, 0.7e-6}, {4096, 1.3e-6}, {65536, 0.8e-6}, {1048576, 1.5e-6}});
}

// t(L) = 2 us + L / 1 GB/s exactly.
RingResult exact_ring() {
  std::vector<std::pair<std::uint64_t, double>> times;
  for (std::uint64_t L : {1ull, 8ull, 64ull, 1024ull, 65536ull, 1048576ull})
    times.emplace_back(L, 2e-6 + static_cast<double>(L) / 1e9);
  return ring_of(times);
}

std::pair<Table, Table> tables_of(const RingResult& ring) {
  Table sizes = make_beff_sizes_table(), summary = make_beff_summary_table();
  add_size_rows(sizes, ring);
  SummaryExtras extras;
  extras.reference = "the natural ring itself (2 ranks)";
  add_summary_row(summary, ring, extras);
  return {std::move(sizes), std::move(summary)};
}

// The summary's line holding the Hockney fit.
std::string hockney_line(const Table& sizes, const Table& summary) {
  const std::vector<std::string> lines = make_beff_report()->summary_lines({sizes, summary});
  const auto it = std::find_if(lines.begin(), lines.end(),
                               [](const std::string& l) { return l.find("Hockney") != std::string::npos; });
  return it == lines.end() ? std::string() : *it;
}

// The summary table as files before the verdict columns had it.
Table without_verdict_columns(const Table& summary) {
  std::vector<Column> columns;
  for (const Column& c : summary.columns())
    if (c.name != "hockney_verdict" && c.name != "hockney_quality") columns.push_back(c);
  Table old(summary.path(), columns);
  for (std::size_t r = 0; r < summary.rows(); ++r) {
    std::vector<Value> cells;
    for (const Column& c : columns) cells.push_back(summary.at(r, c.name));
    old.add_row_values(std::move(cells));
  }
  return old;
}

class BeffFitQualityFile : public test::TempDirTest {
 protected:
  // Writes the tables to a result file and reads them back.
  std::pair<Table, Table> round_trip(const Table& sizes, const Table& summary) {
    {
      h5::ResultFile f = h5::ResultFile::create(file("beff.h5"), false);
      f.append(sizes);
      f.append(summary);
      f.close();
    }
    const h5::ResultReader r = h5::ResultReader::open(file("beff.h5"));
    return {r.read_table(std::string(kSizesPath)), r.read_table(std::string(kSummaryPath))};
  }
};

TEST(BeffFitQuality, PoorHockneyFitIsWithheldNotPrinted) {
  const RingResult ring = scattered_ring();
  ASSERT_TRUE(ring.hockney.valid) << ring.hockney.invalid_reason;
  ASSERT_LT(ring.hockney.r_squared, 0.9);
  const auto [sizes, summary] = tables_of(ring);
  EXPECT_EQ(summary.get_string(0, "hockney_verdict"), "withheld");
  EXPECT_EQ(summary.get_string(0, "hockney_quality").rfind("R^2 0.", 0), 0u) << summary.get_string(0, "hockney_quality");
  // The fitted figures stay in the file: they are the record.
  EXPECT_GT(summary.get_double(0, "hockney_beta_Bps"), 0);

  const std::string line = hockney_line(sizes, summary);
  EXPECT_NE(line.find("Hockney fit withheld: R^2 0."), std::string::npos) << line;
  EXPECT_EQ(line.find("beta"), std::string::npos) << line;
  EXPECT_EQ(line.find("alpha"), std::string::npos) << line;
  EXPECT_EQ(line.find("its b_eff"), std::string::npos) << line;
}

TEST(BeffFitQuality, GoodHockneyFitIsPrintedAsAResult) {
  const auto [sizes, summary] = tables_of(exact_ring());
  EXPECT_EQ(summary.get_string(0, "hockney_verdict"), "result");
  EXPECT_EQ(summary.get_string(0, "hockney_quality"), "");
  const std::string line = hockney_line(sizes, summary);
  EXPECT_NE(line.find("Hockney alpha = 2.00 us, beta = 1.000 GB/s (R^2 = 1.0000)"), std::string::npos) << line;
  EXPECT_EQ(line.find("poor fit"), std::string::npos) << line;
  EXPECT_EQ(line.find("withheld"), std::string::npos) << line;
}

TEST(BeffFitQuality, WarningPrintsTheFigureWithItsQuality) {
  auto [sizes, summary] = tables_of(exact_ring());
  summary.set(0, "hockney_verdict", std::string("warning"));
  summary.set(0, "hockney_quality", std::string("R^2 0.93"));
  const std::string line = hockney_line(sizes, summary);
  EXPECT_NE(line.find("beta = 1.000 GB/s"), std::string::npos) << line;
  EXPECT_NE(line.find("GB/s (poor fit: R^2 0.93)"), std::string::npos) << line;
}

TEST_F(BeffFitQualityFile, VerdictAndReasonReadBack) {
  const auto [sizes, summary] = tables_of(scattered_ring());
  const auto [sizes_back, summary_back] = round_trip(sizes, summary);
  ASSERT_EQ(summary_back.rows(), 1u);
  EXPECT_EQ(summary_back.get_string(0, "hockney_verdict"), "withheld");
  EXPECT_EQ(summary_back.get_string(0, "hockney_quality"), summary.get_string(0, "hockney_quality"));
  EXPECT_EQ(hockney_line(sizes_back, summary_back), hockney_line(sizes, summary));
}

// A file of an older bwsurvey: no verdict columns. bwreport still reads it,
// and gates its fit from R^2, alpha and the per-size residuals it kept.
TEST_F(BeffFitQualityFile, OldFileWithoutVerdictIsGatedFromWhatItKept) {
  const auto [sizes, summary] = tables_of(scattered_ring());
  const auto [sizes_back, old_back] = round_trip(sizes, without_verdict_columns(summary));
  ASSERT_FALSE(old_back.has_column("hockney_verdict"));
  const std::string line = hockney_line(sizes_back, old_back);
  EXPECT_NE(line.find("Hockney fit withheld: R^2 0."), std::string::npos) << line;
  EXPECT_EQ(line.find("beta"), std::string::npos) << line;
}

TEST_F(BeffFitQualityFile, OldFileWithAGoodFitStillPrintsIt) {
  const auto [sizes, summary] = tables_of(exact_ring());
  const auto [sizes_back, old_back] = round_trip(sizes, without_verdict_columns(summary));
  const std::string line = hockney_line(sizes_back, old_back);
  EXPECT_NE(line.find("Hockney alpha = 2.00 us, beta = 1.000 GB/s"), std::string::npos) << line;
  EXPECT_EQ(line.find("poor fit"), std::string::npos) << line;
}

}  // namespace
}  // namespace bws::beff
