// bwreport export --prometheus, the pure parts: metric names with their
// unit, label escaping, the ISO 8601 start time, and the exposition text
// of hand-made records (non-finite values left out, flags 0/1 with a
// dismissed flag 0, HELP/TYPE once per family, timestamps only when asked).
// The real round trips (promtool, node_exporter) are
// tests/report/prometheus_export_test.py.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "core/ResultColumns.hpp"
#include "model/NodeFlags.hpp"
#include "report/PrometheusExport.hpp"

using bws::report::prometheus_label_value;
using bws::report::prometheus_metric_name;

namespace {

std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

bws::model::NodeMetricValue value(const std::string& host, const std::string& group, double v) {
  bws::model::NodeMetricValue out;
  out.name = "stream.triad";
  out.metric = group.empty() ? out.name : out.name + "[" + group + "]";
  out.host = host;
  out.value = v;
  out.unit = "B/s";
  return out;
}

bws::Table flags(const std::vector<std::vector<std::string>>& rows) {
  bws::Table t("flags", {bws::text_column("host", 128), bws::text_column("metric", 64), bws::text_column("status", 64)});
  for (const auto& r : rows) t.add_row({{"host", r[0]}, {"metric", r[1]}, {"status", r[2]}});
  return t;
}

}  // namespace

TEST(PrometheusExport, MetricNamesCarryTheUnitAndOnlyAllowedCharacters) {
  EXPECT_EQ(prometheus_metric_name("stream.triad", "B/s"), "bwsurvey_stream_triad_bytes_per_second");
  EXPECT_EQ(prometheus_metric_name("pmbw.perm_ram_latency", "s"), "bwsurvey_pmbw_perm_ram_latency_seconds");
  EXPECT_EQ(prometheus_metric_name("x.size", "B"), "bwsurvey_x_size_bytes");
  EXPECT_EQ(prometheus_metric_name("bs.fit", ""), "bwsurvey_bs_fit");
  EXPECT_EQ(prometheus_metric_name("a-b c", "GB/s"), "bwsurvey_a_b_c_gb_per_s");
  EXPECT_EQ(prometheus_metric_name("k:v", "%"), "bwsurvey_k:v__");
}

TEST(PrometheusExport, LabelValuesAreEscapedAsTheFormatSays) {
  EXPECT_EQ(prometheus_label_value("n\"1"), "n\\\"1");
  EXPECT_EQ(prometheus_label_value("a\\b"), "a\\\\b");
  EXPECT_EQ(prometheus_label_value("line\nbreak"), "line\\nbreak");
  EXPECT_EQ(prometheus_label_value("\\\"\n"), "\\\\\\\"\\n");
  EXPECT_EQ(prometheus_label_value("caf\xC3\xA9"), "caf\xC3\xA9");           // valid UTF-8 stays
  EXPECT_EQ(prometheus_label_value("x\xFFy"), "x\xEF\xBF\xBDy");              // invalid byte -> U+FFFD
  EXPECT_EQ(prometheus_label_value("\xC3"), "\xEF\xBF\xBD");                  // cut sequence
  EXPECT_EQ(prometheus_label_value("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate
  EXPECT_EQ(prometheus_label_value("esc\x1b[31m"), "esc\xEF\xBF\xBD[31m");     // no raw control characters
}

TEST(PrometheusExport, StartTimeIsReadFromIso8601Utc) {
  EXPECT_EQ(bws::report::utc_iso8601_seconds("1970-01-02T00:00:00Z"), 86400.0);
  EXPECT_EQ(bws::report::utc_iso8601_seconds("2025-01-31T12:00:00Z"), 1738324800.0);
  EXPECT_TRUE(std::isnan(bws::report::utc_iso8601_seconds("")));
  EXPECT_TRUE(std::isnan(bws::report::utc_iso8601_seconds("2025-01-31 12:00:00")));
  EXPECT_TRUE(std::isnan(bws::report::utc_iso8601_seconds("2025-13-31T12:00:00Z")));
  EXPECT_TRUE(std::isnan(bws::report::utc_iso8601_seconds("2025-01-31T12:00:00Zjunk")));
}

TEST(PrometheusExport, TextHoldsEachGaugeOnceWithItsLabels) {
  bws::report::PrometheusRecords records;
  records.values = {value("n1", "double", 2.5e11), value("n\"2", "double", 1e11), value("n3", "double", NAN),
                    value("n1", "float", 1.25e11)};
  records.cohorts = {{"n1", "EPYC, 64 cores"}};
  records.flags = flags({{"n\"2", "stream.triad[double]", bws::model::kFlagConfirmed},
                         {"n1", "stream.triad[float]", bws::model::kFlagTransient},
                         {"a->b", "links.pair", bws::model::kFlagNotRetested}});
  records.survey = {"4711", "0.1.0", "abc", 1738324800.0};
  std::ostringstream out;
  bws::report::write_prometheus(out, records, false);
  const std::string text = out.str();
  const std::string triad = "bwsurvey_stream_triad_bytes_per_second";
  EXPECT_EQ(occurrences(text, "# HELP " + triad + " "), 1u) << text;
  EXPECT_EQ(occurrences(text, "# TYPE " + triad + " gauge\n"), 1u) << text;
  EXPECT_NE(text.find(triad + "{host=\"n1\",cohort=\"EPYC, 64 cores\",group=\"double\"} 250000000000\n"),
            std::string::npos) << text;
  EXPECT_NE(text.find(triad + "{host=\"n\\\"2\",cohort=\"unknown hardware\",group=\"double\"} 100000000000\n"),
            std::string::npos) << text;
  EXPECT_NE(text.find(triad + "{host=\"n1\",cohort=\"EPYC, 64 cores\",group=\"float\"} 125000000000\n"),
            std::string::npos) << text;
  EXPECT_EQ(text.find("n3"), std::string::npos) << "a NaN value is left out\n" << text;
  EXPECT_NE(text.find("bwsurvey_flagged{host=\"n1\",metric=\"stream.triad[double]\"} 0\n"), std::string::npos);
  EXPECT_NE(text.find("bwsurvey_flagged{host=\"n\\\"2\",metric=\"stream.triad[double]\"} 1\n"), std::string::npos);
  EXPECT_NE(text.find("bwsurvey_flagged{host=\"n1\",metric=\"stream.triad[float]\"} 0\n"), std::string::npos)
      << "a flag the retest dismissed is 0\n" << text;
  EXPECT_NE(text.find("bwsurvey_flagged{host=\"a->b\",metric=\"links.pair\"} 1\n"), std::string::npos) << text;
  EXPECT_EQ(occurrences(text, "# TYPE bwsurvey_flagged gauge\n"), 1u);
  EXPECT_NE(text.find("bwsurvey_survey_info{job_id=\"4711\",version=\"0.1.0\",commit=\"abc\"} 1\n"), std::string::npos);
  EXPECT_NE(text.find("bwsurvey_survey_start_time_seconds 1738324800\n"), std::string::npos) << text;
  EXPECT_EQ(occurrences(text, "\n# HELP "), 4u - 1u) << "four families";

  std::ostringstream stamped;
  bws::report::write_prometheus(stamped, records, true);
  std::istringstream lines(stamped.str());
  std::size_t samples = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == '#') continue;
    ++samples;
    EXPECT_EQ(line.substr(line.size() - 14), " 1738324800000") << line;
  }
  EXPECT_EQ(samples, 3u + 4u + 1u + 1u);
}

TEST(PrometheusExport, UnknownStartTimeGivesNoStartGaugeAndNoTimestamps) {
  bws::report::PrometheusRecords records;
  records.values = {value("n1", "", 1.0)};
  records.flags = flags({});
  std::ostringstream out;
  bws::report::write_prometheus(out, records, true);
  EXPECT_EQ(out.str().find("start_time"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("bwsurvey_stream_triad_bytes_per_second{host=\"n1\",cohort=\"unknown hardware\"} 1\n"),
            std::string::npos) << out.str();
}
