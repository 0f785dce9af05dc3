// `bwreport export --table nodes/verdicts` and nodes/cohorts: every node's
// value of every node metric judged by the flag rule, the source of the
// HTML report's verdicts, cohorts and distributions. A small survey file
// written with the real writer; the expected limits are worked out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "TestPrograms.hpp"
#include "core/ResultColumns.hpp"
#include "h5/ResultFile.hpp"
#include "TestSupport.hpp"

using bws::Table;

namespace {

// RFC 4180 rows (quoted cells may hold commas), header first.
std::vector<std::vector<std::string>> csv_rows(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string cell;
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') cell += '"', ++i;
      else if (c == '"') quoted = false;
      else cell += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      row.push_back(cell), cell.clear();
    } else if (c == '\n') {
      row.push_back(cell), cell.clear();
      rows.push_back(row), row.clear();
    } else {
      cell += c;
    }
  }
  return rows;
}

// Rows keyed by column name.
std::vector<std::map<std::string, std::string>> records(const std::string& text) {
  const auto rows = csv_rows(text);
  std::vector<std::map<std::string, std::string>> out;
  for (std::size_t r = 1; r < rows.size(); ++r) {
    std::map<std::string, std::string> m;
    for (std::size_t c = 0; c < rows[0].size() && c < rows[r].size(); ++c) m[rows[0][c]] = rows[r][c];
    out.push_back(m);
  }
  return out;
}

class NodeVerdictsExport : public bws::test::TempDirTest {
 protected:
  // Four nodes of one class (n1..n3 at 100 GB/s Triad, n4 at 50) and a
  // fifth of another class, alone in its cohort.
  // `config`: the survey's /config text (its options as INI).
  std::string write_survey(const std::string& config = "") {
    const std::string path = (dir_ / "survey.h5").string();
    bws::h5::ResultFile f = bws::h5::ResultFile::create(path, false);
    f.set_attribute("/", "tool_version", std::string("test"));
    f.set_attribute("/", "status", std::string("complete"));
    f.set_attribute("/", "n_nodes", std::int64_t{5});
    f.set_attribute("/", "n_ranks", std::int64_t{5});
    Table nodes("nodes/table", {bws::text_column("host", bws::kHostWidth), bws::text_column("cpu_model", 96),
                                bws::int_column("cores"), bws::int_column("memory_bytes", "B")});
    for (const char* host : {"n1", "n2", "n3", "n4"})
      nodes.add_row({{"host", std::string(host)}, {"cpu_model", std::string("cpuA")}, {"cores", 8},
                     {"memory_bytes", std::int64_t{1} << 34}});
    nodes.add_row({{"host", std::string("big1")}, {"cpu_model", std::string("cpuB")}, {"cores", 64},
                   {"memory_bytes", std::int64_t{1} << 38}});
    f.append(nodes);
    Table stream("stream/nodes", {bws::text_column("host", bws::kHostWidth), bws::text_column("backend", 16),
                                  bws::text_column("kernel", 16), bws::text_column("type", 16),
                                  bws::real_column("bandwidth", "B/s")});
    const std::map<std::string, double> triad = {{"n1", 100e9}, {"n2", 100e9}, {"n3", 100e9}, {"n4", 50e9},
                                                 {"big1", 300e9}};
    for (const auto& [host, bps] : triad) {
      stream.add_row({{"host", host}, {"backend", std::string("cpu")}, {"kernel", std::string("Triad")},
                      {"type", std::string("double")}, {"bandwidth", bps}});
      stream.add_row({{"host", host}, {"backend", std::string("cpu")}, {"kernel", std::string("Copy")},
                      {"type", std::string("double")}, {"bandwidth", 1.0}});  // not a node metric
    }
    f.append(stream);
    if (!config.empty()) f.write_text("config", config);
    f.close();
    return path;
  }
  bws::test::RunResult bwreport(const std::string& args) {
    return bws::test::run_shell(std::string(bws::test::bwreport_program()) + " " + args, dir_ / "out.txt", dir_ / "err.txt");
  }
};

}  // namespace

TEST_F(NodeVerdictsExport, EveryNodeIsJudgedInItsCohortWithEachRulesLimit) {
  const std::string path = write_survey();
  const auto r = bwreport("export --csv " + path + " --table nodes/verdicts");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto rows = records(r.out);
  ASSERT_EQ(rows.size(), 5u) << r.out;  // Triad only: Copy is no node metric
  std::map<std::string, std::map<std::string, std::string>> by_host;
  for (const auto& row : rows) by_host[row.at("host")] = row;
  // cpuA, 8 cores, 2^34 B = 16 GiB: the hardware class (lib/model/Cohorts).
  const auto& slow = by_host.at("n4");
  EXPECT_EQ(slow.at("metric"), "stream.triad[double]");
  EXPECT_EQ(slow.at("name"), "stream.triad");
  EXPECT_EQ(slow.at("cohort"), "cpuA, 8 cores, 16 GiB");
  EXPECT_EQ(slow.at("cohort_nodes"), "4");
  EXPECT_EQ(slow.at("higher_is_better"), "1");
  EXPECT_EQ(slow.at("unit"), "B/s");
  // Peers n1..n3: median 100e9; 50e9 < 0.75 x 100e9 = 75e9: "fraction".
  EXPECT_DOUBLE_EQ(std::stod(slow.at("value")), 50e9);
  EXPECT_DOUBLE_EQ(std::stod(slow.at("median")), 100e9);
  EXPECT_DOUBLE_EQ(std::stod(slow.at("percent_of_median")), 50.0);
  EXPECT_DOUBLE_EQ(std::stod(slow.at("fraction_limit")), 75e9);
  EXPECT_DOUBLE_EQ(std::stod(slow.at("limit")), 75e9);
  EXPECT_EQ(slow.at("spread_limit"), "nan");  // 4 nodes < 8
  EXPECT_EQ(slow.at("rule"), "fraction");
  EXPECT_EQ(slow.at("floor"), "nan");
  // n1: peers n2, n3, n4: median 100e9, limit 75e9, not flagged.
  EXPECT_EQ(by_host.at("n1").at("rule"), "");
  EXPECT_DOUBLE_EQ(std::stod(by_host.at("n1").at("limit")), 75e9);
  // big1 is alone in its cohort: judged by no relative rule.
  const auto& alone = by_host.at("big1");
  EXPECT_EQ(alone.at("cohort_nodes"), "1");
  EXPECT_EQ(alone.at("rule"), "");
  EXPECT_EQ(alone.at("limit"), "nan");
  EXPECT_EQ(alone.at("median"), "nan");
}

TEST_F(NodeVerdictsExport, TheSurveysOwnFloorFromItsConfigJudgesToo) {
  // The survey ran with --flags.floor stream.triad=120e9 (its /config): every
  // cpuA node is below it, the slow one by the fraction rule first; big1 at
  // 300e9 is above it.
  const std::string path = write_survey("flags.floor = stream.triad=120e9\n");
  const auto r = bwreport("export --csv " + path + " --table nodes/verdicts");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const auto& row : records(r.out)) {
    EXPECT_DOUBLE_EQ(std::stod(row.at("floor")), 120e9) << row.at("host");
    const std::string expected = row.at("host") == "big1" ? "" : row.at("host") == "n4" ? "fraction" : "floor";
    EXPECT_EQ(row.at("rule"), expected) << row.at("host");
  }
}

TEST_F(NodeVerdictsExport, CohortsListEveryNodeOfTheNodeTable) {
  const std::string path = write_survey();
  const auto r = bwreport("export --csv " + path + " --table nodes/cohorts");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto rows = records(r.out);
  ASSERT_EQ(rows.size(), 5u);
  std::map<std::string, std::string> cohort;
  for (const auto& row : rows) cohort[row.at("host")] = row.at("hardware_class");
  EXPECT_EQ(cohort.at("n2"), "cpuA, 8 cores, 16 GiB");
  EXPECT_EQ(cohort.at("big1"), "cpuB, 64 cores, 256 GiB");
}

TEST_F(NodeVerdictsExport, AFileWithoutNodeMetricsHasNoVerdictTableAndSaysWhich) {
  const std::string path = (dir_ / "empty.h5").string();
  {
    bws::h5::ResultFile f = bws::h5::ResultFile::create(path, false);
    f.set_attribute("/", "tool_version", std::string("test"));
    f.set_attribute("/", "status", std::string("complete"));
    f.close();
  }
  const auto r = bwreport("export --csv " + path + " --table nodes/verdicts");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("'nodes/verdicts' is not in"), std::string::npos) << r.err;
}
