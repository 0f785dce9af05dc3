// bwreport on untrusted result files. Each file here is
// made hostile on purpose, with the real writer or with the HDF5 C API
// directly (a text column where a number belongs, 2^40 declared rows in a
// few bytes of storage, a missing or mistyped attribute, control characters
// in host names), and every bwreport subcommand is run on it as a real
// process: it either works (exit 0, nothing raw from the file on stdout) or
// refuses the file as bad input (exit 2, exactly one stderr line naming the
// dataset). Never exit 1, an exception type's name, a traceback or a crash.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "FlagsTableFixture.hpp"
#include "TestPrograms.hpp"
#include "core/ResultColumns.hpp"
#include "h5/ResultFile.hpp"
#include "model/NodeFlags.hpp"
#include "TestSupport.hpp"

namespace fs = std::filesystem;
using bws::Table;

namespace {

using bws::test::RunResult;
using bws::test::slurp;
using bws::test::flags_table;

std::string shell_quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::size_t line_count(const std::string& text) { return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')); }

// A control character other than the line ends a printer writes.
bool has_raw_control(const std::string& text) {
  return std::any_of(text.begin(), text.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return (u < 0x20 && c != '\n') || u == 0x7f;
  });
}

Table nodes_table() {
  Table t("nodes/table", {bws::text_column("host", bws::kHostWidth), bws::text_column("cpu_model", 96),
                          bws::int_column("cores"), bws::int_column("memory_bytes", "B")});
  t.add_row({{"host", "n1"}, {"cpu_model", "cpu"}, {"cores", 8}, {"memory_bytes", std::int64_t{1} << 34}});
  t.add_row({{"host", "n2"}, {"cpu_model", "cpu"}, {"cores", 8}, {"memory_bytes", std::int64_t{1} << 34}});
  return t;
}

// Opens a written file with the C API for a change the writer would never make.
void with_raw_file(const std::string& path, const std::function<void(hid_t)>& change) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(file, 0) << path;
  change(file);
  H5Fclose(file);
}

void set_extent(hid_t file, const char* dataset_path, std::vector<hsize_t> extent) {
  const hid_t dataset = H5Dopen2(file, dataset_path, H5P_DEFAULT);
  ASSERT_GE(dataset, 0);
  ASSERT_GE(H5Dset_extent(dataset, extent.data()), 0);
  H5Dclose(dataset);
}

void replace_with_int_attribute(hid_t file, const char* object_path, const char* name) {
  const hid_t object = H5Oopen(file, object_path, H5P_DEFAULT);
  ASSERT_GE(object, 0);
  if (H5Aexists(object, name) > 0) H5Adelete(object, name);
  const hid_t space = H5Screate(H5S_SCALAR);
  const hid_t attribute = H5Acreate2(object, name, H5T_STD_I64LE, space, H5P_DEFAULT, H5P_DEFAULT);
  const long long value = 7;
  H5Awrite(attribute, H5T_NATIVE_LLONG, &value);
  H5Aclose(attribute);
  H5Sclose(space);
  H5Oclose(object);
}

class BwreportHostile : public bws::test::TempDirTest {
 protected:
  BwreportHostile() : TempDirTest("bws_hostile") {}

  // A small complete survey file; `adjust` may add to it or leave things out.
  std::string write_survey(const std::string& name, const std::function<void(bws::h5::ResultFile&)>& adjust,
                           bool with_n_nodes = true) {
    const std::string path = (dir_ / name).string();
    bws::h5::ResultFile f = bws::h5::ResultFile::create(path, false);
    f.set_attribute("/", "tool_version", std::string("test"));
    f.set_attribute("/", "status", std::string("complete"));
    f.set_attribute("/", "created_utc", std::string("2025-01-31T12:00:00Z"));
    if (with_n_nodes) f.set_attribute("/", "n_nodes", std::int64_t{2});
    f.set_attribute("/", "n_ranks", std::int64_t{2});
    f.set_attribute("/provenance", "host", std::string("login1"));
    f.append(nodes_table());
    adjust(f);
    f.close();
    return path;
  }

  RunResult run(const std::string& args) {
    return bws::test::run_shell("cd " + shell_quoted(dir_.string()) + " && " + shell_quoted(bws::test::bwreport_program()) + " " + args,
                                dir_ / "out.txt", dir_ / "err.txt");
  }

  // Every subcommand that reads a survey file, on `path`: exit 0 or 2, and
  // the rules above. Returns the results by command name.
  std::map<std::string, RunResult> run_every_command(const std::string& path) {
    const std::string q = shell_quoted(path);
    const std::map<std::string, std::string> commands = {
        {"summary", "summary " + q},
        {"flags", "flags " + q},
        {"flags --flags.k", "flags --flags.k 3 " + q},
        {"retest", "retest " + q},
        {"drain", "drain " + q},
        {"export", "export --csv " + q + " --dir " + shell_quoted((dir_ / "export").string())},
        {"export --table", "export --json --table flags " + q},
        {"export --prometheus", "export --prometheus " + q},
        {"scaling", "scaling --no-store " + q},
        {"roofline", "roofline --ai 1 " + q},
        {"plot", "plot " + q + " -o " + shell_quoted((dir_ / "plot").string())},
    };
    std::map<std::string, RunResult> results;
    for (const auto& [name, args] : commands) {
      if (name == "plot" && std::system("/usr/bin/python3 -c 'import h5py, matplotlib' 2>/dev/null") != 0) continue;
      const RunResult r = run(args);
      SCOPED_TRACE(name + " on " + path);
      EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 2) << r.exit_code << "\n" << r.err;
      if (r.exit_code == 2) {
        EXPECT_EQ(line_count(r.err), 1u) << r.err;
      }
      EXPECT_FALSE(has_raw_control(r.err)) << r.err;
      EXPECT_FALSE(has_raw_control(r.out)) << r.out;
      for (const char* leak : {"std::", "bad_alloc", "variant", "Traceback", "terminate", "HDF5-DIAG"})
        EXPECT_EQ(r.err.find(leak), std::string::npos) << leak << ": " << r.err;
      results[name] = r;
    }
    return results;
  }

  // `command` refused the file: exit 2, one line holding every needle.
  static void expect_refused(const std::map<std::string, RunResult>& results, const std::string& command,
                             const std::vector<std::string>& needles) {
    const auto it = results.find(command);
    ASSERT_NE(it, results.end()) << command;
    EXPECT_EQ(it->second.exit_code, 2) << command << ": " << it->second.err;
    EXPECT_EQ(line_count(it->second.err), 1u) << command << ": " << it->second.err;
    for (const std::string& needle : needles)
      EXPECT_NE(it->second.err.find(needle), std::string::npos) << command << " lacks '" << needle << "': " << it->second.err;
  }
};

TEST_F(BwreportHostile, AGoodFileWorksWithEveryCommand) {
  const std::string path = write_survey("good.h5", [](auto& f) { f.append(flags_table("n1")); });
  const auto results = run_every_command(path);
  EXPECT_EQ(results.at("summary").exit_code, 0) << results.at("summary").err;
  EXPECT_EQ(results.at("flags").exit_code, 0) << results.at("flags").err;
  EXPECT_EQ(results.at("retest").out, "n1\n");
}

TEST_F(BwreportHostile, TextWhereANumberBelongsNamesTheTableAndColumn) {
  const std::string path =
      write_survey("text.h5", [](auto& f) { f.append(flags_table("n1", "percent_of_median")); });
  const auto results = run_every_command(path);
  for (const char* command : {"summary", "flags"})
    expect_refused(results, command, {"'/flags'", "'percent_of_median'", "text where numbers belong"});
}

TEST_F(BwreportHostile, TextInTheNodeTableNamesIt) {
  const std::string path = write_survey("nodes.h5", [](auto& f) {
    f.remove("/nodes");
    Table nodes("nodes/table", {bws::text_column("host", 16), bws::text_column("cores", 16),
                                bws::int_column("memory_bytes")});
    nodes.add_row({{"host", "n1"}, {"cores", "eight"}, {"memory_bytes", 1}});
    f.append(nodes);
    f.append(flags_table("n1"));
  });
  const auto results = run_every_command(path);
  for (const char* command : {"summary", "flags"}) expect_refused(results, command, {"'/nodes/table'", "'cores'"});
}

TEST_F(BwreportHostile, HugeDeclaredRowsInTinyStorageAreRefusedBeforeAllocating) {
  const std::string path = write_survey("rows.h5", [](auto& f) { f.append(flags_table("n1")); });
  with_raw_file(path, [](hid_t file) { set_extent(file, "/flags", {hsize_t{1} << 40}); });
  const auto results = run_every_command(path);
  for (const char* command : {"summary", "flags", "retest", "drain", "export"})
    expect_refused(results, command, {"table '/flags'", "declares 1099511627776 rows"});
}

TEST_F(BwreportHostile, HugeDeclaredSamplesAreRefusedBeforeAllocating) {
  const std::string path = write_survey("samples.h5", [](auto& f) {
    // stream/nodes: the table bwreport summary reads (given samples here).
    Table results("stream/nodes", {bws::int_column("rank"), bws::text_column("host", 16)}, "stream/times");
    results.add_row({{"rank", 0}, {"host", "n1"}}, {1.0, 2.0});
    f.append(results);
  });
  with_raw_file(path, [](hid_t file) { set_extent(file, "/stream/times", {1, hsize_t{1} << 36}); });
  const auto results = run_every_command(path);
  for (const char* command : {"summary", "export"})
    expect_refused(results, command, {"samples dataset '/stream/times'", "declares"});
}

TEST_F(BwreportHostile, AMissingAttributeIsNamed) {
  const std::string path = write_survey("missing.h5", [](auto& f) { f.append(flags_table("n1")); }, false);
  const auto results = run_every_command(path);
  expect_refused(results, "summary", {"attribute '/@n_nodes'", "missing"});
  expect_refused(results, "flags", {"attribute '/@n_nodes'", "missing"});
}

TEST_F(BwreportHostile, AnAttributeOfTheWrongTypeIsNamed) {
  const std::string path = write_survey("status.h5", [](auto& f) { f.append(flags_table("n1")); });
  with_raw_file(path, [](hid_t file) {
    replace_with_int_attribute(file, "/", "status");
    replace_with_int_attribute(file, "/flags", "column_units");
  });
  const auto results = run_every_command(path);
  expect_refused(results, "summary", {"attribute '/@status'", "an integer where text belongs"});
  for (const char* command : {"flags", "retest", "drain"})
    expect_refused(results, command, {"attribute '/flags@column_units'", "an integer where text belongs"});
}

TEST_F(BwreportHostile, AConfigThatIsNotTextIsNamed) {
  const std::string path = write_survey("config.h5", [](auto& f) { f.append(flags_table("n1")); });
  with_raw_file(path, [](hid_t file) {
    const hsize_t n = 3;
    const hid_t space = H5Screate_simple(1, &n, nullptr);
    const hid_t dataset = H5Dcreate2(file, "/config", H5T_STD_I64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    const long long values[3] = {1, 2, 3};
    H5Dwrite(dataset, H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, values);
    H5Dclose(dataset);
    H5Sclose(space);
  });
  const auto results = run_every_command(path);
  // (retest and summary use the stored /flags: they need no settings.)
  for (const char* command : {"flags", "flags --flags.k"})
    expect_refused(results, command, {"dataset '/config'", "an integer where text belongs"});
}

TEST_F(BwreportHostile, AnAbsurdlyWideTextColumnIsNamed) {
  const std::string path = write_survey("wide.h5", [](auto&) {});
  with_raw_file(path, [](hid_t file) {
    const hid_t text = H5Tcopy(H5T_C_S1);
    H5Tset_size(text, std::size_t{1} << 20);
    const hid_t row = H5Tcreate(H5T_COMPOUND, std::size_t{1} << 20);
    H5Tinsert(row, "host", 0, text);
    const hsize_t n = 0;
    const hid_t space = H5Screate_simple(1, &n, nullptr);
    const hid_t dataset = H5Dcreate2(file, "/flags", row, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dclose(dataset);
    H5Sclose(space);
    H5Tclose(row);
    H5Tclose(text);
  });
  const auto results = run_every_command(path);
  for (const char* command : {"summary", "flags", "retest", "drain"})
    expect_refused(results, command, {"table '/flags'", "text column 'host' is 1048576 bytes wide"});
}

TEST_F(BwreportHostile, HostNamesWithControlCharactersArePrintedEscaped) {
  const std::string evil = "n1\n\x1b[31mFAKE LINE\r\x07";
  const std::string path = write_survey("evil.h5", [&](auto& f) {
    f.append(flags_table(evil));
    f.set_attribute("/provenance", "slurm_job_id", std::string("42\n\x1b]0;title\x07"));
    f.set_attribute("/provenance", "SLURM_JOB_NAME", std::string("a\nb"));
  });
  const auto results = run_every_command(path);
  for (const char* command : {"summary", "flags"}) {
    const RunResult& r = results.at(command);
    EXPECT_EQ(r.exit_code, 0) << command << ": " << r.err;
    EXPECT_NE(r.out.find("n1\\n\\x1b[31mFAKE LINE\\r\\x07"), std::string::npos) << command << ": " << r.out;
  }
  EXPECT_NE(results.at("summary").out.find("Slurm job 42\\n\\x1b]0;title\\x07"), std::string::npos);
  // A nodelist for sbatch cannot hold such a name: refused, not printed.
  expect_refused(results, "retest", {"table '/flags'", "n1\\n\\x1b[31mFAKE LINE"});
  EXPECT_TRUE(results.at("retest").out.empty());
}

TEST_F(BwreportHostile, OddHostNamesPlotWithoutATraceback) {
  if (std::system("/usr/bin/python3 -c 'import h5py, matplotlib' 2>/dev/null") != 0)
    GTEST_SKIP() << "python3 with h5py and matplotlib is not installed";
  const std::string path = write_survey("odd.h5", [](auto& f) {
    Table nodes("stream/nodes", {bws::text_column("host", 4096), bws::int_column("ranks"), bws::int_column("threads"),
                                 bws::text_column("kernel", 16), bws::text_column("type", 8),
                                 bws::real_column("bandwidth", "B/s"), bws::int_column("valid")});
    for (const std::string& host : {std::string("n'1 \"$x$"), std::string("n$2$ \xc3\xa9\xe4\xb8\xad"),
                                    std::string("n3\nnext\x1b[0m"), std::string(3000, 'L'), std::string("\xc2\xb2x")})
      nodes.add_row({{"host", host}, {"ranks", 1}, {"threads", 2}, {"kernel", "Triad"}, {"type", "double"},
                     {"bandwidth", 1.0e10}, {"valid", 1}});
    f.append(nodes);
  });
  const RunResult r = run("plot " + shell_quoted(path) + " -o " + shell_quoted((dir_ / "plot").string()));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_TRUE(fs::exists(dir_ / "plot" / "index.html"));
  const std::string page = slurp(dir_ / "plot" / "index.html");
  EXPECT_NE(page.find("n3\\nnext\\x1b[0m"), std::string::npos);
  EXPECT_NE(page.find("n&#x27;1 &quot;$x$"), std::string::npos);
}

TEST_F(BwreportHostile, APlotOfABrokenTableIsOneLine) {
  if (std::system("/usr/bin/python3 -c 'import h5py, matplotlib' 2>/dev/null") != 0)
    GTEST_SKIP() << "python3 with h5py and matplotlib is not installed";
  const std::string path = write_survey("broken.h5", [](auto& f) {
    Table nodes("stream/nodes", {bws::text_column("host", 16), bws::text_column("kernel", 16),
                                 bws::text_column("type", 8), bws::text_column("bandwidth", 8)});
    nodes.add_row({{"host", "n1"}, {"kernel", "Triad"}, {"type", "double"}, {"bandwidth", "fast"}});
    f.append(nodes);
  });
  const RunResult r = run("plot " + shell_quoted(path) + " -o " + shell_quoted((dir_ / "plot").string()));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(line_count(r.err), 1u) << r.err;
  EXPECT_EQ(r.err.find("Traceback"), std::string::npos) << r.err;
}

}  // namespace
