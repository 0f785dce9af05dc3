// The HDF5 result file: directories it may not write, what the reader
// refuses, a run killed after a flush, and the file as h5py and h5dump see it.
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "H5TestSupport.hpp"

namespace {

// Root passes access(W_OK) on a 0555 directory; only a read-only file system
// refuses it (EROFS), so as root the test mounts a small read-only tmpfs in
// its own directory (never a system path); unmounted by the test.
std::string read_only_directory(const fs::path& scratch) {
  const fs::path dir = scratch / "read_only";
  fs::create_directory(dir);
  if (::geteuid() != 0) {
    fs::permissions(dir, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                             fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec);
    return dir.string();
  }
  if (::mount("bws-read-only", dir.c_str(), "tmpfs", MS_RDONLY, "size=64k") != 0) return {};
  return dir.string();
}

TEST_F(H5Test, NonWritableDirectoryIsAUsageError) {
  const std::string dir = read_only_directory(dir_);
  if (dir.empty()) {
    GTEST_SKIP() << "running as root and no read-only tmpfs could be mounted here";
  }
  const std::string message = usage_error_of([&] { ResultFile::create(dir + "/s.h5", false); });
  if (::geteuid() == 0) ::umount(dir.c_str());
  EXPECT_EQ(message, "--out: directory '" + dir + "' is not writable");
}

TEST_F(H5Test, ReaderRejectsMissingForeignAndNewerFiles) {
  EXPECT_EQ(usage_error_of([&] { ResultReader::open(file("none.h5")); }), "'" + file("none.h5") + "' does not exist");

  std::ofstream(file("text.h5")) << "[survey]\nthis is not HDF5\n";
  EXPECT_EQ(usage_error_of([&] { ResultReader::open(file("text.h5")); }),
            "'" + file("text.h5") + "' is not an HDF5 file");

  write_foreign_file(file("v4.h5"), "4.0");
  const std::string newer = usage_error_of([&] { ResultReader::open(file("v4.h5")); });
  EXPECT_NE(newer.find("4.0"), std::string::npos) << newer;
  EXPECT_NE(newer.find("1.x to 3.x"), std::string::npos) << newer;
  write_foreign_file(file("v0.h5"), "0.9");
  EXPECT_NE(usage_error_of([&] { ResultReader::open(file("v0.h5")); }).find("0.9"), std::string::npos);

  write_foreign_file(file("bare.h5"), "");
  EXPECT_NE(usage_error_of([&] { ResultReader::open(file("bare.h5")); }).find("schema_version"), std::string::npos);

  write_foreign_file(file("v1_9.h5"), "1.9");
  EXPECT_NO_THROW(ResultReader::open(file("v1_9.h5")));  // minor bumps only add
}

// The child writes, flushes and dies without closing; `die` is how. Returns
// the child's wait status.
int write_flush_and_die(const std::string& path, void (*die)()) {
  const pid_t child = ::fork();
  if (child < 0) return -1;
  if (child == 0) {
    try {
      ResultFile out = ResultFile::create(path, false);
      out.write_text("/config", "[survey]\n");
      Table table = stream_table();
      for (int r = 0; r < 100; ++r) add_stream_row(table, r, "Triad", 1e9 * r, {0.5, 0.25, 0.125});
      out.append(table);
      out.set_attribute("/", "n_ranks", std::int64_t{100});
      out.flush();
      die();
    } catch (...) {
    }
    ::_exit(3);  // the writing failed
  }
  int status = 0;
  if (::waitpid(child, &status, 0) != child) return -1;
  return status;
}

void expect_flushed_content(const std::string& path) {
  const ResultReader reader = ResultReader::open(path);
  EXPECT_EQ(reader.attribute_text("/", "status"), "running");
  EXPECT_EQ(reader.attribute_int("/", "n_ranks"), 100);
  EXPECT_EQ(reader.read_text("/config"), "[survey]\n");
  const Table back = reader.read_table("stream/results");
  ASSERT_EQ(back.rows(), 100u);
  EXPECT_EQ(back.get_double(99, "bandwidth"), 99e9);
  EXPECT_EQ(back.samples(99), (std::vector<double>{0.5, 0.25, 0.125}));
}

TEST_F(H5Test, FileIsReadableAfterFlushWhenTheWriterIsKilled) {
  const int status = write_flush_and_die(file("killed.h5"), [] { ::kill(::getpid(), SIGKILL); });
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "wait status " << status;
  expect_flushed_content(file("killed.h5"));
  if (run_shell("command -v h5dump >/dev/null 2>&1") == 0) {
    EXPECT_EQ(run_shell("h5dump -H '" + file("killed.h5") + "' >/dev/null 2>&1"), 0);
  }
}

TEST_F(H5Test, FileIsReadableAfterFlushWhenTheWriterExitsWithoutClosing) {
  const int status = write_flush_and_die(file("exited.h5"), [] { ::_exit(0); });
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "wait status " << status;
  expect_flushed_content(file("exited.h5"));
}

// h5py, the analysis side's reader, must see a numpy structured array.
TEST_F(H5Test, H5pyReadsTablesAsStructuredArraysAndH5dumpParsesTheFile) {
  if (run_shell("/usr/bin/python3 -c 'import h5py' >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "/usr/bin/python3 cannot import h5py";
  }
  Table table = stream_table();
  add_stream_row(table, 0, "Copy", 1.5e10, {0.3, 0.1});
  add_stream_row(table, 1, "Triad", 2.5e10, {0.4, 0.2, 0.1});
  {
    ResultFile out = ResultFile::create(file("py.h5"), false);
    out.append(table);
    out.write_text("/config", "[survey]\n");
  }
  const std::string script = file("check.py");
  std::ofstream(script) << R"(import sys, math, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
assert f.attrs["schema_version"] == "3.0", f.attrs["schema_version"]
assert f.attrs["status"] == "running"
r = f["stream/results"][...]
assert r.dtype.names == ("rank", "host", "kernel", "bytes", "bandwidth"), r.dtype.names
assert r.dtype["rank"] == np.dtype("<i8") and r.dtype["bandwidth"] == np.dtype("<f8"), r.dtype
assert r.dtype["host"] == np.dtype("S16") and r.dtype["kernel"] == np.dtype("S8"), r.dtype
assert list(r["rank"]) == [0, 1]
assert [k.decode() for k in r["kernel"]] == ["Copy", "Triad"]
assert r["host"][1] == b"node-1"
assert list(r["bandwidth"] / 1e9) == [15.0, 25.0]
assert list(f["stream/results"].attrs["column_units"]) == ["", "", "", "B", "B/s"]
assert f["stream/results"].attrs["samples"] == "/stream/times"
t = f["stream/times"][...]
assert t.shape == (2, 3) and t[1, 2] == 0.1 and math.isnan(t[0, 2]), t
assert f["config"].asstr()[()] == "[survey]\n"
)";
  EXPECT_EQ(run_shell("/usr/bin/python3 '" + script + "' '" + file("py.h5") + "'"), 0);
  if (run_shell("command -v h5dump >/dev/null 2>&1") == 0) {
    EXPECT_EQ(run_shell("h5dump -H '" + file("py.h5") + "' >/dev/null"), 0);
  }
}

// Files from other tools (a merge script, say): narrower numbers, a
// variable-length string column and no units still read.
TEST_F(H5Test, ReaderAcceptsCompoundTablesWrittenByH5py) {
  if (run_shell("/usr/bin/python3 -c 'import h5py' >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "/usr/bin/python3 cannot import h5py";
  }
  const std::string script = file("write.py");
  std::ofstream(script) << R"(import sys, h5py, numpy as np
dt = np.dtype([("n", "<i4"), ("x", "<f4"), ("tag", "S5"), ("name", h5py.string_dtype())])
a = np.array([(1, 0.5, b"ab", "alpha"), (-2, 2.0, b"abcde", "b\u00e9ta")], dtype=dt)
with h5py.File(sys.argv[1], "w") as f:
    f.attrs["schema_version"] = "1.0"
    f.create_dataset("merged/results", data=a)
)";
  ASSERT_EQ(run_shell("/usr/bin/python3 '" + script + "' '" + file("merged.h5") + "'"), 0);
  const Table back = ResultReader::open(file("merged.h5")).read_table("merged/results");
  ASSERT_EQ(back.columns().size(), 4u);
  EXPECT_EQ(back.columns()[0].type, bws::ColumnType::Int64);
  EXPECT_EQ(back.columns()[1].type, bws::ColumnType::Float64);
  EXPECT_EQ(back.columns()[2].width, 5u);
  EXPECT_EQ(back.columns()[3].type, bws::ColumnType::String);
  ASSERT_EQ(back.rows(), 2u);
  EXPECT_EQ(back.get_int(1, "n"), -2);
  EXPECT_EQ(back.get_double(0, "x"), 0.5);
  EXPECT_EQ(back.get_string(1, "tag"), "abcde");
  EXPECT_EQ(back.get_string(1, "name"), "b\xc3\xa9ta");
  EXPECT_FALSE(back.has_samples());
}

}  // namespace
