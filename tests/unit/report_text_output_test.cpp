// What bwreport prints and exports as text: the standard output of every
// command has no raw control byte but newline and tab
// (core/PrintableText.hpp, TerminalTextBuffer), and exported text is valid UTF-8 with
// the bytes that are not written as \xNN (with_utf8_escapes).
#include <gtest/gtest.h>

#include <sstream>

#include "core/Table.hpp"
#include "core/PrintableText.hpp"
#include "report/ReportCommand.hpp"
#include "report/TableText.hpp"

namespace {

using bws::with_utf8_escapes;

TEST(ReportTextOutput, ControlBytesReachTheTerminalEscaped) {
  std::ostringstream sink;
  bws::TerminalTextBuffer buffer(sink.rdbuf());
  std::ostream out(&buffer);
  out << "a\x1b[2Jb\rc\n\td" << '\x07' << std::string("e\0f", 3) << "\x7f" << "caf\xc3\xa9 \xff";
  out.flush();
  EXPECT_EQ(sink.str(), "a\\x1b[2Jb\\rc\n\td\\x07e\\x00f\\x7fcaf\xc3\xa9 \\xff");
}

TEST(ReportTextOutput, EveryCommandPrintsThroughTheEscapingBuffer) {
  const bws::report::ReportCommand forged{
      "forged", "forged", [](const bws::report::CommandArgs&, std::ostream& out) {
        out << "status complete\x1b]0;title\x07\rmerged 9 runs\n";
        return 0;
      }};
  std::ostringstream out, err;
  EXPECT_EQ(bws::report::run_report_command(forged, {}, out, err), 0);
  EXPECT_EQ(out.str(), "status complete\\x1b]0;title\\x07\\rmerged 9 runs\n");
}

TEST(ReportTextOutput, BytesThatAreNotUtf8AreWrittenAsBackslashX) {
  EXPECT_EQ(with_utf8_escapes("n\xff" "1"), "n\\xff1");
  EXPECT_EQ(with_utf8_escapes("caf\xc3\xa9"), "caf\xc3\xa9");            // valid: kept
  EXPECT_EQ(with_utf8_escapes("\xc0\xaf"), "\\xc0\\xaf");                // overlong '/'
  EXPECT_EQ(with_utf8_escapes("\xed\xa0\x80"), "\\xed\\xa0\\x80");       // a surrogate
  EXPECT_EQ(with_utf8_escapes("\xe2\x82"), "\\xe2\\x82");                // cut short
  EXPECT_EQ(with_utf8_escapes("\xf0\x9f\x98\x80 \\x"), "\xf0\x9f\x98\x80 \\x");
}

TEST(ReportTextOutput, JsonAndCsvCellsAreValidUtf8) {
  bws::Table t("t", {bws::text_column("host", 16)});
  t.add_row({{"host", std::string("n\xff\n\"")}});
  std::ostringstream json, csv;
  bws::report::write_json(json, t);
  bws::report::write_csv(csv, t);
  EXPECT_EQ(json.str(), "[\n {\"host\": \"n\\\\xff\\n\\\"\"}\n]\n");
  EXPECT_EQ(csv.str(), "host\n\"n\\xff\n\"\"\"\n");
}

}  // namespace
