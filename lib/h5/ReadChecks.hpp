#pragma once
// Checks a reader makes before trusting what a result file declares: a file
// is untrusted input (bwreport reads files from anywhere). A violation is a
// bad input file: bws::UsageError (exit 2), one line naming the file and the
// dataset or attribute, with any text from the file escaped and bounded.
#include <hdf5.h>

#include <cstdint>
#include <string>

namespace bws::h5 {

// Throws UsageError "'<file>': <object>: <problem>". `object` is e.g.
// "table '/stream/results'" or "attribute '/@n_nodes'"; it and `problem`
// may hold text from the file (they are escaped here).
[[noreturn]] void bad_input(hid_t context, const std::string& object, const std::string& problem);

// The memory this process may fill: physical memory, or the address-space
// or data limit (ulimit -v, -d) when lower.
std::uint64_t usable_memory_bytes();

// What the reads of one open file may bring into memory. The file's size
// bounds nothing once a filter is applied (a table of repeated host names
// deflates more than 100x, a zip bomb 1000x, and a chunk never written
// reads as fill values), so the bound is on the decoded data itself: one
// dataset read at most a quarter of the usable memory, all the reads of
// one open file together at most all of it (a command may hold several
// tables at once; an export reads every table in turn, 4.1 GB decoded for a
// 10,000-node survey, which a half would refuse on a 8 GiB node).
class ReadBudget {
 public:
  ReadBudget() : ReadBudget(usable_memory_bytes(), usable_memory_bytes() / 4) {}
  ReadBudget(std::uint64_t file_bytes, std::uint64_t read_bytes) : file_left_(file_bytes), read_bytes_(read_bytes) {}

  std::uint64_t read_limit_bytes() const { return read_bytes_ < file_left_ ? read_bytes_ : file_left_; }
  // What the limit is, for messages: "2147483648 bytes, a quarter of the usable memory".
  std::string limit_text() const;
  // Takes `bytes` from what the file has left (saturating at 0).
  void spend(std::uint64_t bytes) { file_left_ -= bytes < file_left_ ? bytes : file_left_; }

 private:
  std::uint64_t file_left_;
  std::uint64_t read_bytes_;
};

// One dataset read's count against a budget: admit() what the dataset
// declares before anything is allocated, then add() what each piece really
// brought into memory (variable-length strings are only known once read).
class ReadMeter {
 public:
  ReadMeter(ReadBudget& budget, hid_t context, std::string object);
  ReadMeter(const ReadMeter&) = delete;
  ReadMeter& operator=(const ReadMeter&) = delete;

  // bad_input "declares <count> <what> of <bytes_each> bytes, more than one
  // read may bring into memory (...)" unless they fit what is left of the
  // read's limit after what was admitted before (rows, then their samples).
  void admit(std::uint64_t count, std::uint64_t bytes_each, const std::string& what);
  // bad_input once this read has brought more than its limit.
  void add(std::uint64_t bytes);

 private:
  ReadBudget& budget_;
  hid_t context_;
  std::string object_;
  std::uint64_t limit_;
  std::string limit_text_;
  std::uint64_t admitted_ = 0;
  std::uint64_t read_ = 0;
};

// For a dataset stored without filters, what the file really stores for it
// (never more than the file's size, and at least a small allowance: a
// table created with no rows, chunks holding only fill values): reading
// more than that is reading fill values for chunks never written. A
// filtered dataset has no such bound (UINT64_MAX): its reads are bounded
// by ReadBudget.
std::uint64_t stored_bytes_bound(hid_t file, hid_t dataset);

// Fails (bad_input) unless count * bytes_each fits in the bytes
// stored_bytes_bound() allows: "declares N <what> of B bytes, more than the
// file stores for it".
void check_stored_size(hid_t file, hid_t dataset, const std::string& object, std::uint64_t count,
                       std::uint64_t bytes_each, const std::string& what);

// Fails (bad_input) unless count * bytes_each fits in `limit` (no overflow).
void check_read_size(hid_t context, const std::string& object, std::uint64_t count, std::uint64_t bytes_each,
                     std::uint64_t limit, const std::string& what);

// The most bytes an attribute read may bring into memory (attributes hold
// names and units, never bulk data).
inline constexpr std::uint64_t kMaxAttributeBytes = std::uint64_t{16} << 20;

// The name of the class of an HDF5 type, for messages ("a compound", "an enum").
std::string type_class_noun(hid_t type);

}  // namespace bws::h5
