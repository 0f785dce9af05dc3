// The run's collaborators that need no MPI: the record bundle a rank sends
// rank 0, and the one summary shared by the terminal and `bwreport summary`.
#include <gtest/gtest.h>

#include "core/Errors.hpp"
#include "core/ResultColumns.hpp"
#include "model/NodeFlags.hpp"
#include "run/RecordBundle.hpp"
#include "report/RunSummary.hpp"

using namespace bws;
using namespace bws::run;
using namespace bws::catalog;
using namespace bws::report;

namespace {

Table numbers(const std::string& path, std::int64_t first, std::size_t rows) {
  Table t(path, {int_column("n")});
  for (std::size_t r = 0; r < rows; ++r) t.add_row({{"n", first + static_cast<std::int64_t>(r)}});
  return t;
}

}  // namespace

TEST(RecordBundle, TablesAndMetadataTextsComeBackAsSent) {
  RecordBundle sent;
  sent.rank_tables = {numbers("a/table", 10, 3), numbers("b/table", 0, 0)};
  sent.node_tables = {numbers("nodes/table", 7, 1)};
  const std::string xml = std::string("<topology>\n") + std::string(1000, 'x') + '\0' + "</topology>";
  sent.texts = {{"/nodes/n1/topology_xml", xml}, {"/nodes/n2/empty", ""}};
  const RecordBundle got = unpack_bundle(pack_bundle(sent));
  ASSERT_EQ(got.rank_tables.size(), 2u);
  EXPECT_EQ(got.rank_tables[0].path(), "a/table");
  ASSERT_EQ(got.rank_tables[0].rows(), 3u);
  EXPECT_EQ(got.rank_tables[0].get_int(2, "n"), 12);
  EXPECT_EQ(got.rank_tables[1].rows(), 0u);
  ASSERT_EQ(got.node_tables.size(), 1u);
  EXPECT_EQ(got.node_tables[0].get_int(0, "n"), 7);
  ASSERT_EQ(got.texts.size(), 2u);
  EXPECT_EQ(got.texts[0].path, "/nodes/n1/topology_xml");
  EXPECT_EQ(got.texts[0].text, xml);  // every byte, the NUL too
  EXPECT_EQ(got.texts[1].text, "");
}

TEST(RecordBundle, ACutPayloadIsRefused) {
  RecordBundle sent;
  sent.rank_tables = {numbers("a/table", 1, 2)};
  sent.texts = {{"/nodes/n1/topology_xml", "<topology/>"}};
  const std::vector<std::byte> bytes = pack_bundle(sent);
  for (std::size_t cut : {std::size_t{0}, std::size_t{4}, bytes.size() / 2, bytes.size() - 1}) {
    const std::vector<std::byte> part(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(cut));
    EXPECT_THROW(unpack_bundle(part), RuntimeFailure) << cut;
  }
}

TEST(RunSummary, ChecksFlagsAndErrorsInTheirOrder) {
  SummaryRecord record;
  Table checks = make_checks_table();
  add_check(checks, {"stream.validation", "rank 0", "validation", 0, 0, 0, 1e-13, "", true});
  add_check(checks, {"stream.validation", "rank 1", "validation", 0, 0, 0, 1e-13, "", true});
  add_check(checks, {"pinning.verified", "rank 1 (n2)", "warning", 1, 2, 2, 2, "threads", false});
  Outcome outcome;
  outcome.account(checks);
  outcome.runtime_failure("stream: rank 1 (n2): out of memory");
  record.outcome = outcome;
  record.flags = model::make_flags_table();
  record.n_nodes = 3;
  record.file = "/results/run.h5";
  // Verdicts first: the checks (errors before warnings), the flags, then
  // where to see more.
  const std::vector<std::string> expected = {
      "",
      "Checks: 2 passed, 0 failed, 1 warnings",
      "  ERROR: stream: rank 1 (n2): out of memory",
      "  warning: pinning.verified: rank 1 (n2): measured 1, allowed 2..2 threads",
      "",
      "Flagged nodes: none of 3",
      "",
      "Every flag: bwreport flags /results/run.h5",
      "The report: bwreport plot /results/run.h5 -o DIR",
  };
  EXPECT_EQ(summary_lines(record), expected);
}

TEST(RunSummary, NothingKnownPrintsNothing) {
  EXPECT_TRUE(summary_lines(SummaryRecord{}).empty());
  // Only the checks of a scaling study.
  SummaryRecord checks_only;
  checks_only.outcome = Outcome{};
  EXPECT_EQ(summary_lines(checks_only), (std::vector<std::string>{"", "Checks: 0 passed, 0 failed, 0 warnings"}));
}

TEST(RunSummary, TheTablesOfABenchmarkAreItsReportsAndItsMetrics) {
  const CatalogEntry* beff = find_benchmark("beff");
  ASSERT_NE(beff, nullptr);
  const std::vector<std::string> tables = summary_tables(*beff);
  for (const char* path : {"beff/sizes", "beff/summary", "beff/ranks"})
    EXPECT_NE(std::find(tables.begin(), tables.end(), path), tables.end()) << path;
  EXPECT_EQ(std::count(tables.begin(), tables.end(), "beff/summary"), 1);
}
