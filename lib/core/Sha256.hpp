#pragma once
// SHA-256 (FIPS 180-4), our own: the history archive names a survey file
// by the hash of its bytes (the same content added twice is one survey)
// and a survey's configuration by the hash of its /config text. Streaming,
// so a file of many GB is hashed in constant memory.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace bws {

class Sha256 {
 public:
  Sha256();
  void update(const void* data, std::size_t bytes);
  void update(const std::string& text) { update(text.data(), text.size()); }
  // The digest as 64 lowercase hex digits; the object is spent afterwards.
  std::string hex_digest();

 private:
  void compress(const std::uint8_t* block);
  std::array<std::uint32_t, 8> state_;
  std::array<std::uint8_t, 64> buffer_{};
  std::size_t buffered_ = 0;
  std::uint64_t total_bytes_ = 0;
};

std::string sha256_hex(const std::string& bytes);
// The file's bytes, read in blocks; RuntimeFailure naming the file when it
// cannot be read.
std::string sha256_file_hex(const std::string& path);

}  // namespace bws
