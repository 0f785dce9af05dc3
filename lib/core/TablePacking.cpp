// The byte image of Tables that travels between ranks. Little-endian host
// order is assumed on both ends (one MPI job runs one binary); every read is
// bounds-checked so a truncated message is an error, not a crash.
#include <cstring>
#include <stdexcept>

#include "core/Table.hpp"

namespace bws {
namespace {

class Writer {
 public:
  void u64(std::uint64_t v) { raw(&v, sizeof v); }
  void i64(std::int64_t v) { raw(&v, sizeof v); }
  void f64(double v) { raw(&v, sizeof v); }
  void u8(std::uint8_t v) { raw(&v, 1); }
  void str(const std::string& s) {
    u64(s.size());
    raw(s.data(), s.size());
  }
  std::vector<std::byte> take() { return std::move(out_); }

 private:
  void raw(const void* p, std::size_t n) {
    const auto* b = static_cast<const std::byte*>(p);
    out_.insert(out_.end(), b, b + n);
  }
  std::vector<std::byte> out_;
};

class Reader {
 public:
  Reader(const std::byte* data, std::size_t size) : p_(data), end_(data + size) {}
  std::uint64_t u64() { return get<std::uint64_t>(); }
  std::int64_t i64() { return get<std::int64_t>(); }
  double f64() { return get<double>(); }
  std::uint8_t u8() { return get<std::uint8_t>(); }
  std::string str() {
    const std::uint64_t n = u64();
    need(n);
    std::string s(reinterpret_cast<const char*>(p_), n);
    p_ += n;
    return s;
  }
  bool done() const { return p_ == end_; }

 private:
  template <class T>
  T get() {
    need(sizeof(T));
    T v;
    std::memcpy(&v, p_, sizeof(T));
    p_ += sizeof(T);
    return v;
  }
  void need(std::uint64_t n) const {
    if (n > static_cast<std::uint64_t>(end_ - p_)) throw std::runtime_error("packed tables are truncated");
  }
  const std::byte* p_;
  const std::byte* end_;
};

}  // namespace

std::vector<std::byte> pack_tables(const std::vector<Table>& tables) {
  Writer w;
  w.u64(tables.size());
  for (const Table& t : tables) {
    w.str(t.path());
    w.str(t.samples_path());
    w.u64(t.columns().size());
    for (const Column& c : t.columns()) {
      w.str(c.name);
      w.u8(static_cast<std::uint8_t>(c.type));
      w.str(c.unit);
      w.u64(c.width);
    }
    w.u64(t.rows());
    for (std::size_t r = 0; r < t.rows(); ++r) {
      for (const Value& v : t.row(r)) {
        switch (v.type()) {
          case ColumnType::Int64: w.i64(v.as_int()); break;
          case ColumnType::Float64: w.f64(v.as_double()); break;
          case ColumnType::String: w.str(v.as_string()); break;
        }
      }
      const auto& s = t.samples(r);
      w.u64(s.size());
      for (double x : s) w.f64(x);
    }
  }
  return w.take();
}

std::vector<Table> unpack_tables(const std::byte* data, std::size_t size) {
  Reader r(data, size);
  std::vector<Table> tables(r.u64());
  for (Table& t : tables) {
    std::string path = r.str();
    std::string samples_path = r.str();
    std::vector<Column> columns(r.u64());
    for (Column& c : columns) {
      c.name = r.str();
      const std::uint8_t type = r.u8();
      if (type > static_cast<std::uint8_t>(ColumnType::String)) throw std::runtime_error("packed tables: bad column type");
      c.type = static_cast<ColumnType>(type);
      c.unit = r.str();
      c.width = r.u64();
    }
    t = Table(std::move(path), columns, std::move(samples_path));
    const std::uint64_t rows = r.u64();
    for (std::uint64_t i = 0; i < rows; ++i) {
      std::vector<Value> cells;
      cells.reserve(columns.size());
      for (const Column& c : columns) {
        switch (c.type) {
          case ColumnType::Int64: cells.emplace_back(r.i64()); break;
          case ColumnType::Float64: cells.emplace_back(r.f64()); break;
          case ColumnType::String: cells.emplace_back(r.str()); break;
        }
      }
      std::vector<double> samples(r.u64());
      for (double& x : samples) x = r.f64();
      t.add_row_values(std::move(cells), std::move(samples));
    }
  }
  if (!r.done()) throw std::runtime_error("packed tables have trailing bytes");
  return tables;
}

}  // namespace bws
