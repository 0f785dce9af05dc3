#include "run/RecordBundle.hpp"

#include <cstring>
#include <string>

#include "core/Errors.hpp"

namespace bws::run {
namespace {

// Each part is its length (8 bytes) and its bytes.
void put_part(std::vector<std::byte>& out, const void* data, std::uint64_t size) {
  const std::size_t at = out.size();
  out.resize(at + sizeof size + size);
  std::memcpy(out.data() + at, &size, sizeof size);
  if (size > 0) std::memcpy(out.data() + at + sizeof size, data, size);
}

class PartReader {
 public:
  explicit PartReader(std::span<const std::byte> bytes) : bytes_(bytes) {}
  // The next part: its start and its size.
  std::pair<const std::byte*, std::uint64_t> next() {
    std::uint64_t size = 0;
    if (bytes_.size() - at_ < sizeof size) throw RuntimeFailure("a rank sent a truncated record bundle");
    std::memcpy(&size, bytes_.data() + at_, sizeof size);
    at_ += sizeof size;
    if (size > bytes_.size() - at_) throw RuntimeFailure("a rank sent a truncated record bundle");
    const std::byte* start = bytes_.data() + at_;
    at_ += size;
    return {start, size};
  }
  std::string next_text() {
    const auto [start, size] = next();
    return std::string(reinterpret_cast<const char*>(start), size);
  }

 private:
  std::span<const std::byte> bytes_;
  std::size_t at_ = 0;
};

}  // namespace

std::vector<std::byte> pack_bundle(const RecordBundle& bundle) {
  std::vector<std::byte> out;
  for (const std::vector<Table>* tables : {&bundle.rank_tables, &bundle.node_tables}) {
    const std::vector<std::byte> packed = pack_tables(*tables);
    put_part(out, packed.data(), packed.size());
  }
  const std::uint64_t n_texts = bundle.texts.size();
  put_part(out, &n_texts, sizeof n_texts);
  for (const MetadataText& text : bundle.texts) {
    put_part(out, text.path.data(), text.path.size());
    put_part(out, text.text.data(), text.text.size());
  }
  return out;
}

RecordBundle unpack_bundle(std::span<const std::byte> bytes) {
  PartReader reader(bytes);
  RecordBundle bundle;
  for (std::vector<Table>* tables : {&bundle.rank_tables, &bundle.node_tables}) {
    const auto [start, size] = reader.next();
    *tables = unpack_tables(start, size);
  }
  const auto [count_at, count_size] = reader.next();
  std::uint64_t n_texts = 0;
  if (count_size != sizeof n_texts) throw RuntimeFailure("a rank sent a truncated record bundle");
  std::memcpy(&n_texts, count_at, sizeof n_texts);
  for (std::uint64_t i = 0; i < n_texts; ++i) {
    MetadataText text;
    text.path = reader.next_text();
    text.text = reader.next_text();
    bundle.texts.push_back(std::move(text));
  }
  return bundle;
}

}  // namespace bws::run
