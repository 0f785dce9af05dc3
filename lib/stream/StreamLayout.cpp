#include "stream/StreamLayout.hpp"

namespace bws::stream {

StreamLayout make_stream_layout(std::uint64_t elements, std::size_t element_bytes, std::size_t offset_bytes) {
  StreamLayout layout;
  layout.array_bytes = static_cast<std::size_t>(elements) * element_bytes;
  const std::size_t pages_bytes = (layout.array_bytes + kPageBytes - 1) / kPageBytes * kPageBytes;
  // Array k starts k pages-worth of arrays plus k offsets in: its position
  // inside a page is (k x offset) mod 4096.
  const std::size_t stride = pages_bytes + offset_bytes;
  for (std::size_t k = 0; k < 3; ++k) layout.array_begin_bytes[k] = k * stride;
  layout.total_bytes = layout.array_begin_bytes[2] + layout.array_bytes;
  return layout;
}

}  // namespace bws::stream
