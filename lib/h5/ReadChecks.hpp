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

// The most bytes a read of `dataset` may bring into memory: what the file
// really stores for it (never more than the file's size; times 16 when a
// filter such as compression is applied), and at least a small allowance
// (datasets whose chunks were never written read as fill values).
std::uint64_t readable_bytes(hid_t file, hid_t dataset);

// Fails (bad_input) unless count * bytes_each fits in `limit` (no overflow).
void check_read_size(hid_t context, const std::string& object, std::uint64_t count, std::uint64_t bytes_each,
                     std::uint64_t limit, const std::string& what);

// The most bytes an attribute read may bring into memory (attributes hold
// names and units, never bulk data).
inline constexpr std::uint64_t kMaxAttributeBytes = std::uint64_t{16} << 20;

// The name of the class of an HDF5 type, for messages ("a compound", "an enum").
std::string type_class_noun(hid_t type);

}  // namespace bws::h5
