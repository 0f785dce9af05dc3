#include <gtest/gtest.h>

#include "core/ResultColumns.hpp"
#include "core/Table.hpp"

using namespace bws;

namespace {
Table sample_table() {
  Table t("stream/results", {int_column("rank"), text_column("host", 32), real_column("bandwidth", "B/s")},
          "stream/times");
  t.add_row({{"rank", 0}, {"host", "node-1.cluster"}, {"bandwidth", 1.5e10}}, {0.1, 0.2, 0.3});
  t.add_row({{"rank", 7}, {"host", "n2"}, {"bandwidth", 2}}, {});
  return t;
}
}  // namespace

TEST(Table, RowsByNameAndTypedAccess) {
  const Table t = sample_table();
  ASSERT_EQ(t.rows(), 2u);
  EXPECT_EQ(t.get_int(1, "rank"), 7);
  EXPECT_EQ(t.get_string(0, "host"), "node-1.cluster");
  EXPECT_DOUBLE_EQ(t.get_double(1, "bandwidth"), 2.0);  // an integer given to a real column
  EXPECT_EQ(t.samples(0).size(), 3u);
  EXPECT_EQ(t.max_samples(), 3u);
  EXPECT_EQ(t.columns()[2].unit, "B/s");
}

TEST(Table, RejectsMissingUnknownDuplicateAndMistypedCells) {
  Table t("x", {int_column("a"), text_column("b", 8)});
  EXPECT_THROW(t.add_row({{"a", 1}}), std::invalid_argument);
  EXPECT_THROW(t.add_row({{"a", 1}, {"b", "x"}, {"c", 2}}), std::invalid_argument);
  EXPECT_THROW(t.add_row({{"a", 1}, {"a", 2}}), std::invalid_argument);
  EXPECT_THROW(t.add_row({{"a", "text"}, {"b", "x"}}), std::invalid_argument);
  EXPECT_THROW(t.column_index("zz"), std::out_of_range);
}

TEST(Table, PackUnpackRoundTrip) {
  Table checks = make_checks_table();
  add_check(checks, {"stream.validation", "rank 0 array a", "validation", 1e-15, 0, 0, 1e-13, "", true});
  const std::vector<Table> in = {sample_table(), checks, Table("empty", {int_column("z")})};
  const auto bytes = pack_tables(in);
  const auto out = unpack_tables(bytes.data(), bytes.size());
  ASSERT_EQ(out.size(), 3u);
  for (std::size_t i = 0; i < in.size(); ++i) {
    EXPECT_TRUE(in[i].same_schema(out[i]));
    ASSERT_EQ(in[i].rows(), out[i].rows());
    for (std::size_t r = 0; r < in[i].rows(); ++r) {
      EXPECT_EQ(in[i].row(r), out[i].row(r));
      EXPECT_EQ(in[i].samples(r), out[i].samples(r));
    }
  }
}

TEST(Table, TruncatedPackIsAnError) {
  const auto bytes = pack_tables({sample_table()});
  EXPECT_THROW(unpack_tables(bytes.data(), bytes.size() - 3), std::runtime_error);
}

TEST(Table, AppendNeedsTheSameSchema) {
  Table a = sample_table();
  a.append(sample_table());
  EXPECT_EQ(a.rows(), 4u);
  EXPECT_THROW(a.append(Table("other", {int_column("rank")})), std::invalid_argument);
}
