#pragma once
// One cell of a Table: a 64-bit integer, a double or a string. Any integer or
// floating type converts implicitly, so rows can be written as
// {{"rank", rank}, {"bytes", bytes}} without casts.
#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

namespace bws {

enum class ColumnType : std::uint8_t { Int64 = 0, Float64 = 1, String = 2 };

class Value {
 public:
  Value() : v_(std::int64_t{0}) {}
  template <std::integral I>
    requires(!std::same_as<I, bool>)
  Value(I i) : v_(static_cast<std::int64_t>(i)) {}
  Value(bool b) : v_(static_cast<std::int64_t>(b ? 1 : 0)) {}
  template <std::floating_point F>
  Value(F f) : v_(static_cast<double>(f)) {}
  Value(std::string s) : v_(std::move(s)) {}
  Value(std::string_view s) : v_(std::string(s)) {}
  Value(const char* s) : v_(std::string(s)) {}

  ColumnType type() const { return static_cast<ColumnType>(v_.index()); }
  std::int64_t as_int() const { return std::get<std::int64_t>(v_); }
  double as_double() const { return std::get<double>(v_); }
  const std::string& as_string() const { return std::get<std::string>(v_); }
  // Numeric value of an Int64 or Float64 cell.
  double as_number() const {
    return type() == ColumnType::Int64 ? static_cast<double>(as_int()) : as_double();
  }
  bool operator==(const Value&) const = default;

 private:
  std::variant<std::int64_t, double, std::string> v_;
};

}  // namespace bws
