#pragma once
// The element types and store variants STREAM runs with, and their names as
// they appear in options, tables and the report.
#include <cstddef>
#include <string_view>

namespace bws::stream {

enum class StreamType { Double, Float };

constexpr std::string_view type_name(StreamType type) { return type == StreamType::Double ? "double" : "float"; }
constexpr std::size_t element_bytes(StreamType type) {
  return type == StreamType::Double ? sizeof(double) : sizeof(float);
}

// How the kernels write their destination: ordinary stores (which first read
// the line into the cache: write-allocate) or non-temporal stores (which go
// to memory without reading it first).
enum class StoreKind { Normal, Nontemporal };

constexpr std::string_view store_name(StoreKind stores) {
  return stores == StoreKind::Normal ? "normal" : "nontemporal";
}

}  // namespace bws::stream
