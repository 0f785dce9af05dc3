// The float32 matrix datasets (h5/MatrixDataset.hpp) through ResultFile:
// rows written in uneven batches read back with h5py, NaN where no row was
// written, chunks of whole rows with shuffle and deflate, the attributes,
// and the replacement and resume rules.
#include <cmath>
#include <fstream>
#include <vector>

#include "H5TestSupport.hpp"
#include "h5/MatrixDataset.hpp"

using namespace h5_test_support;

namespace {

// The value of cell (row, column): exact in float32, different everywhere.
float cell(std::uint64_t row, std::uint64_t column) { return static_cast<float>(row * 1000 + column) + 0.25F; }

std::vector<float> rows_of(std::uint64_t first, std::uint64_t count, std::uint64_t columns) {
  std::vector<float> values;
  for (std::uint64_t r = first; r < first + count; ++r)
    for (std::uint64_t c = 0; c < columns; ++c) values.push_back(cell(r, c));
  return values;
}

bool have_h5py() { return run_shell("/usr/bin/python3 -c 'import h5py' >/dev/null 2>&1") == 0; }

}  // namespace

TEST(H5MatrixChunks, WholeRowsOfAboutOneMebibyte) {
  EXPECT_EQ(bws::h5::matrix_chunk_rows(10000, 10000), 26u);  // 1048576 / 40000
  EXPECT_EQ(bws::h5::matrix_chunk_rows(1, 5), 1u);
  EXPECT_EQ(bws::h5::matrix_chunk_rows(7, 3), 7u);                // at most the rows
  EXPECT_EQ(bws::h5::matrix_chunk_rows(100, 1000000), 1u);        // a row over 1 MiB: one row
  EXPECT_EQ(bws::h5::matrix_chunk_rows(0, 0), 1u);
}

// 700 rows of 400 columns: 655 rows per chunk (1 MiB / 1600 B), so the
// second chunk is partly outside the matrix.
TEST_F(H5Test, MatrixRowsInUnevenBatchesReadBackWithNanWhereUnwritten) {
  if (!have_h5py()) GTEST_SKIP() << "/usr/bin/python3 cannot import h5py";
  const std::uint64_t rows = 700, columns = 400;
  {
    ResultFile out = ResultFile::create(file("m.h5"), false);
    out.begin_matrix({"/links/send_Bps", rows, columns, "B/s", "send bandwidth, row = sender"});
    // Rows 0-2, 3-299, 300-650, 651-698; row 699 is never written.
    const std::uint64_t cuts[] = {0, 3, 300, 651, 699};
    for (int i = 0; i + 1 < 5; ++i)
      out.write_matrix_rows("links/send_Bps", cuts[i], rows_of(cuts[i], cuts[i + 1] - cuts[i], columns));
    out.begin_matrix({"/links/one", 1, 1, "s", "a 1 x 1 matrix"});
    out.write_matrix_rows("/links/one", 0, std::vector<float>{2.5F});
  }
  const std::string script = file("check.py");
  std::ofstream(script) << R"(import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
d = f["links/send_Bps"]
assert d.shape == (700, 400) and d.dtype == np.float32, (d.shape, d.dtype)
assert d.chunks == (655, 400), d.chunks
assert d.compression == "gzip" and d.compression_opts == 4 and d.shuffle, (d.compression, d.shuffle)
assert d.attrs["unit"] == "B/s" and d.attrs["description"] == "send bandwidth, row = sender"
m = d[...]
r, c = np.meshgrid(np.arange(699), np.arange(400), indexing="ij")
assert np.array_equal(m[:699], (r * 1000 + c).astype(np.float32) + np.float32(0.25))
assert np.isnan(m[699]).all()
assert d[650, 17] == 650017.25 and np.array_equal(d[3:5, 398:], [[3398.25, 3399.25], [4398.25, 4399.25]])
o = f["links/one"]
assert o.shape == (1, 1) and o[0, 0] == 2.5 and o.chunks == (1, 1) and o.attrs["unit"] == "s"
)";
  EXPECT_EQ(run_shell("/usr/bin/python3 '" + script + "' '" + file("m.h5") + "'"), 0);
}

TEST_F(H5Test, MatrixRefusesRowsThatDoNotFit) {
  ResultFile out = ResultFile::create(file("bad.h5"), false);
  out.begin_matrix({"/m", 4, 3, "s", "x"});
  EXPECT_THROW(out.write_matrix_rows("/m", 0, std::vector<float>(4)), RuntimeFailure);   // not whole rows
  EXPECT_THROW(out.write_matrix_rows("/m", 3, std::vector<float>(6)), RuntimeFailure);   // past row 3
  EXPECT_THROW(out.write_matrix_rows("/m", 5, std::vector<float>(3)), RuntimeFailure);   // past the end
  EXPECT_THROW(out.write_matrix_rows("/none", 0, std::vector<float>(3)), RuntimeFailure);  // never begun
  EXPECT_NO_THROW(out.write_matrix_rows("/m", 3, std::vector<float>(3)));
  // Rows of no columns: nothing to write, and no chunk of size zero.
  EXPECT_NO_THROW(out.begin_matrix({"/empty", 5, 0, "s", "x"}));
  EXPECT_NO_THROW(out.write_matrix_rows("/empty", 0, std::vector<float>{}));
}

// A matrix begun again (a phase run again after a cut attempt) starts NaN:
// nothing of the earlier attempt is kept.
TEST_F(H5Test, MatrixBegunAgainReplacesTheEarlierOne) {
  {
    ResultFile out = ResultFile::create(file("again.h5"), false);
    out.begin_matrix({"/links/latency_s", 3, 2, "s", "first"});
    out.write_matrix_rows("/links/latency_s", 0, rows_of(0, 3, 2));
    out.begin_matrix({"/links/latency_s", 4, 4, "s", "second"});
    out.write_matrix_rows("/links/latency_s", 1, rows_of(1, 1, 4));
  }
  const hid_t f = H5Fopen(file("again.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  const hid_t d = H5Dopen2(f, "/links/latency_s", H5P_DEFAULT);
  std::vector<float> back(16);
  ASSERT_GE(H5Dread(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, back.data()), 0);
  for (int c = 0; c < 4; ++c) {
    EXPECT_TRUE(std::isnan(back[c])) << c;
    EXPECT_EQ(back[4 + c], 1000.25F + c);
    EXPECT_TRUE(std::isnan(back[8 + c]) && std::isnan(back[12 + c])) << c;
  }
  H5Dclose(d);
  H5Fclose(f);
}

// The step marks of --resume: a matrix made after a mark is dropped when a
// resume goes back to it, one stored before is kept whole.
TEST_F(H5Test, MatrixOfACutStepIsDroppedByTheResumeTruncation) {
  ResultFile out = ResultFile::create(file("resume.h5"), false);
  out.begin_matrix({"/links/send_Bps", 3, 3, "B/s", "kept"});
  out.write_matrix_rows("/links/send_Bps", 0, rows_of(0, 3, 3));
  const auto mark = out.appendable_lengths();
  EXPECT_EQ(mark.at("/links/send_Bps"), 3u);
  out.begin_matrix({"/links/recv_Bps", 3, 3, "B/s", "cut"});
  out.write_matrix_rows("/links/recv_Bps", 0, rows_of(0, 1, 3));
  out.truncate_appendables(mark);
  EXPECT_TRUE(out.exists("/links/send_Bps"));
  EXPECT_FALSE(out.exists("/links/recv_Bps"));
}

// A phase that fails after writing matrix rows: the journal takes the file
// back to the mark made when the phase started, matrix and all.
TEST_F(H5Test, MatrixWrittenAfterTheMarkIsRolledBack) {
  ResultFile out = ResultFile::create(file("rollback.h5"), false);
  out.begin_matrix({"/links/send_Bps", 2, 2, "B/s", "committed"});
  out.write_matrix_rows("/links/send_Bps", 0, rows_of(0, 2, 2));
  out.flush();
  out.mark();
  out.begin_matrix({"/links/recv_Bps", 500, 500, "B/s", "cut"});
  out.write_matrix_rows("/links/recv_Bps", 0, rows_of(0, 500, 500));
  out.flush();
  out.roll_back();
  EXPECT_TRUE(out.exists("/links/send_Bps"));
  EXPECT_FALSE(out.exists("/links/recv_Bps"));
}
