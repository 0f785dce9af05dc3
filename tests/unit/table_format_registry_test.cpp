// The output formats of `bwreport export` are one class each, registered in
// one table: a toy format registered here is offered by --format and in
// --help, writes the tables it is given, and names a directory export's
// files, with no other change to bwreport.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <memory>
#include <ostream>
#include <sstream>
#include <string>

#include "core/ResultColumns.hpp"
#include "h5/ResultFile.hpp"
#include "report/ReportCommand.hpp"
#include "report/TableFormat.hpp"
#include "TestSupport.hpp"

namespace {

// One line per table: its path and row count.
class ToyFormat : public bws::report::TableFormat {
 public:
  std::string name() const override { return "toy"; }
  std::string extension() const override { return ".toy"; }
  std::string help() const override { return "a toy: the table's path and rows"; }
  void write(std::ostream& out, const bws::Table& table, bws::report::HeaderNames) const override {
    out << "toy " << table.path() << " rows=" << table.rows() << "\n";
  }
};

class TableFormatRegistry : public bws::test::TempDirTest {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
    if (!bws::report::find_table_format("toy")) bws::report::register_table_format(std::make_unique<ToyFormat>());
  }
  std::string write_survey() {
    const std::string path = file("survey.h5");
    bws::h5::ResultFile f = bws::h5::ResultFile::create(path, false);
    f.set_attribute("/", "tool_version", std::string("test"));
    f.set_attribute("/", "status", std::string("complete"));
    bws::Table t("toy/values", {bws::text_column("host", bws::kHostWidth), bws::real_column("bandwidth", "B/s")});
    t.add_row({{"host", std::string("n1")}, {"bandwidth", 1e9}});
    t.add_row({{"host", std::string("n2")}, {"bandwidth", 2e9}});
    f.append(t);
    f.close();
    return path;
  }
  struct Result {
    int code;
    std::string out, err;
  };
  Result bwreport_export(const bws::report::CommandArgs& args) {
    std::ostringstream out, err;
    const int code = bws::report::run_report_command(bws::report::export_command(), args, out, err);
    return {code, out.str(), err.str()};
  }
};

}  // namespace

TEST_F(TableFormatRegistry, ARegisteredFormatIsOfferedInHelp) {
  const Result r = bwreport_export({"--help"});
  ASSERT_EQ(r.code, 0) << r.err;
  // --help wraps its lines: compare with single spaces.
  std::string help;
  for (char c : r.out) {
    const bool space = std::isspace(static_cast<unsigned char>(c)) != 0;
    if (!space) help += c;
    else if (!help.empty() && help.back() != ' ') help += ' ';
  }
  EXPECT_NE(help.find("--format"), std::string::npos) << help;
  EXPECT_NE(help.find("toy: a toy: the table's path and rows"), std::string::npos) << help;
  EXPECT_NE(help.find("allowed: csv, json, toy"), std::string::npos) << help;
}

TEST_F(TableFormatRegistry, ARegisteredFormatWritesOneTable) {
  const std::string survey = write_survey();
  const Result r = bwreport_export({"--format", "toy", survey, "--table", "toy/values"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "toy toy/values rows=2\n");
}

TEST_F(TableFormatRegistry, ADirectoryExportNamesFilesAfterTheFormat) {
  const std::string survey = write_survey();
  const Result r = bwreport_export({"--format", "toy", survey});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::filesystem::path written = dir_ / "survey-toy" / "toy_values.toy";
  ASSERT_TRUE(std::filesystem::exists(written)) << r.out;
  EXPECT_EQ(bws::test::slurp(written), "toy toy/values rows=2\n");
}

TEST_F(TableFormatRegistry, AnUnknownFormatNamesTheOptionAndTheFormats) {
  const std::string survey = write_survey();
  const Result r = bwreport_export({"--format", "xml", survey});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("bwreport export: --format: unknown format 'xml'; allowed: csv, json, toy"), std::string::npos)
      << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST_F(TableFormatRegistry, TwoFormatsAreRefused) {
  const std::string survey = write_survey();
  const Result r = bwreport_export({"--format", "toy", "--csv", survey});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("give exactly one of --format, --csv, --json and --prometheus"), std::string::npos) << r.err;
}
